"""``atout engine --level LEVEL``: Atout's own robots speaking "atout-engine 1" on stdin and stdout."""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from ..bots import make_bot
from ..bots.streams import PerDecision
from ..engine import RuleSet
from .messages import NAME, VERSION, answer, dumps
from .views import observation_from_json


def _say(out: TextIO, message: dict[str, Any]) -> None:
    out.write(dumps(message) + "\n")
    out.flush()


def serve(level: str, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Answer the host until ``quit`` or the end of stdin; a line it cannot read is said on stderr and
    skipped (the host then times out: its policy, not the engine's, decides).  Anything else printed
    while it runs goes to stderr: stdout carries the protocol's lines alone."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr, saved = sys.stderr, sys.stdout
    sys.stdout = stderr  # a stray print (a warning, a debug line) must not break the protocol
    try:
        return _serve(level, stdin, stdout, stderr)
    finally:
        sys.stdout = saved


def _serve(level: str, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    rules: RuleSet | None = None
    seat = 0
    bot = make_bot(level, None)
    for line in stdin:
        try:
            message = json.loads(line)
            kind = message.get("type")
            if kind == "hello":
                if message.get("protocol") != NAME or message.get("version") != VERSION:
                    _say(
                        stdout,
                        {
                            "type": "error",
                            "message": f"this engine speaks {NAME} {VERSION}, not "
                            f"{message.get('protocol')} {message.get('version')}",
                        },
                    )
                    return 1
                rules = RuleSet.make(message["players"], **message.get("options", {}))
                seat = message["seat"]
                _say(stdout, {"type": "ready", "protocol": NAME, "version": VERSION, "name": f"atout {level}"})
            elif kind == "deal":
                seed = message.get("seed")
                bot = make_bot(level, seed)
                if isinstance(seed, str):  # each decision from the seed, as the arena's robots: ``bots.streams``
                    bot = PerDecision(bot, seed)
            elif kind == "decide":
                if rules is None:
                    raise ValueError("a decision before the hello")
                obs = observation_from_json(rules, seat, message)
                _say(stdout, answer(message["id"], bot.choose(obs, message.get("budget"))))
            elif kind == "quit":
                return 0
            # deal_end, and any type a later version adds: nothing to say
        except (ValueError, KeyError, TypeError, AttributeError) as err:
            print(f"atout engine: cannot read {line[:200]!r}: {err!r}", file=stderr, flush=True)
    return 0

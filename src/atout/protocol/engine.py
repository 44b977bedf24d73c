"""``atout engine --level LEVEL``: Atout's own robots speaking "atout-engine 1" on stdin and stdout."""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from ..bots import make_bot
from ..engine import RuleSet
from .messages import NAME, VERSION, answer, dumps
from .views import observation_from_json


def _say(out: TextIO, message: dict[str, Any]) -> None:
    out.write(dumps(message) + "\n")
    out.flush()


def serve(level: str, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout, stderr: TextIO = sys.stderr) -> int:
    """Answer the host until ``quit`` or the end of stdin; a line it cannot read is said on stderr and
    skipped (the host then times out: its policy, not the engine's, decides)."""
    make_bot(level)  # an unknown level fails here, before the hello
    rules: RuleSet | None = None
    seat = 0
    bot = make_bot(level, None)
    for line in stdin:
        try:
            message = json.loads(line)
            kind = message.get("type")
            if kind == "hello":
                if message.get("protocol") != NAME or message.get("version") != VERSION:
                    _say(stdout, {"type": "error", "message": f"this engine speaks {NAME} {VERSION}, not "
                                  f"{message.get('protocol')} {message.get('version')}"})
                    return 1
                rules = RuleSet.make(message["players"], **message.get("options", {}))
                seat = message["seat"]
                _say(stdout, {"type": "ready", "protocol": NAME, "version": VERSION, "name": f"atout {level}"})
            elif kind == "deal":
                bot = make_bot(level, message.get("seed"))
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

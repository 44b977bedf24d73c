"""``atout robot URL --engine ENGINE``: any engine (docs/engine-protocol.md) plays at a site's table as a robot
account (docs/robot-accounts.md).  The bridge speaks the site's protocol (docs/protocol.md) on one side and
the engine protocol on the other: each time the site asks its seat for a decision, the seat's observation is
made from the site's state (``protocol.site``) and the engine is asked, as the arena asks it."""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.record import RecordError, replay, to_record
from ..protocol import EngineFault
from ..protocol.messages import action_json
from ..protocol.site import DealLog, site_observation, table_rules

# the robots and numba load when a robot runs (robot()), not for the command line's parser: 0.3 s of every command
if TYPE_CHECKING:
    from .robot_seat import SeatEngine

TOKEN_ENV = "ATOUT_TOKEN"
RETRY = ("paused", "unavailable", "internal")
"""Refusals of an action that leave the turn the seat's: it acts again at the table's next message."""
SETUP = "setup"
"""The ``ref`` of the requests that open or take a seat: refused, the bridge cannot play, and says why."""


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a count from 1")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} is no number of seconds above 0")
    return value


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "An engine (cmd:COMMAND speaking docs/engine-protocol.md, or one of Atout's levels) plays at a "
        "site as a robot account: it opens a practice table with the site's robots, or joins the "
        "table it is invited to (--wait) or a given one (--table), and answers every decision of "
        "its seat (docs/robot-accounts.md)."
    )
    p.add_argument("url", help="the site's WebSocket, as ws://localhost:8000/ws or wss://SITE/ws")
    p.add_argument(
        "--engine",
        required=True,
        metavar="ENGINE",
        help='cmd:COMMAND (as cmd:"node examples/simple_engine.js") or a level: expert, heuristic, '
        "club, beginner, random (required: no default)",
    )
    p.add_argument(
        "--token",
        default=None,
        help=f"the robot account's token, atr_… (default ${TOKEN_ENV}; the environment keeps it out "
        "of the process list)",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--table",
        default=None,
        metavar="ID",
        help="join table ID and sit at a free seat (default: open a table of its own)",
    )
    where.add_argument(
        "--wait",
        action="store_true",
        help="wait for an invitation, then join and sit (default off: open a table of its own)",
    )
    p.add_argument(
        "--players", type=int, choices=(3, 4, 5), default=4, help="players at the table it opens (default 4)"
    )
    p.add_argument("--deals", type=_count, default=1, help="deals a game of the table it opens (default 1)")
    p.add_argument(
        "--robots",
        default="club",
        metavar="LEVEL",
        help="the level of the site's robots it seats at the table it opens (default club)",
    )
    p.add_argument("--games", type=_count, default=1, help="games to play before it leaves (default 1)")
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="how long the engine may take per decision (default: 80%% of the table's turn time, "
        "else 30); past it the heuristic plays, as in the arena",
    )
    p.add_argument(
        "--budget",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="the budget per decision the engine is told (default none: its own pace)",
    )
    p.add_argument(
        "--engine-log",
        default=None,
        metavar="FILE",
        help="where the engine's standard error goes (default a new file in the temporary directory)",
    )


def say(line: str) -> None:
    print(line, flush=True)


class Bridge:
    """One site connection, one seat: the table's state as heard, and the engine asked at each turn."""

    def __init__(self, ws: Any, args: argparse.Namespace, seat: SeatEngine) -> None:
        self.ws = ws
        self.args = args
        self.seat = seat
        self.table: str | None = args.table
        self.state: dict[str, Any] | None = None
        self.log = DealLog()
        self.played = 0
        self.answered: int | None = None  # the seq of the state last answered (act, sit, start or back)
        self.pending: tuple[str, Any, int] | None = None  # (ref, observation, seq) of the action last sent
        self.deal_key: str | None = None  # the commitment of the deal the engine was told of
        self.rejoining = False  # an event went unheard: the join's answer is awaited
        self._refs = itertools.count(1)
        self._deals = itertools.count()  # the engine's deal numbers: each deal its own, from 0, as in the arena

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def run(self) -> int:
        self.send({"type": "hello", "protocol": 1})
        welcome = json.loads(self.ws.recv())
        if welcome.get("type") != "welcome":
            say(f"the site refused the robot: {welcome.get('code')}: {welcome.get('message')}")
            return 1
        you = welcome["you"]
        if not you.get("robot_of"):
            say(f"{you['name']} is no robot account: give a robot account's token (docs/robot-accounts.md)")
            return 1
        say(f"playing as {you['name']}, robot account of {you['robot_of']}, engine {self.args.engine}")
        if self.table is not None:
            self.send({"type": "join", "table": self.table, "ref": SETUP})
        elif not self.args.wait:
            options = {"competitive": False, "deals": self.args.deals}
            self.send({"type": "create", "players": self.args.players, "options": options, "ref": SETUP})
        while self.played < self.args.games:
            message = json.loads(self.ws.recv())
            code = self.hear(message)
            if code is not None:
                return code
            if message.get("type") in ("table", "event"):
                self.step()
        return 0

    def hear(self, message: dict[str, Any]) -> int | None:
        """Take in one frame from the site; an exit code when the bridge must stop."""
        kind = message.get("type")
        if kind == "error":
            return self.error(message)
        if kind == "session_ended":
            say(f"the site ended the robot's session: {message.get('why')}")
            return 1
        if kind == "invitation" and self.args.wait and self.table is None:
            self.table = message["table"]
            say(f"invited to table {self.table} by {message.get('from')}")
            self.send({"type": "join", "table": self.table, "ref": SETUP})
        if kind not in ("table", "event") or (message.get("table") != self.table and self.table is not None):
            return None
        self.table = message["table"]
        if kind == "table":
            if "log" in message:  # a join's answer: the deal's events so far
                self.log.restart(message["log"])
                self.log.seq = max(self.log.seq or 0, message["seq"])
                self.rejoining = False
        elif self.rejoining:
            return None
        else:
            if self.log.gap(message["seq"]):  # an event went unheard: the deal's actions from the site again
                self.state, self.rejoining = None, True
                self.send({"type": "join", "table": self.table})
                return None
            self.log.hear(message["seq"], message["event"])
            self.told(message["event"])
        if "state" in message:
            self.state = message["state"]
        return None

    def told(self, event: dict[str, Any]) -> None:
        """A table event that concerns the engine: a deal's end, a game's."""
        kind = event["type"]
        if kind == "deal_end" and self.deal_key is not None and event.get("commitment") == self.deal_key:
            self.deal_key = None
            try:
                deal = replay(event["record"]).deal
            except (RecordError, KeyError) as err:
                say(f"the deal's record could not be replayed: {err}")
                self.seat.deal_end({}, None)
                return
            assert deal.result is not None
            self.seat.deal_end(deal.result.to_json(), to_record(deal, with_seed=False))
        elif kind == "game_end" or (kind == "cancel_end" and event.get("cancelled")):
            self.played += 1
            say(f"game over: {json.dumps(event.get('ranking'))}" if kind == "game_end" else "game cancelled")

    def error(self, message: dict[str, Any]) -> int | None:
        code, ref = message.get("code"), message.get("ref")
        say(f"site error {code}: {message.get('message')}")
        if ref == SETUP:
            return 1
        if self.pending is None or ref != self.pending[0]:
            return None
        if code == "illegal":  # the engine's action, refused by the deal: the heuristic's instead
            _, obs, seq = self.pending
            if self.seat.fallen:
                say("the heuristic's own action was refused: a bug (please report it); the bridge stops")
                return 1
            self.seat.fault(EngineFault("illegal", f"{message.get('message')} ({message.get('rule')})"))
            self.act(obs, seq)
        elif code in RETRY:
            self.answered = None  # the same state, told again when the table resumes, is answered again
        return None

    def step(self) -> None:
        """Do what the state asks of the robot: sit, fill and start its table, come back, or act."""
        state = self.state
        if state is None or state["seq"] == self.answered:
            return
        seq, you = state["seq"], state["you"]
        if you is None:
            if state["status"] == "waiting" and (self.args.table or self.args.wait):
                empty = [s["seat"] for s in state["seats"] if s["kind"] == "empty"]
                if empty:
                    self.answered = seq
                    self.send({"type": "sit", "table": self.table, "seat": empty[0], "seq": seq, "ref": SETUP})
            return
        if state["status"] == "waiting" and state["master"] == you:  # its own table: fill it, start a game
            self.answered = seq
            empty = [s["seat"] for s in state["seats"] if s["kind"] == "empty"]
            if empty:
                self.send(
                    {
                        "type": "robot",
                        "table": self.table,
                        "seat": empty[0],
                        "level": self.args.robots,
                        "seq": seq,
                        "ref": SETUP,
                    }
                )
            else:
                self.send({"type": "start", "table": self.table, "seq": seq, "ref": SETUP})
            return
        if state["seats"][you]["automatic"]:
            self.answered = seq
            self.send({"type": "back", "table": self.table, "seq": seq})
            return
        deal = state.get("deal")
        if deal and deal["to_act"] == you and deal["legal"]:
            self.answered = seq
            self.decide(state, deal, you)

    def decide(self, state: dict[str, Any], deal: dict[str, Any], you: int) -> None:
        rules = table_rules(state)
        self.seat.start(rules, you, engine_timeout(self.args, state["options"].get("turn_seconds")))
        if self.deal_key != state["commitment"]:
            self.deal_key = state["commitment"]
            self.seat.deal(next(self._deals), deal["dealer"], state["commitment"])
        obs = site_observation(rules, you, deal, self.log.actions)
        self.act(obs, state["seq"])

    def act(self, obs: Any, seq: int) -> None:
        ref = f"act-{next(self._refs)}"
        self.pending = (ref, obs, seq)
        action = self.seat.choose(obs)
        self.send({"type": "act", "table": self.table, "seq": seq, "action": action_json(action), "ref": ref})


def engine_timeout(args: argparse.Namespace, turn_seconds: int | None) -> float:
    """``--timeout``, else 80% of the table's turn time (past it the site plays for the seat), else 30 s."""
    if args.timeout is not None:
        return float(args.timeout)
    return 0.8 * turn_seconds if turn_seconds else 30.0


def robot(args: argparse.Namespace) -> int:
    """``atout robot``: exit 0 after ``--games`` games, 1 when the site refuses or ends it, 2 on bad arguments."""
    from .robot_seat import SeatEngine, check_spec

    token = args.token or os.environ.get(TOKEN_ENV)
    if not token:
        print(f"atout robot: no token: give --token or set ${TOKEN_ENV} (a robot account's, atr_…)", file=sys.stderr)
        return 2
    problem = check_spec(args.engine)
    if problem:
        print(f"atout robot: {problem}", file=sys.stderr)
        return 2
    from websockets.exceptions import WebSocketException
    from websockets.sync.client import connect

    log = Path(args.engine_log) if args.engine_log else None
    if log is None and args.engine.startswith("cmd:"):
        log = Path(tempfile.mkstemp(prefix="atout-robot-", suffix=".log")[1])
    if log is not None:
        say(f"the engine's standard error goes to {log}")
    seat = SeatEngine(args.engine, engine_timeout(args, None), args.budget, log, say)
    try:
        with connect(args.url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
            return Bridge(ws, args, seat).run()
    except (OSError, WebSocketException) as err:
        print(f"atout robot: the connection to {args.url} failed: {err}", file=sys.stderr)
        return 1
    finally:
        seat.close()

"""A small engine in plain Python (no atout import) that plays simply, and misbehaves as told.

``python faulty_engine.py MODE``: at the first decision after each ``deal`` numbered 0 it answers an
illegal card (``illegal``), a line that is no JSON (``garbage``), nothing for ten seconds (``sleep``), or
exits (``exit``); ``ecart`` bids garde when it may and lays a king aside (the deal refuses it), on every
deal; ``none`` never misbehaves.
"""

from __future__ import annotations

import json
import sys
import time

DECK = [f"{r}{s}" for s in "SHDC" for r in (*range(1, 11), "J", "N", "Q", "K")] + [f"T{n}" for n in range(1, 22)]


def say(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def simple(view: dict, mode: str) -> dict:
    legal = view["legal"]
    for choice in legal:
        if "play" in choice:
            return choice
    for choice in legal:
        if "discard_from" in choice:
            if mode == "ecart":
                kings = [c for c in view["hand"] if c.startswith("K")]
                others = [c for c in choice["discard_from"] if c not in kings]
                return {"discard": (kings[:1] + others)[: choice["count"]]}
            allowed = [c for c in choice["discard_from"] if c not in choice.get("refused", {})]
            return {"discard": allowed[: choice["count"]]}
    wanted = {"bid": "garde" if mode == "ecart" else "pass"}
    if wanted in legal:
        return wanted
    for preferred in ({"bid": "pass"}, {"chelem": False}, {"petit_sec": "play"}):
        if preferred in legal:
            return preferred
    return legal[0]


def main(mode: str) -> int:
    misbehave = False
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            say({"type": "ready", "protocol": "atout-engine", "version": 1, "name": f"faulty {mode}"})
        elif kind == "deal":
            misbehave = message["number"] == 0 and mode not in ("none", "ecart")
        elif kind == "decide":
            if misbehave:
                if mode == "illegal":
                    plays = {c.get("play") for c in message["view"]["legal"]}
                    say(
                        {
                            "type": "action",
                            "id": message["id"],
                            "action": {"play": next(c for c in DECK if c not in plays)},
                        }
                    )
                    misbehave = False
                    continue
                if mode == "garbage":
                    sys.stdout.write("this is no JSON\n")
                    sys.stdout.flush()
                    continue
                if mode == "sleep":
                    time.sleep(10)
                if mode == "exit":
                    print("faulty engine: exiting as told", file=sys.stderr)
                    return 3
            say({"type": "action", "id": message["id"], "action": simple(message["view"], mode)})
        elif kind == "deal_end":
            print(f"faulty engine: deal {message['number']} ended", file=sys.stderr, flush=True)
        elif kind == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

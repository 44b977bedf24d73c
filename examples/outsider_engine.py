#!/usr/bin/env python3
"""A small tarot engine written from docs/engine-protocol.md alone, as an outside developer would: the
standard library only, nothing of Atout imported or read.  It speaks "atout-engine 1" on stdin/stdout and
plays every phase at 3, 4 and 5 players: it bids on a count of its strength, calls a king it lacks, lays
its cheapest cards aside, never announces a chelem, shows the smallest poignée it may, and in the play
wins a trick cheaply when it can, else throws its least valuable card.

    atout arena --candidate heuristic --baseline "cmd:python3 examples/outsider_engine.py"

tests/protocol/test_outsider.py runs it through the real protocol at 3, 4 and 5 players, and holds it to
what the page says: should the page and the host drift apart, that test fails.
"""

from __future__ import annotations

import json
import random
import sys

NAME = "outsider 1.0 (Python)"

# Cards (the page's "Cards"): a suit card is its rank then its suit, ranks 1..10, J, N, Q, K rising;
# trumps T1..T21 rising; the Excuse EX.  The bouts are T1, T21 and EX.
RANKS = {**{str(n): n for n in range(1, 11)}, "J": 11, "N": 12, "Q": 13, "K": 14}
BOUTS = {"T1", "T21", "EX"}
FACE_POINTS = {14: 4.5, 13: 3.5, 12: 2.5, 11: 1.5}


def is_trump(card: str) -> bool:
    return card.startswith("T")


def suit(card: str) -> str:
    """S, H, D, C for a suit card; T for a trump; EX for the Excuse."""
    if card == "EX":
        return "EX"
    return "T" if is_trump(card) else card[-1]


def rank(card: str) -> int:
    if card == "EX":
        return 0
    return int(card[1:]) if is_trump(card) else RANKS[card[:-1]]


def points(card: str) -> float:
    if card in BOUTS:
        return 4.5
    return 0.5 if is_trump(card) else FACE_POINTS.get(rank(card), 0.5)


def cheapness(card: str) -> float:
    """Least worth keeping first: points, then suit cards before trumps, then rank; the Petit and the
    Excuse last of all."""
    keep = 100 if card in ("T1", "EX") else 0
    return keep + points(card) * 10 + (5 if is_trump(card) else 0) + rank(card) / 100


def winning(trick: list[dict]) -> str | None:
    """The card winning ``trick`` so far (a list of {"seat", "card"}): the highest trump, else the highest
    card of the suit led; the Excuse never wins."""
    cards = [p["card"] for p in trick if p["card"] != "EX"]
    if not cards:
        return None
    trumps = [c for c in cards if is_trump(c)]
    if trumps:
        return max(trumps, key=rank)
    led = suit(cards[0])
    return max((c for c in cards if suit(c) == led), key=rank)


def beats(card: str, best: str | None) -> bool:
    if card == "EX":
        return False
    if best is None:
        return True
    if is_trump(card):
        return not is_trump(best) or rank(card) > rank(best)
    return not is_trump(best) and suit(card) == suit(best) and rank(card) > rank(best)


class Engine:
    def __init__(self) -> None:
        self.seat: int | None = None
        self.players = 4
        self.random = random.Random(0)

    # ------------------------------------------------------------ decisions
    def decide(self, view: dict) -> dict:
        legal = view["legal"]
        of = {
            key: [c for c in legal if key in c]
            for key in ("petit_sec", "bid", "call", "discard_from", "chelem", "play", "poignee_from")
        }
        if of["poignee_from"]:
            return self.poignee(of["poignee_from"][0])
        if of["play"]:
            return {"play": self.card(view, [c["play"] for c in of["play"]])}
        if of["bid"]:
            return self.bid(view, of["bid"])
        if of["discard_from"]:
            return self.ecart(of["discard_from"][0])
        if of["call"]:
            lacking = [c for c in of["call"] if c["call"] not in view["hand"]]
            return (lacking or of["call"])[0]
        if of["chelem"]:
            return {"chelem": False}
        if of["petit_sec"]:
            return {"petit_sec": "play"}
        return legal[0]

    def bid(self, view: dict, bids: list[dict]) -> dict:
        hand = view["hand"]
        trumps = sum(is_trump(c) for c in hand)
        strength = (
            trumps * 24 / len(hand)
            + 3 * sum(c in BOUTS for c in hand)
            + 2 * sum(rank(c) == 14 and not is_trump(c) for c in hand)
        )
        wanted = "garde" if strength >= 22 else "prise" if strength >= 13 else "pass"
        plain = [b for b in bids if not b.get("chelem")]  # a chelem with the bid: never
        for bid in plain:
            if bid["bid"] == wanted:
                return bid
        return {"bid": "pass"}  # the wanted contract is already overcalled: a pass is always there

    def ecart(self, choice: dict) -> dict:
        allowed = choice["discard_from"]  # never a refused card: the page says so
        count = choice["count"]
        plain = sorted((c for c in allowed if not is_trump(c)), key=cheapness)
        trumps = sorted((c for c in allowed if is_trump(c)), key=rank)
        if trumps:  # too few other cards may go: every one of them, then the lowest trumps
            return {"discard": (plain + trumps)[:count]}
        return {"discard": plain[:count]}

    def poignee(self, choice: dict) -> dict:
        """The smallest size offered; the Excuse only when the trumps alone fall short."""
        size = min(choice["sizes"].values())
        trumps = sorted((c for c in choice["poignee_from"] if c != "EX"), key=rank)
        if len(trumps) >= size:
            return {"poignee": trumps[:size]}
        return {"poignee": [*trumps, "EX"]}

    def card(self, view: dict, cards: list[str]) -> str:
        if len(cards) == 1:
            return cards[0]
        trick = view["trick"]
        if not trick:
            kings = [c for c in cards if not is_trump(c) and rank(c) == 14]
            if kings:
                return kings[0]
            plain = [c for c in cards if not is_trump(c) and c != "EX"]
            return min(plain or cards, key=cheapness)
        best = winning(trick)
        last = len(trick) == len(view["seats"]) - 1
        winners = [c for c in cards if beats(c, best) and c not in ("T1", "T21")]
        valuable = [c for c in winners if not is_trump(c) and points(c) > 2]
        if valuable:
            return max(valuable, key=rank)
        if last and winners:
            return min(winners, key=cheapness)
        return min(cards, key=cheapness)

    # ------------------------------------------------------------ messages
    def hear(self, message: dict) -> dict | None:
        """The answer to one host message, or None; raises SystemExit on quit."""
        kind = message.get("type")
        if kind == "hello":
            if message.get("protocol") != "atout-engine" or message.get("version") != 1:
                say({"type": "error", "message": "this engine speaks atout-engine 1 only"})
                raise SystemExit(1)
            self.seat, self.players = message["seat"], message["players"]
            return {"type": "ready", "protocol": "atout-engine", "version": 1, "name": NAME}
        if kind == "deal":
            self.random = random.Random(message["seed"])
            return None
        if kind == "decide":
            return {"type": "action", "id": message["id"], "action": self.decide(message["view"])}
        if kind == "deal_end":
            result = message["result"]
            print(
                f"outsider seat {self.seat}: deal {message['number']} void={result['void']} "
                f"score={result['scores'][self.seat]}",
                file=sys.stderr,
                flush=True,
            )
            return None
        if kind == "quit":
            raise SystemExit(0)
        return None  # any type a later version adds


def say(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> int:
    engine = Engine()
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            print(f"outsider: not JSON: {line[:80]!r}", file=sys.stderr, flush=True)
            continue
        answer = engine.hear(message)
        if answer is not None:
            say(answer)
    return 0  # the end of stdin means quit


if __name__ == "__main__":
    sys.exit(main())

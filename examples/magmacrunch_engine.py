"""The robot of the ``magmacrunch-tarot`` package (its ``tarot.rules`` AI) as an "atout-engine 1" engine.

    pip install --no-deps magmacrunch-tarot      # its AI needs nothing else; PolyForm Noncommercial licence
    atout arena --players 4 --candidate expert --baseline "cmd:python examples/magmacrunch_engine.py"

That package plays four-player tarot in a terminal; its computers bid (``ai_bid``), lay aside their écart
(``ai_discards``), declare poignées (``poignee``) and play (``ai_card``) from their own hand and the trick
on the table.  This adapter turns each request into their cards and back, nothing more: where their choice
is not among Atout's legal actions (their rules differ on a point) it says so on stderr and takes the
nearest legal one, so the measure is of their robot as it plays.  Plain Python, no Atout import.
"""

from __future__ import annotations

import json
import random
import sys

try:
    from tarot import rules as mm
except ImportError:
    sys.exit("magmacrunch_engine: the magmacrunch-tarot package is missing (pip install --no-deps magmacrunch-tarot)")

SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
FACES = {"J": "V", "N": "C", "Q": "D", "K": "R"}
OUR_BIDS = {
    "PASSE": "pass",
    "PRISE": "prise",
    "GARDE": "garde",
    "GARDE_SANS": "garde_sans",
    "GARDE_CONTRE": "garde_contre",
}
THEIR_BIDS = {v: k for k, v in OUR_BIDS.items()}


def card(code: str) -> mm.Card:
    """An Atout card code as their card."""
    if code == "EX":
        return mm.Card(mm.EXCUSE, number=mm.EXCUSE_NUMBER)
    if code[0] == "T":
        return mm.Card(mm.TRUMP, number=int(code[1:]))
    rank = code[:-1]
    return mm.Card(mm.SUITED, SUITS[code[-1]], FACES.get(rank, rank))


def code(c: mm.Card) -> str:
    """Their card as an Atout card code."""
    if c.type == mm.EXCUSE:
        return "EX"
    if c.type == mm.TRUMP:
        return f"T{c.number}"
    rank = {v: k for k, v in FACES.items()}.get(c.rank, c.rank)
    return rank + next(k for k, v in SUITS.items() if v == c.suit)


def trick(view: dict) -> mm.Trick:
    """The cards on the table as their Trick."""
    t = mm.Trick(cards=[(card(p["card"]), p["seat"]) for p in view["trick"]])
    for c, _ in t.cards:
        if c.type == mm.EXCUSE:
            continue
        if not t.led_suit and not t.led_trump:
            t.led_trump, t.led_suit = c.type == mm.TRUMP, c.suit
        if c.type == mm.TRUMP:
            t.highest_trump = max(t.highest_trump, c.number)
    return t


def warn(text: str) -> None:
    print(f"magmacrunch_engine: {text}", file=sys.stderr, flush=True)


class Player:
    def __init__(self) -> None:
        self.rand = random.Random(0).random

    def decide(self, view: dict) -> dict:
        legal = view["legal"]
        hand = [card(c) for c in view["hand"]]
        plays = [a["play"] for a in legal if "play" in a]
        poignee = next((a for a in legal if "poignee_from" in a), None)
        if poignee is not None and mm.poignee(hand) and (shown := self.poignee(hand, poignee)) is not None:
            return shown
        if plays:
            chosen = mm.ai_card(hand, trick(view))
            mine = code(next(c for c in hand if c.id == chosen)) if chosen else None
            if mine not in plays:
                warn(f"their card {mine} is not legal here; playing {plays[0]}")
                return {"play": plays[0]}
            return {"play": mine}
        bids = [a["bid"] for a in legal if "bid" in a and not a.get("chelem")]
        if bids:
            current = max(
                (b["bid"] for b in view["bids"]), key=lambda b: list(OUR_BIDS.values()).index(b), default="pass"
            )
            theirs = OUR_BIDS[mm.ai_bid(hand, THEIR_BIDS[current], False, self.rand)]
            return {"bid": theirs if theirs in bids else "pass"}
        ecart = next((a for a in legal if "discard_from" in a), None)
        if ecart is not None:
            allowed = [c for c in ecart["discard_from"] if c not in ecart.get("refused", {})]
            chosen = [code(c) for c in mm.ai_discards(hand)]
            keep = [c for c in chosen if c in allowed]
            if len(keep) < len(chosen):
                warn(f"their écart {chosen} lays aside cards Atout's rules keep; completed from the allowed")
            keep += [c for c in allowed if c not in keep and c[0] != "T"] + [c for c in allowed if c not in keep]
            return {"discard": list(dict.fromkeys(keep))[: ecart["count"]]}
        for plain in ({"chelem": False}, {"petit_sec": "play"}):
            if plain in legal:
                return plain
        return legal[0]

    def poignee(self, hand: list, offer: dict) -> dict | None:
        """Their poignée (every player declares one it holds), shown as their ``poignee_cards`` are: the
        lowest trumps, the Excuse only when they fall short; the size Atout's rules allow for it."""
        size = mm.poignee(hand)["trumps"]
        sizes = sorted(n for n in offer["sizes"].values() if n <= size)
        shown = [code(c) for c in mm.poignee_cards(hand, {"trumps": sizes[-1]})] if sizes else []
        if not shown or any(c not in offer["poignee_from"] for c in shown):
            warn(f"their poignée does not fit Atout's sizes {offer['sizes']}; none shown")
            return None
        return {"poignee": shown}


def main() -> int:
    player = Player()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            if message.get("protocol") != "atout-engine" or message.get("version") != 1 or message.get("players") != 4:
                print(
                    json.dumps({"type": "error", "message": "magmacrunch plays atout-engine 1 at four players only"}),
                    flush=True,
                )
                return 1
            print(
                json.dumps(
                    {"type": "ready", "protocol": "atout-engine", "version": 1, "name": "magmacrunch-tarot's robot"}
                ),
                flush=True,
            )
        elif kind == "deal":
            player.rand = random.Random(message.get("seed")).random
        elif kind == "decide":
            print(
                json.dumps({"type": "action", "id": message["id"], "action": player.decide(message["view"])}),
                flush=True,
            )
        elif kind == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What each viewer of a table may know, rebuilt from the table's stored events alone.

The leak tests check every frame a connection received against this model.  It
does not use the server's views, nor the engine's observations: each deal is
dealt again from the record its ``deal_end`` revealed, and its actions are
walked in event order, collecting the cards a seat (or a spectator) may know
at each event number: its own dealt hand, every card played, the dog once
shown (Prise and Garde) and, for the taker, once taken, the écart's trumps
(the whole écart for the taker), shown poignées, the called card, and every
card once the deal has ended.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from atout.engine.cards import FULL_DECK, codes
from atout.engine.record import start_deal

ALL_CARDS = frozenset(codes(FULL_DECK))
"""The 78 card codes."""
FACE_CARDS = frozenset(c for c in ALL_CARDS if c[0] in "KQNJ")
"""What a 5-player taker may be offered to call (kings, then queens, knights, jacks): a superset."""
FREE_TEXT = frozenset(
    {
        "name",
        "text",
        "message",
        "why",
        "from",
        "id",
        "token",
        "table",
        "game",
        "commitment",
        "seed",
        "ref",
        "level",
        "invited",
    }
)
"""Keys whose strings are names, ids or prose, never card codes (a name may look like one: "T21")."""
SHOWN_CONTRACTS = ("prise", "garde")
"""The contracts whose dog is turned face up for all to see, then taken by the taker."""

Viewer = int | None
"""A seat, or None for a spectator."""


@dataclass
class DealKnowledge:
    """One deal of a table: its event numbers, its revealed record, and each viewer's cards per step."""

    start_seq: int
    seed_commitment: str
    action_seqs: list[int] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    end_seq: int | None = None
    record: dict[str, Any] | None = None
    # viewer -> cards known after k actions (index k); and the cards it may be offered to call
    known: dict[Viewer, list[frozenset[str]]] = field(default_factory=dict)
    callable: dict[Viewer, list[frozenset[str]]] = field(default_factory=dict)

    @property
    def seed(self) -> str | None:
        return None if self.record is None else self.record.get("seed")

    def steps_at(self, seq: int) -> int:
        """How many of the deal's actions had been applied once event ``seq`` was."""
        return bisect.bisect_right(self.action_seqs, seq)

    def build(self, viewers: list[Viewer]) -> None:
        """Deal again from the revealed record and walk its actions: each viewer's cards after each one."""
        assert self.record is not None, "a deal that never ended has no record to check against"
        deal = start_deal(self.record)
        players = deal.players
        hands = [frozenset(codes(h)) for h in deal.initial_hands]
        dog = frozenset(codes(deal.initial_dog))
        calls_king = players == 5 and self.record["options"].get("five_players", "call_king") == "call_king"
        assert [dict(a) for a in self.record["actions"]] == self.actions, (
            "the deal's action events are not the actions of its revealed record"
        )
        for viewer in viewers:
            walked = self._walk(viewer, hands, dog, len(deal.seats), calls_king)
            self.known[viewer], self.callable[viewer] = walked

    def _walk(
        self,
        viewer: Viewer,
        hands: list[frozenset[str]],
        dog: frozenset[str],
        seats_in: int,
        calls_king: bool,
    ) -> tuple[list[frozenset[str]], list[frozenset[str]]]:
        """``viewer``'s cards, and the cards it may be offered to call, after each of the deal's actions."""
        public: set[str] = set()
        private: set[str] = set(hands[viewer]) if viewer is not None else set()
        bids = 0
        contract: str | None = None
        taker: int | None = None
        called = dog_out = False
        known = [frozenset(private)]
        offered: list[frozenset[str]] = [frozenset()]
        for action in self.actions:
            seat = action["seat"]
            if "bid" in action:
                bids += 1
                if action["bid"] != "pass":
                    contract, taker = action["bid"], seat
            elif "call" in action:
                called = True
                public.add(action["call"])
            elif "discard" in action:
                public.update(c for c in action["discard"] if c.startswith("T"))  # trumps laid aside: shown
                if viewer == seat:
                    private.update(action["discard"])
            elif "poignee" in action:
                public.update(action["poignee"])
            elif "play" in action:
                public.add(action["play"])
            bidding_over = bids == seats_in and (called or not calls_king)
            if bidding_over and contract in SHOWN_CONTRACTS and not dog_out:
                dog_out = True
                public.update(dog)
            known.append(frozenset(public | private))
            to_call = viewer is not None and viewer == taker and calls_king and bids == seats_in
            to_call = to_call and not called
            offered.append(FACE_CARDS if to_call else frozenset())
        return known, offered


class TableKnowledge:
    """Every deal of one table, from the table's full stored events (hidden fields included)."""

    def __init__(self, events: list[dict[str, Any]], players: int) -> None:
        self.events = sorted(events, key=lambda e: e["seq"])
        assert [e["seq"] for e in self.events] == list(range(1, len(self.events) + 1)), "events have gaps"
        self.players = players
        self.deals: list[DealKnowledge] = []
        self.secrets: list[str] = []  # every stored secret: game seeds and deal seeds
        for event in self.events:
            kind = event["type"]
            if "_seed" in event:
                self.secrets.append(event["_seed"])
            if kind == "deal_start":
                self.deals.append(DealKnowledge(event["seq"], event["commitment"]))
            elif kind == "action":
                deal = self.deals[-1]
                assert deal.end_seq is None
                deal.action_seqs.append(event["seq"])
                deal.actions.append({"seat": event["seat"], **event["action"]})
            elif kind == "deal_end":
                deal = self.deals[-1]
                assert event["commitment"] == deal.seed_commitment
                deal.end_seq = event["seq"]
                deal.record = event["record"]
        viewers: list[Viewer] = [None, *range(players)]
        for deal in self.deals:
            if deal.record is not None:
                deal.build(viewers)

    def deal_at(self, seq: int) -> DealKnowledge | None:
        """The deal the table was in (or had just ended) once event ``seq`` was applied."""
        found = None
        for deal in self.deals:
            if deal.start_seq <= seq:
                found = deal
        return found

    def allowed(self, viewer: Viewer, seq: int) -> tuple[frozenset[str], frozenset[str]]:
        """(cards ``viewer`` may know, cards it may be offered to call) after event ``seq``."""
        deal = self.deal_at(seq)
        if deal is None:
            return frozenset(), frozenset()
        if deal.end_seq is not None and seq >= deal.end_seq:
            return ALL_CARDS, frozenset()
        assert deal.record is not None, f"the deal from event {deal.start_seq} never ended: no record"
        k = deal.steps_at(seq)
        return deal.known[viewer][k], deal.callable[viewer][k]


def card_strings(value: Any, key: str | None = None) -> Iterator[tuple[str | None, str]]:
    """Every (key, card code) in a JSON value, free-text fields skipped."""
    if isinstance(value, dict):
        for k, v in value.items():
            if not (k in FREE_TEXT and isinstance(v, str)):
                yield from card_strings(v, k)
    elif isinstance(value, list):
        if key == "seats" and any(isinstance(v, str) for v in value):  # a lobby line's names
            return
        for v in value:
            yield from card_strings(v, key)
    elif isinstance(value, str) and value in ALL_CARDS:
        yield key, value


def deal_views(frame: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The DealViews a frame carries (an event's or a table message's state)."""
    state = frame.get("state")
    if isinstance(state, dict) and isinstance(state.get("deal"), dict):
        yield state["deal"]


def rebuilt(state: dict[str, Any] | None, frame: dict[str, Any]) -> dict[str, Any] | None:
    """The viewer's state after ``frame``: a whole state, or the last one with the frame's patch applied."""
    if isinstance(frame.get("state"), dict):
        return frame["state"]
    if "patch" in frame and state is not None:
        state = {**state, **frame["patch"]}
        if "deal_patch" in frame:
            state["deal"] = {**state["deal"], **frame["deal_patch"]}
    return state


@dataclass
class Leak:
    """One frame that told a viewer more than it may know."""

    viewer: Viewer
    seq: int
    index: int
    what: str

    def __str__(self) -> str:
        who = "a spectator" if self.viewer is None else f"seat {self.viewer}"
        return f"frame {self.index} (after event {self.seq}) told {who}: {self.what}"


def leaks(raw: list[str], viewer: Viewer, model: TableKnowledge) -> list[Leak]:
    """Every way the frames ``raw`` (as they left the server, in order) told ``viewer`` too much."""
    found: list[Leak] = []
    seq = 0
    state: dict[str, Any] | None = None
    for index, text in enumerate(raw):
        frame = json.loads(text)
        if frame.get("type") in ("event", "table"):
            seq = frame["seq"]
            state = rebuilt(state, frame)
        known, callable_ = model.allowed(viewer, seq)
        extra = sorted(
            {
                card
                for key, card in card_strings(frame)
                if card not in known and not (key == "call" and card in callable_)
            }
        )
        if extra:
            found.append(Leak(viewer, seq, index, f"cards it may not know: {' '.join(extra)}"))
        if "_seed" in text:
            found.append(Leak(viewer, seq, index, "a hidden _seed field"))
        for secret in model.secrets:
            deal = next((d for d in model.deals if d.seed == secret), None)
            if secret in text and (deal is None or deal.end_seq is None or seq < deal.end_seq):
                found.append(Leak(viewer, seq, index, f"the secret seed {secret} before its deal's end"))
        views = list(deal_views(frame))
        if "patch" in frame and state is not None and isinstance(state.get("deal"), dict):
            views.append(state["deal"])  # what a patched client holds after this frame
        for view in views:
            if viewer is None and view.get("hand"):
                found.append(Leak(viewer, seq, index, f"a spectator's hand: {view['hand']}"))
            if view.get("legal") and view.get("to_act") != viewer:
                found.append(Leak(viewer, seq, index, f"another seat's choices: {view['legal']}"))
    return found


__all__ = ["ALL_CARDS", "DealKnowledge", "Leak", "TableKnowledge", "card_strings", "leaks"]

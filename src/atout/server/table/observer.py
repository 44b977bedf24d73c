"""What each viewer may see of a table, kept apart from its state (as OpenSpiel keeps observers apart from
states): the events as a seat or a spectator sees them, the TableView and its parts, the lobby's line, and
the patches from one TableView to the next (docs/protocol.md, "Patches").

An ``Observer`` reads its table and never writes it. It remembers what it made last (the lasting parts
of the shared view, each seat's private view, the score sheet's lines, the spectator's DealView), so that
a view made again after a card is mostly the same objects, which a patch finds unchanged at a glance. The
shared and public parts' changes are worked out once per telling and reused for every viewer whose last
state was made from the previous telling; only the private parts differ per viewer.
"""

from __future__ import annotations

from typing import Any

from ...engine.observation import Private, private_parts
from ...engine.state import Deal
from ...engine.view import PRIVATE, PublicViews, private_json
from ..kinds import EventType, Outcome, SeatKind, TableStatus
from ..results import robot_account
from ..told import Patch
from .state import Table

_NOTHING = object()


def _secret_ecart(event: dict[str, Any]) -> bool:
    return event["type"] == EventType.ACTION and "discard" in event["action"]


class Observer:
    """Makes ``table``'s views for every viewer (a seat, or None for a spectator)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._sheet_cache: list[tuple[Any, dict[str, Any]]] = []
        self._lasting: tuple[Any, dict[str, Any]] | None = None  # (key, the shared view's lasting parts)
        self._private_kept: dict[int, tuple[Private, dict[str, Any]]] = {}  # each seat's last private view
        self._public_views = PublicViews()  # the spectator's view, made from the last one

    # ------------------------------------------------------------ events
    def public_events(
        self, events: list[dict[str, Any]], viewers: set[int | None]
    ) -> dict[int | None, list[dict[str, Any]]]:
        """``public_event`` for each viewer; an event every viewer sees alike is made once and shared (and
        when every event is, so is the list)."""
        if not any(_secret_ecart(event) for event in events):
            alike = [self.public_event(event, None) for event in events]  # read, never changed: shared
            return {v: alike for v in viewers}
        out: dict[int | None, list[dict[str, Any]]] = {v: [] for v in viewers}
        for event in events:
            if _secret_ecart(event):
                for v in viewers:
                    out[v].append(self.public_event(event, v))
            else:
                same = self.public_event(event, None)
                for v in viewers:
                    out[v].append(same)
        return out

    def public_event(self, event: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        """What ``viewer`` (a seat, or None for a spectator) may see of an event."""
        out = {k: v for k, v in event.items() if not k.startswith("_") and k not in ("seq", "player")}
        if _secret_ecart(event) and viewer != event["seat"]:
            cards = event["action"]["discard"]
            trumps = [c for c in cards if c.startswith("T")]
            out["action"] = {"ecart": {"trumps": trumps, "count": len(cards)}}
        return out

    # ------------------------------------------------------------ the TableView
    def view(self, viewer: int | None, now: float, spectators: int = 0, seen_options: int = -1) -> dict[str, Any]:
        """The whole table as ``viewer`` may see it: a TableView."""
        return {
            **self.shared_view(now, spectators),
            "you": viewer,
            "changed": self.options_changed(seen_options),
            "deal": self.deal_views({viewer})[viewer],
        }

    def options_changed(self, seen_options: int) -> list[str]:
        """The options the master changed since the viewer last saw them (event ``seen_options``)."""
        table = self.table
        return table.changed if table.changed_seq > seen_options else []

    def shared_view(self, now: float, spectators: int = 0) -> dict[str, Any]:
        """The parts of the TableView that are the same for every viewer."""
        lasting, passing = self.shared_parts(now, spectators)
        return {**lasting, **passing}

    def shared_parts(self, now: float, spectators: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
        """The shared view in two: its lasting parts (``_lasting_view``: the same dict while they do
        not change) and those that move with any action (seq, spectators, clock, vote)."""
        table = self.table
        clock = None
        seat = table.to_act()
        turn = table.options.turn_seconds
        ends = table.turn_ends()  # a person a new game waits for has longer (docs/server.md)
        if seat is not None and ends is not None:
            left = ends - now
            clock = {"seat": seat, "seconds_left": max(0.0, round(left, 1)), "turn_seconds": turn}
        vote = None
        if table.vote is not None:
            started = table.vote.get("started") or now
            vote = {
                "by": table.vote["by"],
                "voters": table.vote["voters"],
                "votes": {str(k): v for k, v in table.vote["votes"].items()},
                "seconds_left": max(0.0, round(started + table.timing.vote_seconds - now, 1)),
            }
        return self._lasting_view(), {"seq": table.seq, "spectators": spectators, "clock": clock, "vote": vote}

    def _lasting_view(self) -> dict[str, Any]:
        """The shared view's parts that no game action changes, built again only when they change: the
        same objects from card to card, so a patch finds them unchanged at a glance (``is``)."""
        table = self.table
        game = table.game
        key = (
            table.version,
            table.paused,
            tuple(table.same_address),
            tuple(table.gone_since),
            [(s.absent, s.automatic) for s in table.seats],
            None if game is None else (len(game.sheet), game.deal_number, game.dealer),
        )
        cached = self._lasting
        if cached is not None and cached[0] == key:
            return cached[1]
        view = {
            "id": table.id,
            "players": table.players,
            "status": table.status,
            "master": table.master,
            "options": table.options.to_json(),
            "seats": [
                {**s.public(i), "connected": s.kind != SeatKind.PERSON or i not in table.gone_since}
                for i, s in enumerate(table.seats)
            ],
            "game": None
            if game is None
            else {
                "id": table.game_id,
                "deals": game.deals,
                "names": self._game_names(),
                "deal_number": table.deal_number(),
                "dealer": game.dealer,
                "sheet": self._sheet(),
                "totals": game.totals,
                "over": table.game_outcome is not None,
                "outcome": table.game_outcome,
                "ranking": [{"place": p, "seat": s, "total": t} for p, s, t in game.ranking()]
                if table.game_outcome == Outcome.FINISHED
                else None,
                "ranked": table.game_ranked,
                "unranked": table.game_unranked,
                "pot": sum(table.stakes),
            },
            "same_address": table.same_address,
            "quick": table.quick,
            "daily": self._daily_view(),
            "paused": table.paused,
            "commitment": table.commitment,
            "chat": list(table.chat),
        }
        self._lasting = (key, view)
        return view

    def _game_names(self) -> list[str | None]:
        """Who plays the game at each seat: the seats' names while it is played; once it is over, its own
        players' names as it ended, never whoever sat down since (its sheet, last trick and result are theirs)."""
        table = self.table
        if table.game_outcome is not None and table.game_names:
            return list(table.game_names)
        return [seat.name for seat in table.seats]

    def _daily_view(self) -> dict[str, Any] | None:
        """What the page says of a daily deal's or a tournament round's table: where its ranking is (its
        game ranks nobody here, and it is played once)."""
        daily = self.table.daily
        if daily is None:
            return None
        day = daily.get("day")
        return {"day": None if day is None else str(day), "tournament": daily.get("tournament")}

    def _sheet(self) -> list[dict[str, Any]]:
        """The score sheet as viewers see it (no seeds: those go with each deal's end); cached per line."""
        assert self.table.game is not None
        sheet = self.table.game.sheet
        cache = self._sheet_cache
        if len(cache) > len(sheet) or (cache and cache[-1][0] is not sheet[len(cache) - 1]):
            cache.clear()
        for line in sheet[len(cache) :]:
            cache.append((line, {k: v for k, v in line.to_json().items() if k not in ("record", "seed")}))
        return [view for _, view in cache]

    # ------------------------------------------------------------ the DealView
    def deal_parts(self, viewers: set[int | None]) -> tuple[dict[str, Any] | None, dict[int, dict[str, Any]]]:
        """The spectator's DealView (None without a deal) and each seated viewer's private fields."""
        deal = self.table.deal
        if deal is None:
            return None, {}
        public = self._public_views.view(deal.observation(None))
        return public, {v: self._private_view(deal, v) for v in viewers if v is not None}

    def public_changes(self, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
        """``changed(before, after)`` for two spectator's DealViews of this table: read off the
        public views' own record when ``after`` was made right after ``before`` (every action's telling)."""
        known = self._public_views.changes(before)
        return known if known is not None and after is self._public_views.current else changed(before, after)

    def _private_view(self, deal: Deal, seat: int) -> dict[str, Any]:
        """``private_json`` of the seat's private parts, the same dict as last time when they did not
        change (most seats, after a card): made once, and the patches find it unchanged at a glance."""
        parts = private_parts(deal, seat)
        kept = self._private_kept.get(seat)
        if kept is None or kept[0] != parts:
            kept = self._private_kept[seat] = (parts, private_json(parts))
        return kept[1]

    def deal_views(self, viewers: set[int | None]) -> dict[int | None, dict[str, Any] | None]:
        """Each viewer's DealView: the spectator's view once, and each seat's own private fields."""
        public, private = self.deal_parts(viewers)
        if public is None:
            return dict.fromkeys(viewers)
        return {v: public if v is None else {**public, **private[v]} for v in viewers}

    # ------------------------------------------------------------ the lobby
    def summary(self, spectators: int = 0) -> dict[str, Any]:
        """The lobby's line for this table (``you``, the viewer's seat, is added per viewer)."""
        table = self.table
        return {
            "id": table.id,
            "players": table.players,
            "seats": [s.name for s in table.seats],
            "robots": sum(s.kind == SeatKind.ROBOT for s in table.seats),
            "robot_accounts": [
                i for i, s in enumerate(table.seats) if s.kind == SeatKind.PERSON and robot_account(s.player)
            ],  # seats of people's programs, tagged in the lobby
            "free": sum(s.kind == SeatKind.EMPTY for s in table.seats),
            "status": table.status,
            "over": table.game_outcome
            if table.status == TableStatus.WAITING
            else None,  # not a table waiting for people
            "options": table.options.to_json(),
            "spectators": spectators,
            "private": table.options.private,
            "quick": table.quick,
            "claimable": len(table.claimable()),
        }


# ------------------------------------------------------------ patches
def changed(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``after`` that differ from ``before``'s."""
    return {k: v for k, v in after.items() if (old := before.get(k, _NOTHING)) is not v and old != v}


def state_patch(before: dict[str, Any], after: dict[str, Any]) -> Patch:
    """What changed from one TableView to the next, for a client that asked for patches: ``patch`` holds
    the top-level fields that changed (a new value replaces the old), ``deal_patch`` the DealView's
    fields that changed when both states have a deal (docs/protocol.md, "Patches")."""
    patch = changed(before, after)
    out: Patch = {"patch": patch}
    old_deal, new_deal = before.get("deal"), after.get("deal")
    if "deal" in patch and old_deal is not None and new_deal is not None:
        del patch["deal"]
        out["deal_patch"] = changed(old_deal, new_deal)
    return out


Parts = tuple[dict[str, Any], Any, Any, Any, Any]
"""A TableView as its parts: the shared view (or the whole state), you, changed, and its DealView as
the public view and the viewer's private fields over it (None: none, a spectator's, or a DealView held
whole). A telling keeps a seat's private fields apart rather than merging them into a copy of the
public view for every seat: a patch reads only the fields that may differ."""


def deal_of(parts: Parts) -> dict[str, Any] | None:
    """The DealView the parts make: the public view, with the viewer's private fields over it."""
    public, private = parts[3], parts[4]
    return public if public is None or private is None else {**public, **private}


def patch_for(
    basis: Parts,
    parts: Parts,
    last_shared: Any,
    shared_changed: dict[str, Any] | None,
    public_changed: dict[str, Any] | None,
) -> Patch:
    """``state_patch`` from the client's last state to this one; quick when the last state was made from
    the table's last telling: the shared and public fields' changes are then the same for every viewer,
    worked out once, and only the viewer's private fields are compared (none, when they are the same
    dict as last time: a seat that neither played nor came to act)."""
    its_shared, its_you, its_changed, old_public, old_private = basis
    _, you, options_changed, new_public, new_private = parts
    if shared_changed is None or its_shared is not last_shared:
        return state_patch(_whole(basis), _whole(parts))
    patch = dict(shared_changed)
    if its_you != you:
        patch["you"] = you
    if its_changed != options_changed:
        patch["changed"] = options_changed
    out: Patch = {"patch": patch}
    if old_public is None or new_public is None:
        if old_public is not new_public:
            patch["deal"] = deal_of(parts)
        return out
    if public_changed is not None:
        deal_patch = dict(public_changed)
        if old_private is not new_private or old_private is None:
            old_own = old_public if old_private is None else old_private
            new_own = new_public if new_private is None else new_private
            for key in PRIVATE:
                if old_own[key] != new_own[key]:
                    deal_patch[key] = new_own[key]
    else:
        deal_patch = changed(deal_of(basis) or {}, deal_of(parts) or {})
    if deal_patch:
        out["deal_patch"] = deal_patch
    return out


def unmoved(basis: Parts, parts: Parts, last_shared: Any) -> bool:
    """Whether the client's last state was made from the table's last telling and its own parts (you,
    changed, its private fields) stayed as they were: its patch is then the shared and public changes
    alone, the same for every such client, so the frame is made once for all of them."""
    return basis[0] is last_shared and basis[4] is parts[4] and basis[1] == parts[1] and basis[2] == parts[2]


def _whole(parts: Parts) -> dict[str, Any]:
    shared, you, options_changed, _, _ = parts
    return {**shared, "you": you, "changed": options_changed, "deal": deal_of(parts)}


__all__ = ["Observer", "Parts", "changed", "deal_of", "patch_for", "state_patch", "unmoved"]

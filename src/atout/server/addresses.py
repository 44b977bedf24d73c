"""Where registered people connect from: two of them from one address make a game unranked."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol

from .kinds import SeatKind
from .results import registered


class Seated(Protocol):
    """What the book reads of a seat (a table's ``Seat``): who sits there and whether they left."""

    @property
    def kind(self) -> SeatKind: ...
    @property
    def player(self) -> str | None: ...
    @property
    def abandoned(self) -> bool: ...


ADDRESSES_KEPT = 50
"""Addresses remembered per person: a roaming phone's few, not a flood's thousands."""

PEOPLE_KEPT = 20_000
"""People whose addresses are remembered, the most recently connected: a server running for weeks forgets
who came by long ago (a person at a table now connected lately; one who comes back is noted again)."""


class AddressBook:
    """The addresses this process saw each registered player connect from, this run."""

    def __init__(self) -> None:
        self._seen: OrderedDict[str, set[str]] = OrderedDict()
        self.version = 0  # moves with every address added: answers stand until it moves

    def saw(self, player_id: str, address: str | None) -> None:
        if address is None:
            return
        seen = self._seen.setdefault(player_id, set())
        self._seen.move_to_end(player_id)
        if len(seen) < ADDRESSES_KEPT and address not in seen:
            seen.add(address)
            self.version += 1
        if len(self._seen) > PEOPLE_KEPT:
            self._seen.popitem(last=False)
            self.version += 1

    def shared(self, seats: Sequence[Seated]) -> list[int]:
        """Seats of registered people who share an address with another seated registered person."""
        people = [
            (i, self._seen.get(s.player or "", set()))
            for i, s in enumerate(seats)
            if s.kind == SeatKind.PERSON and not s.abandoned and registered(s.player)
        ]
        out: set[int] = set()
        for k, (i, mine) in enumerate(people):
            for j, theirs in people[k + 1 :]:
                if mine & theirs:
                    out |= {i, j}
        return sorted(out)


__all__ = ["AddressBook"]

"""A guest who registers or logs in: the guest's seats pass to the account (here and, through the
site, on every process), unless that would hand a game's result to an older account or seat one
person twice."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Protocol

from ..kinds import TableStatus
from ..logs import event_log
from ..protocol import ProtocolError
from ..store import StoreError
from ..table import seating

if TYPE_CHECKING:
    from ..room import Room
    from .local import Site
    from .roles import LobbyUpdates


class HandoverHub(Protocol):
    """What handing a guest's seats over uses of its hub (``Hub`` is one)."""

    @property
    def rooms(self) -> dict[str, Room]: ...
    @property
    def site(self) -> Site: ...
    @property
    def lobby(self) -> LobbyUpdates: ...
    def spawn(self, work: Awaitable[Any]) -> None: ...


class Handover:
    """The guest's seats passing to the account they register or log in to."""

    def __init__(self, hub: HandoverHub) -> None:
        self.hub = hub

    def seats_on_site(self, player_ids: set[str]) -> dict[str, set[tuple[str, str]]]:
        """Where each of ``player_ids`` sits, or takes a seat at the next deal, anywhere on the site:
        (table, status) pairs."""
        out: dict[str, set[tuple[str, str]]] = {}
        for room in self.hub.rooms.values():
            table = room.table
            if table.status != TableStatus.CLOSED:
                for player in table.people():
                    if player in player_ids:
                        out.setdefault(player, set()).add((table.id, str(table.status)))
        for player, lines in self.hub.site.seated(player_ids).items():
            for table_id, status, _ in lines:
                out.setdefault(player, set()).add((table_id, str(status)))
        return out

    def refused(self, guest: str, account: str, name: str, new: bool) -> ProtocolError | None:
        """Why the guest's seats may not pass to the account (None: they may): a login to an account that
        existed before, while the guest plays a game, would hand that game's result to the account (a
        person could log in only when winning); and one person never holds two seats at a table."""
        seats = self.seats_on_site({guest, account})
        held = seats.get(guest, set())
        playing = sorted(t for t, status in held if status == TableStatus.PLAYING)
        if playing and not new:
            return ProtocolError(
                "guest_playing",
                f"you play a game as a guest at table {playing[0]}: finish it (or "
                "leave it) before you log in; registering a new account keeps "
                "the seat",
            )
        both = sorted({t for t, _ in held} & {t for t, _ in seats.get(account, set())})
        if both:
            return ProtocolError(
                "seated",
                f"{name} has a seat at table {both[0]} already, where you sit as a guest: "
                "one person, one seat (leave one of them first)",
            )
        return None

    async def hand_over(self, guest: str, account: str, name: str, site: bool = True) -> None:
        """The guest's seats at the tables run here pass to the account (``seating.hand_over``), and, through
        the site, those run elsewhere. Until a page of the account follows the table the seat counts as a
        connection lost: the page that registered reloads and its ``join`` is the return (a page that never
        comes back is absent, then abandons, as any)."""
        if site:
            self.hub.site.handed_over(guest, account, name)
        for room in list(self.hub.rooms.values()):
            table = room.table
            if table.status == TableStatus.CLOSED or guest not in table.people():
                continue
            try:
                await room.request(None, lambda b: seating.hand_over(b, guest, account, name))
            except (ProtocolError, StoreError) as err:  # the account sits there too, or the table is paused
                event_log(event="handover_failed", table=room.id, error=str(err))
                continue
            self.hub.lobby.update(room)

    def handed_over(self, guest: str, account: str, name: str) -> None:
        """Another process's news of a handover (``hand_over``): the tables run here, in the background."""
        self.hub.spawn(self.hand_over(guest, account, name, site=False))

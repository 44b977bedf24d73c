"""The requests a person makes of a table run here: each checked against who asks, then taken in the
table's turn by its room (``room.py``), which stores what it makes and tells every follower."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from ...bots.hint import hint
from ..features import ledger
from ..features.analysis import SEED
from ..features.limits import Budget
from ..kinds import SeatKind, TableStatus
from ..options import TableOptions
from ..protocol import (
    Away,
    Back,
    Cancel,
    Chat,
    Claim,
    HintAsk,
    Invite,
    Join,
    Leave,
    Options,
    ProtocolError,
    Review,
    Robot,
    Seen,
    Sit,
    Start,
    Unrobot,
    Vote,
)
from ..review import published
from ..room import Room, presence
from ..table import Batch, play, seating, votes
from ..told import DealReview, DealReviewAnswer, HintAnswer
from .connection import Connection

if TYPE_CHECKING:
    from ..clock import Clock
    from ..store import Store
    from .config import Config
    from .roles import Identities, LobbyUpdates


class TablesHub(Protocol):
    """What a table's requests use of their hub (``Hub`` is one)."""

    @property
    def rooms(self) -> dict[str, Room]: ...
    @property
    def store(self) -> Store: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def config(self) -> Config: ...
    @property
    def identity(self) -> Identities: ...
    @property
    def lobby(self) -> LobbyUpdates: ...
    @property
    def accounts(self) -> Any: ...
    async def spend(self, conn: Connection, budget: Budget) -> None: ...


class TableRequests:
    """A table's requests, handed to its room."""

    def __init__(self, hub: TablesHub) -> None:
        self.hub = hub

    def room(self, table_id: str) -> Room:
        room = self.hub.rooms.get(table_id)
        if room is None or room.table.status == TableStatus.CLOSED:
            raise ProtocolError("no_table", f"no open table {table_id!r}")
        return room

    async def on_claim(self, conn: Connection, m: Claim) -> None:
        room = self.room(m.table)
        player = conn.who
        await self.check_chips(room.table.options, [(player.id, player.name)])

        def claim(b: Batch) -> None:
            seating.claim(b, player.id, player.name, self.hub.identity.master_friends(b.table))

        await room.request(conn, claim, m.ref, follows=True)

    async def on_join(self, conn: Connection, m: Join) -> None:
        room = self.room(m.table)
        table = room.table
        if not self.hub.lobby.admits(table, conn):
            raise ProtocolError("private", "this table is private: only invited people may watch or sit")
        if room.viewer(conn) is None and not table.options.spectators:
            raise ProtocolError("no_spectators", "this table does not allow spectators")
        await room.join(conn, m.last_seq)

    async def on_sit(self, conn: Connection, m: Sit) -> None:
        room = self.room(m.table)
        player = conn.who
        await self.check_chips(room.table.options, [(player.id, player.name)])

        def sit(b: Batch) -> None:
            seating.sit(b, player.id, player.name, m.seat, m.seq, self.hub.identity.master_friends(b.table))

        # once accepted, in the table's turn: the sitter hears of its own seat, a refused one nothing
        await room.request(conn, sit, m.ref, follows=True)

    async def on_leave(self, conn: Connection, m: Leave) -> None:
        player = conn.who
        await self.room(m.table).request(conn, lambda b: seating.leave(b, player.id, m.seq), m.ref)

    async def on_robot(self, conn: Connection, m: Robot) -> None:
        player = conn.who
        await self.room(m.table).request(conn, lambda b: seating.add_robot(b, player.id, m.seat, m.level, m.seq), m.ref)

    async def on_unrobot(self, conn: Connection, m: Unrobot) -> None:
        player = conn.who
        await self.room(m.table).request(conn, lambda b: seating.remove_robot(b, player.id, m.seat, m.seq), m.ref)

    async def on_options(self, conn: Connection, m: Options) -> None:
        player = conn.who
        # the master is not told of their own change (the room notes who changed the options)
        await self.room(m.table).request(conn, lambda b: seating.set_options(b, player.id, m.options, m.seq), m.ref)

    async def on_start(self, conn: Connection, m: Start) -> None:
        room = self.room(m.table)
        player = conn.who

        async def start(b: Batch) -> None:
            table = b.table
            same = presence.same_address(room)
            if not same and table.status == TableStatus.WAITING and table.master_player == player.id:
                await self.check_chips(
                    table.options,
                    [
                        (s.player, s.name or "")
                        for s in table.seats
                        if s.kind == SeatKind.PERSON and s.player is not None
                    ],
                )
            b.now = self.hub.clock.now()  # the start is decided now, after the chips were checked
            play.start(b, player.id, m.seq, same)

        await room.request(conn, start, m.ref)

    async def on_back(self, conn: Connection, m: Back) -> None:
        player = conn.who
        await self.room(m.table).request(conn, lambda b: play.back(b, player.id, m.seq), m.ref)

    async def on_cancel(self, conn: Connection, m: Cancel) -> None:
        player = conn.who
        await self.room(m.table).request(conn, lambda b: votes.propose_cancel(b, player.id, m.seq), m.ref)

    async def on_vote(self, conn: Connection, m: Vote) -> None:
        player = conn.who
        await self.room(m.table).request(conn, lambda b: votes.cast_vote(b, player.id, m.accept, m.seq), m.ref)

    async def on_seen(self, conn: Connection, m: Seen) -> None:
        self.room(m.table).seen(conn)

    async def on_away(self, conn: Connection, m: Away) -> None:
        room = self.hub.rooms.get(m.table)
        if room is not None:  # a table closed meanwhile: nothing waits for this page there, and nothing to say
            room.away(conn)

    async def on_chat(self, conn: Connection, m: Chat) -> None:
        room = self.room(m.table)
        player = conn.who
        if conn not in room.followers:
            raise ProtocolError("not_here", "join the table before you chat there")
        await self.hub.spend(conn, Budget.CHAT)
        await room.request(conn, lambda b: seating.say(b, player.id, player.name, m.text), m.ref)

    async def on_invite(self, conn: Connection, m: Invite) -> None:
        """Invite by name: the registered player of that name, or the guests online under it."""
        player = conn.who
        room = self.room(m.table)
        if room.table.master_player != player.id:  # before saying who is online
            raise ProtocolError("not_master", "only the table's master may do that")
        await self.hub.spend(conn, Budget.INVITATION)
        account = await asyncio.to_thread(self.hub.accounts.find, m.name) if self.hub.accounts is not None else None
        targets = {account.id} if account is not None else await self.hub.identity.guests_online(m.name)
        if not targets:
            raise ProtocolError("no_player", f"no player called {m.name!r} is registered or online")
        await room.request(conn, lambda b: seating.invite(b, player.id, m.name, sorted(targets)), m.ref)
        for target in targets:
            self.hub.identity.tell_player(target, {"type": "invitation", "table": m.table, "from": player.name})
        self.hub.lobby.update(room)

    async def on_review(self, conn: Connection, m: Review) -> None:
        """A finished deal of the table's current (or last) game, told whole: to whoever may watch the
        table, and only once the deal has ended (until then its hands are secret)."""
        room = self.room(m.table)
        table = room.table
        if not self.hub.lobby.admits(table, conn):
            raise ProtocolError("private", "this table is private: only invited people may watch or sit")
        if room.viewer(conn) is None and not table.options.spectators:
            raise ProtocolError("no_spectators", "this table does not allow spectators")
        if table.game_id is None or not m.deal <= len(table.records):
            played = len(table.records)
            raise ProtocolError(
                "no_deal",
                f"deal {m.deal} of this table's game is not over (it has {played} "
                "finished): a deal's hands are secret until it ends",
            )
        number = m.deal
        names = [s.name or f"Seat {i + 1}" for i, s in enumerate(table.seats)]
        told = published(
            table.game_id,
            number,
            len(table.records),
            table.records[number - 1],
            table.commitments[number - 1],
            names,
            table.deal_place(number),
        )
        review = DealReview(type="review", table=table.id, **told)
        conn.send(DealReviewAnswer(**review, ref=m.ref) if m.ref else review)

    async def on_hint(self, conn: Connection, m: HintAsk) -> None:
        """The expert's choice for the asker's own seat, and why: the analysis's search of this decision (the
        site's seed and worlds, so the analysis of the deal agrees), from that seat's observation only, in
        the robots' threads. A practice table's only: where a game ranks, a hint would be help from outside."""
        room = self.room(m.table)
        table = room.table
        if table.daily is not None:
            if table.daily.get("tournament") is not None:
                raise ProtocolError("hint_refused", "no hints in a tournament: its tables rank every player")
            raise ProtocolError("hint_refused", "no hints at the daily deal: everyone plays the same deals alone")
        if table.options.competitive:
            raise ProtocolError("hint_refused", "no hints at a competitive table: hints are for practice tables")
        seat = room.viewer(conn)
        deal = table.deal
        if seat is None:
            raise ProtocolError("not_seated", "a hint is for a player at the table")
        if m.seq != table.seq or deal is None or deal.to_act != seat:
            raise ProtocolError("not_your_turn", "a hint is for your turn, as the table stands now", seq=table.seq)
        await self.hub.spend(conn, Budget.HINT)
        table = room.table  # as it stands after the spending's wait
        deal = table.deal
        if m.seq != table.seq or deal is None or deal.to_act != seat:
            raise ProtocolError("not_your_turn", "a hint is for your turn, as the table stands now", seq=table.seq)
        observation, index, seq = deal.observation(seat), len(deal.history), table.seq
        factor = self.hub.config.analysis_worlds
        loop = asyncio.get_running_loop()
        found = await loop.run_in_executor(room.services.thinking, lambda: hint(observation, index, SEED, factor))
        answer = HintAnswer(type="hint", table=table.id, seq=seq, **found.to_json())  # type: ignore[typeddict-item]
        if m.ref:
            answer["ref"] = m.ref
        conn.send(answer)

    async def check_chips(self, options: TableOptions, people: list[tuple[str, str]]) -> None:
        """At a betting table everyone must hold the bet (guests are refused by the table itself)."""
        if not options.bet or not options.competitive:
            return
        ids = [p for p, _ in people if ledger.registered(p)]
        if not ids:
            return

        def read() -> dict[str, int]:
            with self.hub.store.engine.connect() as conn:
                return ledger.balances(conn, ids)

        held = await asyncio.to_thread(read)
        for player, name in people:
            if player in held and held[player] < options.bet:
                raise ProtocolError(
                    "not_enough_chips",
                    f"{name} holds {held[player]} chips, less than this table's bet of {options.bet}",
                    bet=options.bet,
                    balance=held[player],
                    name=name,
                )

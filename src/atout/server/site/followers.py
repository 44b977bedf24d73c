"""Connections that follow a table another process runs: this process's own (their requests go to the
owner over the bus, the frames it makes for them come back), and the stand-ins here of other processes'
connections that follow the tables run here (``RemoteConnection``: what this process tells them goes
back over the bus). Hidden cards are filtered where the table is, as for a local connection."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson

from ..kinds import EventType, TableStatus
from ..player import Player
from ..protocol import ProtocolError, dumps
from .bus import SITE, BusKind, inbox
from .connection import Connection, RemoteConnection

if TYPE_CHECKING:
    from ..room import Room
    from .members import Members

log = logging.getLogger("atout.server")

REJOIN_AGAIN = 2.0
"""A rejoin not answered by its table's ``table`` message is sent again after this long (its owner may
not be back on the bus yet, or moving)."""
REJOIN_GIVE_UP = 120.0
"""A rejoin still unanswered after this long is given up: the page is told to try again itself."""


class Followers:
    """This process's connections following tables elsewhere, and the stand-ins of other processes' here."""

    def __init__(self, site: Members) -> None:
        self.site = site
        self.remote: dict[tuple[str, str], Connection] = {}  # (process, connection id) -> its stand-in here
        self.local: dict[str, Connection] = {}  # connection id -> this process's connections
        # connection id -> {table: the last event number it heard}, for tables run elsewhere: to rejoin from
        self.heard: dict[str, dict[str, int]] = {}
        # (connection id, table) -> (first asked, last sent): a rejoin whose ``table`` message is to come
        self.rejoining: dict[tuple[str, str], tuple[float, float]] = {}

    # ------------------------------------------------------------ this process's connections
    def forward(self, conn: Connection, owner: str, table_id: str, text: str, ref: str | None) -> None:
        """``conn``'s request about ``table_id`` to the process that runs it, ``owner``."""
        self.local[conn.id] = conn
        conn.remote_tables.add(table_id)
        player = conn.who
        self.site.bus.post(
            inbox(owner),
            {
                "kind": BusKind.REQUEST,
                "conn": conn.id,
                "text": text,
                "ref": ref,
                "patches": conn.patches,
                "player": {
                    "id": player.id,
                    "name": player.name,
                    "registered": player.registered,
                    "robot_of": player.robot_of,
                },
                "address": conn.address,
            },
        )

    def follow_elsewhere(self, room: Room) -> None:
        """This process stopped running ``room``'s table: its connections here follow it wherever it runs
        now, from the last event stored (so told here)."""
        told = room.history[-1]["seq"] if room.history else None
        for conn in list(room.followers):
            if isinstance(conn, Connection) and not conn.remote:  # this process's: it follows the table elsewhere
                conn.remote_tables.add(room.id)
                self.local[conn.id] = conn
                if told is not None:
                    self.heard.setdefault(conn.id, {})[room.id] = told

    def closed(self, conn: Connection) -> None:
        """A connection of this process closed: the owners of the tables it followed elsewhere forget it."""
        followed = self.local.pop(conn.id, None) is not None
        self.heard.pop(conn.id, None)
        self.rejoining = {key: at for key, at in self.rejoining.items() if key[0] != conn.id}
        if followed or conn.remote_tables:  # to every process: whichever runs those tables drops its stand-in
            self.site.bus.post(SITE, {"kind": BusKind.GONE, "conn": conn.id})

    def closed_for_home(self, followers: list[Connection], table_id: str) -> None:
        """A table handed home: the connections here that followed it close, and their pages reconnect
        through the proxy to its home."""
        for conn in followers:
            self.local.pop(conn.id, None)
            conn.remote_tables.discard(table_id)
            conn.close_now()

    def frames(self, body: dict[str, Any]) -> None:
        """Frames an owner made for this process's connections, each delivered unless heard already."""
        for conn_id, text in body["frames"]:
            conn = self.local.get(conn_id)
            if conn is not None and self.fresh(conn_id, text):
                conn.deliver(text)

    def fresh(self, conn_id: str, text: str) -> bool:
        """Note the event number a frame from another process brings (an event, or a whole state as of
        one), so that a rejoin asks for the events after it; False for an event heard already (frames in
        flight when the bus came back, then the same in a rejoin's replay, or in a second rejoin's, sent again
        before the first was answered: a table's told numbers only grow, so a number heard is never news)."""
        if not text.startswith(('{"type":"event"', '{"type":"table"')):
            return True
        frame = orjson.loads(text)
        table, seq = frame["table"], frame["seq"]
        tables = self.heard.setdefault(conn_id, {})
        if frame["type"] == "table":  # a rejoin's last frame
            self.rejoining.pop((conn_id, table), None)
        elif seq <= tables.get(table, 0):
            return False
        tables[table] = max(seq, tables.get(table, 0))
        if (
            frame.get("event", {}).get("type") == EventType.CLOSED
            or frame.get("state", {}).get("status") == TableStatus.CLOSED
        ):  # nothing more to follow there
            conn = self.local.get(conn_id)
            if conn is not None:
                conn.remote_tables.discard(table)
        return True

    def undelivered(self, body: dict[str, Any]) -> None:
        """A request the owner never heard (it died, or Redis is down): its sender hears so at once (a
        rejoin of ours is sent again instead, until answered)."""
        if body.get("kind") != BusKind.REQUEST:
            return
        conn = self.local.get(body["conn"])
        if conn is None:
            return
        asked = orjson.loads(body["text"])
        if asked.get("type") == "join" and body.get("ref") is None and (conn.id, asked.get("table")) in self.rejoining:
            return
        conn.send(
            ProtocolError(
                "unavailable", "the server running this table did not answer: try again in a few seconds"
            ).to_json(body.get("ref"))
        )

    async def rejoin(self, table_id: str) -> None:
        """This process's connections that followed ``table_id`` where it ran before follow it again
        where it runs now (here or elsewhere): each gets the events it did not hear, then the whole state
        (a ``table`` message), as a client's own join with ``last_seq`` would."""
        for conn in list(self.local.values()):
            if table_id in conn.remote_tables and not conn.closed:
                await self._rejoin_one(conn, table_id)

    async def rejoin_all(self) -> None:
        """Every table this process's connections follow elsewhere, joined again (frames were lost)."""
        for conn in list(self.local.values()):
            for table_id in sorted(conn.remote_tables):
                if not conn.closed:
                    await self._rejoin_one(conn, table_id)

    async def _rejoin_one(self, conn: Connection, table_id: str) -> None:
        """``conn`` joins ``table_id`` again from the last event it heard: here if the table runs here,
        else at its owner, until the owner's ``table`` message comes (``retry``)."""
        hub = self.site.hub
        join: dict[str, Any] = {"type": "join", "table": table_id}
        last = self.heard.get(conn.id, {}).get(table_id)
        if last is not None:
            join["last_seq"] = last
        if table_id in hub.rooms:
            conn.remote_tables.discard(table_id)
            self.rejoining.pop((conn.id, table_id), None)
            await hub.receive(conn, dumps(join), edge_checked=False)
            return
        now = time.monotonic()
        key = (conn.id, table_id)
        self.rejoining[key] = (self.rejoining.get(key, (now, now))[0], now)
        try:
            owner = await self.site.leases.owner(table_id)
        except Exception:  # the store away: the next retry asks again
            return
        if owner is not None:
            self.forward(conn, owner, table_id, dumps(join), None)

    async def retry(self) -> None:
        """Rejoins still unanswered: sent again; after REJOIN_GIVE_UP, the page hears it should try."""
        now = time.monotonic()
        for (conn_id, table_id), (first, last) in list(self.rejoining.items()):
            conn = self.local.get(conn_id)
            if conn is None or conn.closed or table_id not in conn.remote_tables:
                self.rejoining.pop((conn_id, table_id), None)
            elif now - first > REJOIN_GIVE_UP:
                self.rejoining.pop((conn_id, table_id), None)
                log.warning('{"event":"rejoin_given_up","table":%s}', orjson.dumps(table_id).decode())
                conn.send(ProtocolError("unavailable", "this table's server did not answer: join it again").to_json())
            elif now - last >= REJOIN_AGAIN:
                await self._rejoin_one(conn, table_id)

    def following(self) -> list[str]:
        """This process's connections that follow tables elsewhere."""
        return sorted(c.id for c in self.local.values() if c.remote_tables and not c.closed)

    async def keep_only(self, process: str, conns: list[str]) -> None:
        """``process`` says which of its connections follow tables elsewhere: the stand-ins here of the
        others go (they closed while the bus was down, and their notice was lost)."""
        keep = set(conns)
        for key in [k for k in self.remote if k[0] == process and k[1] not in keep]:
            await self.site.hub.disconnect(self.remote.pop(key))

    # ------------------------------------------------------------ other processes' connections
    async def request(self, body: dict[str, Any]) -> None:
        """Another process's connection asks something of a table run here: through its stand-in."""
        key = (body["from"], body["conn"])
        conn = self.remote.get(key)
        if conn is None:
            conn = RemoteConnection(
                body["conn"],
                body["from"],
                self.site.config,
                body.get("address"),
                self._deliverer(body["from"], body["conn"]),
                bool(body.get("patches")),
                self.site.hub.stats,
            )
            self.remote[key] = conn
        p = body["player"]
        if conn.player is None or conn.player.id != p["id"]:
            conn.player = Player(p["id"], p["name"], registered=p["registered"], robot_of=p.get("robot_of"))
        await self.site.hub.receive(conn, body["text"], edge_checked=True)

    def _deliverer(self, process: str, conn_id: str) -> Callable[[str], None]:
        def deliver(text: str) -> None:
            self.site.bus.send_frame(process, conn_id, text)

        return deliver

    async def gone(self, body: dict[str, Any]) -> None:
        """Another process's connection closed: its stand-in here goes."""
        conn = self.remote.pop((body["from"], body["conn"]), None)
        if conn is not None:
            await self.site.hub.disconnect(conn)

    async def process_gone(self, process: str) -> None:
        """Another process stopped: its connections' stand-ins here go."""
        for key in [k for k in self.remote if k[0] == process]:
            conn = self.remote.pop(key)
            await self.site.hub.disconnect(conn)

    def forget_views(self, process: str | None = None) -> None:
        """Frames to the stand-ins (of ``process``, or all) were lost (the bus was down): each gets whole
        states again."""
        for (where, _), conn in self.remote.items():
            if process is None or where == process:
                conn.forget_views()


__all__ = ["Followers"]

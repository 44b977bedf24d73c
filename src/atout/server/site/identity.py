"""Who a connection is: a hello (a session's account, or a guest's signed token and name), the names
guests hold site-wide, where people are (presence), friends (cached until a friendship changes), and telling
a person something wherever they are connected."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Protocol

from ..features.accounts import NAME, NAME_RULE, name_key, normal_name
from ..features.limits import Budget
from ..features.robot_accounts import TOKEN_PREFIX, token_key
from ..kinds import TableStatus
from ..player import Player
from ..protocol import PROTOCOL_VERSION, Hello, ProtocolError
from ..table import Table, admitted
from ..told import Told
from .connection import Connection

if TYPE_CHECKING:
    from ..addresses import AddressBook
    from ..features.friends import Friends
    from ..features.limits import Limits
    from ..features.robot_accounts import RobotAccounts
    from ..room import Room
    from .config import Config
    from .local import Site
    from .roles import LobbyUpdates


FRIENDS_KEPT = 4096
"""Players whose friends a process keeps in memory, the most recently asked: a server running for weeks
must not hold every player who ever came by (one store read brings any other back)."""


class IdentityHub(Protocol):
    """What knowing who is who uses of its hub (``Hub`` is one)."""

    @property
    def rooms(self) -> dict[str, Room]: ...
    @property
    def connections(self) -> set[Connection]: ...
    @property
    def config(self) -> Config: ...
    @property
    def site(self) -> Site: ...
    @property
    def lobby(self) -> LobbyUpdates: ...
    @property
    def addresses(self) -> AddressBook: ...
    @property
    def limits(self) -> Limits: ...
    @property
    def accounts(self) -> Any: ...
    @property
    def friends(self) -> Friends | None: ...
    @property
    def robots(self) -> RobotAccounts | None: ...


class Identity:
    """Who a connection is, who is online where, and whose friend each is."""

    def __init__(self, hub: IdentityHub) -> None:
        self.hub = hub
        # a registered player's friends, until a friendship changes; the most recently asked FRIENDS_KEPT only
        self.friend_ids: OrderedDict[str, set[str]] = OrderedDict()

    def token_for(self, player_id: str) -> str:
        mac = hmac.new(self.hub.config.secret, player_id.encode(), hashlib.sha256).hexdigest()[:32]
        return f"{player_id}.{mac}"

    def player_from_token(self, token: str) -> str | None:
        if not token.isascii():  # no token of ours is; compare_digest would raise TypeError
            return None
        player_id = token.rpartition(".")[0]
        if player_id and hmac.compare_digest(self.token_for(player_id), token):
            return player_id
        return None

    async def on_hello(self, conn: Connection, m: Hello) -> None:
        if m.protocol != PROTOCOL_VERSION:
            raise ProtocolError("protocol", f"this server speaks protocol {PROTOCOL_VERSION}, not {m.protocol}")
        if conn.player is not None:
            raise ProtocolError("hello_again", "you said hello already")
        conn.patches = m.patches
        if conn.account is None and m.token is not None and m.token.startswith(TOKEN_PREFIX):
            await self.robot_token(conn, m.token)
        robot_of = getattr(conn.account, "robot_of", None)
        if conn.account is not None and robot_of:  # a robot account: its token said who; never online to friends
            conn.player = Player(conn.account.id, conn.account.name, robot_of=robot_of)
            conn.send(
                {
                    "type": "welcome",
                    "protocol": PROTOCOL_VERSION,
                    "you": {
                        "id": conn.account.id,
                        "name": conn.account.name,
                        "registered": False,
                        "robot_of": robot_of,
                    },
                }
            )
            return
        if conn.account is not None:  # a registered player: the session says who
            if not self.connected_here(conn.account.id):
                self.hub.site.player(conn.account.id, online=True)  # their friends see them online, site-wide
                self.tell_friends(conn.account.id, conn.account.name)
            conn.player = Player(conn.account.id, conn.account.name, registered=True)
            self.hub.addresses.saw(conn.account.id, conn.address)
            conn.send(
                {
                    "type": "welcome",
                    "protocol": PROTOCOL_VERSION,
                    "you": {"id": conn.account.id, "name": conn.account.name, "registered": True},
                }
            )
            return
        given = None if m.name is None else normal_name(m.name)
        if given is not None and not NAME.match(given):
            raise ProtocolError("bad_name", f"{given[:40]!r}: {NAME_RULE}")
        if (
            given is not None
            and self.hub.accounts is not None
            and await asyncio.to_thread(self.hub.accounts.find, given)
        ):
            raise ProtocolError("name_taken", f"{given!r} is a registered player's name: log in, or choose another")
        player_id = self.player_from_token(m.token) if m.token else None
        if m.token and player_id is None:
            raise ProtocolError("bad_token", "that token was not given by this server")
        if player_id is None:  # a new identity: the address's budget of them (a script's thousand guests)
            if refused := await self.hub.limits.spend(Budget.GUEST, address=conn.address):
                raise refused.error()
            player_id = "g" + secrets.token_hex(6)
        name = given or self.known_name(player_id) or f"Guest-{int(player_id[1:7], 16) % 10000:04d}"
        if not await self.take_guest_name(name, player_id):
            if given is not None:
                raise ProtocolError(
                    "name_taken",
                    f"a guest called {name!r} is here now (names are the same "
                    "whatever their case or accents): choose another",
                )
            name = f"Guest-{secrets.randbelow(10**6):06d}"  # a name nobody wished for: any free one will do
            if not await self.take_guest_name(name, player_id):
                raise ProtocolError("name_taken", "choose a name")
        conn.player = Player(player_id, name)
        conn.send(
            {
                "type": "welcome",
                "protocol": PROTOCOL_VERSION,
                "you": {"id": player_id, "name": name, "registered": False},
                "token": self.token_for(player_id),
            }
        )

    async def robot_token(self, conn: Connection, token: str) -> None:
        """A robot account's token in the hello (a client that cannot set the Authorization header): the
        connection is the robot's from now on, and closes when the token is revoked."""
        robots = self.hub.robots
        robot = None if robots is None else await asyncio.to_thread(robots.by_token, token)
        if robot is None:
            raise ProtocolError("bad_token", "that robot token is not in force (revoked, or never given)")
        conn.account, conn.session = robot, token_key(token)

    def tell_friends(self, player_id: str, name: str) -> None:
        """A registered player came online here, or left: their friends' pages ask again where they are."""
        for friend in self.friends_of(player_id):
            self.tell_player(friend, {"type": "presence", "name": name})

    def connected_here(self, player_id: str) -> bool:
        return any(c.player is not None and c.player.id == player_id for c in self.hub.connections)

    async def presence(self, viewer: str, player_ids: set[str]) -> dict[str, dict[str, Any]]:
        """Where each of ``player_ids`` is on the site, as ``viewer`` may know it: ``status`` offline,
        online, table (at a table waiting for its game) or playing; ``table`` the id of that table when
        it admits the viewer (a private one may not)."""
        here = {c.player.id for c in self.hub.connections if c.player is not None and c.player.id in player_ids}
        online = here | await self.hub.site.online(player_ids - here)
        seats: dict[str, list[tuple[str, str, bool]]] = {}
        for room in self.hub.rooms.values():
            table = room.table
            if table.status == TableStatus.CLOSED:
                continue
            for player in table.people():
                if player in player_ids:
                    admits = table.admits(viewer, "", self.master_friends(table))
                    seats.setdefault(player, []).append((table.id, table.status, admits))
        for player, lines in self.hub.site.seated(player_ids).items():
            for table_id, status, admit in lines:
                admits = admit is None or admitted(
                    viewer, admit["seated"], admit["invited"], self.friends_of(admit["master"])
                )
                seats.setdefault(player, []).append((table_id, status, admits))
        out: dict[str, dict[str, Any]] = {}
        for player in player_ids:
            tables = sorted(seats.get(player, []), key=lambda x: x[1] != TableStatus.PLAYING)
            if tables:
                table_id, status, admits = tables[0]
                out[player] = {
                    "status": "playing" if status == TableStatus.PLAYING else "table",
                    "table": table_id if admits else None,
                }
            else:
                out[player] = {"status": "online" if player in online else "offline", "table": None}
        return out

    def guests_here(self, name: str) -> set[str]:
        """The ids of the guests connected to this process under ``name`` (any case or accents)."""
        key = name_key(name)
        return {
            c.player.id
            for c in self.hub.connections
            if c.player is not None and not c.player.registered and name_key(c.player.name) == key
        }

    async def guests_online(self, name: str) -> set[str]:
        """The ids of the guests online under ``name`` anywhere on the site."""
        return self.guests_here(name) | await self.hub.site.guests(name)

    async def take_guest_name(self, name: str, player_id: str) -> bool:
        """Hold ``name`` for the guest ``player_id`` while it is online: False if another guest online
        anywhere on the site holds it. The last look, here, is made without yielding, just before the
        caller names the connection: two hellos of this process cannot both pass; the site's holding
        (Redis) stops two of different processes."""
        if self.guests_here(name) - {player_id}:
            return False
        if not await self.hub.site.take_guest_name(name, player_id):
            return False
        if self.guests_here(name) - {player_id}:  # another hello here took it while we asked the site
            if not any(c.player is not None and c.player.id == player_id for c in self.hub.connections):
                self.hub.site.guest(name, player_id, online=False)
            return False
        return True

    def known_name(self, player_id: str) -> str | None:
        for room in self.hub.rooms.values():
            seat = room.table.seat_of(player_id)
            if seat is not None:
                return room.table.seats[seat].name
        return None

    def master_friends(self, table: Table) -> set[str]:
        """The ids of the master's friends (a private table admits them), cached until a friendship changes."""
        return self.friends_of(table.master_player) if table.options.private else set()

    def friends_of(self, player_id: str | None) -> set[str]:
        """A registered player's friends' ids (none for a guest), cached until a friendship changes."""
        if player_id is None or self.hub.friends is None or player_id.startswith("g"):
            return set()
        known = self.friend_ids.get(player_id)
        if known is not None:
            self.friend_ids.move_to_end(player_id)
            return known
        known = self.friend_ids[player_id] = self.hub.friends.ids(player_id)
        if len(self.friend_ids) > FRIENDS_KEPT:  # weeks of players who came by once: the store keeps them
            self.friend_ids.popitem(last=False)
        return known

    def forget_friends(self, *player_ids: str, site: bool = True) -> None:
        """A friendship changed: private tables' lists are shown again to whom they now admit, here and,
        through the site, on every other process (each keeps its own cache of friends)."""
        for player_id in player_ids:
            self.friend_ids.pop(player_id, None)
        for room in self.hub.rooms.values():
            if room.table.options.private and room.table.master_player in player_ids:
                self.hub.lobby.update(room)
        if site:
            self.hub.site.friends_changed(player_ids)

    def tell_player(self, player_id: str, message: Told, site: bool = True) -> None:
        """Send ``message`` to every connection of ``player_id``, wherever they are on the site."""
        for conn in self.hub.connections:
            if conn.player is not None and conn.player.id == player_id:
                conn.send(message)
        if site:
            self.hub.site.tell_player(player_id, message)

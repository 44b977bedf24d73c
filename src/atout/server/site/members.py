"""What the parts of a site of several processes take of it (``followers``, ``leases``, ``remote_lobby``,
``resync``): each is handed ``cluster.RedisSite`` and sees only these, so none of them imports the site that
holds them (no import circle, type-only imports included), as lichess's round collaborators take what they
need, not the round."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..room import Room
    from .bus import RedisBus
    from .config import Config
    from .connection import Connection
    from .local import Host


class LeaseBook(Protocol):
    """The leases, as the followers ask them: which process runs a table."""

    async def owner(self, table_id: str) -> str | None: ...


class FollowerBook(Protocol):
    """The connections that follow tables across processes, as the leases and the resync move them."""

    remote: dict[tuple[str, str], Connection]

    def closed_for_home(self, followers: list[Connection], table_id: str) -> None: ...
    async def rejoin(self, table_id: str) -> None: ...
    async def rejoin_all(self) -> None: ...
    async def retry(self) -> None: ...
    async def keep_only(self, process: str, conns: list[str]) -> None: ...
    def following(self) -> list[str]: ...
    def forget_views(self, process: str | None = None) -> None: ...


class LobbyPosts(Protocol):
    """The lobby lines this process tells the others, as the resync sends them again."""

    def post(self, room: Room) -> None: ...
    def unconfirm(self) -> None: ...
    def drop_unconfirmed(self) -> None: ...


class Members(Protocol):
    """The site, as its parts see it: the hub, the bus, this process's name and slot, and each other part."""

    hub: Host
    bus: RedisBus
    config: Config
    process: str
    slot: int | None
    slots: int | None

    @property
    def leases(self) -> LeaseBook: ...
    @property
    def followers(self) -> FollowerBook: ...
    @property
    def lobby(self) -> LobbyPosts: ...

    async def lost(self, table_id: str, why: str) -> None: ...
    async def process_gone(self, process: str) -> None: ...


__all__ = ["FollowerBook", "LeaseBook", "LobbyPosts", "Members"]

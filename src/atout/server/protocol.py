"""The WebSocket protocol's client messages, typed (docs/protocol.md is their description).

One pydantic model per ``type``; ``parse_message`` turns a frame into one of
them or a ``ProtocolError`` whose code and message say what was wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Annotated, Any, Literal, cast

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .told import Error, SessionEndedMessage

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 8192
MAX_CHAT = 300

TableId = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]
Seq = Annotated[int, Field(ge=0)]
Ref = Annotated[str, Field(max_length=64)]


class ProtocolError(Exception):
    """A refused message: ``code`` for programs, ``message`` for people."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def to_json(self, ref: str | None = None) -> Error:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message, **self.extra}
        if ref is not None:
            out["ref"] = ref
        elif out.get("ref") is None:
            out.pop("ref", None)
        return cast(Error, out)  # with the fields its code names (``extra``) beside those Error types


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)  # strict: "seq": true is no 1
    ref: Ref | None = None


class Hello(_Message):
    type: Literal["hello"]
    protocol: int = PROTOCOL_VERSION
    name: str | None = Field(default=None, max_length=20)
    token: str | None = Field(default=None, max_length=200)
    patches: bool = False  # events carry what changed (patch, deal_patch) instead of the whole state


class Lobby(_Message):
    type: Literal["lobby"]


class Create(_Message):
    type: Literal["create"]
    players: Literal[3, 4, 5]
    options: dict[str, Any] = Field(default_factory=dict)


class Join(_Message):
    type: Literal["join"]
    table: TableId
    last_seq: Seq | None = None


class _TableAction(_Message):
    table: TableId
    seq: Seq


class Sit(_TableAction):
    type: Literal["sit"]
    seat: Annotated[int, Field(ge=0, le=4)]


class Leave(_TableAction):
    type: Literal["leave"]


class Robot(_TableAction):
    type: Literal["robot"]
    seat: Annotated[int, Field(ge=0, le=4)]
    level: str | None = Field(default=None, max_length=32)


class Unrobot(_TableAction):
    type: Literal["unrobot"]
    seat: Annotated[int, Field(ge=0, le=4)]


class Options(_TableAction):
    type: Literal["options"]
    options: dict[str, Any]


class Start(_TableAction):
    type: Literal["start"]


class Act(_TableAction):
    type: Literal["act"]
    action: dict[str, Any]


class Cancel(_TableAction):
    type: Literal["cancel"]


class Vote(_TableAction):
    type: Literal["vote"]
    accept: bool


class Back(_TableAction):
    """Never stale (the robot moves the table on while the person reaches for the button): its ``seq`` is
    the client's, as every table request's, and only one beyond the table's is refused."""

    type: Literal["back"]


class HintAsk(_TableAction):
    """The expert's choice for the asker's seat, and why (a practice table only: docs/protocol.md)."""

    type: Literal["hint"]


class Seen(_Message):
    type: Literal["seen"]
    table: TableId


class Away(_Message):
    """The page left the table for another page of the site (it keeps hearing the table): a new game
    started meanwhile waits for this person longer, and fetches them (docs/server.md)."""

    type: Literal["away"]
    table: TableId


class Chat(_Message):
    type: Literal["chat"]
    table: TableId
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT)]


class Invite(_Message):
    type: Literal["invite"]
    table: TableId
    name: Annotated[str, Field(min_length=1, max_length=40)]


class Quick(_Message):
    type: Literal["quick"]
    players: Literal[3, 4, 5]
    near: TableId | None = None  # the table the page was just looking at: its seat first (site/quick.py)


class Claim(_Message):
    type: Literal["claim"]
    table: TableId


class Review(_Message):
    type: Literal["review"]
    table: TableId
    deal: Annotated[int, Field(ge=1, le=1000)]


class Ping(_Message):
    type: Literal["ping"]


class Daily(_Message):
    type: Literal["daily"]


ClientMessage = Annotated[
    Hello
    | Lobby
    | Create
    | Join
    | Sit
    | Leave
    | Robot
    | Unrobot
    | Options
    | Start
    | Act
    | Cancel
    | Vote
    | Back
    | Seen
    | Away
    | Chat
    | Invite
    | Review
    | Quick
    | Claim
    | Daily
    | Ping
    | HintAsk,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)
MESSAGE_TYPES = (
    "hello", "lobby", "create", "join", "sit", "leave", "robot", "unrobot", "options", "start", "act",
    "cancel", "vote", "back", "seen", "away", "chat", "invite", "review", "quick", "claim", "daily", "ping", "hint",
)  # fmt: skip


class SessionEnd(StrEnum):
    """Why a session ended while a socket it opened was still open."""

    LOGOUT = "logout"  # logged out in this browser (another tab of it)
    EVERYWHERE = "logout_everywhere"
    PASSWORD = "password_changed"  # in another browser: every other session ends
    ENDED = "ended"  # ended from the sessions list, or found over when the server checked
    DELETED = "account_deleted"
    REVOKED = "token_revoked"  # a robot account's token, revoked by its owner


class SessionEnded(BaseModel):
    """Server → client: this socket's session is over; the server closes the socket after it. The page
    is a guest's from now on (it reloads, or connects again without the session)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["session_ended"] = "session_ended"
    why: SessionEnd

    def to_json(self) -> SessionEndedMessage:
        return {"type": self.type, "why": str(self.why)}


def _describe(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"][1:]) or "message"
    return f"{where}: {first['msg']}"


def _ref(data: dict[str, Any]) -> str | None:
    ref = data.get("ref")
    return ref if isinstance(ref, str) and len(ref) <= 64 else None


def ref_of(text: str | bytes) -> str | None:
    """The ``ref`` of a frame refused before it is read (too many messages), for the error to echo:
    None when the frame is too large, not JSON, or has no ref that could be echoed."""
    size = len(text.encode(errors="surrogatepass")) if isinstance(text, str) else len(text)
    if size > MAX_MESSAGE_BYTES:
        return None
    try:
        data = orjson.loads(text)
    except (ValueError, RecursionError):
        return None
    return _ref(data) if isinstance(data, dict) else None


def parse_message(text: str | bytes) -> Any:
    """One client frame as its typed message; ProtocolError names what is wrong."""
    size = len(text.encode(errors="surrogatepass")) if isinstance(text, str) else len(text)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes, not {size}")
    try:
        data = orjson.loads(text)  # strict JSON: no NaN, integers within 64 bits, nesting under 1,024
    except (ValueError, RecursionError) as err:  # orjson.JSONDecodeError is a ValueError
        raise ProtocolError("malformed", f"not JSON: {err}") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message is a JSON object with a type")
    kind = data.get("type")
    ref = _ref(data)
    if kind not in MESSAGE_TYPES:
        raise ProtocolError(
            "unknown_type", f"no message type {str(kind)[:40]!r}; types are {', '.join(MESSAGE_TYPES)}", ref=ref
        )
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as err:
        raise ProtocolError("malformed", f"{kind}: {_describe(err)}", ref=ref) from None


def dumps(message: Mapping[str, Any]) -> str:
    """A server frame: compact JSON (orjson: the server sends a state per viewer per event)."""
    return orjson.dumps(message).decode()


__all__ = [
    "MAX_CHAT",
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "ProtocolError",
    "SessionEnd",
    "SessionEnded",
    "dumps",
    "parse_message",
    "ref_of",
]

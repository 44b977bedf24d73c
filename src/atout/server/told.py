"""What the server tells a client: one TypedDict per outgoing message ``type`` (docs/protocol.md, "Server →
client"), as ``protocol.py`` has one model per incoming one. mypy checks every place that builds one against
its type; at run time they are plain dicts, written as they are (``protocol.dumps``)."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, get_args, get_type_hints

from .review import PublishedDeal

JSON = dict[str, Any]
"""A part the observer makes (a TableView, a TableSummary, an event as a viewer may see it)."""


class You(TypedDict):
    id: str
    name: str
    registered: bool
    robot_of: NotRequired[str]  # a robot account's owner (docs/robot-accounts.md)


class Welcome(TypedDict):
    type: Literal["welcome"]
    protocol: int
    you: You
    token: NotRequired[str]  # a guest's, to come back as the same guest


class LobbyList(TypedDict):
    type: Literal["lobby"]
    tables: list[JSON]


class LobbyTable(TypedDict):
    type: Literal["lobby_table"]
    table: JSON  # a TableSummary, new or changed


class LobbyRemove(TypedDict):
    type: Literal["lobby_remove"]
    table: str


class TableState(TypedDict):
    type: Literal["table"]
    table: str
    seq: int
    state: JSON  # the viewer's whole TableView
    log: NotRequired[list[JSON]]  # to a page that holds nothing yet


class Patch(TypedDict, total=False):
    """A TableView's changes since the client's last one (docs/protocol.md, "Patches")."""

    patch: JSON
    deal_patch: JSON


class Event(Patch):
    type: Literal["event"]
    table: str
    seq: int
    event: JSON
    state: NotRequired[JSON]  # the last event of a request's: the whole state after it (or its patch)
    ref: NotRequired[str]


class Error(TypedDict):
    type: Literal["error"]
    code: str
    message: str
    ref: NotRequired[str]
    # and the fields a code names (``stale``'s ``seq``, ``illegal``'s ``rule``, …): ``ProtocolError.extra``


Invitation = TypedDict("Invitation", {"type": Literal["invitation"], "table": str, "from": str})
"""An invitation to ``table`` from a person's name (``from``, a keyword of Python's: hence this form)."""


class Friend(TypedDict):
    type: Literal["friend"]
    event: Literal["requested", "friends", "accepted", "refused"]
    name: str


class DealReview(PublishedDeal):
    type: Literal["review"]
    table: str


class DealReviewAnswer(DealReview):
    ref: str  # the request's, echoed


class Presence(TypedDict):
    type: Literal["presence"]
    name: str | None  # None: the site lost track of who is online for a moment (Redis away): ask again


class SessionEndedMessage(TypedDict):
    type: Literal["session_ended"]
    why: str


class TournamentRound(TypedDict):
    type: Literal["tournament"]
    tournament: str
    round: int
    table: str


class Called(TypedDict):
    """A game started at a table of yours while your page was elsewhere: come (docs/server.md)."""

    type: Literal["called"]
    table: str


class Pong(TypedDict):
    type: Literal["pong"]


class HintAnswer(TypedDict):
    """The expert's choice for the asker's seat at the table's event ``seq``, and why (``bots.reasons``)."""

    type: Literal["hint"]
    table: str
    seq: int
    action: JSON  # in the record's form, without the seat
    reasons: list[JSON]  # each {kind, its figures, other}: the page words them (hint.js)
    worlds: int  # the worlds searched (0: the only choice)
    poignee_hidden: bool  # a first card whose poignée the expert would keep hidden
    ref: NotRequired[str]


Told = (
    Welcome
    | LobbyList
    | LobbyTable
    | LobbyRemove
    | TableState
    | Event
    | Error
    | Invitation
    | Friend
    | DealReview
    | DealReviewAnswer
    | Presence
    | SessionEndedMessage
    | TournamentRound
    | Called
    | Pong
    | HintAnswer
)
"""Every message a client is told."""

KINDS: tuple[str, ...] = tuple(dict.fromkeys(get_args(get_type_hints(t)["type"])[0] for t in get_args(Told)))
"""Every outgoing ``type``, as docs/protocol.md lists them (``tests/server/test_protocol_doc.py``)."""


__all__ = [
    "JSON",
    "KINDS",
    "Called",
    "DealReview",
    "DealReviewAnswer",
    "Error",
    "Event",
    "Friend",
    "HintAnswer",
    "Invitation",
    "LobbyList",
    "LobbyRemove",
    "LobbyTable",
    "Patch",
    "Pong",
    "Presence",
    "SessionEndedMessage",
    "TableState",
    "Told",
    "TournamentRound",
    "Welcome",
    "You",
]

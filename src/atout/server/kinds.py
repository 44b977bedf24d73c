"""The server's closed sets, as string enums: a table's status, a seat's kind, how a game ended, why it is
unranked, and every event a table stores. The common ground of the server's wings (the engine knows none
of them). A ``StrEnum`` member is its string: the stored rows and the messages keep the same text."""

from __future__ import annotations

from enum import StrEnum


class TableStatus(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    CLOSED = "closed"


class SeatKind(StrEnum):
    EMPTY = "empty"
    PERSON = "person"
    ROBOT = "robot"


class Outcome(StrEnum):
    """How a game ended: played to its end, cancelled by a vote, or deserted (every person left)."""

    FINISHED = "finished"
    CANCELLED = "cancelled"
    DESERTED = "deserted"


class Unranked(StrEnum):
    """Why a game does not count: a practice table, or two registered people from one address."""

    PRACTICE = "practice"
    SAME_ADDRESS = "same_address"


class EventType(StrEnum):
    """Every event a table stores (``server/table``: ``Table.evolve`` applies each one)."""

    CREATED = "created"
    SAT = "sat"
    LEFT = "left"
    MASTER = "master"
    ROBOT = "robot"
    UNROBOT = "unrobot"
    OPTIONS = "options"
    INVITED = "invited"
    GAME_START = "game_start"
    GAME_DEALER = "game_dealer"
    DEAL_START = "deal_start"
    ACTION = "action"
    DEAL_END = "deal_end"
    GAME_END = "game_end"
    CANCEL_END = "cancel_end"
    ABSENT = "absent"
    PRESENT = "present"
    AUTOMATIC = "automatic"
    TIMEOUT = "timeout"
    ABANDON = "abandon"
    CHAT = "chat"
    CANCEL_PROPOSED = "cancel_proposed"
    VOTE = "vote"
    CLOSED = "closed"
    CLAIMED = "claimed"  # a person will take a robot's seat at the next deal (quick play)
    UNCLAIMED = "unclaimed"
    REPLACED = "replaced"  # a person took a robot's seat, between deals
    HANDED = "handed"  # a guest's seat passed to the account they registered (or logged in to) at that browser
    UNRANKED = "unranked"  # the game under way stops counting: two registered people at it share an address


NEVER_CAME = "never came"
"""The ``why`` of an ``abandon`` a game's end records for a person it waited for who never arrived (docs/server.md,
"A new game fetches its people"): absent from the game's first deal, ranked last, never as if they had played."""

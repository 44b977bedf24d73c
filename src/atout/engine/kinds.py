"""The closed sets the engine, the server and the clients' views share, as string enums.

A ``StrEnum`` member is its string, so the JSON and the stored rows keep the same text; code names
the member instead of repeating the literal.
"""

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
    """Every event a table stores (``server/table.py`` evolves each one)."""

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


__all__ = ["EventType", "Outcome", "SeatKind", "TableStatus", "Unranked"]

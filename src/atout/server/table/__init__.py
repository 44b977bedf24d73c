"""The pure table, by job (docs/architecture.md, "The table"): no I/O, no clock of its own.

    state      ``Table``: its state and ``evolve``, the only writer (stored events and runtime facts, with
               their handlers in ``evolving``); the ``Batch`` a request's events are emitted into; refusals
    seating    deciding who sits where: sit, leave, robots, options, invitations, claims, handovers, chat
    play       deciding the game: its start, each action, each deal's end and the game's end
    votes      deciding an amicable end
    clocks     what the table's time brings about, and the connections lost and back that start its clocks
    ending     a game's end (and its bets) as frozen values; ``finisher`` makes the rows the store writes
    observer   ``Observer``: each viewer's events and views, and the patches between them, apart from the state
    seats      a seat, the table's timings

A request is a function of a ``Batch`` (the table, and the request's time): it raises ``ProtocolError``
before any event, or emits its events into the batch, each evolved as it is made.
"""

from . import clocks, play, seating, votes
from .clocks import Deadline, deadlines
from .evolving import EVOLVE, Fact
from .observer import Observer
from .seats import ABANDON_AFTER, ABSENT_AFTER, Seat, Timing, admitted, robot_name
from .state import Batch, Events, Table, decided, rebuilt

__all__ = [
    "ABANDON_AFTER",
    "ABSENT_AFTER",
    "EVOLVE",
    "Batch",
    "Deadline",
    "Events",
    "Fact",
    "Observer",
    "Seat",
    "Table",
    "Timing",
    "admitted",
    "clocks",
    "deadlines",
    "decided",
    "play",
    "rebuilt",
    "robot_name",
    "seating",
    "votes",
]

"""A table at run time (docs/architecture.md, "The room"): the actor and what it runs.

    actor     ``Room``: the table's queue, its requests, committing to the store, following and leaving
    telling   ``Teller``: each follower's events and state or patch, from the table's observer
    history   the events a page missed, the current deal's log
    robots    ``Robots``: a robot's decision, off the event loop, played as a request (``play.play``)
    timer     ``Timer``: asleep until the table's next deadline
    outage    the store away: pause once, roll back, resume once when a write succeeds (``StoreWatch``:
              the process's probe); a write of unknown outcome settled; a refused batch: reload
    resting   whether the room may leave memory: nobody at the table, nothing to come by itself
"""

from ..table import rebuilt
from .actor import Make, Room, Services, Stats
from .history import HISTORY_KEPT
from .resting import vacant

__all__ = ["HISTORY_KEPT", "Make", "Room", "Services", "Stats", "rebuilt", "vacant"]

"""A table at run time (docs/architecture.md, "The room"): the actor and what it runs. Each helper takes of the
room only what it uses (a ``Protocol`` of its own, which ``Room`` is), so none imports the actor.

actor     ``Room``: the table's queue, its requests, committing to the store, following and leaving
services  ``Services``: what a room is given by its process (store, clock, callbacks, counters); ``Make``
telling   ``Teller``: each follower's events and state or patch, from the table's observer
history   the events a page missed, the current deal's log
robots    ``Robots``: a robot's decision, off the event loop, played as a request (``play.play``)
timer     ``Timer``: asleep until the table's next deadline
outage    a batch not stored: roll back at once; the store away: pause once, resume once when a write
          succeeds (``store_watch.StoreWatch``: the process's probe); a write of unknown outcome settled
resting   whether the room may leave memory: nobody at the table, nothing to come by itself
watchdog  ``Watchdog``: the process's look at every table it runs; one that broke its promise (a robot's
          move, a clock, a pause) is logged, counted and run again from its store
"""

from ..table import rebuilt
from .actor import Room
from .history import HISTORY_KEPT
from .resting import vacant
from .services import Make, Services, Stats
from .watchdog import Watchdog

__all__ = ["HISTORY_KEPT", "Make", "Room", "Services", "Stats", "Watchdog", "rebuilt", "vacant"]

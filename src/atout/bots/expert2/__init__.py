"""``expert-2``: the expert as issue 12 left it, frozen as the yardstick for issue 25's robot.

A verbatim copy of the code the expert used then that later work may change: the search, the
rollouts, the world sampler, and the compiled card play and dealing (numba, cached on disk apart
from the live expert's, so its first use on a machine compiles its own copy).  Its rules of
thumb, inference and heuristic are expert-1's frozen copies, identical to the live ones when
expert-2 was frozen.  Do not edit it; freeze a new level instead.
"""

from __future__ import annotations

from .expert import ExpertBot as Expert2Bot

__all__ = ["Expert2Bot"]

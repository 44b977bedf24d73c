"""The engine protocol, "atout-engine 1" (docs/engine-protocol.md): any program that reads and writes one
JSON object a line can sit at a table as a robot.  ``messages`` says what crosses the pipe, ``views`` turns
a decision request back into the seat's ``Observation``, ``host`` runs an engine process as a robot, and
``engine`` makes Atout's own robots speak it (``atout engine --level LEVEL``)."""

from .faults import FAULT_KINDS, EngineFault
from .messages import NAME, VERSION

__all__ = ["FAULT_KINDS", "NAME", "VERSION", "EngineFault"]

"""What can go wrong with an engine, by name: the host's policy is decided per kind."""

from __future__ import annotations

FAULT_KINDS = ("illegal", "malformed", "timeout", "crash")
"""``illegal``: a well-formed action the rules forbid now; ``malformed``: an answer that is no action
message for the request (not JSON, another type or id, no action); ``timeout``: no answer in time;
``crash``: the process ended, or could not be started or written to."""


class EngineFault(Exception):
    """An engine failed a request; ``kind`` is one of ``FAULT_KINDS``, ``message`` says what it did."""

    def __init__(self, kind: str, message: str) -> None:
        assert kind in FAULT_KINDS, kind
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "message": self.message}

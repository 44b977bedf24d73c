"""The server's structured log: one JSON line per table event or incident, on stderr."""

from __future__ import annotations

import json
import logging
from typing import Any

log = logging.getLogger("atout.server")


def event_log(**fields: Any) -> None:
    """One structured log line (JSON) per table event or incident."""
    if log.isEnabledFor(logging.INFO):
        log.info(json.dumps(fields, separators=(",", ":"), ensure_ascii=False, default=str))


__all__ = ["event_log", "log"]

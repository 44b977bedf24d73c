"""The server's log: one JSON object a line, on stderr, with the time and the name of the process that
wrote it, and one structured line per table event or incident (``event_log``).

Several processes of one site write to one journal: without a name, nobody could tell which of them took a
table over; without the time, when. The structured lines are JSON already: the time and the name go in
front of their fields; any other line (a warning, a traceback) becomes such an object too, so that every
line of a log parses.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from typing import Any

import orjson

log = logging.getLogger("atout.server")

_process: str | None = None


def event_log(**fields: Any) -> None:
    """One structured log line (JSON) per table event or incident."""
    if log.isEnabledFor(logging.INFO):
        log.info(json.dumps(fields, separators=(",", ":"), ensure_ascii=False, default=str))


def process_name() -> str:
    """This process's name in its log lines: its pid, or with ``--redis`` its name on the site."""
    return _process or f"pid{os.getpid()}"


def name_process(name: str) -> None:
    """With several processes the site knows each by a name (``/health`` says it, the bus uses it): the
    log lines carry the same."""
    global _process
    _process = name


class LogLine(logging.Formatter):
    """``{"time": "2026-11-25T13:02:03.123Z", "process": "…", …the line's own fields}``."""

    def format(self, record: logging.LogRecord) -> str:
        head = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "process": process_name(),
        }
        if record.levelno != logging.INFO:
            head["level"] = record.levelname.lower()
        message = record.getMessage()
        if message.startswith("{") and message.endswith("}") and not record.exc_info:
            own = message[1:-1]  # a structured line: its fields follow ours, not parsed again
            start = orjson.dumps(head).decode()[:-1]
            return start + ("," + own if own else "") + "}"
        fields: dict[str, Any] = {**head, "logger": record.name, "message": message}
        if record.exc_info:
            fields["error"] = self.formatException(record.exc_info)
        return orjson.dumps(fields, default=str).decode()


def configure(level: str) -> None:
    """Every log line of this process on stderr as a LogLine, from ``level`` up."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(LogLine())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


UVICORN_LOG_CONFIG: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"()": "atout.server.logs.LogLine"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "line", "stream": "ext://sys.stderr"}},
    "loggers": {"uvicorn": {"handlers": ["stderr"], "level": "WARNING", "propagate": False}},
}
"""uvicorn's own lines (a failed start, an error it caught) in the same form."""


__all__ = ["UVICORN_LOG_CONFIG", "LogLine", "configure", "event_log", "log", "name_process", "process_name"]

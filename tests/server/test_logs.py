"""Log lines: one JSON object each, with the time and the name of the process that wrote it (the name the
site knows it by with ``--redis``), so that merged logs tell which process did what, and when."""

from __future__ import annotations

import datetime as dt
import json
import logging
import sys
import time
from pathlib import Path

import pytest

from atout.server import logs

from .helpers import Client
from .test_cluster import Process


def record(message: str, level: int = logging.INFO, exc_info=None) -> logging.LogRecord:
    return logging.LogRecord("atout.server", level, __file__, 1, message, None, exc_info)


def test_a_structured_line_gets_the_time_and_the_process_in_front_of_its_fields(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(logs, "_process", "a1b2c3")
    line = record('{"event":"resumed","table":"T1","seq":4}')
    line.created, line.msecs = 1_764_075_723.25, 250.0
    assert json.loads(logs.LogLine().format(line)) == {
        "time": "2025-11-25T13:02:03.250Z",
        "process": "a1b2c3",
        "event": "resumed",
        "table": "T1",
        "seq": 4,
    }
    warned = json.loads(logs.LogLine().format(record('{"event":"bus_down"}', logging.WARNING)))
    assert warned["level"] == "warning" and warned["event"] == "bus_down" and warned["process"] == "a1b2c3"
    assert json.loads(logs.LogLine().format(record("{}")))["process"] == "a1b2c3"


def test_any_other_line_and_a_traceback_become_one_json_object(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logs, "_process", None)
    try:
        raise ValueError("the reason")
    except ValueError:
        failed = record("request failed", logging.ERROR, sys.exc_info())
    text = logs.LogLine().format(failed)
    assert "\n" not in text  # one line, the traceback inside
    line = json.loads(text)
    assert line["process"].startswith("pid") and line["level"] == "error" and line["message"] == "request failed"
    assert "ValueError: the reason" in line["error"]
    plain = json.loads(logs.LogLine().format(record('not {json}: "quoted"')))
    assert plain["message"] == 'not {json}: "quoted"' and "level" not in plain


def log_lines(process: Process) -> list[dict]:
    text = process.log.read_text()
    lines = [json.loads(line) for line in text.splitlines()]  # every line parses
    assert lines, "nothing was logged"
    return lines


async def played_a_little(process: Process) -> None:
    ann = await Client.connect(process.url, "Ann")
    await ann.send({"type": "create", "players": 3, "options": {"deals": 1}})
    await ann.expect("master")
    await ann.close()


def within(lines: list[dict], started: float, ended: float) -> bool:
    times = [dt.datetime.fromisoformat(line["time"].replace("Z", "+00:00")).timestamp() for line in lines]
    return all(started - 1 <= t <= ended + 1 for t in times)


async def test_a_single_process_names_itself_by_its_pid_in_every_line(tmp_path: Path) -> None:
    started = time.time()
    process = Process(None, None, tmp_path, "solo", "--analysis-workers", "1", log_level="info")  # its lines too
    try:
        process.wait_ready()
        await played_a_little(process)
    finally:
        process.stop()
    lines = log_lines(process)
    assert {line["process"] for line in lines} == {f"pid{process.proc.pid}"}
    assert within(lines, started, time.time())
    assert {"created", "sat", "master"} <= {line.get("event") for line in lines}

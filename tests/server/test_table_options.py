"""A table option is declared once (issue 49, items 1 and 2): the checks, the catalogue a page builds its form
from and the protocol's list follow from ``TableOptions``' fields; and an option an upgrade retired, still in
what the store holds, never stops the server from starting nor from serving that table."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
import sqlalchemy as sa

from atout.server.http.app import options_catalogue
from atout.server.options import OPTION_FIELDS, RETIRED, OptionError, TableOptions
from atout.server.store import Store
from atout.server.store.db import table_events, tables

from .helpers import Client, running_server

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_each_option_is_one_field_and_the_catalogue_follows_it() -> None:
    declared = [f.name for f in dataclasses.fields(TableOptions)]
    catalogue = options_catalogue()
    assert [f["name"] for f in catalogue["fields"]] == declared
    assert list(catalogue["values"]) == declared
    defaults = TableOptions().to_json()
    for f in catalogue["fields"]:
        assert f["kind"] in ("choice", "whole", "flag", "level", "rules"), f
        if f["kind"] in ("choice", "flag", "level"):
            assert defaults[f["name"]] == f["values"][0] or f["kind"] == "level", f  # the default first
            for value in f["values"]:  # every value offered is accepted...
                assert getattr(TableOptions().changed(**{f["name"]: value}), f["name"]) == value
        if f["kind"] == "whole":
            low, high = f["values"]
            assert TableOptions().changed(**{f["name"]: low}).to_json()[f["name"]] == low
            assert TableOptions().changed(**{f["name"]: high}).to_json()[f["name"]] == high
            with pytest.raises(OptionError, match=f["name"]):  # ...and one past it refused, naming the option
                TableOptions().changed(**{f["name"]: high + 1})


def test_the_protocol_document_lists_every_option() -> None:
    text = (DOCS / "protocol.md").read_text()
    listed = re.search(r"\n\s+options: \{(\w+: .*?rules):", text, re.S)  # the TableView's options, in order
    assert listed is not None
    assert [f["name"] for f in OPTION_FIELDS] == re.findall(r"(\w+):", listed.group(1) + ":")


def test_stored_options_keep_what_is_still_offered_and_drop_the_rest() -> None:
    good = {"deals": 3, "competitive": False, "turn_seconds": 15, "rules": {"excuse_last_trick": "trick_winner"}}
    assert TableOptions.stored(good) == TableOptions.from_json(good)
    old = {
        **good,
        "retired_option": True,
        "turn_seconds": 7,
        "rules": {"excuse_last_trick": "trick_winner", "gone_rule": "yes"},
    }
    with pytest.raises(OptionError, match="retired_option"):
        TableOptions.from_json({**good, "retired_option": True})  # a person's request is refused, naming it
    kept = TableOptions.stored(old)  # the store's is read as far as it still means something
    assert (kept.deals, kept.competitive, kept.turn_seconds) == (3, False, TableOptions().turn_seconds)
    assert kept.rules == {"excuse_last_trick": "trick_winner"}
    assert TableOptions.stored("not options") == TableOptions()


def test_a_renamed_option_is_read_under_its_new_name(monkeypatch) -> None:
    monkeypatch.setitem(RETIRED, "hand_seconds", "turn_seconds")
    assert TableOptions.stored({"hand_seconds": 45, "deals": 2}).turn_seconds == 45


async def test_a_stored_table_with_a_retired_option_is_served_after_the_upgrade(db_url: str) -> None:
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "Ann")
        await ann.send({"type": "create", "players": 3, "options": {"deals": 3, "competitive": False}})
        table = (await ann.expect("master"))["table"]
        token = ann.token
        await ann.close()
    store = Store(db_url)  # what an older version wrote: an option and a rule this one no longer knows
    try:
        with store.engine.begin() as conn:
            for row in conn.execute(
                sa.select(table_events.c.seq, table_events.c.data).where(table_events.c.table_id == table)
            ).all():
                if "options" in row.data:
                    data = {
                        **row.data,
                        "options": {
                            **row.data["options"],
                            "retired_option": 1,
                            "rules": {**row.data["options"].get("rules", {}), "gone": "x"},
                        },
                    }
                    conn.execute(
                        sa.update(table_events)
                        .where(table_events.c.table_id == table, table_events.c.seq == row.seq)
                        .values(data=data)
                    )
            snapshot = conn.execute(sa.select(tables.c.snapshot).where(tables.c.id == table)).scalar_one()
            if "options" in snapshot:
                snapshot = {**snapshot, "options": {**snapshot["options"], "retired_option": 1}}
                conn.execute(sa.update(tables).where(tables.c.id == table).values(snapshot=snapshot))
    finally:
        store.close()
    async with running_server(db_url) as server:  # starts, and serves the table with what still means something
        back = await Client.connect(server.url, "Ann", token=token)
        await back.send({"type": "join", "table": table})
        await back.expect("table")
        assert back.state["options"]["deals"] == 3 and back.state["options"]["competitive"] is False
        assert "retired_option" not in back.state["options"]
        await back.close()

"""Slots: a table's id names the process a proxy sends its people to, and the takeover order matches."""

from __future__ import annotations

import itertools
from pathlib import Path

from atout.server.site.cluster import RedisSite
from atout.server.site.config import Config
from atout.server.site.proxy import nginx_config, slot_of, successor
from served import answered


def test_a_table_id_names_its_slot_and_only_a_slot() -> None:
    assert slot_of("2-AbCd1234") == 2
    assert slot_of("12-x") == 12
    assert slot_of("AbCd1234") is None  # one process, or --workers: no slot
    assert slot_of("0-x") is None and slot_of("-x") is None and slot_of("2x-y") is None


def test_each_slot_stands_in_for_the_one_before_it_round_the_ring() -> None:
    assert [successor(k, 3) for k in (1, 2, 3)] == [2, 3, 1]
    assert successor(1, 1) == 1


def test_new_tables_carry_the_slot_and_takeovers_go_to_the_slot_the_proxy_uses() -> None:
    site = RedisSite("redis://127.0.0.1:1/0", Config(slot=2, slots=3))  # not connected: only its rules
    assert slot_of(site.new_table_id()) == 2
    assert site.process.startswith("s2-")
    assert site.leases.first_in_line("2-abc")  # its own
    assert site.leases.first_in_line("1-abc")  # slot 1's people come here while 1 is down (nginx: backup)
    assert not site.leases.first_in_line("3-abc")  # slot 3 stands in with slot 1: this one waits
    assert site.leases.first_in_line("abc")  # a table without a slot: anyone
    alone = RedisSite("redis://127.0.0.1:1/0", Config())
    assert slot_of(alone.new_table_id()) is None and alone.leases.first_in_line("3-abc")


def test_the_proxy_routes_each_slot_to_its_process_backed_by_the_next() -> None:
    conf = nginx_config([8001, 8002, 8003], "8000")
    assert '"~^1-" atout_slot_1;' in conf and '"~^3-" atout_slot_3;' in conf
    slot3 = conf.split("upstream atout_slot_3 {")[1].split("}")[0]
    assert "127.0.0.1:8003 max_fails" in slot3 and "127.0.0.1:8001 backup" in slot3
    ws = conf.split("location = /ws {")[1].split("}")[0]
    # a location with headers of its own inherits none: the address, the origin and the upgrade must all be there
    for header in ("Host", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host", "Upgrade", "Connection"):
        assert f"proxy_set_header {header} " in ws
    # behind the proxy every connection comes from it: the cap per address and the slow clients are its job
    assert "limit_conn_zone $binary_remote_addr zone=atout_per_address" in conf
    assert "limit_conn atout_per_address 256;" in conf and "client_header_timeout 10s;" in conf


_LOGS = itertools.count()


def serve(folder: Path, *args: str, printed: bool = False) -> tuple[int, str]:
    """``atout serve *args``, forked from the tests' warm fork server (a new interpreter for each of the five cost
    about 0.3 s of CPU importing the server): its exit code and what it said, in a log of its own."""
    return answered(list(args), {"XDG_DATA_HOME": str(folder)}, folder / f"serve-{next(_LOGS)}.log", printed)


def test_serve_prints_the_proxy_configuration_and_refuses_a_slot_out_of_place(tmp_path: Path) -> None:
    printed = serve(tmp_path, "--port", "8000", "--nginx-config", "8001,8002", printed=True)
    assert printed == (0, nginx_config([8001, 8002], "8000"))  # printed, and nothing said beside it
    code, said = serve(tmp_path, "--nginx-config", "8001,x")
    assert code == 2 and "--nginx-config takes ports" in said
    code, said = serve(tmp_path, "--slot", "2")
    assert code == 2 and "--slot and --slots go together" in said
    code, said = serve(tmp_path, "--slot", "4", "--slots", "3", "--redis", "redis://x", "--db", "postgresql://x/y")
    assert code == 2 and "--slot must be from 1 to --slots" in said
    code, said = serve(tmp_path, "--slot", "1", "--slots", "3", "--db", "postgresql://x/y")
    assert code == 2 and "give --redis" in said

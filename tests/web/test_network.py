"""Friends on the same network (README, "Friends on your network"): ``atout serve --host 0.0.0.0`` listens on
every address of the machine and prints its address on the network; a friend's browser that opens another
address than the host's own plays, its page's origin being the site's own as that friend's request names it
(no ``--origin`` needed).

The friend's browser opens 127.0.0.2, not the network address the line prints: traffic of a test stays on
the loopback range. A server on 127.0.0.1 (the default) does not answer there, one on 0.0.0.0 does, which
is what lets a friend in."""

from __future__ import annotations

import re
import time

import httpx
import pytest

from atout.cli.serve import network_addresses

from .conftest import Site
from .pages import Person


def start_line(site: Site) -> str:
    """The log once ``atout serve`` printed its start line, which it does once the site answers (by a
    thread of its own: a test that saw /health answer may read the log a moment before it)."""
    deadline = time.monotonic() + 120  # bounds a hang only
    while "Atout is open at" not in (log := site.log.read_text()):
        assert time.monotonic() < deadline, f"the start line was never printed: {log[-2000:]}"
        time.sleep(0.02)
    return log


def test_a_friend_reaches_the_table_at_another_address_of_the_machine(browser, tmp_path):
    site = Site(tmp_path, args=("--host", "0.0.0.0"))
    try:
        log = start_line(site)
        if network_addresses():
            printed = re.search(r"on your network at (http://[0-9.]+:[0-9]+)/", log)
            assert printed and not printed[1].startswith("http://127."), log
        other = f"http://127.0.0.2:{site.port}"
        host = Person(browser, site.url, "Hostess").arrive()
        table = host.create(4)
        friend = Person(browser, other, "Friend").arrive()  # another machine would open the printed address
        friend.sit_at(table)
        host.page.wait_for_selector(".seat:has-text('Friend')")
        assert friend.page.evaluate("() => location.origin") == other
        assert not friend.console_errors and not host.console_errors, (friend.console_errors, host.console_errors)
        friend.close()
        host.close()
    finally:
        site.stop()


def test_the_default_server_answers_this_machine_only(tmp_path):
    site = Site(tmp_path)  # --host 127.0.0.1
    try:
        assert httpx.get(f"{site.url}/health", timeout=60).status_code == 200
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"http://127.0.0.2:{site.port}/health", timeout=60)
        assert "this machine only" in start_line(site)
    finally:
        site.stop()


def test_a_page_refused_for_its_address_says_so(browser, tmp_path):
    """One address's sockets are capped (``--sockets-per-address``, 64 by default; 1 here): a second page
    from the same address is refused (1013) and says why, rather than "connection lost"."""
    site = Site(tmp_path, args=("--sockets-per-address", "1"))
    try:
        first = Person(browser, site.url, "First").arrive()
        second = Person(browser, site.url, "Second")
        second.page.goto(site.url)
        second.page.fill("#guest-name", "Second")  # the page opens its socket once it has a name
        second.page.click("form.welcome button[type=submit]")
        second.page.wait_for_selector(".netstatus.busy:has-text('Too many connections from your network')")
        assert first.page.locator(".netstatus").count() == 0  # the first page plays on
        second.close()
        first.close()
    finally:
        site.stop()

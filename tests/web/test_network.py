"""Friends on the same network (README, "Friends on your network"): ``atout serve --host 0.0.0.0`` prints
the machine's address on the network, and a friend's browser that opens it plays, its page's origin
being the site's own as that friend's request names it (no ``--origin`` needed)."""

from __future__ import annotations

import re

import pytest

from atout.cli.serve import network_addresses

from .conftest import Site
from .pages import Person


def test_a_friend_on_the_network_sits_at_the_table_by_the_address_the_start_line_prints(browser, tmp_path):
    if not network_addresses():
        pytest.skip("this machine has no address on a network (no route out): nothing for a friend to reach")
    site = Site(tmp_path, args=("--host", "0.0.0.0"))
    try:
        printed = re.search(r"on your network at (http://[0-9.]+:[0-9]+)/", site.log.read_text())
        assert printed, site.log.read_text()
        assert not printed[1].startswith("http://127.")
        host = Person(browser, site.url, "Hostess").arrive()
        table = host.create(4)
        friend = Person(browser, printed[1], "Friend").arrive()  # another machine would open this address
        friend.sit_at(table)
        host.page.wait_for_selector(".seat:has-text('Friend')")
        assert friend.page.evaluate("() => location.origin") == printed[1]
        assert not friend.console_errors and not host.console_errors
        friend.close()
        host.close()
    finally:
        site.stop()

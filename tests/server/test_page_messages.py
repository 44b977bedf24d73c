"""Every table request the browser client sends through ``TableView.send`` carries ``table`` and ``seq``
(table.js adds them to each): each such type must take both, or every click of it is refused as
``malformed`` (issue 34: ``back`` did not take ``seq``, so *I'm back* never worked)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from atout.server.protocol import parse_message

STATIC = Path(__file__).resolve().parents[2] / "src" / "atout" / "web" / "static"
FIELDS = {
    "sit": {"seat": 1},
    "robot": {"seat": 1, "level": "random"},
    "unrobot": {"seat": 1},
    "options": {"options": {"deals": 3}},
    "act": {"action": {"play": "7H"}},
    "vote": {"accept": True},
}
"""The other fields of each request, as the page fills them."""


def sent_by_the_page() -> set[str]:
    """The types the page sends with ``this.send({ type: ... })`` in table.js or ``view.send({ type: ... })`` in
    the table's modules (table-*.js)."""
    texts = [path.read_text() for path in sorted(STATIC.glob("table*.js"))]
    return {kind for text in texts for kind in re.findall(r'(?:this|view)\.send\(\{ type: "([a-z_]+)"', text)}


def test_every_table_request_the_page_sends_takes_its_table_and_seq() -> None:
    kinds = sent_by_the_page()
    assert {"act", "back", "sit", "start", "vote", "options", "unrobot"} <= kinds  # the reading works
    for kind in sorted(kinds):
        message = {"type": kind, "table": "T1", "seq": 7, "ref": "r1", **FIELDS.get(kind, {})}
        parsed = parse_message(json.dumps(message))  # a ProtocolError (malformed) fails the test
        assert parsed.seq == 7 and parsed.table == "T1", kind

"""``GET /api/options``'s catalogue: the contracts clients name and count come from the engine."""

from __future__ import annotations

import json

from atout.engine import MULTIPLIERS
from atout.engine.kinds import Contract
from atout.server.http.app import options_catalogue


def test_the_catalogue_lists_every_contract_in_rising_order_with_its_multiplier():
    contracts = json.loads(json.dumps(options_catalogue()))["contracts"]
    assert [c["name"] for c in contracts] == ["pass", "prise", "garde", "garde_sans", "garde_contre"]
    assert [c["name"] for c in contracts] == [c.value for c in Contract]
    assert {c["name"]: c["multiplier"] for c in contracts} == {
        "pass": 0,
        "prise": 1,
        "garde": 2,
        "garde_sans": 4,
        "garde_contre": 6,
    }
    assert {i: c["multiplier"] for i, c in enumerate(contracts) if i} == MULTIPLIERS  # the scoring's own


def test_the_table_event_types_are_the_tables_appliers():
    """Every ``EventType`` has its handler in ``Table.evolve`` (a game action, applied by ``evolve`` itself,
    or one of ``EVOLVE``), no handler is left without its type, and no runtime fact bears an event's name."""
    from atout.server.kinds import EventType
    from atout.server.table import EVOLVE, Fact

    assert set(EVOLVE) | {EventType.ACTION} == {t.value for t in EventType}
    assert EventType.ACTION not in EVOLVE
    assert not {f.value for f in Fact} & {t.value for t in EventType}

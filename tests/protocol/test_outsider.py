"""An engine written from docs/engine-protocol.md alone (examples/outsider_engine.py, the standard library
only) plays whole deals through the real protocol, one process per seat, at 3, 4 and 5 players and under the
options that add or change decisions: every phase is met (the petit sec, the bidding, the call at five, the
écart, the chelem, a poignée offered and shown, the play), and every answer is legal."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from atout.arena.engines import close_engines
from atout.engine import Deal, RuleSet, new_deal
from atout.engine.cards import EXCUSE_BIT, TRUMPS, holds_petit_sec
from atout.protocol.host import EngineBot

ROOT = Path(__file__).parents[2]
OUTSIDER = f"{sys.executable} {ROOT / 'examples' / 'outsider_engine.py'}"

CASES = [
    (RuleSet.make(3), {"bidding", "discard", "chelem", "play", "poignee"}),
    (RuleSet.make(4, petit_sec="holder_may_play"), {"petit_sec", "bidding", "discard", "chelem", "play", "poignee"}),
    (RuleSet.make(4, chelem_announce="with_bid"), {"bidding", "discard", "play", "poignee"}),
    (RuleSet.make(5), {"bidding", "call", "discard", "chelem", "play", "poignee"}),
    (RuleSet.make(5, five_players="dealer_sits_out"), {"bidding", "discard", "chelem", "play"}),
]


@pytest.fixture(autouse=True)
def _engines_closed():
    yield
    close_engines()


DEALS = 3
"""The most deals a case may play to meet every phase it expects (the seeds are fixed: it is always the same)."""


def _shows(rules: RuleSet, deal: Deal) -> set[str]:
    """The phases that depend on the cards which ``deal``'s hands can meet: a poignée (a seat holding its
    trumps, the Excuse counting for one), a petit sec (a seat whose only trump is the Petit)."""
    simple = rules.settings.poignees[0][1]
    hands = [deal.hands[s] for s in deal.seats]
    out = set()
    if any((h & TRUMPS).bit_count() + bool(h & EXCUSE_BIT) >= simple for h in hands):
        out.add("poignee")
    if any(holds_petit_sec(h) for h in hands):
        out.add("petit_sec")
    return out


def _deals(rules: RuleSet, wanted: set[str]) -> list[Deal]:
    """From a fixed run of seeds, the first deal whose cards can meet each phase wanted that depends on the
    cards, then others, ``DEALS`` in all."""
    needed = wanted & {"poignee", "petit_sec"}
    out: list[Deal] = []
    for i in range(2000):
        deal = new_deal(rules, i % rules.players, f"outsider/{rules.players}/{i}")
        shows = _shows(rules, deal)
        if shows & needed or (not needed and len(out) < DEALS):
            out.append(deal)
            needed -= shows
        if not needed and len(out) >= DEALS:
            return out
    assert not needed, f"no deal in 2000 seeds can meet {needed}"
    return out


def _play(deal: Deal, bots: list[EngineBot], number: int) -> set[str]:
    """One deal played by the engine processes to its end, through the protocol; the phases met."""
    met: set[str] = set()
    for seat in range(deal.players):
        bots[seat].new_deal(number, deal.dealer, f"outsider-seed/{number}/{seat}")
    while (seat := deal.to_act) is not None:
        obs = deal.observation(seat)
        met.add(str(obs.phase))
        offered = any(type(c).__name__ == "PoigneeFrom" for c in obs.legal)
        action = bots[seat].choose(obs)  # EngineFault on an illegal or malformed answer
        if offered and type(action).__name__ == "Poignee":
            met.add("poignee")
        deal.apply(action, seat=seat)  # IllegalAction on an écart or a poignée the deal refuses
    assert deal.result is not None and deal.result.complete
    result = deal.result.to_json()
    for bot in bots:
        bot.deal_end(number, result, None)
    return met


@pytest.mark.parametrize(
    ("rules", "wanted"),
    CASES,
    ids=lambda x: (
        f"{x.players}-{'-'.join(x.non_default_options().values()) or 'fft'}" if isinstance(x, RuleSet) else ""
    ),
)
def test_an_engine_written_from_the_doc_plays_every_phase(rules, wanted, tmp_path):
    logs = tmp_path / "logs"
    bots = [
        EngineBot(OUTSIDER, rules, s, None, 20.0, logs / f"seat{s}.log", f"outsider seat {s}")
        for s in range(rules.players)
    ]
    try:
        assert {b.engine_name for b in bots} == {"outsider 1.0 (Python)"}
        met: set[str] = set()
        scores = []
        for number, deal in enumerate(_deals(rules, wanted)):
            met |= _play(deal, bots, number)
            assert deal.result is not None
            scores.append((deal.result.void, deal.result.scores))
            if wanted <= met:
                break
        assert wanted <= met, f"phases never met: {sorted(wanted - met)}"
        assert all(b.alive for b in bots)
    finally:
        for bot in bots:
            bot.close()
    for seat in range(rules.players):  # it read deal_end's result.scores, by seat, as the page says
        log = (logs / f"seat{seat}.log").read_text()
        said = [line for line in log.splitlines() if line.startswith("outsider seat")]
        assert said == [
            f"outsider seat {seat}: deal {n} void={v} score={s[seat]}" for n, (v, s) in enumerate(scores)
        ], log
        assert "not JSON" not in log and "Traceback" not in log


def test_the_check_before_a_match_is_a_hello_then_quit(tmp_path, capsys):
    """``atout arena`` tries each engine with a real hello and a quit: the outsider passes it, and a run
    with it as the baseline is free of faults."""
    from atout.cli.main import main

    out = tmp_path / "run.json"
    code = main(
        [
            "arena",
            "--players",
            "4",
            "--deals",
            "1",
            "--seed",
            "outsider",
            "--quiet",
            "--candidate",
            "random",
            "--baseline",
            f"cmd:{OUTSIDER}",
            "--out",
            str(out),
            "--engine-logs",
            str(tmp_path / "logs"),
        ]
    )
    assert code == 0, capsys.readouterr().err
    start = (tmp_path / "logs" / "start.log").read_text()
    assert "starting" in start and "Traceback" not in start
    import json

    assert json.loads(out.read_text())["summary"]["faults"] == {}

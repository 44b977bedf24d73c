"""docs/engine-protocol.md against what the host sends, claim by claim, so the two cannot drift: every field
the page lists is in the real messages and views met at each phase, and every field sent is on the page;
the card codes, the phases, the rule options, the poignée's sizes, the écart's reasons and the result's
fields are the engine's own."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from atout.bots import make_bot
from atout.engine import Phase, RuleSet
from atout.engine.cards import FULL_DECK, codes
from atout.engine.kinds import EcartRefusal
from atout.engine.record import to_record
from atout.engine.rules import OPTIONS, SETTINGS
from atout.protocol.messages import deal_end, decide, hello
from atout.protocol.messages import new_deal as deal_message

from .test_outsider import _deals as deals_meeting

DOC = (Path(__file__).parents[2] / "docs" / "engine-protocol.md").read_text()
RULES = [
    RuleSet.make(3),
    RuleSet.make(4),
    RuleSet.make(4, petit_sec="holder_may_play", chelem_announce="with_bid"),
    RuleSet.make(5),
    RuleSet.make(5, five_players="dealer_sits_out"),
]


def section(heading: str) -> str:
    """The page's text under ``heading`` (a whole line, ``## …`` or ``### …``) up to the next heading."""
    match = re.search(rf"^#+ {re.escape(heading)}\n(.*?)(?=^#+ |\Z)", DOC, re.S | re.M)
    assert match, f"no section {heading!r} in docs/engine-protocol.md"
    return match.group(1)


def rows(text: str, header: str) -> list[list[str]]:
    """The body rows of the table whose header line starts with ``header``, as lists of cells."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    out = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        out.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return out


def names(cell: str) -> list[str]:
    """The backticked names of a cell."""
    return re.findall(r"`([^`]+)`", cell)


def _messages() -> dict[str, list[dict]]:
    """Real messages, as the host sends them, over whole deals at every table and option above: by phase
    for the decisions, and each other message kind."""
    out: dict[str, list[dict]] = {"hello": [], "deal": [], "deal_end": []}
    for rules in RULES:
        wanted = {"poignee", "petit_sec"} if rules.option("petit_sec") == "holder_may_play" else {"poignee"}
        for d, deal in enumerate(deals_meeting(rules, wanted)):
            out["hello"].append(hello(rules, 0, None, 30.0, "seat 0"))
            out["deal"].append(deal_message(d, deal.dealer, "abc"))
            bots = [make_bot("heuristic", f"doc/{d}/{s}") for s in range(rules.players)]
            while (seat := deal.to_act) is not None:
                obs = deal.observation(seat)
                out.setdefault(str(obs.phase), []).append(json.loads(json.dumps(decide(d, obs, None))))
                deal.apply(bots[seat].choose(obs), seat=seat)
            assert deal.result is not None
            out["deal_end"].append(deal_end(d, deal.result.to_json(), to_record(deal, with_seed=False)))
    return out


@pytest.fixture(scope="module")
def sent() -> dict[str, list[dict]]:
    return _messages()


def test_every_field_of_the_view_is_documented_and_sent_at_every_phase(sent):
    documented = [names(r[0])[0] for r in rows(section("The view"), "| field |")]
    assert len(documented) == len(set(documented))
    assert any("poignee_from" in c for r in sent["play"] for c in r["view"]["legal"])
    for phase in ("bidding", "call", "discard", "chelem", "play", "petit_sec"):
        assert sent.get(phase), f"no decision met in phase {phase}"
        for request in sent[phase]:
            assert request["view"]["phase"] == phase and request["view"]["legal"]
            assert set(request["view"]) == set(documented), phase
    phases = [names(r[0])[0] for r in rows(section("Seats, the order of play, the phases"), "| phase |")]
    assert phases == [p.value for p in Phase]


def test_every_message_field_is_documented(sent):
    table = rows(section("Host to engine"), "| message | field |")
    documented: dict[str, set[str]] = {}
    for message, field, _ in table:
        documented.setdefault(names(message)[0], set()).add(names(field)[0])
    kinds = [names(r[0])[0] for r in rows(section("Host to engine"), "| type |")]
    assert kinds == ["hello", "deal", "decide", "deal_end", "quit"]
    sent_decide = [m for phase in Phase if phase != "end" for m in sent.get(str(phase), [])]
    for kind, messages in (
        ("hello", sent["hello"]),
        ("deal", sent["deal"]),
        ("decide", sent_decide),
        ("deal_end", sent["deal_end"]),
    ):
        for message in messages:
            assert message["type"] == kind and set(message) - {"type"} == documented[kind], kind
    result = [names(r[0])[0] for r in rows(section("The result"), "| field |")]
    for message in sent["deal_end"]:
        assert list(message["result"]) == result


def test_the_actions_and_the_choices_are_the_documented_ones(sent):
    choices = section("Choices and answers")
    by_phase: dict[str, set[str]] = {}
    for phase, choice, answer in rows(choices, "| phase |"):
        by_phase.setdefault(names(phase)[0], set()).update(re.findall(r'"(\w+)":', choice + answer))
    for phase, requests in sent.items():
        if phase in by_phase:
            for request in requests:
                for choice in request["view"]["legal"]:
                    assert set(choice) <= by_phase[phase], (phase, choice)
                    for reason in choice.get("refused", {}).values():
                        assert f"`{reason}`" in choices
                    assert not set(choice.get("discard_from", [])) & set(choice.get("refused", {}))
    entries = section("The deal's actions")
    for requests in sent.values():
        for request in requests:
            for entry in request.get("actions", []):
                assert set(entry) <= {"seat", "action", "won"} and f'"{next(iter(entry["action"]))}"' in entries


def test_the_card_codes_options_and_sizes_are_the_engine_s():
    block = re.search(r"```\n(1S .*?)```", section("Cards"), re.S)
    assert block and block.group(1).split() == codes(FULL_DECK)
    options = {names(r[0])[0]: tuple(names(r[1])) for r in rows(section("Rule options"), "| option |")}
    assert options == dict(OPTIONS)
    sizes = rows(section("Choices and answers"), "| poignée |")
    for i, (name, *counts, bonus) in enumerate(sizes):
        for players, count in zip((3, 4, 5), counts, strict=True):
            assert SETTINGS[players].poignees[i] == (names(name)[0], int(count), int(bonus))
    reasons = {"king", "bout", "trump"}  # what ``refused`` may say: the page names these three
    assert reasons <= {r.value for r in EcartRefusal}
    assert all(f"`{r}`" in section("Choices and answers") for r in reasons)


def test_the_seats_speak_from_the_dealer_s_right(sent):
    for phase in ("bidding", "play"):
        for request in sent[phase]:
            view = request["view"]
            n = len(view["hand_sizes"])
            order = [(view["dealer"] + 1 + k) % n for k in range(n)]
            if len(view["seats"]) < n:  # a dealer sitting out
                order.remove(view["dealer"])
            assert view["seats"] == order


def test_the_view_s_fields_hold_what_the_page_says(sent):
    """The claims of "The view" that a program can check: the highest bid so far during the bidding, the
    écart never ``[]`` and ``ecart_laid`` true only once it is, the dog shown from the écart on, the
    called card's holder its own partner in the play, the taker who holds it alone."""
    partnered = 0
    for phase, requests in sent.items():
        if phase not in {p.value for p in Phase}:
            continue
        for request in requests:
            view, actions = request["view"], request["actions"]
            bids = [b for b in view["bids"] if b["bid"] != "pass"]
            assert (view["contract"], view["taker"]) == ((bids[-1]["bid"], bids[-1]["seat"]) if bids else (None, None))
            laid = any("ecart" in a["action"] or "discard" in a["action"] for a in actions)
            assert view["ecart"] != [] and view["ecart_laid"] is laid
            assert (view["ecart"] is not None) == (laid and view["to_act"] == view["taker"])
            assert (view["dog"] is not None) == (laid or phase == "discard")
            assert view["result"] is None and view["void"] is None
            if phase == "play" and view["called"] is not None:
                if view["called"] in view["hand"] and view["to_act"] != view["taker"]:
                    assert view["partner"] == view["to_act"]
                    partnered += 1
                if view["to_act"] == view["taker"] and view["called"] in view["hand"]:
                    assert view["partner"] is None
    assert partnered
    for message in sent["deal_end"]:
        result = message["result"]
        assert sum(result["scores"]) == 0
        if result["void"] is None and message["record"]["players"] == 5 and result["partner"] is not None:
            assert result["scores"][result["taker"]] == 2 * result["unit"] == 2 * result["scores"][result["partner"]]

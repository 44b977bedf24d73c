"""The words of the end-of-deal screen agree with the engine's score."""

from __future__ import annotations

import random
import re

import pytest

from atout.engine import RuleSet, new_deal
from atout.engine.cards import parse_card
from atout.engine.choices import random_action
from atout.engine.kinds import Contract
from atout.tui.text import contract_label, contracts_text, result_text
from atout.tui.widgets import cards_text


def finished(players: int, n: int):
    out = []
    i = 0
    while len(out) < n:
        deal = new_deal(RuleSet(players), i % players, f"text{players}/{i}")
        rng = random.Random(i)
        i += 1
        while not deal.is_over:
            deal.apply(random_action(deal.legal_actions(), rng))
        out.append(deal)
    return out


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_shown_formula_gives_the_unit(players):
    for deal in finished(players, 40):
        result = deal.result
        text = result_text(players, result).plain
        if result.void:
            assert "void" in text
            continue
        line = next(x for x in text.splitlines() if x.startswith("Unit U = "))
        expression, value = line[len("Unit U = ") :].split(" = ")
        assert int(value.split(":")[0].replace("−", "-")) == result.unit
        expression = re.sub(r"petit au bout|poignées?|chelem", "", expression)
        assert eval(expression.replace("×", "*").replace("−", "-")) == result.unit
        assert f"needed {result.target}" in text and f"by {result.margin}" in text
        for score in result.scores:
            assert f"{score:+d}".replace("-", "−") in text
        assert "-" not in text  # one minus sign kind: −
        assert "bout(s)" not in text and ("1 bouts" not in text)


def test_contract_words_and_multipliers_are_the_engines():
    """The terminal names every contract the engine has, by number and by name, with its multiplier."""
    assert [contract_label(n) for n in range(5)] == ["Pass", "Prise", "Garde", "Garde sans", "Garde contre"]
    assert all(contract_label(c.value) == contract_label(c.rank) for c in Contract)
    assert contracts_text() == "Prise ×1, Garde ×2, Garde sans ×4, Garde contre ×6"
    assert [c.multiplier for c in Contract] == [0, 1, 2, 4, 6]


def test_the_dogs_cards_are_spaced_alike_with_no_stray_comma():
    """The dog's box spaces its cards wide: no comma before the gap ("trump 12,  3♠" read as a card left
    out); in a sentence, the trumps' group still ends with a comma."""
    cards = [parse_card(c) for c in ("T12", "3S", "KH", "EX", "5C")]
    assert cards_text(cards, sep="  ").plain == "trump 12  3♠  K♥  Excuse  5♣"
    assert cards_text(cards).plain == "trump 12, 3♠ K♥, Excuse, 5♣"

"""docs/rules.md's facts held to the engine's (issue 46): the rules page and the quick guide show the facts of
``engine/rulebook.py`` (served by ``GET /api/rules``), which reads the engine's constants; this test reads the
document's tables and numbers and compares them with the same facts, so that the document, the page and the
engine cannot drift apart. The page's words carry no number of their own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from atout.engine.calculator import calculate
from atout.engine.rulebook import WORKED, facts

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rules.md").read_text()
STATIC = ROOT / "src" / "atout" / "web" / "static"
MINUS = "\u2212"


def section(number: int) -> str:
    """The text of docs/rules.md's section ``number`` (``## 12. Scoring`` to the next ``## ``)."""
    start = DOC.index(f"\n## {number}. ")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end > 0 else None]


def rows(text: str) -> list[list[str]]:
    """A Markdown table's body rows, cell by cell (the header and the rule line left out)."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def table_after(text: str, marker: str) -> list[list[str]]:
    """The rows of the first table after ``marker`` in ``text``."""
    at = text.index(marker)
    rest = text[text.rfind("\n", 0, at) + 1 :]  # from the marker's own line: it may be the table's head
    rest = rest[0 if rest.startswith("|") else rest.index("\n|") + 1 :]
    block = []
    for line in rest.splitlines():
        if not line.startswith("|"):
            break
        block.append(line)
    return rows("\n".join(block))


def number(text: str) -> float:
    """A number as the document writes it: ``+114``, ``−38`` (a true minus), ``40.5``."""
    return float(text.replace(MINUS, "-").replace("+", "").replace(",", ""))


F = facts()


def test_card_points_and_the_decks_total():
    by_kind = {k["kind"]: k["points"] for k in F["card_points"]}
    doc = {row[0]: (number(row[1]), int(row[2])) for row in table_after(section(1), "Card points")}
    assert doc == {
        "bout, king": (by_kind["bout"], 9),
        "queen": (by_kind["queen"], 7),
        "knight": (by_kind["knight"], 5),
        "jack": (by_kind["jack"], 3),
        "any other card": (by_kind["other"], 1),
    }
    assert by_kind["king"] == by_kind["bout"]
    assert all(half == points * 2 for points, half in doc.values())
    total = re.search(r"The deck totals (\d+) points \((\d+) half-points\)", section(1))
    assert total and int(total.group(1)) == F["deck"]["points"] and int(total.group(2)) == 2 * F["deck"]["points"]
    assert sum(F["card_values"].values()) == F["deck"]["points"]
    assert re.search(r"(\d+) cards: four suits \(.*\) of (\d+) cards,\s+(\d+) trumps", section(1)).groups() == (
        str(F["deck"]["cards"]),
        str(F["deck"]["suit_cards"]),
        str(F["deck"]["trumps"]),
    )


def test_the_targets_by_bouts():
    found = dict(re.findall(r"(\d) (?:bouts )?→ (\d+)", section(1)))
    assert {int(b): int(p) for b, p in found.items()} == {t["bouts"]: t["points"] for t in F["targets"]}


def test_each_table_sizes_settings_and_poignees():
    doc = {row[0]: row[1:] for row in rows(section(2))}
    tables = [F["tables"][n] for n in (3, 4, 5)]
    assert (
        [int(x) for x in doc["cards in hand / tricks"]] == [t["hand"] for t in tables] == [t["tricks"] for t in tables]
    )
    assert [int(x) for x in doc["dog (chien)"]] == [t["dog"] for t in tables]
    assert [int(x) for x in doc["dealt in packets of"]] == [t["packet"] for t in tables]
    sizes = [[int(x) for x in cell.split(" / ")] for cell in doc["poignée simple / double / triple (trumps shown)"]]
    assert sizes == [[p["trumps"] for p in t["poignees"]] for t in tables]
    assert [[p["size"] for p in t["poignees"]] for t in tables] == [["simple", "double", "triple"]] * 3
    bonuses = re.search(r"Bonus: simple (\d+), double (\d+), triple (\d+), never multiplied", section(9))
    assert [int(x) for x in bonuses.groups()] == [p["bonus"] for p in F["tables"][4]["poignees"]]
    assert all([p["bonus"] for p in t["poignees"]] == [p["bonus"] for p in tables[0]["poignees"]] for t in tables)


def test_the_contracts_their_multipliers_and_the_dog():
    doc = rows(section(4))
    assert [int(row[1]) for row in doc] == [c["multiplier"] for c in F["contracts"]]
    assert [row[0].split(" (")[0] for row in doc] == ["Prise", "Garde", "Garde sans le chien", "Garde contre le chien"]
    said = {"taken": ("écart", "as Prise"), "taker": ("counts for the taker",), "defence": ("counts for the defence",)}
    for row, contract in zip(doc, F["contracts"], strict=True):
        assert any(words in row[2] for words in said[contract["dog"]]), (row, contract)


def test_the_score_its_base_the_petit_au_bout_the_chelem_and_the_shares():
    scoring = section(12)
    assert f"U = (W·({F['score']['base']} + m) + PAB)·k + W·H + C" in scoring
    assert f"PAB = +{F['score']['petit_au_bout']} if the taker's side took the petit au" in scoring
    assert f"scores {F['score']['petit_au_bout']} × the contract multiplier" in section(10)
    chelem = {row[0]: number(row[1].split(" ")[0]) for row in rows(section(11))}
    assert chelem == {
        "announced and made": F["score"]["chelem"]["announced_made"],
        "made, not announced": F["score"]["chelem"]["made"],
        "announced and failed": F["score"]["chelem"]["announced_failed"],
        "all tricks won by the defence": F["score"]["chelem"]["defence"],
    }
    shares = {row[0]: row[1:] for row in table_after(scoring, "| players | each defender |")}

    def u(cell: str) -> int | None:
        if cell == "—":
            return None
        k = cell.replace("U", "").replace(MINUS, "-").replace("+", "")
        return int(k + "1" if k in ("", "-") else k)

    seen = {name: [u(c) for c in cells] for name, cells in shares.items()}
    t = F["tables"]
    assert seen == {
        "3": [t[3]["shares"]["defender"], t[3]["shares"]["taker"], None],
        "4": [t[4]["shares"]["defender"], t[4]["shares"]["taker"], None],
        "5 with a partner": [
            t[5]["shares_called"]["defender"],
            t[5]["shares_called"]["taker"],
            t[5]["shares_called"]["partner"],
        ],
        "5 alone": [t[5]["shares"]["defender"], t[5]["shares"]["taker"], None],
    }


def test_the_call_at_five_goes_down_king_queen_knight_jack():
    call = " ".join(section(5).split())
    order = [call.index(word) for word in ("calls a King", "may call a Queen", "a Knight", "down to a Jack")]
    assert order == sorted(order)
    assert F["call"] == ["king", "queen", "knight", "jack"]


def test_the_options_and_their_values_in_order():
    doc = [(row[0].strip("`"), [v.strip().strip("`") for v in row[1].split("·")]) for row in rows(section(14))]
    assert doc == [(o["name"], o["values"]) for o in F["options"]]
    assert all(o["values"][0] == o["default"] for o in F["options"])


@pytest.mark.parametrize("index", range(len(WORKED)))
def test_each_worked_example_of_the_document_is_the_calculators(index):
    """The document's worked examples, row by row, are rulebook.WORKED (what the page shows) and score as the
    calculator scores them: U, the taker, the partner and each defender."""
    doc = table_after(section(12), "Worked examples")
    assert len(doc) == len(WORKED)
    row = doc[index]
    facts_ = WORKED[index]
    assert int(row[0]) == index + 1
    assert (int(row[1]), row[2], int(row[3]), number(row[4])) == (
        facts_["players"],
        {"prise": "Prise", "garde": "Garde", "garde_sans": "Garde sans", "garde_contre": "Garde contre"}[
            facts_["contract"]
        ],
        facts_["bouts"],
        facts_["points"],
    )
    result = calculate(dict(facts_))
    roles = result["roles"]
    assert number(row[6].rsplit("=", 1)[1]) == result["unit"]
    assert number(row[7]) == result["scores"][roles.index("taker")]
    assert (row[8] == "—") == ("partner" not in roles)
    if "partner" in roles:
        assert number(row[8]) == result["scores"][roles.index("partner")]
    assert number(row[9]) == result["scores"][roles.index("defender")]
    assert sum(result["scores"]) == 0
    assert [w["facts"] for w in F["worked"]][index] == facts_


def test_the_pages_rule_words_write_no_number_of_their_own():
    """Every number the rules page and the guide show comes from the facts, through a {placeholder}."""
    words = []
    for path in sorted((STATIC / "words").glob("*/rules.js")):  # the rules' words in each language
        words += re.findall(r'"((?:[^"\\]|\\.)*)"', path.read_text().split("export default", 1)[1])
    assert len(words) > 3 * 2 * 200
    with_digits = [w for w in words if re.search(r"\d", w)]
    assert with_digits == []


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_the_tables_result_words_say_the_engines_chelem_bonuses(language):
    """The table's result names each chelem with its bonus (words/*.js): the same as the engine's."""
    text = (STATIC / "words" / f"{language}.js").read_text()
    for outcome, bonus in F["score"]["chelem"].items():
        said = re.search(rf'"result\.chelem\.{outcome}": "[^"]*\(([+{MINUS}−-]\d+)\)"', text)
        assert said, outcome
        assert number(said.group(1)) == bonus, (language, outcome)

"""Words for the terminal game: actions, results and the score sheet, as Rich text."""

from __future__ import annotations

import re

from rich.table import Table
from rich.text import Text

from ..engine import Bid, Call, Chelem, Discard, EcartShown, PetitSecDecision, Play, Poignee
from ..engine.cards import parse_card
from ..engine.kinds import Contract, Void
from ..engine.scoring import Result
from .game import Game, seat_name
from .widgets import card_text, card_word, cards_text, plural, signed

CONTRACT_LABELS = {contract: contract.replace("_", " ").capitalize() for contract in Contract}
"""The engine's contracts in words: ``garde_sans`` is "Garde sans"."""
CHELEM_WORDS = {
    None: "none",
    "announced_made": "announced and made (+400)",
    "made": "made without announcing (+200)",
    "announced_failed": "announced and failed (−200)",
    "defence": "made by the defence (−200 for the taker)",
}


def contract_label(contract: int | str | None) -> str:
    """A contract in words, from the engine's number or name (a record's names are plain strings)."""
    if contract is None:
        return "—"
    if isinstance(contract, int):
        return CONTRACT_LABELS[Contract.of_rank(contract)]
    return CONTRACT_LABELS[Contract(contract)]


def contracts_text() -> str:
    """The contracts with their multipliers, rising: "Prise ×1, Garde ×2, …" (the engine's figures)."""
    return ", ".join(f"{CONTRACT_LABELS[c]} ×{c.multiplier}" for c in Contract if c is not Contract.PASS)


def describe(seat: int, action, name=seat_name) -> Text:
    """One line of the game log for ``seat``'s action."""
    who = name(seat)
    you = who == "You"
    out = Text(who + " ", style="bold")
    if isinstance(action, Bid):
        if action.contract:
            out.append("bid " if you else "bids ")
            out.append(contract_label(action.contract), style="cyan")
        else:
            out.append("pass" if you else "passes", style="cyan")
    elif isinstance(action, Call):
        out.append("call " if you else "calls ")
        out.append_text(card_text(action.card))
    elif isinstance(action, Discard):
        out.append("lay aside " if you else "lays aside ")
        out.append_text(cards_text(action.cards))
    elif isinstance(action, EcartShown):
        out.append("lay aside the écart" if you else "lays aside the écart")
        if action.trumps:
            out.append(", showing trumps ")
            out.append_text(cards_text(action.trumps))
    elif isinstance(action, Chelem):
        out.append("announce" if you else "announces")
        out.append(" a chelem!" if action.announce else " no chelem")
    elif isinstance(action, Poignee):
        out.append("show" if you else "shows")
        out.append(" a poignée: ")
        out.append_text(cards_text(action.cards))
    elif isinstance(action, Play):
        out.append("play " if you else "plays ")
        out.append_text(card_text(action.card))
    elif isinstance(action, PetitSecDecision):
        out.append(("have" if you else "has") + " the petit sec: " + ("redeal" if action.redeal else "play on"))
    else:
        out.append(str(action))
    return out


_CODE = re.compile(r"\b(?:T(?:2[01]|1\d|[1-9])|EX|(?:10|[1-9JNQK])[SHDC])\b")
_SEAT = re.compile(r"\bseat (\d)('s)?")


def rule_words(message: str, name=seat_name) -> str:
    """The engine's reason for a refusal in the screen's words: its record codes (T18, KS, EX)
    become the cards as the table shows them, and seat numbers the players' names."""
    message = _CODE.sub(lambda m: card_word(parse_card(m.group(0))), message)
    return _SEAT.sub(lambda m: name(int(m.group(1))) + (m.group(2) or ""), message)


def hint_words(action) -> str:
    if isinstance(action, Play):
        return f"play {card_word(action.card)}"
    if isinstance(action, Bid):
        return f"bid {contract_label(action.contract)}"
    if isinstance(action, Call):
        return f"call {card_word(action.card)}"
    if isinstance(action, Discard):
        return "lay aside " + cards_text(action.cards).plain
    if isinstance(action, Chelem):
        return "announce a chelem" if action.announce else "announce no chelem"
    if isinstance(action, Poignee):
        return "show the poignée " + cards_text(action.cards).plain
    return str(action)


def result_text(players: int, result: Result, name=seat_name) -> Text:
    """Everything about one deal's outcome, in words."""
    seat_name = name
    out = Text()
    if result.void:
        why = "all passed" if result.void == Void.ALL_PASS else "a player held the petit sec"
        out.append(f"The deal is void: {why}. ", style="bold")
        out.append("It does not count; the next dealer deals.")
        return out
    assert result.taker is not None and result.bouts is not None and result.unit is not None  # not void
    taker = seat_name(result.taker)
    k = result.multiplier or 1
    out.append(f"{taker} took a {contract_label(result.contract)} (×{k})", style="bold")
    if result.partner is not None and result.partner != result.taker:
        out.append(f" with {seat_name(result.partner)} as partner")
    elif players == 5:
        out.append(" alone")
    out.append(".\n")
    out.append(f"Taker's side: {result.points:g} points with {plural(result.bouts, 'bout')}; "
               f"needed {result.target}. ")
    verdict = "MADE" if result.made else "FAILED"
    out.append(f"{verdict} by {result.margin}.\n", style="bold green" if result.made else "bold red")
    w = 1 if result.made else -1
    pab = {"taker": 10, "defence": -10}.get(result.petit_au_bout or "", 0)
    core = f"(25 + {result.margin})" if w > 0 else f"−(25 + {result.margin})"
    if pab:
        core = f"({core} {'+' if pab > 0 else '−'} 10 petit au bout)"
    line = f"Unit U = {core} × {k}"
    bonus = sum(p["bonus"] for p in result.poignees)
    if bonus:
        line += f" {'+' if w > 0 else '−'} {bonus} {'poignée' if len(result.poignees) == 1 else 'poignées'}"
    chelem_bonus = {"announced_made": 400, "made": 200, "announced_failed": -200, "defence": -200}.get(
        result.chelem or "", 0
    )
    if chelem_bonus:
        line += f" {'+' if chelem_bonus > 0 else '−'} {abs(chelem_bonus)} chelem"
    line += f" = {signed(result.unit).lstrip('+')}: each defender scores −U\n"
    out.append(line)
    pab_words = {None: "none", "taker": "won by the taker's side", "defence": "won by the defence"}
    out.append(f"Petit au bout: {pab_words[result.petit_au_bout]}.  ")
    if result.poignees:
        shown = ", ".join(f"{seat_name(p['seat'])} {p['size']} ({p['bonus']})" for p in result.poignees)
        out.append(f"Poignées: {shown}.  ")
    else:
        out.append("Poignées: none.  ")
    out.append(f"Chelem: {CHELEM_WORDS.get(result.chelem, result.chelem)}.\n")
    out.append("This deal: ")
    for seat, score in enumerate(result.scores):
        out.append(f"{seat_name(seat)} {signed(score)}", style="green" if score > 0 else "red" if score < 0 else "")
        out.append("  ")
    return out


def sheet_table(game: Game) -> Table:
    """The running score sheet: one row per counted deal, then the totals."""
    table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("contract")
    for seat in range(game.players):
        table.add_column(seat_name(seat), justify="right")
    for line in game.sheet:
        if line.void:
            table.add_row("", "void", *["" for _ in range(game.players)], style="dim")
            continue
        assert line.taker is not None  # a counted deal had a taker
        what = f"{seat_name(line.taker)} {contract_label(line.contract)} {'✓' if line.made else '✗'}"
        table.add_row(str(line.number), what, *[signed(s) for s in line.scores])
    table.add_row("", "Total", *[signed(t) for t in game.totals], style="bold")
    return table


def ranking_text(game: Game) -> Text:
    out = Text()
    for place, seat, total in game.ranking():
        out.append(f"{place}. {seat_name(seat):<8} {signed(total):>6}\n", style="bold" if seat == 0 else "")
    return out

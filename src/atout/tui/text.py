"""Words for the terminal game: actions, results and the score sheet, as Rich text."""

from __future__ import annotations

import re

from rich.table import Table
from rich.text import Text

from ..bots.expert import NO_POIGNEE
from ..bots.reasons import Reason
from ..engine import Bid, Call, Chelem, Discard, EcartShown, IllegalAction, PetitSecDecision, Play, Poignee
from ..engine.cards import SUIT_SYMBOLS, SUITS, parse_card
from ..engine.kinds import ChelemOutcome, Contract, Void
from ..engine.scoring import BASE, CHELEM_BONUSES, PETIT_AU_BOUT, Result
from .game import HUMAN, Game, seat_name
from .widgets import card_text, card_word, cards_text, signed
from .words import N_, Language, _, language, n_, number, rich

CONTRACT_WORDS = {
    Contract.PASS: N_("Pass"),
    Contract.PRISE: N_("Prise"),
    Contract.GARDE: N_("Garde"),
    Contract.GARDE_SANS: N_("Garde sans"),
    Contract.GARDE_CONTRE: N_("Garde contre"),
}
"""The engine's contracts in words (translated when said): ``garde_sans`` is "Garde sans"."""
CHELEM_WORDS = {
    None: N_("none"),
    "announced_made": N_("announced and made (+400)"),
    "made": N_("made without announcing (+200)"),
    "announced_failed": N_("announced and failed (−200)"),
    "defence": N_("made by the defence (−200 for the taker)"),
}


def contract_label(contract: int | str | None) -> str:
    """A contract in words, from the engine's number or name (a record's names are plain strings)."""
    if contract is None:
        return "—"
    if isinstance(contract, int):
        return _(CONTRACT_WORDS[Contract.of_rank(contract)])
    return _(CONTRACT_WORDS[Contract(contract)])


def contracts_text() -> str:
    """The contracts with their multipliers, rising: "Prise ×1, Garde ×2, …" (the engine's figures)."""
    return ", ".join(f"{contract_label(c.value)} ×{c.multiplier}" for c in Contract if c is not Contract.PASS)


def describe(seat: int, action, name=seat_name) -> Text:
    """One line of the game log for ``seat``'s action: the person's in the second person ("You play"),
    the others' in the third ("Anna plays"), each a whole sentence of the catalogues."""
    who = Text(name(seat), style="bold")
    you = who.plain == seat_name(HUMAN)

    def say(mine: str, theirs: str, **parts: Text | str) -> Text:
        return rich(_(mine) if you else _(theirs), who=who, **parts)

    if isinstance(action, Bid):
        if action.contract:
            return say(
                N_("{who} bid {contract}"),
                N_("{who} bids {contract}"),
                contract=Text(contract_label(action.contract), style="cyan"),
            )
        return say(N_("{who} pass"), N_("{who} passes"))
    if isinstance(action, Call):
        return say(N_("{who} call {card}"), N_("{who} calls {card}"), card=card_text(action.card))
    if isinstance(action, Discard):
        return say(N_("{who} lay aside {cards}"), N_("{who} lays aside {cards}"), cards=cards_text(action.cards))
    if isinstance(action, EcartShown):
        if action.trumps:
            return say(
                N_("{who} lay aside the écart, showing {cards}"),
                N_("{who} lays aside the écart, showing {cards}"),
                cards=cards_text(action.trumps),
            )
        return say(N_("{who} lay aside the écart"), N_("{who} lays aside the écart"))
    if isinstance(action, Chelem):
        if action.announce:
            return say(N_("{who} announce a chelem!"), N_("{who} announces a chelem!"))
        return say(N_("{who} announce no chelem"), N_("{who} announces no chelem"))
    if isinstance(action, Poignee):
        return say(
            N_("{who} show a poignée: {cards}"), N_("{who} shows a poignée: {cards}"), cards=cards_text(action.cards)
        )
    if isinstance(action, Play):
        return say(N_("{who} play {card}"), N_("{who} plays {card}"), card=card_text(action.card))
    if isinstance(action, PetitSecDecision):
        if action.redeal:
            return say(N_("{who} have the petit sec: redeal"), N_("{who} has the petit sec: redeal"))
        return say(N_("{who} have the petit sec: play on"), N_("{who} has the petit sec: play on"))
    return rich("{who} {action}", who=who, action=str(action))


_CODE = re.compile(r"\b(?:T(?:2[01]|1\d|[1-9])|EX|(?:10|[1-9JNQK])[SHDC])\b")
_SEAT = re.compile(r"\bseat (\d)('s)?")


def rule_words(message: str, name=seat_name) -> str:
    """The engine's reason for a refusal in the screen's words: its record codes (T18, KS, EX)
    become the cards as the table shows them, and seat numbers the players' names."""
    message = _CODE.sub(lambda m: card_word(parse_card(m.group(0))), message)
    return _SEAT.sub(lambda m: name(int(m.group(1))) + (m.group(2) or ""), message)


def hint_words(action) -> str:
    """What a robot would do, to end "the expert robot would …"."""
    if isinstance(action, Play):
        return _("play {card}", card=card_word(action.card))
    if isinstance(action, Bid):
        return _("bid {contract}", contract=contract_label(action.contract)) if action.contract else _("pass")
    if isinstance(action, Call):
        return _("call {card}", card=card_word(action.card))
    if isinstance(action, Discard):
        return _("lay aside {cards}", cards=cards_text(action.cards).plain)
    if isinstance(action, Chelem):
        return _("announce a chelem") if action.announce else _("announce no chelem")
    if isinstance(action, Poignee):
        return _("show the poignée {cards}", cards=cards_text(action.cards).plain)
    return str(action)


REASONS = {
    "gain": N_(
        "It wins {gain} points on average over the {worlds} deals searched, against {other} "
        "(95% interval {low} to {high})."
    ),
    "noise": N_(
        "It is {gain} points ahead of {other} over the {worlds} deals searched, within the search's noise "
        "(95% interval {low} to {high})."
    ),
    "even": N_("{other} is as good, over the {worlds} deals searched."),
    "petit": N_(
        "The Petit ends with your side in {chance}% of the deals searched, against {other_chance}% after {other}."
    ),
    "wins": N_("Your side wins the deal in {chance}% of the deals searched, against {other_chance}% after {other}."),
    "voids": N_("It empties your {suits}, which {other} keeps."),
    "only": N_("It is the only sensible choice here."),
}
"""A sentence for each kind of reason (``bots.reasons``): its figures are the search's."""


def other_words(action) -> str:
    """The action a reason compares with, as a noun: ``K♥``, ``Garde``, ``passing``, ``laying aside …``."""
    if action is NO_POIGNEE:
        return _("keeping the poignée hidden")
    if isinstance(action, Play):
        return card_word(action.card)
    if isinstance(action, Bid):
        return contract_label(action.contract) if action.contract else _("passing")
    if isinstance(action, Call):
        return _("calling {card}", card=card_word(action.card))
    if isinstance(action, Discard):
        return _("laying aside {cards}", cards=cards_text(action.cards).plain)
    if isinstance(action, Chelem):
        return _("announcing a chelem") if action.announce else _("announcing no chelem")
    if isinstance(action, Poignee):
        return _("showing the poignée")
    if isinstance(action, PetitSecDecision):
        return _("redealing") if action.redeal else _("playing on")
    return str(action)


def reason_words(reason: Reason) -> str:
    """One reason in a sentence of the current language, every figure from the search."""
    figures = dict(reason.figures)
    for key in ("gain", "low", "high"):
        if key in figures:
            figures[key] = number(figures[key])
    if "suits" in figures:
        figures["suits"] = " ".join(SUIT_SYMBOLS[SUITS.index(s)] for s in figures["suits"])
    other = "" if reason.other is None else other_words(reason.other)
    text = _(REASONS[str(reason.kind)], other=other, **figures)
    return text[:1].upper() + text[1:]  # a sentence that starts with a card: "Trump 8 is as good…"


def refusal_words(err: IllegalAction, deal=None) -> str:
    """The engine's refusal in the person's words: in English the engine's own sentence (its codes as cards);
    in another language the broken rule's sentence (the prompt offers only legal moves: a refusal is rare)."""
    sentence = REFUSALS.get(err.rule)
    if language() is Language.EN or sentence is None:  # the engine's own words say which card and why
        return rule_words(err.message)
    return _(sentence)


REFUSALS = {
    "follow_suit": N_("you must follow the suit led"),
    "overtrump": N_("you must play a higher trump"),
    "must_trump": N_("you must trump"),
    "not_in_hand": N_("you do not hold that card"),
    "out_of_turn": N_("it is not your turn"),
    "ecart_king_or_bout": N_("a king or a bout never goes to the écart"),
    "ecart_size": N_("the écart does not have the right number of cards"),
    "poignee_size": N_("a poignée shows exactly the number of trumps of its size"),
    "poignee_time": N_("a poignée is shown once, just before your first card"),
    "poignee_trumps": N_("a poignée shows only trumps"),
}
"""The rules a person's move can break in the terminal, as the refusal says them."""


LEVELS = {
    "beginner": N_("beginner"),
    "club": N_("club"),
    "heuristic": N_("club"),
    "expert": N_("expert"),
    "random": N_("random"),
    "search": N_("search"),
}
"""The robots' levels in words (heuristic is the club level's other name)."""


def level_word(level: str) -> str:
    return _(LEVELS[level]) if level in LEVELS else level


POIGNEE_SIZES = {"simple": N_("simple"), "double": N_("double"), "triple": N_("triple")}


def poignee_word(size: str) -> str:
    """A poignée's size (the engine's "simple", "double", "triple") in words."""
    return _(POIGNEE_SIZES[size]) if size in POIGNEE_SIZES else size


def result_text(players: int, result: Result, name=seat_name) -> Text:
    """Everything about one deal's outcome, in words."""
    you = _("You")  # the person, as seat_name calls them (a replayed record's "You" too)
    seat_name = name
    out = Text()
    if result.void:
        why = _("all passed") if result.void == Void.ALL_PASS else _("a player held the petit sec")
        out.append(_("The deal is void: {why}. ", why=why), style="bold")
        out.append(_("It does not count; the next dealer deals."))
        return out
    assert (
        result.taker is not None and result.bouts is not None and result.unit is not None and result.points is not None
    )  # not void
    taker = seat_name(result.taker)
    k = result.multiplier or 1
    took = (
        _("You took a {contract} (×{k})", contract=contract_label(result.contract), k=k)
        if taker == you
        else _("{taker} took a {contract} (×{k})", taker=taker, contract=contract_label(result.contract), k=k)
    )
    out.append(took, style="bold")
    if result.partner is not None and result.partner != result.taker:
        partner = seat_name(result.partner)
        out.append(
            " " + (_("with you as partner") if partner == you else _("with {partner} as partner", partner=partner))
        )
    elif players == 5:
        out.append(" " + _("alone"))
    out.append(".\n")
    out.append(
        _(
            "Taker's side: {points} points with {bouts}; needed {target}. ",
            points=number(result.points),
            bouts=n_("{n} bout", "{n} bouts", result.bouts),
            target=result.target,
        )
    )
    verdict = (
        _("MADE by {margin}.", margin=result.margin) if result.made else _("FAILED by {margin}.", margin=result.margin)
    )
    out.append(verdict + "\n", style="bold green" if result.made else "bold red")
    w = 1 if result.made else -1
    pab = {"taker": PETIT_AU_BOUT, "defence": -PETIT_AU_BOUT}.get(result.petit_au_bout or "", 0)
    core = f"({BASE} + {result.margin})" if w > 0 else f"−({BASE} + {result.margin})"
    if pab:
        core = f"({core} {'+' if pab > 0 else '−'} {PETIT_AU_BOUT} {_('petit au bout')})"
    line = _("Unit U = {core} × {k}", core=core, k=k)
    bonus = sum(p["bonus"] for p in result.poignees)
    if bonus:
        line += f" {'+' if w > 0 else '−'} {bonus} {n_('poignée', 'poignées', len(result.poignees))}"
    chelem_bonus = CHELEM_BONUSES[ChelemOutcome(result.chelem)] if result.chelem else 0
    if chelem_bonus:
        line += f" {'+' if chelem_bonus > 0 else '−'} {abs(chelem_bonus)} {_('chelem')}"
    line += " = " + _("{unit}: each defender scores −U", unit=signed(result.unit).lstrip("+")) + "\n"
    out.append(line)
    pab_words = {None: _("none"), "taker": _("won by the taker's side"), "defence": _("won by the defence")}
    out.append(_("Petit au bout: {what}.", what=pab_words[result.petit_au_bout]) + "  ")
    if result.poignees:
        shown = ", ".join(f"{seat_name(p['seat'])} {poignee_word(p['size'])} ({p['bonus']})" for p in result.poignees)
        out.append(_("Poignées: {list}.", list=shown) + "  ")
    else:
        out.append(_("Poignées: {list}.", list=_("none")) + "  ")
    out.append(_("Chelem: {what}.", what=_(CHELEM_WORDS.get(result.chelem) or str(result.chelem))) + "\n")
    out.append(_("This deal:") + " ")
    for seat, score in enumerate(result.scores):
        out.append(f"{seat_name(seat)} {signed(score)}", style="green" if score > 0 else "red" if score < 0 else "")
        out.append("  ")
    return out


def sheet_table(game: Game) -> Table:
    """The running score sheet: one row per counted deal, then the totals."""
    table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column(_("contract"))
    for seat in range(game.players):
        table.add_column(seat_name(seat), justify="right")
    for line in game.sheet:
        if line.void:
            table.add_row("", _("void"), *["" for _seat in range(game.players)], style="dim")
            continue
        assert line.taker is not None  # a counted deal had a taker
        what = f"{seat_name(line.taker)} {contract_label(line.contract)} {'✓' if line.made else '✗'}"
        table.add_row(str(line.number), what, *[signed(s) for s in line.scores])
    table.add_row("", _("Total"), *[signed(t) for t in game.totals], style="bold")
    return table


def ranking_text(game: Game) -> Text:
    out = Text()
    for place, seat, total in game.ranking():
        out.append(f"{place}. {seat_name(seat):<8} {signed(total):>6}\n", style="bold" if seat == 0 else "")
    return out

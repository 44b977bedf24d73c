"""A plain, rule-by-rule reading of docs/rules.md, independent of the engine's bitmask code.

Cards are handled by their canonical codes (``"KS"``, ``"T21"``, ``"EX"``), never by
the engine's numbering, so a numbering slip in the engine cannot hide here.
"""

from __future__ import annotations

from atout.engine.cards import card_code

RANKS = {"J": 11, "N": 12, "Q": 13, "K": 14}
BOUT_CODES = {"T1", "T21", "EX"}
TARGET = {0: 56, 1: 51, 2: 41, 3: 36}
MULT = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
POIGNEE_SIZES = {
    3: {13: ("simple", 20), 15: ("double", 30), 18: ("triple", 40)},
    4: {10: ("simple", 20), 13: ("double", 30), 15: ("triple", 40)},
    5: {8: ("simple", 20), 10: ("double", 30), 13: ("triple", 40)},
}


def kind(code: str) -> str:
    """'EX', 'T' for a trump, else the suit letter."""
    if code == "EX":
        return "EX"
    if code[0] == "T":
        return "T"
    return code[-1]


def rank(code: str) -> int:
    if code == "EX":
        return 0
    if code[0] == "T":
        return int(code[1:])
    return RANKS.get(code[:-1]) or int(code[:-1])


def half_points(code: str) -> int:
    """Points ×2: bouts and kings 4.5, queens 3.5, knights 2.5, jacks 1.5, others 0.5."""
    if code in BOUT_CODES or (code[:-1] == "K" and kind(code) != "T"):
        return 9
    if kind(code) in "SHDC":
        return {"Q": 7, "N": 5, "J": 3}.get(code[:-1], 1)
    return 1


def legal(hand: list[str], trick: list[str], called: str | None = None, first_trick: bool = False) -> set[str]:
    """The cards of ``hand`` that docs/rules.md section 7 (and 5) allow on ``trick``."""
    hand = list(hand)
    if not trick:
        if called is not None and first_trick:
            barred = {c for c in hand if kind(c) == kind(called) and c != called}
            allowed = set(hand) - barred
            return allowed if allowed else set(hand)
        return set(hand)
    led = next((c for c in trick if c != "EX"), None)
    if led is None:  # only the Excuse so far: anything
        return set(hand)
    excuse = {"EX"} & set(hand)
    trumps_in_trick = [rank(c) for c in trick if kind(c) == "T"]
    best = max(trumps_in_trick, default=0)
    my_trumps = [c for c in hand if kind(c) == "T"]
    if kind(led) != "T":
        follow = [c for c in hand if kind(c) == kind(led)]
        if follow:
            return set(follow) | excuse
    if my_trumps:
        higher = [c for c in my_trumps if rank(c) > best]
        return set(higher or my_trumps) | excuse
    return set(hand)


def trick_winner(plays: list[tuple[int, str]]) -> int:
    """Highest trump, else highest card of the suit led; the Excuse never wins."""
    trumps = [(rank(c), s) for s, c in plays if kind(c) == "T"]
    if trumps:
        return max(trumps)[1]
    led = next(c for _, c in plays if c != "EX")
    return max((rank(c), s) for s, c in plays if kind(c) == kind(led))[1]


def expected_result(deal) -> dict:
    """The outcome of a finished deal, recomputed from its tricks and the rules."""
    n = deal.players
    contract = ("pass", "prise", "garde", "garde_sans", "garde_contre")[deal.contract]
    taker = deal.taker
    initial = {s: {card_code(c) for c in range(78) if deal.initial_hands[s] >> c & 1} for s in range(n)}
    called = card_code(deal.called) if deal.called is not None else None
    partner = None
    if called is not None:
        holder = next((s for s in range(n) if called in initial[s]), None)
        partner = holder if holder != taker else None
    side = {s: 0 if s in (taker, partner) else 1 for s in range(n)}
    pts = [0, 0]
    cards_of_side: list[set[str]] = [set(), set()]
    tricks = deal.tricks
    winners_side = []
    for i, t in enumerate(tricks):
        plays = [(s, card_code(c)) for s, c in t.plays]
        last = i == len(tricks) - 1
        winner = trick_winner(plays)
        ex_seat = next((s for s, c in plays if c == "EX"), None)
        excuse_to = None
        if ex_seat is not None:
            owner = side[ex_seat]
            if last:
                if i > 0 and all(w == owner for w in winners_side):
                    winner = ex_seat
                    excuse_to = owner
                elif deal.rules.option("excuse_last_trick") == "trick_winner":
                    excuse_to = side[winner]
                else:
                    excuse_to = 1 - owner
            else:
                excuse_to = owner
                if side[winner] != owner:  # a low card (half a point) changes sides
                    pts[owner] -= 1
                    pts[1 - owner] += 1
        assert t.winner == winner, f"trick {i}: engine says seat {t.winner}, the rules seat {winner}"
        winners_side.append(side[winner])
        for _, c in plays:
            if c == "EX":
                pts[excuse_to] += 9
                cards_of_side[excuse_to].add(c)
            else:
                pts[side[winner]] += half_points(c)
                cards_of_side[side[winner]].add(c)
    ecart = {card_code(c) for c in range(78) if deal.ecart >> c & 1}
    dog = {card_code(c) for c in range(78) if deal.initial_dog >> c & 1}
    extra = [set(ecart), set()]
    if contract == "garde_sans":
        extra[0] |= dog
    elif contract == "garde_contre":
        extra[1] |= dog
    for k in (0, 1):
        pts[k] += sum(half_points(c) for c in extra[k])
        cards_of_side[k] |= extra[k]
    assert pts[0] + pts[1] == 182, "91 points in all"
    assert cards_of_side[0] | cards_of_side[1] == {card_code(c) for c in range(78)}
    assert not cards_of_side[0] & cards_of_side[1]
    bouts = len(cards_of_side[0] & BOUT_CODES)
    target = TARGET[bouts]
    made = pts[0] >= 2 * target
    diff = abs(pts[0] - 2 * target)
    m = (diff + 1) // 2
    w = 1 if made else -1
    # Petit au bout: the last trick, or the next-to-last when the Excuse won the last (chelem).
    pab_trick = len(tricks) - 1
    last_plays = [(s, card_code(c)) for s, c in tricks[-1].plays]
    ex_last = next((s for s, c in last_plays if c == "EX"), None)
    if ex_last is not None and tricks[-1].winner == ex_last:
        pab_trick -= 1
    pab = 0
    if any(card_code(c) == "T1" for _, c in tricks[pab_trick].plays):
        pab = 10 if side[tricks[pab_trick].winner] == 0 else -10
    taker_tricks = winners_side.count(0)
    defence_tricks = winners_side.count(1)
    announced = bool(deal.chelem_announced)
    if defence_tricks == 0:
        c, chelem = (400, "announced_made") if announced else (200, "made")
    elif announced:
        c, chelem = -200, "announced_failed"
    elif taker_tricks == 0:
        c, chelem = -200, "defence"
    else:
        c, chelem = 0, None
    poignees = []
    for seat, action in deal.history:
        if type(action).__name__ == "Poignee":
            size, bonus = POIGNEE_SIZES[len(deal.seats)][action.cards.bit_count()]
            poignees.append({"seat": seat, "size": size, "bonus": bonus})
    h = sum(p["bonus"] for p in poignees)
    k = MULT[contract]
    u = (w * (25 + m) + pab) * k + w * h + c
    scores = [0] * n
    for s in deal.seats:
        scores[s] = -u
    if partner is not None:
        scores[taker], scores[partner] = 2 * u, u
    else:
        scores[taker] = (len(deal.seats) - 1) * u
    assert sum(scores) == 0
    return {
        "complete": True,
        "void": None,
        "taker": taker,
        "contract": contract,
        "partner": partner,
        "bouts": bouts,
        "points": pts[0] / 2,
        "target": target,
        "made": made,
        "margin": m,
        "petit_au_bout": {10: "taker", -10: "defence", 0: None}[pab],
        "poignees": poignees,
        "chelem": chelem,
        "unit": u,
        "scores": scores,
    }


BIDS = ["pass", "prise", "garde", "garde_sans", "garde_contre"]


def legal_bids(best: str, with_bid_chelem: bool) -> list[tuple[str, bool]]:
    """Pass, or any contract above the best so far (section 4)."""
    out = [("pass", False)]
    for name in BIDS[BIDS.index(best) + 1 :]:
        out.append((name, False))
        if with_bid_chelem:
            out.append((name, True))
    return out


def callable_cards(hand: set[str]) -> set[str]:
    """Kings; a queen when holding all four kings; a knight when also all queens; down to jacks."""
    out: set[str] = set()
    for letter in "KQNJ":
        cards = {letter + s for s in "SHDC"}
        out |= cards
        if not cards <= hand:
            break
    return out


def ecart_choices(hand: set[str], dog_size: int) -> set[str]:
    """Never a king or a bout; trumps only when too few other cards."""
    plain = {c for c in hand if kind(c) in "SHDC" and rank(c) != 14}
    if len(plain) >= dog_size:
        return plain
    return plain | {c for c in hand if kind(c) == "T" and c not in BOUT_CODES}


def poignee_offer(trumps: set[str], has_excuse: bool, players_active: int) -> tuple[set[str], dict] | None:
    """The trumps (and the Excuse when it may stand for one) and the sizes that can be shown."""
    sizes = {}
    excuse_needed = False
    for size, (name, _) in POIGNEE_SIZES[players_active].items():
        if len(trumps) >= size:
            sizes[name] = size
        elif has_excuse and len(trumps) == size - 1:
            sizes[name] = size
            excuse_needed = True
    if not sizes:
        return None
    return (set(trumps) | ({"EX"} if excuse_needed else set())), sizes

"""Building exact deals from readable card codes and driving them to the play phase."""

from __future__ import annotations

from atout.engine import (
    GARDE,
    GARDE_CONTRE,
    GARDE_SANS,
    PASS,
    PRISE,
    Bid,
    Call,
    Chelem,
    Deal,
    Discard,
    Play,
    Poignee,
    RuleSet,
)
from atout.engine.cards import DECK_SIZE, card_code, parse_card

__all__ = ["GARDE", "GARDE_CONTRE", "GARDE_SANS", "PASS", "PRISE"]

HAND = {3: 24, 4: 18, 5: 15}
DOG = {3: 6, 4: 6, 5: 3}


def C(code: str) -> int:
    return parse_card(code)


def M(codes: str) -> int:
    """The mask of space-separated card codes, e.g. ``M("KS T21 EX")``."""
    mask = 0
    for code in codes.split():
        card = parse_card(code)
        assert not mask >> card & 1, f"{code} given twice"
        mask |= 1 << card
    return mask


def codes_of(mask: int) -> set[str]:
    return {card_code(c) for c in range(DECK_SIZE) if mask >> c & 1}


def build(
    players: int = 4, hands: dict[int, str] | None = None, dog: str | None = None, dealer: int = 0, **options
) -> Deal:
    """A deal where the given seats hold exactly (at least) the given cards.

    The dog is filled first with the lowest unused suit cards, then the other
    cards go round the seats, so trumps are spread and nobody is left with a
    petit sec unless a test asks for it.
    """
    rules = RuleSet.make(players, **options)
    hands = dict(hands or {})
    active = [s for s in range(players) if not (rules.dealer_sits_out and s == dealer)]
    size = rules.settings.hand_size
    dog_size = rules.settings.dog_size
    masks = [0] * players
    used = 0
    for seat, text in hands.items():
        masks[seat] = M(text)
        assert not used & masks[seat], "a card given to two seats"
        used |= masks[seat]
    dog_mask = M(dog) if dog is not None else 0
    assert not used & dog_mask
    used |= dog_mask
    free = [c for c in range(DECK_SIZE) if not used >> c & 1]
    if dog is None:
        suit_free = [c for c in free if c < 56]
        for c in suit_free[:dog_size]:
            dog_mask |= 1 << c
            free.remove(c)
    assert dog_mask.bit_count() == dog_size, "dog size"
    seat_i = 0
    for c in free:
        for _ in range(len(active)):
            s = active[seat_i % len(active)]
            seat_i += 1
            if masks[s].bit_count() < size:
                masks[s] |= 1 << c
                break
        else:  # pragma: no cover - a bad test layout
            raise AssertionError("too many cards given")
    return Deal(rules, dealer, masks, dog_mask)


def bid_all(deal: Deal, taker: int, contract: int, chelem: bool = False) -> None:
    """Everybody passes but ``taker``, who bids ``contract``."""
    while deal.phase == "bidding":
        seat = deal.to_act
        deal.apply(Bid(contract, chelem) if seat == taker else Bid(PASS), seat)


def to_play(
    deal: Deal,
    taker: int,
    contract: int = GARDE_SANS,
    call: str | None = None,
    discard: str | None = None,
    chelem: bool = False,
) -> Deal:
    """Drive ``deal`` to the first card: bidding, call, écart, chelem decision."""
    bid_all(deal, taker, contract)
    if deal.phase == "call":
        deal.apply(Call(C(call or "KH")), taker)
    if deal.phase == "discard":
        if discard is None:
            allowed = deal.ecart_allowed()
            cards = [c for c in range(DECK_SIZE) if allowed >> c & 1][: deal.settings.dog_size]
            deal.apply(Discard(sum(1 << c for c in cards)), taker)
        else:
            deal.apply(Discard(M(discard)), taker)
    if deal.phase == "chelem":
        deal.apply(Chelem(chelem), taker)
    assert deal.phase == "play", deal.phase
    return deal


def play(deal: Deal, *codes: str) -> None:
    """Play cards in turn order."""
    for code in codes:
        deal.apply(Play(C(code)), deal.to_act)


def show(deal: Deal, codes: str) -> None:
    deal.apply(Poignee(M(codes)), deal.to_act)


def legal_codes(deal: Deal) -> set[str]:
    return {card_code(a.card) for a in deal.legal_actions() if isinstance(a, Play)}


def snapshot(deal: Deal) -> dict:
    """Every slot of the deal but the legal-move cache, deep-copied enough to compare."""
    out = {}
    for name in type(deal).__slots__:
        if name == "_lm" or not hasattr(deal, name):
            continue
        value = getattr(deal, name)
        if isinstance(value, list):
            value = [list(v) if isinstance(v, list) else v for v in value]
        out[name] = value
    return out


def play_out(deal: Deal, rng) -> None:
    """Random legal moves to the end."""
    from atout.engine.choices import random_action

    while deal.phase != "end":
        deal.apply(random_action(deal.legal_actions(), rng), deal.to_act)


def lowest(deal: Deal, legal: list[int]) -> int:
    """The lowest-numbered legal card, the Excuse only when nothing else is legal."""
    plain = [c for c in legal if c != 77]
    return min(plain) if plain else 77


def highest_trump_first(deal: Deal, legal: list[int]) -> int:
    """Lead or play the highest legal trump, else the lowest card; the Excuse last."""
    trumps = [c for c in legal if 56 <= c < 77]
    return max(trumps) if trumps else lowest(deal, legal)


def auto(deal: Deal, policy=lowest, policies: dict | None = None) -> None:
    """Play the cards to the end with a deterministic policy (per seat if ``policies``)."""
    policies = policies or {}
    while deal.phase == "play":
        seat = deal.to_act
        legal = [a.card for a in deal.legal_actions() if isinstance(a, Play)]
        deal.apply(Play(policies.get(seat, policy)(deal, legal)), seat)


def random_game(players: int, seed: int, **options) -> Deal:
    """A whole deal of random legal moves from a numbered seed (redealt until not void)."""
    import random

    from atout.engine import new_deal

    rng = random.Random(seed)
    k = 0
    while True:
        deal = new_deal(RuleSet.make(players, **options), seed % players, f"game-{seed}-{k}")
        k += 1
        play_out(deal, rng)
        if deal.void is None:
            return deal


def find_game(players: int, predicate, tries: int = 3000, **options) -> Deal:
    for seed in range(tries):
        deal = random_game(players, seed, **options)
        if predicate(deal):
            return deal
    raise AssertionError("no random game fits")  # pragma: no cover


def replay_history(deal: Deal, **options) -> Deal:
    """The same deal and actions under other options."""
    other = Deal(
        RuleSet.make(deal.players, **{**deal.rules.options, **options}),
        deal.dealer,
        list(deal.initial_hands),
        deal.initial_dog,
    )
    for seat, action in deal.history:
        other.apply(action, seat)
    return other

"""The deal as a state machine: ``legal_actions()``, ``apply(action)``, ``observation(seat)``.

One ``Deal`` is one authority over one deal.  ``apply`` checks the action
against the rules before it changes anything, so a refused action leaves the
deal exactly as it was.  ``apply`` works in place (bots apply tens of
thousands of actions per decision); ``clone()`` gives an independent copy.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from typing import TYPE_CHECKING, Any

from .actions import (
    PASS,
    PLAYS,
    Action,
    Bid,
    Call,
    Chelem,
    Choice,
    Discard,
    DiscardFrom,
    IllegalAction,
    PetitSecDecision,
    Play,
    Poignee,
    PoigneeFrom,
)
from .cards import (
    DECK_SIZE,
    EXCUSE,
    EXCUSE_BIT,
    FULL_DECK,
    LOW_CARDS,
    SUIT_MASKS,
    TRUMPS,
    _digits,
    codes,
    holds_petit_sec,
    suit_card,
)
from .ecart import ecart_allowed, ecart_faults
from .kinds import Contract, Dog, EcartRefusal, Phase, Void
from .observation import Observation, observe
from .refusal import bid_refusal, call_refusal, describe, expecting, play_refusal
from .rules import RuleSet
from .trick import Trick

if TYPE_CHECKING:
    from .scoring import Result

# The phases by the names the engine's modules have always used (the robots read them too); module
# names are also ten times quicker to look up than ``Phase.PLAY`` on Python 3.11.
PHASE_PETIT_SEC = Phase.PETIT_SEC
PHASE_BIDDING = Phase.BIDDING
PHASE_CALL = Phase.CALL
PHASE_DISCARD = Phase.DISCARD
PHASE_CHELEM = Phase.CHELEM
PHASE_PLAY = Phase.PLAY
PHASE_END = Phase.END

TAKER_SIDE, DEFENCE = 0, 1
CALLABLE_RANKS = (14, 13, 12, 11)
"""What a taker at five may call: a king; a queen when holding all four kings; and so on down to a jack."""

# Mask of trumps strictly above trump card number c (c in 56..76).
_TRUMPS_ABOVE = {c: TRUMPS & ~((1 << (c + 1)) - 1) for c in range(56, 77)}
_TRUMPS_ABOVE[-1] = TRUMPS
# Whole legal masks recur (a suit to follow, the trumps above another), so the
# Play tuples are kept per mask, in a bounded cache. Small: masks recur within a
# deal, and in a long-running server every entry kept is a small object that
# outlives the tables around it and pins its allocator pool (16 KiB): at 100,000
# entries a night's server grew by hundreds of MB (issue 40, benchmarks/long_night.py).
MASK_PLAYS_KEPT = 4096
_MASK_PLAYS: dict[int, tuple[Play, ...]] = {}


def _mask_plays(mask: int) -> tuple[Play, ...]:
    if len(_MASK_PLAYS) > MASK_PLAYS_KEPT:
        _MASK_PLAYS.clear()
    if mask.bit_count() <= 4:  # a few cards: a Python loop beats building the digit string
        out = []
        bits = mask
        while bits:
            low = bits & -bits
            out.append(PLAYS[low.bit_length() - 1])
            bits ^= low
        plays = tuple(out)
    else:
        plays = tuple(compress(PLAYS, _digits(mask)))
    _MASK_PLAYS[mask] = plays
    return plays


# The bids open after each best contract so far, without and with chelem_announce=with_bid.
_BID_CHOICES = tuple(
    tuple(
        tuple(
            [Bid(PASS)] + [b for c in range(best + 1, 5) for b in ((Bid(c), Bid(c, True)) if with_bid else (Bid(c),))]
        )
        for best in range(5)
    )
    for with_bid in (False, True)
)
_CHELEM_CHOICES = (Chelem(False), Chelem(True))
_PLAY_ENTRIES = tuple(tuple((seat, PLAYS[c]) for c in range(DECK_SIZE)) for seat in range(5))


class Deal:
    """One deal of French Tarot, from the deal to the score."""

    __slots__ = (
        "_excuse_debt",
        "_excuse_settled",
        "_led",
        "_lm",
        "_next",
        "_petit_sec_pending",
        "_poignee_seats",
        "_spoken",
        "_taker_chelem_bid",
        "_top_trump",
        "_top_trump_seat",
        "_tricks_won",
        "called",
        "chelem_announced",
        "contract",
        "dealer",
        "dog",
        "dog_shown",
        "ecart",
        "hands",
        "history",
        "initial_dog",
        "initial_hands",
        "is_over",
        "partner",
        "partner_revealed",
        "phase",
        "piles",
        "players",
        "poignees",
        "result",
        "rules",
        "seats",
        "seed",
        "settings",
        "side",
        "taker",
        "to_act",
        "trick",
        "tricks",
        "void",
    )  # fmt: skip

    def __init__(
        self,
        rules: RuleSet,
        dealer: int,
        hands: list[int],
        dog: int,
        seed: str | None = None,
    ) -> None:
        n = rules.players
        if not (isinstance(dealer, int) and 0 <= dealer < n):
            raise ValueError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        _check_deal(rules, dealer, hands, dog)
        self.rules = rules
        self.players = n
        self.dealer = dealer
        self.seed = seed
        order = [(dealer + 1 + k) % n for k in range(n)]
        if rules.dealer_sits_out:
            order.remove(dealer)
        self.seats: tuple[int, ...] = tuple(order)
        nxt = [-1] * n
        for i, seat in enumerate(order):
            nxt[seat] = order[(i + 1) % len(order)]
        self._next = nxt
        self.settings = rules.settings
        self.initial_hands = tuple(hands)
        self.initial_dog = dog
        self.hands = list(hands)
        self.dog = dog
        self.history: list[tuple[int, Action]] = []
        self.void: Void | None = None
        self.contract = PASS
        self.taker: int | None = None
        self._taker_chelem_bid = False
        self._spoken = 0
        self.called: int | None = None
        self.partner: int | None = None
        self.partner_revealed = False
        self.dog_shown = False
        self.ecart = 0
        self.chelem_announced: bool | None = None
        self.poignees: list[tuple[int, int, str, int]] = []
        self._poignee_seats = 0
        self.trick: list[tuple[int, int]] = []
        self._led = -1
        self._top_trump = -1
        self._top_trump_seat = -1
        self.tricks: list[Trick] = []
        self.side = [-1] * n
        self.piles = [0, 0]
        self._tricks_won = [0, 0]
        self._excuse_debt = -1
        self._excuse_settled = 0
        self.result: Result | None = None
        self.is_over = False  # a plain attribute, read once per action by every driver
        self._lm = -1  # cached legal_play_mask(), -1 when stale
        self.to_act: int | None = self.seats[0]
        self.phase = PHASE_BIDDING
        holders = [s for s in self.seats if holds_petit_sec(hands[s])]
        self._petit_sec_pending = holders
        if holders:
            if rules.option("petit_sec") == "redeal":
                self._end_void(Void.PETIT_SEC)
            else:
                self.phase = PHASE_PETIT_SEC
                self.to_act = holders[0]

    # ----------------------------------------------------------------- copies
    def clone(self) -> Deal:
        """An independent copy (lists copied, immutable parts shared)."""
        return _clone(self)

    # ---------------------------------------------------------------- queries
    def next_seat(self, seat: int) -> int:
        """The player on ``seat``'s right, who speaks and plays next."""
        return self._next[seat]

    @property
    def _actor(self) -> int:
        """The seat to act, in a phase where one does (the deal is not over)."""
        seat = self.to_act
        assert seat is not None, "the deal is over: nobody acts"
        return seat

    @property
    def _taker(self) -> int:
        """The taker, once there is one (the call, the écart, the chelem and the play)."""
        taker = self.taker
        assert taker is not None, "nobody has taken"
        return taker

    @property
    def hand_size(self) -> int:
        return self.settings.hand_size

    @property
    def trick_number(self) -> int:
        """0-based number of the trick being played."""
        return len(self.tricks)

    def legal_play_mask(self) -> int:
        """The cards the player to act may play now, as a bitmask."""
        if self._lm >= 0:
            return self._lm
        self._lm = mask = self._compute_legal_play_mask()
        return mask

    def may_play(self, card: int) -> bool:
        """Whether the player to act may play ``card`` now: ``Play(card) in legal_actions()`` without
        building the list and comparing each choice (a server checks every card a person sends)."""
        return self.phase == PHASE_PLAY and bool(self.legal_play_mask() >> card & 1)

    def _compute_legal_play_mask(self) -> int:
        seat = self.to_act
        assert seat is not None  # cards are played while the deal runs
        hand = self.hands[seat]
        trick = self.trick
        led = self._led
        if led < 0:
            called = self.called
            if called is not None and not trick and not self.tricks:
                # The 5-player first lead: no card of the called suit but the called card.
                other = hand & ~(SUIT_MASKS[called // 14] & ~(1 << called))
                if other:
                    return other
            return hand
        if led < 4:
            follow = hand & SUIT_MASKS[led]
            if follow:
                return follow | (hand & EXCUSE_BIT)
        trumps = hand & TRUMPS
        if trumps:
            over = trumps & _TRUMPS_ABOVE[self._top_trump]
            return (over or trumps) | (hand & EXCUSE_BIT)
        return hand

    def legal_actions(self) -> list[Choice]:
        """Every action the player to act may take (discards and poignées as ``*From`` choices)."""
        phase = self.phase
        if phase == PHASE_PLAY:
            mask = self._lm
            if mask < 0:
                mask = self._lm = self._compute_legal_play_mask()
            plays = _MASK_PLAYS.get(mask)
            if plays is None:
                plays = _mask_plays(mask)
            out: list[Choice] = list(plays)
            if not self.tricks:
                offer = self.poignee_offer()
                if offer is not None:
                    out.append(offer)
            return out
        if phase == PHASE_BIDDING:
            return list(_BID_CHOICES[self.rules.option("chelem_announce") == "with_bid"][self.contract])
        if phase == PHASE_DISCARD:
            return [DiscardFrom(self.ecart_allowed(), self.settings.dog_size)]
        if phase == PHASE_CHELEM:
            return list(_CHELEM_CHOICES)
        if phase == PHASE_CALL:
            return [Call(c) for c in self.callable_cards()]
        if phase == PHASE_PETIT_SEC:
            return [PetitSecDecision(True), PetitSecDecision(False)]
        return []

    def callable_cards(self) -> list[int]:
        """Kings; queens when holding all four kings; and so on down to jacks."""
        hand = self.hands[self._taker]
        out = []
        for rank in CALLABLE_RANKS:
            cards = [suit_card(rank, s) for s in range(4)]
            out += cards
            if not all(hand >> c & 1 for c in cards):
                break
        return out

    def ecart_allowed(self) -> int:
        """Cards the taker may lay aside: no king, no bout; trumps only when needed."""
        return ecart_allowed(self.hands[self._taker], self.settings.dog_size)

    def _poignee_pool(self, seat: int) -> int:
        pool = self.hands[seat] & (TRUMPS | EXCUSE_BIT)
        if seat == self.taker:
            pool |= self.ecart & TRUMPS
        return pool

    def poignee_offer(self) -> PoigneeFrom | None:
        """The poignée the player to act may show now, or None."""
        if self.phase != PHASE_PLAY:
            return None
        seat = self._actor
        if self.tricks or self._poignee_seats >> seat & 1:
            return None
        pool = self._poignee_pool(seat)
        trumps = (pool & TRUMPS).bit_count()
        has_excuse = bool(pool & EXCUSE_BIT)
        sizes = {
            name: size
            for name, size, _ in self.settings.poignees
            if trumps >= size or (has_excuse and trumps == size - 1)
        }
        if not sizes:
            return None
        if not (has_excuse and trumps + 1 in sizes.values()):
            pool &= ~EXCUSE_BIT
        return PoigneeFrom(pool, sizes)

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` of the player to act (or of ``seat``, checked).

        Raises IllegalAction naming the rule, and then changes nothing.
        """
        phase = self.phase
        if type(action) is Play and phase == PHASE_PLAY and (seat is None or seat == self.to_act):
            # The hot path, inline: robots apply hundreds of thousands of cards per decision.
            card = action.card
            seat = self.to_act
            assert seat is not None  # the play phase always has a seat to act
            legal = self._lm
            if legal < 0:
                legal = self._compute_legal_play_mask()
            if type(card) is not int or not 0 <= card < DECK_SIZE or not legal >> card & 1:
                raise self._why_illegal(card)
            self.hands[seat] ^= 1 << card
            entry = _PLAY_ENTRIES[seat][card]
            self.history.append(entry)
            trick = self.trick
            trick.append((seat, card))
            if card == self.called:
                self.partner_revealed = True
            if card >= 56:
                if card != EXCUSE:
                    if card > self._top_trump:
                        self._top_trump = card
                        self._top_trump_seat = seat
                    if self._led < 0:
                        self._led = 4
            elif self._led < 0:
                self._led = card // 14
            if len(trick) < self.settings.active:
                self.to_act = self._next[seat]
            else:
                self._finish_trick()
            self._lm = -1
            return
        if phase == PHASE_END:
            raise IllegalAction("deal_over", "the deal is over: no more actions")
        if seat is not None and seat != self.to_act:
            raise IllegalAction("out_of_turn", f"it is seat {self.to_act}'s turn, not seat {seat}'s")
        if type(action) is Poignee and phase == PHASE_PLAY:
            self._poignee(action.cards)
        elif type(action) is Bid and phase == PHASE_BIDDING:
            self._bid(action)
        elif type(action) is Discard and phase == PHASE_DISCARD:
            self._discard(action.cards)
        elif type(action) is Chelem and phase == PHASE_CHELEM:
            self._chelem(action.announce)
        elif type(action) is Call and phase == PHASE_CALL:
            self._call(action.card)
        elif type(action) is PetitSecDecision and phase == PHASE_PETIT_SEC:
            self._petit_sec(action.redeal)
        else:
            raise IllegalAction("wrong_phase", f"{describe(action)} is not possible now: {self.expecting()}")
        self._lm = -1

    def expecting(self) -> str:
        """What the deal waits for, in words."""
        return expecting(self.phase, self.to_act)

    def _end_void(self, why: Void) -> None:
        self.void = why
        self.phase = PHASE_END
        self.is_over = True
        self.to_act = None
        from .scoring import score

        self.result = score(self)

    def _petit_sec(self, redeal: bool) -> None:
        if not isinstance(redeal, bool):
            raise IllegalAction("petit_sec", "the petit sec decision is redeal (true) or play (false)")
        seat = self._actor
        self.history.append((seat, PetitSecDecision(redeal)))
        self._petit_sec_pending.pop(0)
        if redeal:
            self._end_void(Void.PETIT_SEC)
        elif self._petit_sec_pending:
            self.to_act = self._petit_sec_pending[0]
        else:
            self.phase = PHASE_BIDDING
            self.to_act = self.seats[0]

    def _bid(self, bid: Bid) -> None:
        contract = bid.contract
        refused = bid_refusal(contract, bid.chelem, self.contract, self.rules.option("chelem_announce") == "with_bid")
        if refused is not None:
            raise refused
        seat = self._actor
        self.history.append((seat, bid))
        if contract != PASS:
            self.contract = contract
            self.taker = seat
            self._taker_chelem_bid = bid.chelem
        self._spoken += 1
        if self._spoken < len(self.seats):
            self.to_act = self._next[seat]
            return
        if self.taker is None:
            self._end_void(Void.ALL_PASS)
        elif self.rules.calls_king:
            self.phase = PHASE_CALL
            self.to_act = self.taker
        else:
            self._after_call()

    def _call(self, card: int) -> None:
        if card not in self.callable_cards():
            raise call_refusal(card)
        self.history.append((self._actor, Call(card)))
        self.called = card
        self._after_call()

    def _after_call(self) -> None:
        if Contract.of_rank(self.contract).dog is Dog.TAKEN:
            self.dog_shown = True
            self.hands[self._taker] |= self.dog
            self.phase = PHASE_DISCARD
            self.to_act = self.taker
        else:
            self._before_chelem()

    def _discard(self, cards: int) -> None:
        size = self.settings.dog_size
        taker = self._taker
        hand = self.hands[taker]
        if not isinstance(cards, int) or cards < 0 or cards & ~FULL_DECK:
            raise IllegalAction("ecart", "the écart must be a set of cards")
        if cards.bit_count() != size:
            raise IllegalAction("ecart_size", f"the écart has {size} cards, not {cards.bit_count()}")
        if cards & ~hand:
            raise IllegalAction("not_in_hand", f"not in the taker's hand: {' '.join(codes(cards & ~hand))}")
        faults = ecart_faults(hand, size, cards)
        never = faults.get(EcartRefusal.KING, 0) | faults.get(EcartRefusal.BOUT, 0)
        if never:
            raise IllegalAction(
                "ecart_king_or_bout", f"a king or a bout may never be laid aside: {' '.join(codes(never))}"
            )
        trumps = faults.get(EcartRefusal.TRUMP, 0) | faults.get(EcartRefusal.TRUMPS_ENOUGH, 0)
        if trumps:
            kept = ecart_allowed(hand, size) & ~TRUMPS & ~cards
            raise IllegalAction(
                "ecart_trump",
                "a trump may be laid aside only when too few other cards may be: keep "
                f"{' '.join(codes(trumps))} and lay aside {' '.join(codes(kept))}",
            )
        self.history.append((taker, Discard(cards)))
        self.hands[taker] = hand & ~cards
        self.ecart = cards
        self._before_chelem()

    def _before_chelem(self) -> None:
        if self.rules.option("chelem_announce") == "with_bid":
            self.chelem_announced = self._taker_chelem_bid
            self._start_play()
        else:
            self.phase = PHASE_CHELEM
            self.to_act = self.taker

    def _chelem(self, announce: bool) -> None:
        if not isinstance(announce, bool):
            raise IllegalAction("chelem", "a chelem announcement is true or false")
        self.history.append((self._taker, Chelem(announce)))
        self.chelem_announced = announce
        self._start_play()

    def _start_play(self) -> None:
        taker = self.taker
        partner = None
        if self.called is not None:
            for seat in self.seats:
                if self.hands[seat] >> self.called & 1 and seat != taker:
                    partner = seat
        self.partner = partner
        for seat in self.seats:
            self.side[seat] = TAKER_SIDE if seat in (taker, partner) else DEFENCE
        self.phase = PHASE_PLAY
        if self.chelem_announced or self.rules.option("first_lead") == "taker":
            self.to_act = taker
        else:
            self.to_act = self.seats[0]

    def _poignee(self, cards: int) -> None:
        seat = self._actor
        offer = self.poignee_offer()
        if offer is None:
            if self.tricks or self._poignee_seats >> seat & 1:
                raise IllegalAction("poignee_time", "a poignée is shown once, just before one's first card")
            raise IllegalAction("poignee_size", "not enough trumps for a poignée")
        if not isinstance(cards, int) or cards <= 0 or cards > FULL_DECK:
            raise IllegalAction("poignee", "a poignée is a set of trumps")
        pool = self._poignee_pool(seat)
        if cards & ~(TRUMPS | EXCUSE_BIT):
            raise IllegalAction(
                "poignee_trumps", f"a poignée shows only trumps: {' '.join(codes(cards & ~(TRUMPS | EXCUSE_BIT)))}"
            )
        if cards & ~pool:
            raise IllegalAction("not_in_hand", f"not in seat {seat}'s hand: {' '.join(codes(cards & ~pool))}")
        n = cards.bit_count()
        match = [(name, bonus) for name, size, bonus in self.settings.poignees if size == n]
        if not match:
            sizes = ", ".join(f"{name} {size}" for name, size, _ in self.settings.poignees)
            raise IllegalAction("poignee_size", f"a poignée shows exactly {sizes} trumps, not {n}")
        if cards & EXCUSE_BIT and pool & TRUMPS & ~cards:
            raise IllegalAction(
                "poignee_excuse",
                "the Excuse may stand for a trump only when no other trump is left unshown",
            )
        self.history.append((seat, Poignee(cards)))
        self.poignees.append((seat, cards, match[0][0], match[0][1]))
        self._poignee_seats |= 1 << seat

    def _finish_trick(self) -> None:
        trick = self.trick
        side = self.side
        last = len(self.tricks) == self.settings.hand_size - 1
        cards = 0
        for _, c in trick:
            cards |= 1 << c
        if self._top_trump_seat >= 0:
            winner = self._top_trump_seat
        else:
            # The highest card of the suit led: within a suit a higher number is a higher card.
            best = (cards & SUIT_MASKS[self._led]).bit_length() - 1
            winner = next(s for s, c in trick if c == best)
        excuse_seat = -1
        if cards & EXCUSE_BIT:
            excuse_seat = next(s for s, c in trick if c == EXCUSE)
        piles = self.piles
        if excuse_seat >= 0:
            owner = side[excuse_seat]
            if last:
                if self._tricks_won[owner] == len(self.tricks):
                    winner = excuse_seat  # a chelem in progress: the Excuse wins the last trick
                    goes_to = owner
                elif self.rules.option("excuse_last_trick") == "trick_winner":
                    goes_to = side[winner]
                else:
                    goes_to = 1 - owner
                piles[goes_to] |= EXCUSE_BIT
                cards &= ~EXCUSE_BIT
            elif owner != side[winner]:
                piles[owner] |= EXCUSE_BIT
                cards &= ~EXCUSE_BIT
                self._excuse_debt = owner
                self._pay_excuse_debt()
        win_side = side[winner]
        piles[win_side] |= cards
        self._tricks_won[win_side] += 1
        self.tricks.append(Trick(trick[0][0], tuple(trick), winner))
        if self._excuse_debt == win_side:
            self._pay_excuse_debt()
        self.trick = []
        self._led = -1
        self._top_trump = -1
        self._top_trump_seat = -1
        if last:
            if self._excuse_debt >= 0:
                self._excuse_settled = 1 if self._excuse_debt == DEFENCE else -1
            self.phase = PHASE_END
            self.is_over = True
            self.to_act = None
            from .scoring import score

            self.result = score(self)
        else:
            self.to_act = winner

    def _pay_excuse_debt(self) -> None:
        owner = self._excuse_debt
        low = self.piles[owner] & LOW_CARDS
        if low:
            card = low & -low
            self.piles[owner] ^= card
            self.piles[1 - owner] |= card
            self._excuse_debt = -1

    def _why_illegal(self, card: object) -> IllegalAction:
        seat = self._actor
        return play_refusal(self.hands[seat], [c for _, c in self.trick], self.called, not self.tricks, seat, card)

    # ------------------------------------------------------------- knowledge
    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may know now (``None``: a spectator's public view)."""
        return observe(self, seat)

    def __repr__(self) -> str:
        return f"<Deal {self.players}p dealer={self.dealer} phase={self.phase} to_act={self.to_act}>"


_MUTABLE = ("hands", "history", "poignees", "trick", "tricks", "side", "piles", "_tricks_won",
            "_petit_sec_pending")  # fmt: skip


def _make_clone() -> Callable[[Deal], Deal]:
    # One straight-line function copying every slot: a loop of setattr costs 4x more,
    # and search robots clone deals tens of thousands of times per decision.
    lines = ["def _clone(self):", "    other = _new(Deal)"]
    for name in Deal.__slots__:
        copy = "[:]" if name in _MUTABLE else ""
        lines.append(f"    other.{name} = self.{name}{copy}")
    lines.append("    return other")
    namespace: dict[str, Any] = {"_new": object.__new__, "Deal": Deal}
    exec("\n".join(lines), namespace)
    clone: Callable[[Deal], Deal] = namespace["_clone"]
    return clone


_clone = _make_clone()


def _check_deal(rules: RuleSet, dealer: int, hands: list[int], dog: int) -> None:
    n = rules.players
    st = rules.settings
    if not isinstance(hands, (list, tuple)) or any(type(h) is not int or h < 0 for h in [*hands, dog]):
        raise ValueError("hands and dog are sets of cards (non-negative int masks)")
    if len(hands) != n:
        raise ValueError(f"{n} hands expected, got {len(hands)}")
    seen = dog
    total = dog.bit_count()
    if total != st.dog_size:
        raise ValueError(f"the dog holds {st.dog_size} cards, not {total}")
    for seat, hand in enumerate(hands):
        want = 0 if rules.dealer_sits_out and seat == dealer else st.hand_size
        if hand.bit_count() != want:
            raise ValueError(f"seat {seat} must hold {want} cards, not {hand.bit_count()}")
        if seen & hand:
            raise ValueError(f"cards dealt twice: {' '.join(codes(seen & hand))}")
        seen |= hand
        total += hand.bit_count()
    if seen != FULL_DECK or total != DECK_SIZE:
        raise ValueError(f"a deal uses all 78 cards once; missing: {' '.join(codes(FULL_DECK & ~seen))}")


def new_deal(rules: RuleSet, dealer: int = 0, seed: str | None = None) -> Deal:
    """Deal from ``seed`` (a fresh strong seed if None)."""
    from .deal import deal_cards, new_seed

    seed = new_seed() if seed is None else seed
    hands, dog = deal_cards(seed, dealer, rules)
    return Deal(rules, dealer, hands, dog, seed=seed)


__all__ = ["Deal", "Trick", "ecart_allowed", "new_deal"]

"""Why an action is refused, in words that name the rule broken ("6S does not follow suit: play spades").

The deal raises these when it refuses an action; a host that holds only a seat's ``Observation`` (an
engine's answer read by ``protocol.messages.read_answer``) says the very same from what the seat sees,
since whether a card, a bid or a call is allowed depends on nothing the seat cannot see.  Only a refusal
is worded here: the deal's legal choices are computed on its hot path, never through this module.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import PASS, Action, Bid, Call, Chelem, IllegalAction, PetitSecDecision, Play, contract_name
from .cards import DECK_SIZE, EXCUSE, SUIT_MASKS, TRUMPS, card_code
from .kinds import Phase
from .observation import Observation

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")

_EXPECTING = {
    Phase.PETIT_SEC: "to decide on the petit sec",
    Phase.BIDDING: "to bid",
    Phase.CALL: "to call a card",
    Phase.DISCARD: "to lay aside the écart",
    Phase.CHELEM: "to say whether they announce a chelem",
    Phase.PLAY: "to play a card",
}

CALL_RULE = (
    "call a king, or a queen when holding all four kings, a knight when holding all kings and "
    "queens, a jack when holding all knights too"
)


def expecting(phase: str, seat: int | None) -> str:
    """What a deal in ``phase`` waits for, in words ("seat 2 to bid")."""
    if phase == Phase.END or seat is None:
        return "nothing: the deal is over"
    return f"seat {seat} {_EXPECTING[Phase(phase)]}"


def card_text(card: object) -> str:
    """A card's code, or its repr when it is no card: describing junk must never fail."""
    return card_code(card) if isinstance(card, int) and 0 <= card < DECK_SIZE else repr(card)


def describe(action: object) -> str:
    """An action named in a refusal: ``Play (T21)``."""
    return f"{type(action).__name__} ({action})" if hasattr(action, "__dataclass_fields__") else repr(action)


def play_refusal(
    hand: int, trick: Sequence[int], called: int | None, first_trick: bool, seat: int, card: object
) -> IllegalAction:
    """Why ``seat``, holding ``hand``, may not play ``card`` to ``trick`` (its cards so far, in order):
    no such card, not held, the called suit led at five, a suit not followed, a trump too low, or no trump
    played when one must be.  Only called for a card the rules refuse."""
    if not (type(card) is int and 0 <= card < DECK_SIZE):
        return IllegalAction("card", f"no such card: {card!r}")
    code = card_code(card)
    if not hand >> card & 1:
        return IllegalAction("not_in_hand", f"seat {seat} does not hold {code}")
    led = next((c // 14 if c < 56 else 4 for c in trick if c != EXCUSE), -1)  # the Excuse leads no suit
    if led < 0:
        if called is not None and first_trick:  # the only refusal of a lead: the called suit at five players
            return IllegalAction(
                "called_suit_lead",
                f"at the first trick no {SUIT_NAMES[called // 14]} may be led but the called card {card_code(called)}",
            )
        return IllegalAction("card", f"{code} may be played now")  # not a refusal: a caller's mistake
    if led < 4 and hand & SUIT_MASKS[led]:
        return IllegalAction("follow_suit", f"{code} does not follow suit: play {SUIT_NAMES[led]}")
    top = max((c for c in trick if 56 <= c < EXCUSE), default=-1)
    if card >= 56 and hand & TRUMPS & ~((1 << (top + 1)) - 1) and top >= 0:
        return IllegalAction("overtrump", f"{code} is too low: play a trump above {card_code(top)}")
    what = "trump" if led < 4 else "follow with a trump"
    return IllegalAction("must_trump", f"{code} is not allowed: you must {what}")


def bid_refusal(contract: object, chelem: object, highest: int, with_bid: bool) -> IllegalAction | None:
    """Why a bid of ``contract`` (with ``chelem``) is refused over the ``highest`` so far, or None; a
    chelem goes with a bid only under chelem_announce=with_bid (``with_bid``)."""
    if type(contract) is not int or not PASS <= contract <= 4:
        return IllegalAction("bid", f"no contract {contract!r}")
    if type(chelem) is not bool:
        return IllegalAction("bid", "a bid's chelem is true or false")
    if chelem and (contract == PASS or not with_bid):
        return IllegalAction(
            "chelem_with_bid", "a chelem goes with a bid only under chelem_announce=with_bid, and never with a pass"
        )
    if contract != PASS and contract <= highest:
        return IllegalAction("bid_too_low", f"{contract_name(contract)} does not overcall {contract_name(highest)}")
    return None


def call_refusal(card: object) -> IllegalAction:
    """A card the taker may not call."""
    return IllegalAction("call", f"{card_text(card)} cannot be called: {CALL_RULE}")


def refusal(obs: Observation, action: Action) -> IllegalAction:
    """Why the seat of ``obs`` may not take ``action`` (a card, a bid, a call, a chelem or a petit sec
    decision that is not among ``obs.legal``), as the deal would say it, from what the seat sees."""
    seat = obs.seat
    if obs.phase == Phase.END or obs.to_act is None:
        return IllegalAction("deal_over", "the deal is over: no more actions")
    if seat != obs.to_act:
        return IllegalAction("out_of_turn", f"it is seat {obs.to_act}'s turn, not seat {seat}'s")
    assert seat is not None
    phase = obs.phase
    if isinstance(action, Play) and phase == Phase.PLAY:
        return play_refusal(obs.hand, [c for _, c in obs.trick], obs.called, not obs.tricks, seat, action.card)
    if isinstance(action, Bid) and phase == Phase.BIDDING:
        highest = obs.contract if obs.taker is not None else PASS
        why = bid_refusal(action.contract, action.chelem, highest, obs.rules.option("chelem_announce") == "with_bid")
        return why or IllegalAction("bid", f"{action} is not allowed now")
    if isinstance(action, Call) and phase == Phase.CALL:
        return call_refusal(action.card)
    if (isinstance(action, Chelem) and phase == Phase.CHELEM) or (
        isinstance(action, PetitSecDecision) and phase == Phase.PETIT_SEC
    ):
        return IllegalAction(type(action).__name__.lower(), f"{action} is not allowed now: true or false")
    return IllegalAction("wrong_phase", f"{describe(action)} is not possible now: {expecting(obs.phase, obs.to_act)}")


__all__ = ["SUIT_NAMES", "bid_refusal", "call_refusal", "describe", "expecting", "play_refusal", "refusal"]

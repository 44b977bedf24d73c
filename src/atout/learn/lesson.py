"""A lesson as data: a prepared deal, the robots' moves where the lesson needs them, and its steps.

A step asks the learner one thing (a card to find, a card to play, a bid, an écart, a count...) at one
moment of the deal, and says how an answer is judged: a list of outcomes, each a test on the answer and
the words that say why it is right or wrong; the first that holds decides. Before any of them, the
engine judges an answer that is a move (``run.judge``): a move the rules forbid is refused with the rule.
The words are keys of the lesson texts (``texts/*.toml``): ``{lesson}.{step}.{outcome}``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..engine import Deal, RuleSet
from ..engine.cards import DECK_SIZE, FULL_DECK, codes, mask_of, parse_card

LEARNER = 0
"""The learner's seat in every lesson; the robots sit at the others."""

NAMES = ("Anna", "Basile", "Chloé", "Denis")
"""The robots' names, seat 1 on: the learner's right, then round the table (the terminal game's robots)."""


class Ask(StrEnum):
    """What a step asks for: a question about the deal, or a move in it."""

    PICK = "pick"  # find a card of one's hand (no move)
    CHOOSE = "choose"  # one of a few answers: a count, a target, who keeps a card
    BID = "bid"
    CALL = "call"
    ECART = "ecart"
    POIGNEE = "poignee"  # show one, or not (an empty one)
    PLAY = "play"

    @property
    def moves(self) -> bool:
        """Whether the answer is a move of the deal (judged by the engine first)."""
        return self not in (Ask.PICK, Ask.CHOOSE)


class At(StrEnum):
    """When a question is asked (a move is asked when it is the learner's turn to make it)."""

    NOW = "now"  # where the last step left the deal
    TURN = "turn"  # the learner's turn to play a card
    TRICK_END = "trick_end"  # a trick is over, before the next card
    DEAL_END = "deal_end"


@dataclass(frozen=True)
class Answer:
    """A learner's answer: a card, a bid, a set of cards or a choice, as the wire carries it."""

    card: int | None = None  # PICK, PLAY, CALL
    bid: str | None = None  # BID: a Contract's name
    cards: int | None = None  # ECART, POIGNEE (0: no poignée)
    choice: str | None = None  # CHOOSE


Test = Callable[[Deal, Answer], bool]
Args = Callable[[Deal, Answer | None], Mapping[str, Any]]


@dataclass(frozen=True)
class Outcome:
    """An answer that passes ``test`` is right (or wrong), said by the step's text ``key``."""

    test: Test
    key: str
    right: bool


@dataclass(frozen=True)
class Step:
    """One thing asked. ``args`` fills the placeholders of its texts from the deal (and the answer)."""

    name: str
    ask: Ask
    outcomes: tuple[Outcome, ...]
    at: At = At.NOW
    otherwise: str = "wrong"
    options: Callable[[Deal], tuple[str, ...]] | None = None  # CHOOSE: the answers offered
    worded: bool = False  # CHOOSE: options are words ({lesson}.{step}.{option}), not numbers
    args: Args | None = None
    ready: Callable[[Deal], bool] | None = None  # at its moment, the step waits until this holds too

    @property
    def answers_all(self) -> bool:
        """Whether some outcome takes any answer (``checks.any_answer``): then ``otherwise`` is never said."""
        return any(getattr(o.test, "catch_all", False) for o in self.outcomes)

    def when(self) -> At:
        """When the step is asked: a move's when it is the learner's turn to make it."""
        return At.TURN if self.ask in (Ask.PLAY, Ask.POIGNEE) else self.at


@dataclass(frozen=True)
class Lesson:
    """A prepared deal and its steps. ``hands`` names seats' cards (a seat's own ``cards``, space
    separated); the cards no seat nor the dog names are dealt to fill the hands from ``seed``, the same
    each time. ``prelude`` are the deal's first actions, in order; ``moves`` the moves each seat makes
    when its turn comes (the learner's only where no step asks), before the club robot's own choices;
    ``keep`` the cards the learner's own moves hold back while they can (a Petit kept for the end)."""

    id: str
    steps: tuple[Step, ...]
    hands: Mapping[int, str]
    dog: str
    players: int = 4
    dealer: int = 3
    seed: str = "atout"
    prelude: str = ""
    moves: Mapping[int, str] = field(default_factory=dict)
    keep: str = ""

    @property
    def rules(self) -> RuleSet:
        return RuleSet(self.players)

    def deal(self) -> Deal:
        """The lesson's deal, the same cards every time."""
        import random

        rules = self.rules
        settings = rules.settings
        hands = [mask_of(parse_card(c) for c in self.hands.get(seat, "").split()) for seat in range(self.players)]
        dog = mask_of(parse_card(c) for c in self.dog.split())
        named = dog
        for hand in hands:
            if named & hand:
                raise ValueError(f"lesson {self.id}: cards named twice: {' '.join(codes(named & hand))}")
            named |= hand
        rest = [c for c in range(DECK_SIZE) if not named >> c & 1]
        random.Random(f"{self.id}/{self.seed}").shuffle(rest)
        fill = [settings.dog_size - dog.bit_count()] + [settings.hand_size - h.bit_count() for h in hands]
        if min(fill) < 0 or sum(fill) != len(rest):
            raise ValueError(f"lesson {self.id}: the named cards do not fit the hands and the dog")
        taken = iter(rest)
        dog |= mask_of(next(taken) for _ in range(fill[0]))
        hands = [h | mask_of(next(taken) for _ in range(n)) for h, n in zip(hands, fill[1:], strict=True)]
        assert dog | sum(hands) == FULL_DECK
        return Deal(rules, self.dealer, hands, dog, seed=None)


__all__ = ["LEARNER", "NAMES", "Answer", "Args", "Ask", "At", "Lesson", "Outcome", "Step", "Test"]

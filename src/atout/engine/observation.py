"""What one seat may know: the only view of a deal that bots, the terminal and the network get."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

from .actions import Action, Choice, Discard, contract_name
from .cards import TRUMPS
from .kinds import Phase, Void
from .rules import RuleSet
from .scoring import Result

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .trick import Trick


class Observed(Protocol):
    """What an observation reads of a deal (``state.Deal`` is one): taken, not the deal, so that this module
    does not import the deal that builds observations with it."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def players(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def seats(self) -> tuple[int, ...]: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def hands(self) -> Sequence[int]: ...
    @property
    def history(self) -> Sequence[tuple[int, Action]]: ...
    @property
    def contract(self) -> int: ...
    @property
    def taker(self) -> int | None: ...
    @property
    def called(self) -> int | None: ...
    @property
    def partner(self) -> int | None: ...
    @property
    def partner_revealed(self) -> bool: ...
    @property
    def dog(self) -> int: ...
    @property
    def dog_shown(self) -> bool: ...
    @property
    def ecart(self) -> int: ...
    @property
    def chelem_announced(self) -> bool | None: ...
    @property
    def poignees(self) -> Sequence[tuple[int, int, str, int]]: ...
    @property
    def tricks(self) -> Sequence[Trick]: ...
    @property
    def trick(self) -> Sequence[tuple[int, int]]: ...
    @property
    def result(self) -> Result | None: ...
    @property
    def void(self) -> Void | None: ...

    def legal_actions(self) -> list[Choice]: ...


_END = Phase.END  # a module name: an Enum class attribute costs ~0.1 µs to look up on Python 3.11


@dataclass(frozen=True, slots=True)
class EcartShown:
    """Another player's écart as others see it: only the trumps laid aside, which are shown."""

    trumps: int

    def __str__(self) -> str:
        return "écart laid aside"


class Observation(NamedTuple):
    """A seat's information state.  ``seat`` None is a spectator (public view).

    A NamedTuple, immutable like the frozen dataclass it was, made for a third of the instructions:
    a server makes one after every action (the public view), a robot one per decision."""

    seat: int | None
    rules: RuleSet
    dealer: int
    seats: tuple[int, ...]
    phase: Phase
    to_act: int | None
    hand: int
    hand_sizes: tuple[int, ...]
    history: tuple[tuple[int, Action | EcartShown], ...]
    contract: int
    taker: int | None
    called: int | None
    partner: int | None
    dog: int | None
    ecart: int | None
    ecart_trumps: int
    chelem_announced: bool | None
    poignees: tuple[tuple[int, int, str, int], ...]
    tricks: tuple[Trick, ...]
    trick: tuple[tuple[int, int], ...]
    legal: tuple[Choice, ...]
    result: Result | None
    void: Void | None

    @property
    def contract_name(self) -> str | None:
        return contract_name(self.contract) if self.taker is not None else None

    @property
    def players(self) -> int:
        return self.rules.players


class Private(NamedTuple):
    """The parts of an observation that differ from seat to seat (a spectator's are empty)."""

    hand: int
    ecart: int | None
    partner: int | None
    legal: tuple[Choice, ...]


def private_parts(deal: Observed, seat: int | None) -> Private:
    """What only ``seat`` may know beyond the public view: its hand, its own écart once laid (before,
    and under a garde sans or contre, None, as for every other seat), the partner if it knows who that
    is, its legal choices.  ``observe`` uses this too: one place decides."""
    is_taker = seat is not None and seat == deal.taker
    partner = None
    if deal.partner_revealed or deal.phase is _END or (seat is not None and seat == deal.partner):
        partner = deal.partner
    return Private(
        hand=deal.hands[seat] if seat is not None else 0,
        ecart=deal.ecart if is_taker and deal.ecart else None,  # None until laid: an écart is never empty
        partner=partner,
        legal=tuple(deal.legal_actions()) if seat is not None and seat == deal.to_act else (),
    )


def observe(deal: Observed, seat: int | None) -> Observation:
    """Build ``seat``'s observation of ``deal``; hidden cards never enter it."""
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < deal.players):
        raise ValueError(f"no seat {seat!r} at a {deal.players}-player table")
    mine = private_parts(deal, seat)
    is_taker = seat is not None and seat == deal.taker
    history: tuple[tuple[int, Action | EcartShown], ...]
    if is_taker or not deal.ecart:  # nothing hidden in the history: it is seen as it is
        history = tuple(deal.history)
    else:
        history = tuple(deal.history)
        for i, (s, a) in enumerate(history):  # one écart per deal, early in it: replaced where it lies
            if isinstance(a, Discard):
                history = (*history[:i], (s, EcartShown(a.cards & TRUMPS)), *history[i + 1 :])
                break
    dog = deal.dog if deal.dog_shown else None
    return Observation(
        seat=seat,
        rules=deal.rules,
        dealer=deal.dealer,
        seats=deal.seats,
        phase=deal.phase,
        to_act=deal.to_act,
        hand=mine.hand,
        hand_sizes=tuple(map(int.bit_count, deal.hands)),
        history=history,
        contract=deal.contract,
        taker=deal.taker,
        called=deal.called,
        partner=mine.partner,
        dog=dog,
        ecart=mine.ecart,
        ecart_trumps=deal.ecart & TRUMPS,
        chelem_announced=deal.chelem_announced,
        poignees=tuple(deal.poignees),
        tricks=tuple(deal.tricks),
        trick=tuple(deal.trick),
        legal=mine.legal,
        result=deal.result,
        void=deal.void,
    )

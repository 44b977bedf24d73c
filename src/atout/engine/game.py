"""A game of several deals: dealer rotation, void deals redealt, the score sheet, the ranking.

Seat-agnostic and without I/O, so the terminal game and the online tables share it
(as OpenSpiel's repeated games run the next hand inside the same state API).
Deal seeds are derived from the game's seed unless the driver passes its own
(the server draws a fresh secret seed per deal, so revealing one reveals no other).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actions import Action, IllegalAction
from .deal import draw_first_dealer, new_seed
from .record import replay, to_record
from .rules import RuleSet
from .state import Deal, new_deal

GAME_FORMAT = "atout-game"
GAME_VERSION = 1


@dataclass
class DealSummary:
    """One line of the score sheet."""

    number: int  # 1-based counted deal number (0 for a void deal)
    dealer: int
    seed: str
    void: str | None
    taker: int | None
    contract: str | None
    partner: int | None
    made: bool | None
    scores: list[int]
    record: str | None = None  # where the deal record was written, when a driver saves it

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Game:
    """A game in progress: the rules, the deal being played and the sheet so far."""

    players: int = 4
    deals: int = 4
    seed: str | None = None
    dealer: int = 0
    deal_index: int = 0  # deals dealt so far, void ones included (names the derived deal seeds)
    sheet: list[DealSummary] = field(default_factory=list)
    deal: Deal | None = None
    rules: RuleSet | None = None

    def __post_init__(self) -> None:
        if self.players not in (3, 4, 5):
            raise ValueError(f"a game has 3, 4 or 5 players, not {self.players!r}")
        if type(self.deals) is not int or self.deals < 1:
            raise ValueError(f"a game has at least one deal, not {self.deals!r}")
        if self.seed is None:
            self.seed = new_seed()
        if self.rules is None:
            self.rules = RuleSet(self.players)
        elif self.rules.players != self.players:
            raise ValueError(f"rules for {self.rules.players} players at a {self.players}-player game")
        if self.deal is None and not self.sheet and self.deal_index == 0:
            self.dealer = draw_first_dealer(self.seed, self.players)

    # ------------------------------------------------------------ the deals
    @property
    def counted(self) -> list[DealSummary]:
        """The sheet's lines that count (void deals left out); read-only, cached until a line is added
        (a server asks for it several times per card)."""
        sheet = self.sheet
        key = (len(sheet), id(sheet[-1]) if sheet else None)
        cached = self.__dict__.get("_counted")
        if cached is None or cached[0] != key:
            cached = (key, [s for s in sheet if not s.void])
            self.__dict__["_counted"] = cached
        return cached[1]

    @property
    def deals_played(self) -> int:
        return len(self.counted)

    @property
    def is_over(self) -> bool:
        return self.deals_played >= self.deals and (self.deal is None or self.deal.is_over)

    @property
    def totals(self) -> list[int]:
        totals = [0] * self.players
        for line in self.counted:
            totals = [t + s for t, s in zip(totals, line.scores, strict=True)]
        return totals  # a new list each time: callers may keep or change it

    def ranking(self) -> list[tuple[int, int, int]]:
        """(place, seat, total), best first; equal totals share a place."""
        totals = self.totals
        order = sorted(range(self.players), key=lambda s: (-totals[s], s))
        out: list[tuple[int, int, int]] = []
        for i, seat in enumerate(order):
            place = out[-1][0] if out and totals[seat] == out[-1][2] else i + 1
            out.append((place, seat, totals[seat]))
        return out

    def deal_seed(self, index: int) -> str:
        return f"{self.seed}/{index}"

    @property
    def next_dealer(self) -> int:
        """Who deals the next deal: the first dealer, then the next seat to the right."""
        return self.dealer if self.deal is None else (self.dealer + 1) % self.players

    def start_deal(self, seed: str | None = None) -> Deal:
        """Deal the next deal (the current one must be over); ``seed`` overrides the derived one."""
        if self.deal is not None and not self.deal.is_over:
            raise RuntimeError("the current deal is not over")
        if self.deals_played >= self.deals:
            raise RuntimeError("the game is over")
        self.dealer = self.next_dealer
        assert self.rules is not None
        self.deal = new_deal(self.rules, self.dealer, seed if seed is not None else self.deal_seed(self.deal_index))
        self.deal_index += 1
        if self.deal.is_over:  # a petit sec voids the deal at once
            self._finish()
        return self.deal

    @property
    def current(self) -> Deal:
        """The deal being played (or the last one played): there is one once the game has started."""
        assert self.deal is not None, "the game has not dealt its first deal"
        return self.deal

    @property
    def deal_number(self) -> int:
        """The 1-based number of the deal being played, or just ended: "deal k of ``deals``". A void deal
        does not count and is dealt again under its own number (k), so the log, the bar and the review
        agree: the deal after a void deal 2 is deal 2 again."""
        deal = self.deal
        return self.deals_played + (0 if deal is None or (deal.is_over and not deal.void) else 1)

    def apply(self, action: Action, seat: int) -> DealSummary | None:
        """Apply ``seat``'s action; IllegalAction (nothing changed) when the rules forbid it.

        Returns the deal's summary line when the action ends the deal.
        """
        if self.deal is None or self.deal.is_over:
            raise IllegalAction("deal_over", "no deal is being played")
        self.deal.apply(action, seat=seat)
        if self.deal.is_over:
            return self._finish()
        return None

    def summarize(self, deal: Deal) -> DealSummary:
        """The score-sheet line of a finished deal."""
        result = deal.result
        assert result is not None and deal.seed is not None, "a game's deals are dealt from a seed and finished"
        return DealSummary(
            number=0 if deal.void else self.deals_played + 1,
            dealer=deal.dealer,
            seed=deal.seed,
            void=deal.void,
            taker=result.taker,
            contract=result.contract,
            partner=result.partner,
            made=result.made,
            scores=list(result.scores),
        )

    def _finish(self) -> DealSummary:
        assert self.deal is not None
        summary = self.summarize(self.deal)
        self.sheet.append(summary)
        return summary

    # ---------------------------------------------------------- dict form
    def to_json(self) -> dict[str, Any]:
        assert self.rules is not None
        return {
            "format": GAME_FORMAT,
            "version": GAME_VERSION,
            "players": self.players,
            "options": dict(self.rules.options),
            "deals": self.deals,
            "seed": self.seed,
            "dealer": self.dealer,
            "deal_index": self.deal_index,
            "sheet": [s.to_json() for s in self.sheet],
            "deal": None if self.deal is None else to_record(self.deal),
        }

    @classmethod
    def fields_from_json(cls, data: Any) -> dict[str, Any]:
        """The constructor's arguments from ``to_json``'s dict; ValueError names what is wrong."""
        if not isinstance(data, dict) or data.get("format") != GAME_FORMAT:
            raise ValueError("not a saved atout game")
        if data.get("version") != GAME_VERSION:
            raise ValueError(f"saved game version {data.get('version')!r} is not supported")
        players = data["players"]
        return {
            "players": players,
            "deals": data["deals"],
            "seed": data["seed"],
            "dealer": data["dealer"],
            "deal_index": data["deal_index"],
            "sheet": [DealSummary(**s) for s in data["sheet"]],
            "deal": None if data.get("deal") is None else replay(data["deal"]).deal,
            "rules": RuleSet.make(players, **data.get("options", {})),
        }

    @classmethod
    def from_json(cls, data: Any) -> Game:
        return cls(**cls.fields_from_json(data))


__all__ = ["GAME_FORMAT", "GAME_VERSION", "DealSummary", "Game"]

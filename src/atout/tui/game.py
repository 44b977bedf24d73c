"""The game session behind ``atout play``: deals, dealer rotation, the score sheet, saves.

Nothing here draws anything: the Textual app drives a ``Game`` and shows what
``observation(HUMAN)`` lets the person see.  A game is one person (seat 0)
against robots, for a fixed number of counted deals (void deals are redealt
and do not count).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import LEVELS, make_bot
from ..engine import Action, Deal, IllegalAction, Observation, RuleSet, draw_first_dealer, new_deal, new_seed
from ..engine.record import replay, to_record

HUMAN = 0
SAVE_FORMAT = "atout-game"
SAVE_VERSION = 1
ROBOT_NAMES = ("Anna", "Basile", "Chloé", "Denis")


def default_level() -> str:
    """The robots' level when none is asked for: heuristic when it exists."""
    return "heuristic" if "heuristic" in LEVELS else "random"


def hint_level() -> str:
    """The level whose advice the hint key shows: the strongest there is."""
    for level in ("expert", "search", "heuristic"):
        if level in LEVELS:
            return level
    return next(iter(LEVELS))


def default_save_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "atout"


def seat_name(seat: int) -> str:
    return "You" if seat == HUMAN else ROBOT_NAMES[seat - 1]


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
    record: str | None = None  # where the deal record was written

    def to_json(self) -> dict:
        return dict(self.__dict__)


@dataclass
class Game:
    """A game in progress: settings, the deal being played, and the sheet so far."""

    players: int = 4
    level: str = field(default_factory=default_level)
    deals: int = 4
    seed: str | None = None
    save_dir: Path | None = None
    game_id: str = ""
    dealer: int = 0
    deal_index: int = 0  # deals dealt so far, void ones included (names the deal seeds)
    sheet: list[DealSummary] = field(default_factory=list)
    deal: Deal | None = None

    def __post_init__(self) -> None:
        if self.players not in (3, 4, 5):
            raise ValueError(f"a game has 3, 4 or 5 players, not {self.players!r}")
        if self.level not in LEVELS:
            raise ValueError(f"unknown robot level {self.level!r}; levels are {', '.join(LEVELS)}")
        if not isinstance(self.deals, int) or self.deals < 1:
            raise ValueError(f"a game has at least one deal, not {self.deals!r}")
        if self.seed is None:
            self.seed = new_seed()
        if not self.game_id:
            self.game_id = time.strftime("%Y%m%d-%H%M%S") + "-" + str(self.seed)[:8].replace("/", "_")
        self.rules = RuleSet(self.players)
        self.save_error: str | None = None
        self._robots: dict[int, Any] = {}
        if self.deal is None and not self.sheet and self.deal_index == 0:
            self.dealer = draw_first_dealer(self.seed, self.players)

    # ------------------------------------------------------------ the deals
    @property
    def counted(self) -> list[DealSummary]:
        return [s for s in self.sheet if not s.void]

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
        return totals

    def ranking(self) -> list[tuple[int, int, int]]:
        """(place, seat, total), best first; equal totals share a place."""
        totals = self.totals
        order = sorted(range(self.players), key=lambda s: (-totals[s], s))
        out = []
        for i, seat in enumerate(order):
            place = out[-1][0] if out and totals[seat] == out[-1][2] else i + 1
            out.append((place, seat, totals[seat]))
        return out

    def deal_seed(self, index: int) -> str:
        return f"{self.seed}/{index}"

    def start_deal(self) -> Deal:
        """Deal the next deal (the current one must be over and summed up)."""
        if self.deal is not None and not self.deal.is_over:
            raise RuntimeError("the current deal is not over")
        if self.deals_played >= self.deals:
            raise RuntimeError("the game is over")
        if self.deal is not None:
            self.dealer = (self.dealer + 1) % self.players
        self.deal = new_deal(self.rules, self.dealer, self.deal_seed(self.deal_index))
        self.deal_index += 1
        if self.deal.is_over:  # a petit sec voids the deal at once
            self._finish()
        return self.deal

    @property
    def deal_number(self) -> int:
        """The 1-based number of the counted deal being played."""
        return self.deals_played + (0 if self.deal is None or self.deal.is_over else 1)

    def observation(self, seat: int = HUMAN) -> Observation:
        return self.deal.observation(seat)

    @property
    def human_to_act(self) -> bool:
        return self.deal is not None and not self.deal.is_over and self.deal.to_act == HUMAN

    def robot(self, seat: int, level: str | None = None):
        key = (seat, level or self.level)
        if key not in self._robots:
            self._robots[key] = make_bot(key[1], f"{self.seed}/{key[1]}/{seat}")
        return self._robots[key]

    def robot_choice(self) -> tuple[int, Action]:
        """The robot to act and its action (not applied: the app applies it when shown)."""
        seat = self.deal.to_act
        if seat == HUMAN:
            raise RuntimeError("it is the person's turn")
        return seat, self.robot(seat).choose(self.deal.observation(seat))

    def hint(self) -> Action:
        """What the strongest robot would do in the person's place."""
        return make_bot(hint_level(), f"{self.seed}/hint/{len(self.deal.history)}").choose(
            self.deal.observation(HUMAN)
        )

    def apply(self, action: Action, seat: int = HUMAN) -> DealSummary | None:
        """Apply ``seat``'s action; IllegalAction (nothing changed) when the rules forbid it.

        Returns the deal's summary line when the action ends the deal.
        """
        if self.deal is None or self.deal.is_over:
            raise IllegalAction("deal_over", "no deal is being played")
        self.deal.apply(action, seat=seat)
        if self.deal.is_over:
            return self._finish()
        return None

    def _finish(self) -> DealSummary:
        deal = self.deal
        result = deal.result
        number = 0 if deal.void else self.deals_played + 1
        summary = DealSummary(
            number=number,
            dealer=deal.dealer,
            seed=deal.seed,
            void=deal.void,
            taker=result.taker,
            contract=result.contract,
            partner=result.partner,
            made=result.made,
            scores=list(result.scores),
        )
        try:
            if self.save_dir is not None:
                summary.record = str(self.save_record(deal))
            self.sheet.append(summary)
            if self.save_dir is not None:
                self.save()
        except OSError as err:  # a full disk must not end the game: the app says so
            if summary not in self.sheet:
                self.sheet.append(summary)
            self.save_error = str(err)
        return summary

    # ---------------------------------------------------------- saving
    def records_dir(self) -> Path:
        return Path(self.save_dir) / "records"

    def save_record(self, deal: Deal) -> Path:
        """Write a finished deal's record (RECORD.md) and return its path."""
        folder = self.records_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.game_id}-{self.deal_index:02d}.json"
        path.write_text(json.dumps(to_record(deal), indent=1) + "\n", encoding="utf-8")
        return path

    def save_path(self) -> Path:
        return Path(self.save_dir) / "game.json"

    def to_json(self) -> dict:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game_id": self.game_id,
            "players": self.players,
            "level": self.level,
            "deals": self.deals,
            "seed": self.seed,
            "dealer": self.dealer,
            "deal_index": self.deal_index,
            "sheet": [s.to_json() for s in self.sheet],
            "deal": None if self.deal is None else to_record(self.deal),
        }

    def save(self, path: Path | str | None = None) -> Path:
        """Write the game so far (the deal in progress as a deal record)."""
        if path is None:
            if self.save_dir is None:
                raise ValueError("no save directory")
            path = self.save_path()
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)
        return path

    @classmethod
    def from_json(cls, data: Any, save_dir: Path | None = None) -> Game:
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ValueError("not a saved atout game")
        if data.get("version") != SAVE_VERSION:
            raise ValueError(f"saved game version {data.get('version')!r} is not supported")
        level = data["level"] if data["level"] in LEVELS else default_level()
        game = cls(
            players=data["players"],
            level=level,
            deals=data["deals"],
            seed=data["seed"],
            save_dir=save_dir,
            game_id=data["game_id"],
            dealer=data["dealer"],
            deal_index=data["deal_index"],
            sheet=[DealSummary(**s) for s in data["sheet"]],
            deal=None,
        )
        if data.get("deal") is not None:
            game.deal = replay(data["deal"]).deal
        return game

    @classmethod
    def load(cls, path: Path | str, save_dir: Path | None = None) -> Game:
        path = Path(path)
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls.from_json(data, save_dir=save_dir if save_dir is not None else path.parent)


__all__ = ["HUMAN", "DealSummary", "Game", "default_level", "default_save_dir", "hint_level", "seat_name"]

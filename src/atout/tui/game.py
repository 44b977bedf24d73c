"""The game session behind ``atout play``: the engine's game of several deals, robots and saves.

Nothing here draws anything: the Textual app drives a ``Game`` and shows what
``observation(HUMAN)`` lets the person see.  A game is one person (seat 0)
against robots; the deals, the dealer's rotation and the score sheet are
``atout.engine.game``'s, shared with the online tables.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import LEVELS, current_level, make_bot
from ..bots.analysis import WORLDS_FACTOR
from ..bots.hint import Hint, hint
from ..engine import Action, Deal, Observation
from ..engine.game import DealSummary
from ..engine.game import Game as EngineGame
from ..engine.record import to_record
from .words import _

HUMAN = 0
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
    """The person is "You" (in their language), the robots their names."""
    return _("You") if seat == HUMAN else ROBOT_NAMES[seat - 1]


@dataclass
class Game(EngineGame):
    """The engine's game of several deals, with robots in every seat but the person's, and saves."""

    level: str = field(default_factory=default_level)
    save_dir: Path | None = None
    game_id: str = ""

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"unknown robot level {self.level!r}; levels are {', '.join(LEVELS)}")
        super().__post_init__()
        if not self.game_id:
            self.game_id = time.strftime("%Y%m%d-%H%M%S") + "-" + str(self.seed)[:8].replace("/", "_")
        self.save_error: str | None = None
        self._robots: dict[tuple[int, str], Any] = {}
        self.records: dict[int, dict] = {}  # the records of the deals finished in this run, by their line of the sheet

    def observation(self, seat: int = HUMAN) -> Observation:
        return self.current.observation(seat)

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
        seat = self.current.to_act
        if seat is None or seat == HUMAN:
            raise RuntimeError("it is the person's turn" if seat == HUMAN else "the deal is over")
        return seat, self.robot(seat).choose(self.current.observation(seat))

    def hint(self, factor: int = WORLDS_FACTOR) -> Hint:
        """What the expert would do in the person's place, and why: the analysis's own search of this
        decision (its seed, ``factor`` times the expert's worlds), so the analysis after agrees."""
        return hint(self.current.observation(HUMAN), len(self.current.history), "analysis", factor)

    def apply(self, action: Action, seat: int = HUMAN) -> DealSummary | None:
        return super().apply(action, seat)

    def _finish(self) -> DealSummary:
        deal = self.current
        summary = self.summarize(deal)
        record = self.named_record(deal)
        self.records[len(self.sheet)] = record
        try:
            if self.save_dir is not None:
                summary.record = str(self.save_record(record))
            self.sheet.append(summary)
            if self.save_dir is not None:
                self.save()
        except OSError as err:  # a full disk must not end the game: the app says so
            if summary not in self.sheet:
                self.sheet.append(summary)
            self.save_error = err.strerror or str(err)
        return summary

    def finished_records(self) -> list[dict]:
        """Each finished deal's record in the game's order: kept since this run began, else read back from its
        saved file (a game resumed); a deal whose record is neither (a file gone) is left out."""
        out = []
        for i, summary in enumerate(self.sheet):
            record = self.records.get(i)
            if record is None and summary.record:
                with contextlib.suppress(OSError, ValueError):
                    record = json.loads(Path(summary.record).read_text(encoding="utf-8"))
            if record is not None:
                out.append(record)
        return out

    # ---------------------------------------------------------- saving
    def records_dir(self) -> Path:
        assert self.save_dir is not None, "a game without a save folder saves nothing"
        return Path(self.save_dir) / "records"

    @staticmethod
    def named_record(deal: Deal) -> dict:
        """A finished deal's record (docs/record-format.md) with the seats' names: as saved, kept and analysed."""
        return {**to_record(deal), "names": [seat_name(seat) for seat in range(deal.players)]}

    def save_record(self, record: dict) -> Path:
        """Write the record of the deal just finished (``named_record``) and return its path."""
        folder = self.records_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.game_id}-{self.deal_index:02d}.json"
        path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        return path

    def save_path(self) -> Path:
        assert self.save_dir is not None, "a game without a save folder saves nothing"
        return Path(self.save_dir) / "game.json"

    def resume_command(self) -> str:
        """The command that continues this game: ``atout play --resume`` finds only the default folder's
        game, so a game saved elsewhere (``--save-dir DIR``) is named by its file."""
        path = self.save_path()
        if path.resolve() == (default_save_dir() / "game.json").resolve():
            return "atout play --resume"
        return f"atout play --resume {shlex.quote(str(path))}"

    def to_json(self) -> dict:
        return {**super().to_json(), "game_id": self.game_id, "level": self.level}

    def save(self, path: Path | str | None = None) -> Path:
        """Write the game so far (the deal in progress as a deal record)."""
        if path is None:
            if self.save_dir is None:
                raise ValueError("no save directory")
            path = self.save_path()
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
            tmp.replace(path)
        except OSError as err:  # remembered, so nobody is told the game was saved when it was not
            self.save_error = err.strerror or str(err)
            raise
        self.save_error = None
        return path

    @classmethod
    def from_json(cls, data: Any, save_dir: Path | None = None) -> Game:
        fields = cls.fields_from_json(data)
        level = current_level(data["level"]) if isinstance(data.get("level"), str) else None
        return cls(
            **fields,
            level=level if level in LEVELS else default_level(),
            save_dir=save_dir,
            game_id=data.get("game_id", ""),
        )

    @classmethod
    def load(cls, path: Path | str, save_dir: Path | None = None) -> Game:
        path = Path(path)
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls.from_json(data, save_dir=save_dir if save_dir is not None else path.parent)


__all__ = ["HUMAN", "DealSummary", "Game", "default_level", "default_save_dir", "hint_level", "seat_name"]

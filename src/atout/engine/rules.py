"""The rule set: player count, the named options of docs/rules.md section 14, and table settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

OPTIONS: MappingProxyType[str, tuple[str, ...]] = MappingProxyType(
    {
        "excuse_last_trick": ("other_side", "trick_winner"),
        "petit_sec": ("redeal", "holder_may_play"),
        "deal_emulation": ("packets", "uniform"),
        "chelem_announce": ("before_first_lead", "with_bid"),
        "five_players": ("call_king", "dealer_sits_out"),
        "first_lead": ("dealer_right", "taker"),
    }
)
"""Each option's values, the default (the FFT rule) first."""

DEFAULTS = MappingProxyType({name: values[0] for name, values in OPTIONS.items()})


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What depends on how many players take part (docs/rules.md section 2)."""

    active: int
    hand_size: int
    dog_size: int
    packet: int
    poignees: tuple[tuple[str, int, int], ...]  # (name, trumps shown, bonus)


SETTINGS = {
    3: TableSettings(3, 24, 6, 4, (("simple", 13, 20), ("double", 15, 30), ("triple", 18, 40))),
    4: TableSettings(4, 18, 6, 3, (("simple", 10, 20), ("double", 13, 30), ("triple", 15, 40))),
    5: TableSettings(5, 15, 3, 3, (("simple", 8, 20), ("double", 10, 30), ("triple", 13, 40))),
}


class RuleError(ValueError):
    """A rule set that cannot be: a bad player count, option name or value."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Players at the table and the options in force; defaults are the FFT rules."""

    players: int = 4
    options: MappingProxyType[str, str] = field(default_factory=lambda: DEFAULTS)

    def __post_init__(self) -> None:
        if type(self.players) is not int or self.players not in (3, 4, 5):
            raise RuleError(f"players must be 3, 4 or 5, not {self.players!r}")
        merged = dict(DEFAULTS)
        for name, value in dict(self.options).items():
            if name not in OPTIONS:
                raise RuleError(f"unknown option {name!r}; options are {', '.join(OPTIONS)}")
            if value not in OPTIONS[name]:
                raise RuleError(f"option {name} cannot be {value!r}; it is one of {', '.join(OPTIONS[name])}")
            merged[name] = value
        object.__setattr__(self, "options", MappingProxyType(merged))

    @classmethod
    def make(cls, players: int = 4, **options: Any) -> RuleSet:
        return cls(players, MappingProxyType(options))

    def option(self, name: str) -> str:
        return self.options[name]

    @property
    def dealer_sits_out(self) -> bool:
        return self.players == 5 and self.options["five_players"] == "dealer_sits_out"

    @property
    def calls_king(self) -> bool:
        return self.players == 5 and not self.dealer_sits_out

    @property
    def active(self) -> int:
        """How many players receive cards and play."""
        return 4 if self.dealer_sits_out else self.players

    @property
    def settings(self) -> TableSettings:
        return SETTINGS[self.active]

    def non_default_options(self) -> dict[str, str]:
        return {k: v for k, v in self.options.items() if DEFAULTS[k] != v}

    def __hash__(self) -> int:
        return hash((self.players, tuple(sorted(self.options.items()))))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, RuleSet) and self.players == other.players and dict(self.options) == dict(other.options)
        )

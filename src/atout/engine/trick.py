"""A finished trick, as the deal keeps it and its score and observations read it: a module of its own, so that
scoring and observation know it without knowing the deal (state.py), which imports them."""

from __future__ import annotations

from typing import NamedTuple


class Trick(NamedTuple):
    """A finished trick: who led, the (seat, card) plays in order, who won it."""

    leader: int
    plays: tuple[tuple[int, int], ...]
    winner: int


__all__ = ["Trick"]

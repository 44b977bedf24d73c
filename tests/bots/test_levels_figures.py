"""The robots' levels on a person's scale (bots/levels_figures.py): the committed figures cover every level a table
offers at every table size, put the expert first, and are weighed by a person's table sizes."""

from __future__ import annotations

import pytest

from atout.bots import levels_figures
from atout.bots.accuracy import PHASES
from atout.bots.levels_figures import level_figures, nearest, robots_beside


def test_the_committed_figures_cover_every_level_size_and_phase_and_order_the_levels() -> None:
    figures = level_figures()
    assert set(figures) == {"beginner", "club", "expert"}, "run benchmarks/level_accuracy.py --write"
    for level, sizes in figures.items():
        assert set(sizes) == {"3", "4", "5"}, level
        for size, phases in sizes.items():
            assert set(phases) >= {"bid", "taker", "defence", "all"}, (level, size)
            assert all(loss >= 0 and deals > 0 for loss, deals in phases.values()), (level, size)
            assert set(phases) <= {*PHASES, "all"}
    for size in ("3", "4", "5"):  # the expert, measured by its own search, loses least at every size
        every = {level: figures[level][size]["all"][0] for level in figures}
        assert every["expert"] < min(every["club"], every["beginner"]), (size, every)


def test_a_persons_table_sizes_weigh_the_robots_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    made = {
        "club": {"4": {"defence": [1.0, 10]}, "5": {"defence": [3.0, 10]}},
        "expert": {"4": {"defence": [0.2, 10]}},  # never measured at five: weighed by the four-player deals only
    }
    monkeypatch.setattr(levels_figures, "level_figures", lambda: made)
    assert robots_beside({"4": 3, "5": 1}, "defence") == {"club": 1.5, "expert": 0.2}
    assert robots_beside({"5": 2}, "defence") == {"club": 3.0}
    assert robots_beside({"3": 2}, "defence") == {}  # no level measured there
    assert robots_beside({"4": 3}, "ecart") == {}


def test_the_nearest_level_and_a_tie_to_the_stronger() -> None:
    robots = {"beginner": 6.0, "club": 2.0, "expert": 0.4}
    assert nearest(1.9, robots) == "club"
    assert nearest(0.0, robots) == "expert"
    assert nearest(9.0, robots) == "beginner"
    assert nearest(1.2, robots) == "expert"  # 0.8 from each: the one losing less
    assert nearest(1.0, {}) is None

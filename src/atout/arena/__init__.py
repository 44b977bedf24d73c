"""The arena: robots against robots on duplicate deals, with confidence intervals."""

from .duplicate import play_duplicate, play_game
from .run import report, run_arena, summarize
from .stats import mean_ci

__all__ = ["mean_ci", "play_duplicate", "play_game", "report", "run_arena", "summarize"]

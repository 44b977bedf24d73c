"""Statistics for the arena: means with a 95% confidence interval, medians."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054


def mean_ci(values: Sequence[float]) -> dict:
    """Mean and normal-approximation 95% interval (sample standard deviation, n - 1).

    With fewer than two values the interval is unknown and given as None.
    """
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "low": None, "high": None, "sd": None}
    mean = sum(values) / n
    if n < 2:
        return {"n": n, "mean": mean, "low": None, "high": None, "sd": None}
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    sd = math.sqrt(var)
    half = Z95 * sd / math.sqrt(n)
    return {"n": n, "mean": mean, "low": mean - half, "high": mean + half, "sd": sd}


def median(values: Sequence[float]) -> float | None:
    if not values:
        return None
    s = sorted(values)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


def rate(hits: int, total: int) -> float | None:
    return hits / total if total else None

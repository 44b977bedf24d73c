"""The robots' ladder (``atout arena --ladder``): entrants ranked by duplicate results, with intervals.

Two ways to rank, both on the same duplicate deals (the same seed, so every match is paired deal by deal):

- against a yardstick (the default): each entrant plays ``--baseline``; its rating is its points per deal
  against it, with that match's 95% interval, and the yardstick's is 0 by definition;
- round robin: every pair plays once; the ratings are the least-squares fit of ``rating(a) - rating(b)``
  to each match's points per deal, weighted by its precision (one over its squared standard error), set
  to average 0; their intervals come from the fit's covariance.  Any robot's rating minus another's is
  then their expected points per deal against each other.

The results go to JSON (every match's summary, the ranking), a Markdown table and an SVG picture.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from .stats import Z95


@dataclass(frozen=True, slots=True)
class Rating:
    """An entrant's place: points per deal (against the yardstick, or the round robin's fit) and 95% interval."""

    entrant: str
    mean: float
    low: float
    high: float
    deals: int  # duplicate deals behind the figure (all its matches)

    def to_json(self) -> dict:
        return {"entrant": self.entrant, "mean": self.mean, "low": self.low, "high": self.high, "deals": self.deals}


def against_yardstick(yardstick: str, matches: dict[tuple[str, str], dict]) -> list[Rating]:
    """Each ``(entrant, yardstick)`` match's points per deal, best first; the yardstick at 0."""
    out = [Rating(yardstick, 0.0, 0.0, 0.0, 0)]
    for (entrant, base), summary in matches.items():
        assert base == yardstick, (entrant, base)
        ci = summary["points_per_deal"]
        low = ci["low"] if ci["low"] is not None else ci["mean"]
        high = ci["high"] if ci["high"] is not None else ci["mean"]
        out.append(Rating(entrant, ci["mean"], low, high, summary["deals"]))
    return sorted(out, key=lambda r: -r.mean)


def round_robin(entrants: list[str], matches: dict[tuple[str, str], dict]) -> list[Rating]:
    """The weighted least-squares ratings of the module's docstring, best first.  A match whose interval
    is 0 wide (a robot against its copy) weighs as much as the most precise other one."""
    import numpy as np

    index = {e: i for i, e in enumerate(entrants)}
    rows, diffs, ses, deals = [], [], [], [0] * len(entrants)
    for (a, b), summary in matches.items():
        ci = summary["points_per_deal"]
        se = ci["sd"] / math.sqrt(ci["n"]) if ci["sd"] is not None else math.inf
        row = np.zeros(len(entrants))
        row[index[a]], row[index[b]] = 1.0, -1.0
        rows.append(row)
        diffs.append(ci["mean"])
        ses.append(se)
        deals[index[a]] += summary["deals"]
        deals[index[b]] += summary["deals"]
    finite = [s for s in ses if 0 < s < math.inf]
    floor = min(finite) if finite else 1.0
    weights = np.array([0.0 if s == math.inf else 1.0 / max(s, floor) ** 2 for s in ses])
    design = np.array(rows)
    normal = design.T @ (weights[:, None] * design)
    # ratings average 0: the fit is up to a constant, the pseudo-inverse picks the one of mean 0
    cov = np.linalg.pinv(normal)
    fit = cov @ (design.T @ (weights * np.array(diffs)))
    out = []
    for e, i in index.items():
        half = Z95 * math.sqrt(max(cov[i, i], 0.0))
        out.append(Rating(e, float(fit[i]), float(fit[i] - half), float(fit[i] + half), deals[i]))
    return sorted(out, key=lambda r: -r.mean)


def pairs(entrants: list[str], yardstick: str | None) -> list[tuple[str, str]]:
    """The matches to play: each entrant against the yardstick, or every pair of entrants."""
    if yardstick is not None:
        return [(e, yardstick) for e in entrants if e != yardstick]
    return list(itertools.combinations(entrants, 2))


def run_ladder(
    entrants: list[str],
    yardstick: str | None,
    play: Callable[[str, str], dict],
    say: Callable[[str], None] = lambda _: None,
) -> dict:
    """Play every match with ``play(candidate, baseline) -> summary`` and rank: the ladder's JSON."""
    matches: dict[tuple[str, str], dict] = {}
    for candidate, baseline in pairs(entrants, yardstick):
        say(f"{candidate} vs {baseline}")
        matches[(candidate, baseline)] = play(candidate, baseline)
    ratings = against_yardstick(yardstick, matches) if yardstick is not None else round_robin(entrants, matches)
    return {
        "method": "yardstick" if yardstick is not None else "round robin",
        "yardstick": yardstick,
        "ranking": [r.to_json() for r in ratings],
        "matches": [{"candidate": a, "baseline": b, "summary": s} for (a, b), s in matches.items()],
    }


def markdown(ladder: dict, config: dict, picture: str | None = None) -> str:
    """The ladder as a Markdown table (and its picture), the command that made it first."""
    how = (
        f"each entrant against the yardstick `{ladder['yardstick']}` (0 by definition)"
        if ladder["method"] == "yardstick"
        else "round robin, every pair once; ratings fitted to the matches (weighted least squares, mean 0)"
    )
    lines = [
        "# The robots' ladder",
        "",
        f"`{config['invocation']}`",
        "",
        f"{config['players']} players, {config['deals']} duplicate deals a match (seed `{config['seed']}`, "
        f"{config['seeding']} seeding); {how}. Points per deal with a 95% interval.",
        "",
        "| rank | entrant | points per deal | 95% interval | deals |",
        "| ---: | --- | ---: | --- | ---: |",
    ]
    for place, r in enumerate(ladder["ranking"], 1):
        if r["entrant"] == ladder["yardstick"]:
            lines.append(f"| {place} | `{r['entrant']}` (the yardstick) | 0 | | |")
            continue
        lines.append(
            f"| {place} | `{r['entrant']}` | {r['mean']:+.1f} | [{r['low']:+.1f}, {r['high']:+.1f}] | {r['deals']} |"
        )
    if picture:
        lines += ["", f"![the ladder]({picture})"]
    lines += [
        "",
        "| match | points per deal | taker success (candidate / baseline) | engine faults |",
        "| --- | --- | --- | --- |",
    ]
    for m in ladder["matches"]:
        ci, ts = m["summary"]["points_per_deal"], m["summary"]["taker_success"]
        interval = "" if ci["low"] is None else f" [{ci['low']:+.1f}, {ci['high']:+.1f}]"
        takes = " / ".join("-" if ts[k] is None else f"{ts[k]:.0%}" for k in ("candidate", "baseline"))
        faults = (
            "; ".join(
                f"{who}: {sum(v for k, v in row.items() if k != 'playings')}"
                for who, row in m["summary"].get("faults", {}).items()
            )
            or "none"
        )
        lines.append(f"| `{m['candidate']}` vs `{m['baseline']}` | {ci['mean']:+.1f}{interval} | {takes} | {faults} |")
    return "\n".join(lines) + "\n"


LINEAR_SPAN = 200.0
"""Wider than this (random's -700 beside the levels' few points), the picture's scale is logarithmic
beyond +-10 points (``_symlog``), so the levels' intervals stay apart."""


def _symlog(v: float) -> float:
    return math.copysign(math.log10(1 + abs(v) / 10), v)


def svg(ladder: dict, title: str) -> str:
    """The ladder drawn: one row an entrant, its interval a bar and its rating a dot, 0 a vertical line."""
    ranking = ladder["ranking"]
    low = min([r["low"] for r in ranking] + [0.0])
    high = max([r["high"] for r in ranking] + [0.0])
    logarithmic = high - low > LINEAR_SPAN
    scale = _symlog if logarithmic else float
    left, width, row, top = 300, 460, 28, 44
    height = top + row * len(ranking) + 40
    a, b = scale(low), scale(high)
    a, b = a - 0.05 * ((b - a) or 1.0), b + 0.05 * ((b - a) or 1.0)

    def x(v: float) -> float:
        return left + (scale(v) - a) / (b - a) * width

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 30}" height="{height}" '
        'font-family="sans-serif" font-size="13">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="10" y="22" font-size="15" font-weight="bold">{escape(title)}</text>',
        f'<line x1="{x(0):.1f}" y1="{top - 8}" x2="{x(0):.1f}" y2="{height - 30}" stroke="#999" '
        'stroke-dasharray="4 3"/>',
    ]
    for i, r in enumerate(ranking):
        y = top + row * i + row / 2
        parts += [
            f'<text x="{left - 10}" y="{y + 4:.1f}" text-anchor="end">{escape(_label(r["entrant"], ladder))}</text>',
            f'<line x1="{x(r["low"]):.1f}" y1="{y:.1f}" x2="{x(r["high"]):.1f}" y2="{y:.1f}" stroke="#2b6cb0" '
            'stroke-width="4" stroke-linecap="round"/>',
            f'<circle cx="{x(r["mean"]):.1f}" cy="{y:.1f}" r="5" fill="#1a365d"/>',
            f'<text x="{left + width + 25}" y="{y + 4:.1f}" text-anchor="end" fill="#444">{r["mean"]:+.1f}</text>',
        ]
    axis = height - 24
    ticks = [v for v in (-1000, -100, -10, 0, 10, 100, 1000) if low <= v <= high] if logarithmic else _ticks(low, high)
    for v in ticks:
        parts.append(
            f'<text x="{x(v):.1f}" y="{axis + 14}" text-anchor="middle" fill="#444">'
            f"{'0' if v == 0 else f'{v:+g}'}</text>"
        )
        parts.append(f'<line x1="{x(v):.1f}" y1="{axis - 4}" x2="{x(v):.1f}" y2="{axis}" stroke="#444"/>')
    parts.append(f'<line x1="{left}" y1="{axis - 4}" x2="{left + width}" y2="{axis - 4}" stroke="#444"/>')
    caption = "points per deal" + (" (log. beyond ±10)" if logarithmic else "")
    parts.append(f'<text x="{left - 10}" y="{axis + 14}" text-anchor="end" fill="#444">{caption}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _label(entrant: str, ladder: dict) -> str:
    """An entrant's name in the picture: at most 40 characters, the yardstick said."""
    name = entrant if len(entrant) <= 40 else entrant[:39] + "…"
    return f"{name} (yardstick)" if entrant == ladder["yardstick"] else name


def _ticks(low: float, high: float) -> list[float]:
    """About six round values between ``low`` and ``high``."""
    raw = (high - low) / 6
    step = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * step:
            step *= m
            break
    first = math.ceil(low / step) * step
    return [round(first + k * step, 10) for k in range(int((high - first) / step) + 1)]

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


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0-100) by the nearest-rank method: a value that occurred."""
    if not values:
        return None
    if not 0 <= q <= 100:
        raise ValueError(f"percentile must be between 0 and 100, not {q}")
    s = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(s)))
    return s[rank - 1]


def decision_times_by_kind(records: Sequence[dict]) -> dict[str, dict]:
    """Median, 99th percentile and maximum of the candidate's decision seconds, per kind of decision.

    Records written before the arena kept kinds count as kind ``"unknown"``.
    """
    by_kind: dict[str, list[float]] = {}
    for r in records:
        for s in r["seats"]:
            kinds = s.get("kinds") or ["unknown"] * len(s["times"])
            for kind, t in zip(kinds, s["times"], strict=True):
                by_kind.setdefault(kind, []).append(t)
    return {
        kind: {"count": len(v), "median": median(v), "p99": percentile(v, 99), "max": max(v)}
        for kind, v in sorted(by_kind.items())
    }


def contract_table(records: Sequence[dict]) -> dict[str, dict[str, dict]]:
    """How often the candidate and the baseline took each contract, and how often they made it.

    The candidate's takes are its seats where it took; the baseline's are the
    all-baseline game's taker (one seat per deal).
    """
    out: dict[str, dict[str, dict]] = {"candidate": {}, "baseline": {}}
    for r in records:
        for s in r["seats"]:
            for who, role, made, contract in (
                ("candidate", s["role"], s["made"], s.get("contract")),
                ("baseline", s["baseline_role"], s["baseline_made"], r.get("baseline_contract")),
            ):
                if role != "taker" or contract is None:
                    continue
                row = out[who].setdefault(contract, {"takes": 0, "made": 0})
                row["takes"] += 1
                row["made"] += bool(made)
    for rows in out.values():
        total = sum(row["takes"] for row in rows.values())
        for row in rows.values():
            row["share"] = rate(row["takes"], total)
            row["success"] = rate(row["made"], row["takes"])
    return out


def paired(before: Sequence[dict], after: Sequence[dict]) -> dict:
    """Two runs on the same deals (same seed), ``after`` minus ``before``.

    ``per_deal``: the difference of the per-deal figures (mean over seats) on
    the deals both runs played.  ``roles``: per seat-deal, where the candidate
    had the same role in both runs (``taker``, ``defender``, ``partner``), the
    difference of its scores; a change that moves who takes leaves those
    seat-deals out of the role figures but not out of ``per_deal``.
    """
    a = {d["index"]: d for d in before}
    b = {d["index"]: d for d in after}
    common = sorted(set(a) & set(b))
    per_deal = []
    roles: dict[str, list[float]] = {}
    for i in common:
        sa, sb = a[i]["seats"], b[i]["seats"]
        per_deal.append(sum(s["diff"] for s in sb) / len(sb) - sum(s["diff"] for s in sa) / len(sa))
        for x, y in zip(sa, sb, strict=True):
            if x["role"] == y["role"] and x["role"] != "void":
                roles.setdefault(x["role"], []).append(y["diff"] - x["diff"])
    return {
        "deals": len(common),
        "per_deal": mean_ci(per_deal),
        "roles": {r: mean_ci(v) for r, v in sorted(roles.items())},
    }

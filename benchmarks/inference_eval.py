"""The card-location model against today's worlds and chance, on held-out deals: log-loss and calibration.

    nice -n 15 python benchmarks/inference_eval.py --deals 300 --seed infer-test \
        --json benchmarks/results/inference.json --svg benchmarks/results/inference.svg

Positions are drawn as in inference_data.py (same tables, another seed).  For every unseen card not
known to lie in one place, four guesses at where it lies:

- ``model``: ``inference.placement`` (the softmax, balanced so each place expects its room);
- ``model_raw``: the softmax alone;
- ``worlds``: the weighted share of today's worlds (``sampling.weighted_states``, ``--worlds`` of them,
  as many as the expert draws for a card, expert.CARD_SAMPLES) putting it in each place, mixed with ``uniform`` by the
  share
  ``eps`` that suits them best on these positions (a world-count share is often 0: unmixed, its
  log-loss is infinite);
- ``worlds_model``: the same worlds, each weight multiplied by the model's probability of the world
  to the power ``--power`` (``expert.MODEL_WORLDS``, ``inference.weigh_states``), mixed likewise;
- ``worlds_drawn``: worlds dealt from the model (``sampling.weighted_states`` with ``model=--draw``,
  ``expert.MODEL_DRAW``: each card's place drawn from the model's probabilities within the hard facts),
  weighted as today's, mixed likewise (only with ``--draw``);
- ``uniform``: each legal place in proportion to its room, balanced like the model.

Reported: the mean log-loss (nats) of the true place per card, overall, by trick and by the
seat's side; the mean probability given to the true place; and a reliability table (every legal
(card, place) pair with more than one legal place, by predicted probability).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from functools import partial

import numpy as np
from inference_data import labels, positions

from atout.bots import fastplay, inference, sampling
from atout.bots.inference import PLACES_MAX, draw_probabilities
from atout.bots.knowledge import infer

METHODS = ("model", "model_raw", "worlds", "worlds_model", "worlds_drawn", "uniform")
EPS = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6)
BINS = 10


def world_shares(
    obs, pos, worlds: int, seed: str, power: float = 0.0, draw: float = 0.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The weighted share of today's worlds putting each of ``pos.cards`` in each place and the same with
    the worlds' weights multiplied by the model's (``inference.weigh_states``, to ``power``); or with
    ``draw``, only the share of worlds dealt from the model (``expert.MODEL_DRAW``, first two None)."""
    k = infer(obs)
    if draw:
        return (
            None,
            None,
            shares(
                pos,
                sampling.weighted_states(
                    obs, random.Random(seed), worlds, k, chances=partial(draw_probabilities, power=draw)
                ),
            ),
        )
    states = sampling.weighted_states(obs, random.Random(seed), worlds, k)
    return shares(pos, states), shares(pos, inference.weigh_states(obs, k, states, power)), None


def shares(pos, states) -> np.ndarray:
    out = np.zeros((len(pos.cards), PLACES_MAX))
    total = 0.0
    pile = [i for i, b in enumerate(pos.places) if b < 0]
    for state, weight in states:
        found = np.zeros(len(pos.cards), dtype=bool)
        for i, b in enumerate(pos.places):
            if b < 0:
                continue
            hand = int(state[fastplay.HAND_HI + b]) << 56 | int(state[fastplay.HAND_LO + b])
            there = np.array([hand >> int(c) & 1 for c in pos.cards], dtype=bool)
            out[there, i] += weight
            found |= there
        if pile:
            out[~found, pile[0]] += weight
        total += weight
    return out / total


def uniform(pos) -> np.ndarray:
    p = pos.legal * pos.room
    p = p / p.sum(axis=1, keepdims=True)
    return inference.balance(p, pos.room)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", default="infer-test")
    ap.add_argument("--keep", type=float, default=0.2)
    ap.add_argument("--players", type=int, default=4, help="the table size (its own model: inference.WEIGHTS)")
    ap.add_argument("--expert", type=float, default=0.5)
    ap.add_argument("--beginner", type=float, default=0.3)
    ap.add_argument("--worlds", type=int, default=108)
    ap.add_argument("--power", type=float, default=0.5, help="expert.MODEL_WORLDS for worlds_model")
    ap.add_argument(
        "--draw", type=float, default=0.0, help="expert.MODEL_DRAW for worlds_drawn (0: that column left out)"
    )
    ap.add_argument("--json", required=True)
    ap.add_argument("--svg", required=True)
    args = ap.parse_args()
    methods = [m for m in METHODS if args.draw or m != "worlds_drawn"]
    rec: dict[str, list] = {m: [] for m in methods}
    legal_all, y_all, trick_all, taker_all, deal_all = [], [], [], [], []
    t0 = time.monotonic()
    timing = {"model": 0.0, "worlds": 0.0, "worlds_drawn": 0.0}
    n = 0
    for n, (i, obs, deal) in enumerate(
        positions(args.deals, args.seed, args.keep, args.expert, args.beginner, players=args.players), 1
    ):
        t = time.perf_counter()
        pos = inference.encode(obs)
        if not len(pos.cards):
            continue
        t1 = time.perf_counter()
        try:
            worlds, worlds_model, _ = world_shares(obs, pos, args.worlds, f"{args.seed}/{n}", args.power)
            t2 = time.perf_counter()
            drawn = world_shares(obs, pos, args.worlds, f"{args.seed}/{n}", draw=args.draw)[2] if args.draw else None
        except sampling.NoWorld:
            continue
        timing["worlds_drawn"] += time.perf_counter() - t2
        timing["worlds"] += t2 - t1
        t += time.perf_counter() - t1
        if drawn is not None:
            rec["worlds_drawn"].append(drawn)
        raw = inference.raw_scores(pos)
        rec["model"].append(inference.balance(raw, pos.room))
        timing["model"] += time.perf_counter() - t
        rec["model_raw"].append(raw)
        rec["worlds"].append(worlds)
        rec["worlds_model"].append(worlds_model)
        rec["uniform"].append(uniform(pos))
        legal_all.append(pos.legal)
        y_all.append(labels(pos, deal))
        trick_all.append(np.full(len(pos.cards), len(obs.tricks)))
        taker_all.append(np.full(len(pos.cards), obs.seat == obs.taker))
        deal_all.append(np.full(len(pos.cards), i))
        if n % 50 == 0:
            sys.stderr.write(f"\r  deal {i + 1}/{args.deals}, {n} positions, {time.monotonic() - t0:5.0f}s")
    sys.stderr.write("\n")
    legal = np.concatenate(legal_all)
    y = np.concatenate(y_all)
    trick = np.concatenate(trick_all)
    taker = np.concatenate(taker_all)
    deal_of = np.concatenate(deal_all)
    probs = {m: np.concatenate(v) for m, v in rec.items()}
    rows = np.arange(len(y))

    def logloss(p: np.ndarray) -> np.ndarray:
        return -np.log(np.maximum(p[rows, y], 1e-12))

    best = {}
    for m in [m for m in ("worlds", "worlds_model", "worlds_drawn") if m in probs]:
        best[m] = min(EPS, key=lambda e, m=m: float(logloss((1 - e) * probs[m] + e * probs["uniform"]).mean()))
        probs[m] = (1 - best[m]) * probs[m] + best[m] * probs["uniform"]
    choice = (legal.sum(axis=1) > 1)[:, None] & legal
    out: dict = {
        "command": " ".join(sys.argv),
        "players": args.players,
        "draw": args.draw,
        "positions": len(rec["model"]),
        "cards": len(y),
        "worlds_eps": best,
        "ms_per_position": {k: 1000 * v / max(1, n) for k, v in timing.items()},
        "methods": {},
    }
    tricks = sorted(set(trick.tolist()))
    for m in methods:
        p = probs[m]
        ll = logloss(p)
        pred = p[choice]
        hit = (np.arange(PLACES_MAX)[None, :] == y[:, None])[choice]
        edges = np.linspace(0, 1, BINS + 1)
        which = np.clip(np.digitize(pred, edges) - 1, 0, BINS - 1)
        reliability = [
            {
                "bin": [float(edges[b]), float(edges[b + 1])],
                "n": int((which == b).sum()),
                "predicted": float(pred[which == b].mean()) if (which == b).any() else None,
                "observed": float(hit[which == b].mean()) if (which == b).any() else None,
            }
            for b in range(BINS)
        ]
        ece = sum(r["n"] * abs(r["predicted"] - r["observed"]) for r in reliability if r["n"]) / len(pred)
        out["methods"][m] = {
            "logloss": float(ll.mean()),
            "logloss_ci95": float(1.96 * ll.std() / np.sqrt(len(ll))),
            "logloss_taker": float(ll[taker].mean()),
            "logloss_defender": float(ll[~taker].mean()),
            "true_place_probability": float(p[rows, y].mean()),
            "calibration_error": float(ece),
            "logloss_by_trick": {int(t): float(ll[trick == t].mean()) for t in tricks},
            "reliability": reliability,
        }
    # Paired differences per card, their interval from the spread between deals (a deal's cards are not
    # independent): the mean over deals of each deal's mean difference.
    out["paired"] = {}
    pairs = [
        ("model", "worlds"),
        ("worlds_model", "worlds"),
        ("model", "uniform"),
        ("worlds", "uniform"),
        ("model", "model_raw"),
    ]
    if args.draw:
        pairs += [("worlds_drawn", "worlds"), ("worlds_drawn", "model"), ("worlds_drawn", "worlds_model")]
    for a, b in pairs:
        diff = logloss(probs[a]) - logloss(probs[b])
        per_deal = np.array([diff[deal_of == d].mean() for d in np.unique(deal_of)])
        half = 1.96 * per_deal.std(ddof=1) / np.sqrt(len(per_deal))
        out["paired"][f"{a}-{b}"] = {
            "mean_per_deal": float(per_deal.mean()),
            "ci95": float(half),
            "deals": len(per_deal),
        }
    with open(args.json, "w") as f:
        json.dump(out, f, indent=1)
    with open(args.svg, "w") as f:
        f.write(svg(out))
    for m in methods:
        r = out["methods"][m]
        print(
            f"{m:10s} log-loss {r['logloss']:.4f} ±{r['logloss_ci95']:.4f} (taker {r['logloss_taker']:.4f}, "
            f"defender {r['logloss_defender']:.4f}), true place {r['true_place_probability']:.3f}, "
            f"calibration error {r['calibration_error']:.3f}"
        )
    for name, r in out["paired"].items():
        print(f"{name}: {r['mean_per_deal']:+.4f} ± {r['ci95']:.4f} nats a card (mean over {r['deals']} deals)")
    print(
        f"{out['positions']} positions, {out['cards']} cards; worlds mixed with uniform at eps {best}; "
        f"ms a position: {out['ms_per_position']}"
    )
    return 0


COLOURS = {
    "model": "#1b6ca8",
    "model_raw": "#7fb3d5",
    "worlds": "#c0392b",
    "worlds_model": "#e67e22",
    "worlds_drawn": "#27ae60",
    "uniform": "#7f8c8d",
}


def svg(out: dict) -> str:
    """A reliability diagram and the log-loss by trick, side by side."""
    w, h, pad = 360, 300, 45
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * w + 40}" height="{h + 70}" '
        'font-family="sans-serif" font-size="11">',
        '<rect width="100%" height="100%" fill="white"/>',
    ]

    def panel(
        x0: int,
        title: str,
        xlabel: str,
        ylabel: str,
        xmax: float,
        ymin: float,
        ymax: float,
        series: dict[str, list[tuple[float, float]]],
        diagonal: bool,
    ) -> None:
        def px(v: float) -> float:
            return x0 + pad + (w - pad - 10) * v / xmax

        def py(v: float) -> float:
            return 30 + (h - 30 - pad) * (1 - (v - ymin) / (ymax - ymin))

        parts.append(f'<text x="{x0 + w / 2}" y="18" text-anchor="middle" font-size="13">{title}</text>')
        parts.append(
            f'<rect x="{px(0)}" y="{py(ymax)}" width="{px(xmax) - px(0)}" height="{py(ymin) - py(ymax)}" '
            'fill="none" stroke="#999"/>'
        )
        for k in range(6):
            xv, yv = xmax * k / 5, ymin + (ymax - ymin) * k / 5
            xtext = f"{xv:.3g}" if xmax <= 1 else f"{xv:.0f}"
            parts.append(f'<text x="{px(xv)}" y="{py(ymin) + 14}" text-anchor="middle">{xtext}</text>')
            parts.append(f'<text x="{px(0) - 4}" y="{py(yv) + 4}" text-anchor="end">{yv:.2f}</text>')
        parts.append(f'<text x="{x0 + w / 2}" y="{py(ymin) + 30}" text-anchor="middle">{xlabel}</text>')
        parts.append(
            f'<text x="{x0 + 10}" y="{(py(ymin) + py(ymax)) / 2}" text-anchor="middle" '
            f'transform="rotate(-90 {x0 + 10} {(py(ymin) + py(ymax)) / 2})">{ylabel}</text>'
        )
        if diagonal:
            parts.append(
                f'<line x1="{px(0)}" y1="{py(0)}" x2="{px(1)}" y2="{py(1)}" stroke="#ccc" stroke-dasharray="4 3"/>'
            )
        for name, pts in series.items():
            path = " ".join(f"{px(a):.1f},{py(b):.1f}" for a, b in pts)
            parts.append(f'<polyline points="{path}" fill="none" stroke="{COLOURS[name]}" stroke-width="2"/>')
            for a, b in pts:
                parts.append(f'<circle cx="{px(a):.1f}" cy="{py(b):.1f}" r="2.5" fill="{COLOURS[name]}"/>')

    rel = {m: [(r["predicted"], r["observed"]) for r in v["reliability"] if r["n"]] for m, v in out["methods"].items()}
    panel(
        0,
        "Reliability (legal card-place pairs)",
        "predicted probability",
        "observed frequency",
        1.0,
        0.0,
        1.0,
        rel,
        True,
    )
    base = out["methods"]["uniform"]["logloss_by_trick"]
    by = {m: [(float(t) + 1, v - base[t]) for t, v in v["logloss_by_trick"].items()] for m, v in out["methods"].items()}
    ys = [b for pts in by.values() for _, b in pts]
    xmax = max(a for pts in by.values() for a, _ in pts)
    panel(
        w + 20,
        "Log-loss minus uniform's, by trick",
        "trick",
        "nats per unseen card",
        xmax,
        min(ys) * 1.1,
        max(0.01, max(ys) * 1.1),
        by,
        False,
    )
    for k, m in enumerate(m for m in METHODS if m in out["methods"]):
        r = out["methods"][m]
        y0 = h + 25 + 14 * (k // 2)
        x0 = 40 + 360 * (k % 2)
        parts.append(f'<rect x="{x0}" y="{y0 - 9}" width="12" height="4" fill="{COLOURS[m]}"/>')
        parts.append(
            f'<text x="{x0 + 18}" y="{y0 - 4}">{m}: log-loss {r["logloss"]:.3f}, '
            f"calibration error {r['calibration_error']:.3f}</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    sys.exit(main())

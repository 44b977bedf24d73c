"""Fit the learned bid edge (``bots.bidvalue``) to ``bid_data``'s rows and write the weights the package ships.

    python -m atout.training.bid_train --data bid-4.npz --seed 1 \\
        --out src/atout/bots/weights/bidvalue.npz --curve benchmarks/results/bid-curve.png

Numpy only (matplotlib for the picture).  The target of a row is ``(y - m) / 2``: what the expert
scored bidding Garde less the bid search's Garde mean ``m``, per unit of Garde's multiplier (the
unit ``TAKER_EDGE`` is in).  A ridge regression (``--ridge``, on standardised features) is fitted;
a tenth of the deals (chosen by the seed) are held out, every row of a deal on the same side.  The
figures, on the held-out rows, are errors of the Garde score ``y`` (root mean square, points):

- ``mean``: the training rows' mean score (a trivial baseline, knowing nothing of the hand);
- ``search``: the search's Garde mean plus ``TAKER_EDGE`` (today's expert's estimate);
- ``search+const``: the search's mean plus the training rows' mean edge (a refitted constant);
- ``learned``: the search's mean plus the learned edge;

and the value of the decision each makes between Garde and passing (bid Garde when its estimate
beats the search's mean for passing), as the mean over held-out rows of ``y - pass mean`` where it
bids Garde.  The same decision figures over every row, each predicted by a fit without its deal
(``--folds``-fold cross-validation by deal), are given as differences from today's rule
(``TAKER_EDGE``), paired by row, with 95% intervals; and those of a few constant edges beside.
The curve shows the learned error by the number of training rows (an eighth, a quarter, a half,
all).  The same data and seed give the same weights.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from . import write_summary


def load(paths: list[str]) -> dict[str, np.ndarray]:
    from ..bots.bidvalue import CONTRACTS, row
    from ..engine import GARDE

    parts: dict[str, list[np.ndarray]] = {"X": [], "y": [], "mg": [], "mp": [], "deal": []}
    g = CONTRACTS.index(GARDE)
    for k, path in enumerate(paths):
        with np.load(path) as z:
            x, means = z["x"], z["means"]
            parts["X"].append(np.array([row(x[i], means[i]) for i in range(len(x))]).reshape(len(x), -1))
            parts["y"].append(z["y"].astype(np.float64))
            parts["mg"].append(means[:, g])
            parts["mp"].append(means[:, 0])
            parts["deal"].append(z["deal"].astype(np.int64) + k * 10_000_000)
    return {k: np.concatenate(v) for k, v in parts.items()}


def fit_ridge(X: np.ndarray, t: np.ndarray, ridge: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(mean, scale, coef, bias) of the ridge regression of ``t`` on the standardised ``X``."""
    mean = X.mean(axis=0)
    std = X.std(axis=0)
    scale = np.where(std > 1e-9, 1.0 / np.maximum(std, 1e-9), 0.0)
    Z = (X - mean) * scale
    bias = float(t.mean())
    coef = np.linalg.solve(Z.T @ Z + ridge * np.eye(Z.shape[1]), Z.T @ (t - bias))
    return mean, scale, coef, bias


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", nargs="+", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ridge", type=float, default=30.0)
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--out", required=True)
    ap.add_argument("--curve", help="PNG of the learning curve (its figures go beside it, as .json)")
    args = ap.parse_args(argv)
    invocation = " ".join(["python -m atout.training.bid_train", *sys.argv[1:]])

    from ..bots.bidvalue import EDGE_RANGE, NAMES, BidEdge
    from ..bots.expert import TAKER_EDGE

    d = load(args.data)
    with np.load(args.data[0]) as z:
        players = int(z["players"])
    X, y, mg, mp, D = d["X"], d["y"], d["mg"], d["mp"], d["deal"]
    t = (y - mg) / 2.0
    rng = np.random.default_rng(args.seed)
    deals = np.unique(D)
    held = set(rng.choice(deals, size=max(1, len(deals) // 10), replace=False).tolist())
    is_val = np.array([dd in held for dd in D])
    val, tr = np.flatnonzero(is_val), np.flatnonzero(~is_val)

    def rmse(pred: np.ndarray) -> float:
        return float(np.sqrt(((pred - y[val]) ** 2).mean()))

    def decision(edge: np.ndarray) -> dict:
        take = mg[val] + 2.0 * edge > mp[val]
        gain = np.where(take, y[val] - mp[val], 0.0)
        return {"takes": int(take.sum()), "per_row": float(gain.mean()),
                "ci95": float(1.96 * gain.std(ddof=1) / np.sqrt(len(gain)))}

    def learned(rows: np.ndarray) -> BidEdge:
        return BidEdge(*fit_ridge(X[rows], t[rows], args.ridge))

    const = float(t[tr].mean())
    net = learned(tr)
    edge_val = np.clip(net.predict(X[val]), *EDGE_RANGE)
    errors = {"mean": rmse(np.full(len(val), y[tr].mean())),
              "search": rmse(mg[val] + 2.0 * TAKER_EDGE[players]),
              "search+const": rmse(mg[val] + 2.0 * const),
              "learned": rmse(mg[val] + 2.0 * edge_val)}
    decisions = {"search (TAKER_EDGE)": decision(np.full(len(val), TAKER_EDGE[players])),
                 "search+const": decision(np.full(len(val), const)),
                 "learned": decision(edge_val)}
    by_size = []
    train_deals = np.array(sorted(set(deals.tolist()) - held))
    for frac in (0.125, 0.25, 0.5, 1.0):
        sub = set(rng.choice(train_deals, size=max(1, int(len(train_deals) * frac)), replace=False).tolist())
        rows = tr[np.array([D[i] in sub for i in tr])]
        e = np.clip(learned(rows).predict(X[val]), *EDGE_RANGE)
        by_size.append({"rows": len(rows), "deals": len(sub), "learned": rmse(mg[val] + 2.0 * e)})
    # Cross-validation by deal: every row's learned edge from a fit without its deal.
    fold_of = dict(zip(deals.tolist(), (rng.permutation(len(deals)) % args.folds).tolist(), strict=True))
    fold = np.array([fold_of[dd] for dd in D.tolist()])
    oof = np.zeros(len(y))
    for k in range(args.folds):
        oof[fold == k] = np.clip(learned(np.flatnonzero(fold != k)).predict(X[fold == k]), *EDGE_RANGE)

    def gain(edge: np.ndarray) -> np.ndarray:
        return np.where(mg + 2.0 * edge > mp, y - mp, 0.0)

    today = gain(np.full(len(y), TAKER_EDGE[players]))

    def against_today(edge: np.ndarray) -> dict:
        diff = gain(edge) - today
        return {"takes": int((mg + 2.0 * edge > mp).sum()), "per_row": float(gain(edge).mean()),
                "minus_today": float(diff.mean()), "ci95": float(1.96 * diff.std(ddof=1) / np.sqrt(len(y)))}

    cross = {"rows": len(y), "today (TAKER_EDGE)": against_today(np.full(len(y), TAKER_EDGE[players])),
             "learned": against_today(oof),
             "rmse_today": float(np.sqrt(((mg + 2.0 * TAKER_EDGE[players] - y) ** 2).mean())),
             "rmse_learned": float(np.sqrt(((mg + 2.0 * oof - y) ** 2).mean()))}
    for c in (0.0, 12.0, 24.0, 48.0, 60.0):
        cross[f"constant {c:g}"] = against_today(np.full(len(y), c))
    print(f"{len(tr)} rows of {len(deals) - len(held)} deals to learn from, {len(val)} rows of {len(held)} held out")
    # The shipped weights: fitted on every row (the held-out figures above are the method's).
    final = learned(np.arange(len(y)))
    np.savez(args.out, mean=final.mean, scale=final.scale, coef=final.coef, bias=np.float64(final.bias),
             names=np.array(NAMES), invocation=np.array(invocation))
    all_edges = np.clip(final.predict(X), *EDGE_RANGE)
    summary = {"invocation": invocation, "rows": len(y), "deals": len(deals), "held_out_rows": len(val),
               "held_out_deals": len(held), "taker_edge": TAKER_EDGE[players], "mean_edge": const,
               "rmse": errors, "decision_vs_pass": decisions, "cross_validated": cross, "by_size": by_size,
               "edge_quantiles": {q: float(np.quantile(all_edges, q)) for q in (0.05, 0.25, 0.5, 0.75, 0.95)},
               "coef": {n: float(c) for n, c in zip(NAMES, final.coef * final.scale, strict=True)},
               "bias": final.bias}
    write_summary(summary, args.curve or args.out)
    if args.curve:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
        a1.plot([b["rows"] for b in by_size], [b["learned"] for b in by_size], marker="o", label="learned edge")
        styles = {"mean": "--", "search": ":", "search+const": "-."}
        for k, ls in styles.items():
            a1.axhline(errors[k], color="grey", linestyle=ls, label=k)
        a1.set_xscale("log", base=2)
        a1.set_xlabel("rows learnt from")
        a1.set_ylabel("held-out RMS error of the Garde score (points)")
        a1.legend()
        a2.scatter(X[:, NAMES.index("club count")], all_edges, s=4, alpha=0.4)
        a2.axhline(TAKER_EDGE[players], color="grey", linestyle=":", label="TAKER_EDGE")
        a2.set_xlabel("club count")
        a2.set_ylabel("learned edge (points per unit of multiplier)")
        a2.legend()
        fig.suptitle(f"Bid edge, {players} players: {len(tr)} rows to learn from, {len(val)} held out")
        fig.tight_layout()
        fig.savefig(args.curve, dpi=90)
    return 0


if __name__ == "__main__":
    sys.exit(main())

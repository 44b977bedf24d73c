"""Fit the card-location model's weights (``atout.bots.inference``) to positions from inference_data.py.

    nice -n 15 python benchmarks/inference_train.py --data /tmp/infer/train.npz \
        --out src/atout/bots/inference_weights.npz

A softmax over each card's legal places of a linear score, fitted by full-batch Adam to the
log-loss of the true place, with a small L2 penalty; the last ``--valid`` share of the deals is
held out to report the loss (and left out of the fit).  Deterministic: the same file gives the
same weights.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from atout.bots.inference import FEATURES, LOG_ROOM


def loss_grad(w: np.ndarray, x: np.ndarray, legal: np.ndarray, y: np.ndarray, l2: float) -> tuple[float, np.ndarray]:
    """Mean log-loss of the true places and its gradient."""
    r, p, f = x.shape
    z = (x.reshape(-1, f) @ w).reshape(r, p)
    z = np.where(legal, z, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    s = e.sum(axis=1, keepdims=True)
    prob = e / s
    rows = np.arange(r)
    loss = float(-np.mean(np.log(np.maximum(prob[rows, y], 1e-12)))) + l2 * float(w @ w)
    g = prob
    g[rows, y] -= 1.0
    grad = (g.reshape(-1) @ x.reshape(-1, f)) / r + 2 * l2 * w
    return loss, grad.astype(np.float64)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--l2", type=float, default=1e-5)
    ap.add_argument("--valid", type=float, default=0.15)
    args = ap.parse_args()
    data = np.load(args.data)
    deals = data["deal"][data["pos"]]
    cut = np.quantile(data["deal"], 1 - args.valid)
    fit = deals < cut
    x = data["x"].astype(np.float32)
    legal, y = data["legal"], data["y"]
    assert x.shape[2] == FEATURES, f"data has {x.shape[2]} features, the model {FEATURES}"
    xt, lt, yt = x[fit], legal[fit], y[fit]
    xv, lv, yv = x[~fit], legal[~fit], y[~fit]
    w = np.zeros(FEATURES)
    w[LOG_ROOM] = 1.0  # start at room-proportional over the legal places
    m = np.zeros(FEATURES)
    v = np.zeros(FEATURES)
    b1, b2 = 0.9, 0.999
    for step in range(1, args.steps + 1):
        loss, grad = loss_grad(w, xt, lt, yt, args.l2)
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        w -= args.lr * (m / (1 - b1**step)) / (np.sqrt(v / (1 - b2**step)) + 1e-8)
        if step % 50 == 0 or step == 1:
            vloss, _ = loss_grad(w, xv, lv, yv, 0.0)
            sys.stderr.write(f"step {step}: fit {loss:.4f}, held out {vloss:.4f}\n")
    w0 = np.zeros(FEATURES)
    w0[LOG_ROOM] = 1.0
    base, _ = loss_grad(w0, xv, lv, yv, 0.0)
    vloss, _ = loss_grad(w, xv, lv, yv, 0.0)
    print(f"held-out log-loss per card {vloss:.4f} (room-proportional over legal places {base:.4f}); "
          f"{int(fit.sum())} cards fitted, {int((~fit).sum())} held out")
    np.savez_compressed(args.out, w=w.astype(np.float32), command=np.array(" ".join(sys.argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fit the card-location model's weights (``atout.bots.inference``) to positions from inference_data.py.

    nice -n 15 python benchmarks/inference_train.py --data /tmp/infer/train.npz \\
        --out src/atout/bots/inference_weights.npz

The score of a (card, place) row is ``x.w + tanh(x.U' + b).v`` (``--hidden`` units; 0: linear), a
softmax over each card's legal places, fitted by Adam on minibatches to the log-loss of the true place,
with a small L2 penalty; the last ``--valid`` share of the deals is held out to report the loss (and
left out of the fit).  Deterministic: the same file and ``--seed`` give the same weights.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from atout.bots.inference import FEATURES, LOG_ROOM, scores


def loss_grad(
    params: dict[str, np.ndarray], x: np.ndarray, legal: np.ndarray, y: np.ndarray, grad: bool = True
) -> tuple[float, dict[str, np.ndarray]]:
    """Mean log-loss of the true places and its gradient."""
    f32 = {k: v.astype(np.float32) for k, v in params.items()}
    r = len(y)
    t = np.tanh(x @ f32["U"].T + f32["b"]) if "U" in f32 else None
    z = scores(x, f32).astype(np.float64)
    z = np.where(legal, z, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    prob = e / e.sum(axis=1, keepdims=True)
    rows = np.arange(r)
    loss = float(-np.mean(np.log(np.maximum(prob[rows, y], 1e-12))))
    if not grad:
        return loss, {}
    g = prob
    g[rows, y] -= 1.0
    g = (g / r).astype(np.float32)
    out = {"w": np.einsum("rp,rpf->f", g, x)}
    if t is not None:
        out["v"] = np.einsum("rp,rph->h", g, t)
        da = g[..., None] * f32["v"] * (1 - t * t)
        out["U"] = np.einsum("rph,rpf->hf", da, x)
        out["b"] = da.sum(axis=(0, 1))
    return loss, {k: v.astype(np.float64) for k, v in out.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--hidden", type=int, default=16)
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--batch", type=int, default=40000)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--l2", type=float, default=2e-5)
    ap.add_argument("--valid", type=float, default=0.15)
    ap.add_argument("--seed", type=int, default=0)
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
    rng = np.random.default_rng(args.seed)
    w = np.zeros(FEATURES)
    w[LOG_ROOM] = 1.0  # start at room-proportional over the legal places
    params = {"w": w}
    if args.hidden:
        params |= {
            "U": rng.normal(0, 0.1, (args.hidden, FEATURES)),
            "b": np.zeros(args.hidden),
            "v": np.zeros(args.hidden),
        }
    base, _ = loss_grad({"w": w.copy()}, xv, lv, yv, grad=False)
    m = {k: np.zeros_like(v) for k, v in params.items()}
    s = {k: np.zeros_like(v) for k, v in params.items()}
    for step in range(1, args.steps + 1):
        pick = rng.integers(0, len(yt), min(args.batch, len(yt)))
        loss, grad = loss_grad(params, xt[pick], lt[pick], yt[pick])
        for k, p in params.items():
            g = grad[k] + 2 * args.l2 * p
            m[k] = 0.9 * m[k] + 0.1 * g
            s[k] = 0.999 * s[k] + 0.001 * g * g
            p -= args.lr * (m[k] / (1 - 0.9**step)) / (np.sqrt(s[k] / (1 - 0.999**step)) + 1e-8)
        if step % 200 == 0 or step == 1:
            vloss, _ = loss_grad(params, xv, lv, yv, grad=False)
            sys.stderr.write(f"step {step}: batch {loss:.4f}, held out {vloss:.4f}\n")
    vloss, _ = loss_grad(params, xv, lv, yv, grad=False)
    print(
        f"held-out log-loss per card {vloss:.4f} (room-proportional over legal places {base:.4f}); "
        f"{int(fit.sum())} cards fitted, {int((~fit).sum())} held out"
    )
    np.savez_compressed(
        args.out, **{k: v.astype(np.float32) for k, v in params.items()}, command=np.array(" ".join(sys.argv))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

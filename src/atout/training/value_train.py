"""Fit the position value (``bots.value``) to deals' results and write the weights the package ships.

    python -m atout.training.value_train --data value-4.npz --seed 1 \\
        --out src/atout/bots/weights/value.npz --curve benchmarks/results/value-curve.png

Needs the ``[train]`` extra (PyTorch on CPU, matplotlib for the picture).  The data are
``value_data``'s positions; a tenth of the deals (chosen by the seed) are held out, every position
of a deal on the same side.  The network (``value``: two hidden layers of ``--hidden`` and half as
many units) is fitted by mean squared error to the taker's side's result ``u`` (in hundreds of
points) with Adam, the learning rate decaying to zero along a cosine, and the epoch with the lowest
held-out error is kept.  The curve shows the held-out error per epoch, and the held-out error
reached by the same training on an eighth, a quarter and a half of the training deals (a learning
curve over data), beside the error of predicting the mean and of the linear fit.  One thread, a
fixed seed: the same data give the same weights.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from . import write_summary


def load(paths: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs, us, deals = [], [], []
    for k, path in enumerate(paths):
        with np.load(path) as z:
            xs.append(z["x"].astype(np.float32))
            us.append(z["u"].astype(np.float32))
            deals.append(z["deal"].astype(np.int64) + k * 10_000_000)
    return np.concatenate(xs), np.concatenate(us), np.concatenate(deals)


def fit(X, U, tr, val, args, epochs: int, log: bool = False):
    """The network fitted on rows ``tr``, and its per-epoch curve (MSE in hundreds of points²)."""
    import torch

    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    mean = X[tr].mean(axis=0)
    std = X[tr].std(axis=0)
    scale = np.where(std > 1e-3, 1.0 / np.maximum(std, 1e-3), 0.0).astype(np.float32)
    Z = torch.from_numpy((X - mean) * scale)
    T = torch.from_numpy(U / 100.0)
    h = args.hidden
    net = torch.nn.Sequential(torch.nn.Linear(X.shape[1], h), torch.nn.ReLU(),
                              torch.nn.Linear(h, h // 2), torch.nn.ReLU(), torch.nn.Linear(h // 2, 1))
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=args.decay)
    steps = epochs * ((len(tr) + args.batch - 1) // args.batch)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)

    def mse(idx) -> float:
        with torch.no_grad():
            return float(((net(Z[idx]).squeeze(-1) - T[idx]) ** 2).mean())

    curve = [{"epoch": 0, "train": mse(tr), "held_out": mse(val)}]
    best, best_state = curve[0]["held_out"], [p.detach().clone() for p in net.parameters()]
    for epoch in range(1, epochs + 1):
        perm = tr[rng.permutation(len(tr))]
        for i in range(0, len(perm), args.batch):
            idx = perm[i:i + args.batch]
            opt.zero_grad()
            loss = ((net(Z[idx]).squeeze(-1) - T[idx]) ** 2).mean()
            loss.backward()
            opt.step()
            sched.step()
        curve.append({"epoch": epoch, "train": mse(tr), "held_out": mse(val)})
        if curve[-1]["held_out"] < best:
            best = curve[-1]["held_out"]
            best_state = [p.detach().clone() for p in net.parameters()]
        if log:
            print(f"epoch {epoch:3d}  train {curve[-1]['train']:.4f}  held-out {curve[-1]['held_out']:.4f}", flush=True)
    with torch.no_grad():
        for p, b in zip(net.parameters(), best_state, strict=True):
            p.copy_(b)
    return net, mean, scale, curve, best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", nargs="+", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--decay", type=float, default=1e-3)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--out", required=True)
    ap.add_argument("--curve", help="PNG of the learning curves (their figures go beside it, as .json)")
    args = ap.parse_args(argv)
    invocation = " ".join(["python -m atout.training.value_train", *sys.argv[1:]])

    import torch

    from ..bots.value import NV

    torch.set_num_threads(1)
    X, U, D = load(args.data)
    if X.shape[1] != NV:
        raise SystemExit(f"the data have {X.shape[1]} features, the value {NV}")
    rng = np.random.default_rng(args.seed)
    deals = np.unique(D)
    held = set(rng.choice(deals, size=max(1, len(deals) // 10), replace=False).tolist())
    is_val = np.array([d in held for d in D])
    val, tr = np.flatnonzero(is_val), np.flatnonzero(~is_val)
    t = U / 100.0
    mean_mse = float(((t[val] - t[tr].mean()) ** 2).mean())
    A = np.hstack([X, np.ones((len(X), 1), np.float32)]).astype(np.float64)
    coef = np.linalg.lstsq(A[tr].T @ A[tr] + 1e-1 * np.eye(A.shape[1]), A[tr].T @ t[tr], rcond=None)[0]
    linear_mse = float(((A[val] @ coef - t[val]) ** 2).mean())
    print(f"{len(tr)} positions of {len(deals) - len(held)} deals to learn from, {len(val)} of {len(held)} held out; "
          f"held-out MSE of the mean {mean_mse:.4f}, of the linear fit {linear_mse:.4f}", flush=True)
    by_size = []
    train_deals = np.array(sorted(set(deals.tolist()) - held))
    for frac in (0.125, 0.25, 0.5):
        sub = set(rng.choice(train_deals, size=int(len(train_deals) * frac), replace=False).tolist())
        tr_sub = tr[np.array([D[i] in sub for i in tr])]
        _, _, _, _, b = fit(X, U, tr_sub, val, args, args.epochs)
        by_size.append({"deals": len(sub), "held_out": b})
        print(f"  {len(sub)} deals: held-out MSE {b:.4f}", flush=True)
    net, mean, scale, curve, best = fit(X, U, tr, val, args, args.epochs, log=True)
    by_size.append({"deals": len(train_deals), "held_out": best})
    lin = [m for m in net if isinstance(m, torch.nn.Linear)]

    def arr(p) -> np.ndarray:
        return p.detach().numpy().astype(np.float64)

    np.savez(args.out, mean=mean.astype(np.float64), scale=scale.astype(np.float64),
             w1=arr(lin[0].weight), b1=arr(lin[0].bias), w2=arr(lin[1].weight), b2=arr(lin[1].bias),
             w3=arr(lin[2].weight)[0] * 100.0, b3=np.float64(arr(lin[2].bias)[0] * 100.0),
             invocation=np.array(invocation))
    summary = {"invocation": invocation,
               "positions": len(X), "deals": len(deals), "held_out_deals": len(held),
               "mean_mse": mean_mse, "linear_mse": linear_mse, "best_held_out_mse": best,
               "by_size": by_size, "curve": curve}
    write_summary(summary, args.curve or args.out)
    if args.curve:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
        ep = [c["epoch"] for c in curve[1:]]
        a1.plot(ep, [c["train"] for c in curve[1:]], label="training")
        a1.plot(ep, [c["held_out"] for c in curve[1:]], label="held out")
        a1.axhline(mean_mse, color="grey", linestyle="--", label="the mean (held out)")
        a1.axhline(linear_mse, color="grey", linestyle=":", label="linear fit (held out)")
        a1.set_xlabel("epoch")
        a1.set_ylabel("squared error of u (hundreds of points)²")
        a1.legend()
        a2.plot([b["deals"] for b in by_size], [b["held_out"] for b in by_size], marker="o", label="network")
        a2.axhline(linear_mse, color="grey", linestyle=":", label="linear fit, all deals")
        a2.set_xscale("log", base=2)
        a2.set_xlabel("deals learnt from")
        a2.set_ylabel("best held-out squared error")
        a2.legend()
        fig.suptitle(f"Position value: {len(tr)} positions of {len(train_deals)} deals to learn from, "
                     f"{len(val)} of {len(held)} held out")
        fig.tight_layout()
        fig.savefig(args.curve, dpi=90)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fit the card policy to the expert's searched cards and write its weights (``weights/policy.npz``).

    python -m research.card_policy.train --data data-4.npz [more.npz ...] --seed 1 \\
        --out research/card_policy/weights/policy.npz --curve benchmarks/results/policy-curve.png

Needs PyTorch on CPU and matplotlib for the picture (``pip install torch matplotlib``).  Each searched card is a
group of candidates; the network scores each candidate (``policy``: ``w2 · relu(W1 x + b1) + v · x``)
and is trained by cross-entropy against the softmax of the search's means over ``--temperature``
points, so a candidate the search scored close to the best counts nearly as much.  A tenth of the
groups (chosen by the seed) are held out; the curve shows, per epoch, the held-out loss and the
held-out regret: the points the search says the policy's card loses against the search's best
card, next to the rules of thumb's.  The learning rate decays to zero along a cosine and the last
epoch's weights are kept.  One thread, a fixed seed: the same data give the same weights.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from . import write_summary


def load(paths: list[str]):
    xs, ms, roles, players = [], [], [], []
    for path in paths:
        with np.load(path) as z:
            x, m, off = z["x"], z["means"], z["offsets"]
            for g in range(len(off) - 1):
                xs.append(x[off[g] : off[g + 1]])
                ms.append(m[off[g] : off[g + 1]])
            roles.append(z["role"])
            players.append(z["players"])
    k = max(len(m) for m in ms)
    n = len(ms)
    nf = xs[0].shape[1]
    X = np.zeros((n, k, nf), dtype=np.float32)
    M = np.zeros((n, k), dtype=np.float32)
    mask = np.zeros((n, k), dtype=bool)
    for g, (x, m) in enumerate(zip(xs, ms, strict=True)):
        X[g, : len(m)] = x
        M[g, : len(m)] = m
        mask[g, : len(m)] = True
    return X, M, mask, np.concatenate(roles), np.concatenate(players)


def regret(scores: np.ndarray, means: np.ndarray, mask: np.ndarray) -> float:
    """Mean points below the search's best of the card with the highest score."""
    s = np.where(mask, scores, -np.inf)
    best = np.where(mask, means, -np.inf).max(axis=1)
    pick = means[np.arange(len(s)), s.argmax(axis=1)]
    return float((best - pick).mean())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", nargs="+", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=16)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--temperature", type=float, default=10.0)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument(
        "--roles", default="taker,partner,defender", help="the seats' roles whose cards to learn from, comma-separated"
    )
    ap.add_argument("--out", required=True)
    ap.add_argument("--curve", help="PNG of the learning curve (its figures go beside it, as .json)")
    args = ap.parse_args(argv)

    import torch

    from .policy import NF, Policy

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    X, M, mask, role, _players = load(args.data)
    keep = np.isin(role, [("taker", "partner", "defender").index(r) for r in args.roles.split(",")])
    X, M, mask, role = X[keep], M[keep], mask[keep], role[keep]
    if X.shape[2] != NF:
        raise SystemExit(f"the data have {X.shape[2]} features a card, the policy {NF}")
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(X))
    n_val = len(X) // 10
    val, tr = order[:n_val], order[n_val:]
    rules_scores = X[:, :, 16]
    base_val = regret(rules_scores[val], M[val], mask[val])

    class Net(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.hidden = torch.nn.Linear(NF, args.hidden)
            self.out = torch.nn.Linear(args.hidden, 1, bias=False)
            self.skip = torch.nn.Linear(NF, 1, bias=False)

        def forward(self, x):
            return (self.out(torch.relu(self.hidden(x))) + self.skip(x)).squeeze(-1)

    net = Net()
    with torch.no_grad():  # start at the rules of thumb
        net.skip.weight.zero_()
        net.skip.weight[0, 16] = 4.0
        net.out.weight.mul_(0.1)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    steps = args.epochs * ((len(tr) + args.batch - 1) // args.batch)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    tX, tM, tmask = torch.from_numpy(X), torch.from_numpy(M), torch.from_numpy(mask)
    neg = torch.tensor(-1e9)

    def loss_of(idx):
        s = torch.where(tmask[idx], net(tX[idx]), neg)
        target = torch.softmax(torch.where(tmask[idx], tM[idx] / args.temperature, neg), dim=1)
        return -(target * torch.log_softmax(s, dim=1)).sum(dim=1).mean()

    def evaluate(idx):
        with torch.no_grad():
            s = net(tX[idx]).numpy()
            return float(loss_of(idx)), regret(s, M[idx], mask[idx])

    curve = []
    v_loss, v_reg = evaluate(val)
    curve.append({"epoch": 0, "train_loss": evaluate(tr)[0], "val_loss": v_loss, "val_regret": v_reg})
    for epoch in range(1, args.epochs + 1):
        perm = tr[rng.permutation(len(tr))]
        total = 0.0
        for i in range(0, len(perm), args.batch):
            idx = perm[i : i + args.batch]
            opt.zero_grad()
            loss = loss_of(idx)
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        v_loss, v_reg = evaluate(val)
        curve.append({"epoch": epoch, "train_loss": total / len(tr), "val_loss": v_loss, "val_regret": v_reg})
        print(
            f"epoch {epoch:3d}  train {total / len(tr):.4f}  held-out {v_loss:.4f}  regret {v_reg:6.2f} "
            f"(rules of thumb {base_val:.2f})",
            flush=True,
        )
    pol = Policy(
        net.hidden.weight.detach().numpy().T.astype(np.float64),
        net.hidden.bias.detach().numpy().astype(np.float64),
        net.out.weight.detach().numpy()[0].astype(np.float64),
        net.skip.weight.detach().numpy()[0].astype(np.float64),
    )
    pol.write(args.out)
    s_val = net(tX[val]).detach().numpy()
    by_role = {}
    for r, name in enumerate(("taker", "partner", "defender")):
        sel = val[role[val] == r]
        if len(sel):
            by_role[name] = {
                "n": len(sel),
                "policy": regret(s_val[role[val] == r], M[sel], mask[sel]),
                "rules": regret(rules_scores[sel], M[sel], mask[sel]),
            }
    summary = {
        "invocation": " ".join(["python -m research.card_policy.train", *sys.argv[1:]]),
        "groups": len(X),
        "held_out": n_val,
        "rules_regret": base_val,
        "policy_regret": curve[-1]["val_regret"],
        "by_role": by_role,
        "curve": curve,
    }
    write_summary(summary, args.curve or args.out)
    if args.curve:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
        ep = [c["epoch"] for c in curve]
        a1.plot(ep, [c["train_loss"] for c in curve], label="training")
        a1.plot(ep, [c["val_loss"] for c in curve], label="held out")
        a1.set_xlabel("epoch")
        a1.set_ylabel("cross-entropy against the search")
        a1.legend()
        a2.plot(ep, [c["val_regret"] for c in curve], label="learned policy")
        a2.axhline(base_val, color="grey", linestyle="--", label="rules of thumb")
        a2.set_xlabel("epoch")
        a2.set_ylabel("points below the search's best card (held out)")
        a2.legend()
        fig.suptitle(
            f"Card policy ({args.roles.replace(',', ', ')}): {len(X) - n_val} searched cards to learn from, {n_val} "
            f"held out"
        )
        fig.tight_layout()
        fig.savefig(args.curve, dpi=90)
    return 0


if __name__ == "__main__":
    sys.exit(main())

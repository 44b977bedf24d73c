"""Training the expert's learned parts (``atout.bots.policy``, ``atout.bots.value``), outside play time.

``python -m atout.training.generate`` plays deals with the expert and keeps, for each card it
searched, the features of every candidate and the search's mean score for it; ``python -m
atout.training.train`` (the ``[train]`` extra: PyTorch on CPU) fits the policy to them and writes
the weights the package ships.  ``python -m atout.training.value_data`` keeps the positions between
two tricks of deals the expert played, seen from each seat, with the deal's result, and ``python -m
atout.training.value_train`` fits the position value to them.  ``python -m atout.training.bid_data`` keeps bidding hands with the
expert's bid search's means and what the expert scored bidding Garde with them, and ``python -m
atout.training.bid_train`` fits the learned bid edge (``atout.bots.bidvalue``, numpy only) to them.
All are reproducible from their seeds.
"""

from __future__ import annotations

import json
from typing import Any


def write_summary(summary: dict[str, Any], beside: str) -> None:
    """A training run's summary as JSON beside its curve (or its weights), and printed without the curve."""
    with open(str(beside).rsplit(".", 1)[0] + ".json", "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "curve"}, indent=1))

"""The expert's learned card policy (research, outside the package): its training and its weights.

``python -m research.card_policy.generate`` plays deals with the expert and keeps, for each card it
searched, the features of every candidate and the search's mean score for it; ``python -m
research.card_policy.train`` (PyTorch on CPU) fits the policy (``policy``) to them and writes its
weights.  Both are reproducible from their seeds.  Run from the repository's root.
"""

from __future__ import annotations

import json
from typing import Any


def write_summary(summary: dict[str, Any], beside: str) -> None:
    """A training run's summary as JSON beside its curve (or its weights), and printed without the curve."""
    with open(str(beside).rsplit(".", 1)[0] + ".json", "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "curve"}, indent=1))

"""``expert-1``: the expert as it stood before issue 12, frozen so that every later change is measured against it.

A verbatim copy of the code paths the expert used then (search, rollouts,
sampler, inference, rules of thumb), so editing the live expert, its
rollouts or its rules of thumb never changes this level.  Do not edit it;
freeze a new level instead.
"""

from __future__ import annotations

from .expert import ExpertBot as Expert1Bot

__all__ = ["Expert1Bot"]

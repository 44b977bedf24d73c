"""A seat at a site's table as the engine protocol sees it: what a robot account hears (docs/protocol.md:
the TableView's DealView and the deal's ``action`` events) made into the seat's ``Observation``, the very one
the arena gives that seat, so ``atout robot`` can ask any engine about a site's deal.

The DealView is the engine's ``observation_to_json`` already, and an ``action`` event is the form
``messages.actions_json`` gives the engine (with ``by`` and ``at`` besides): the deal's history is the one
thing the TableView lacks, so ``DealLog`` keeps the current deal's events as they come.
"""

from __future__ import annotations

from typing import Any

from ..engine import Observation, RuleSet
from .views import observation_from_json

ACTION_FIELDS = ("seat", "action", "won")
"""What an ``action`` event carries that a decision request's ``actions`` carries too."""


def table_rules(state: dict[str, Any]) -> RuleSet:
    """The rules of a TableView's table: its players and every rule option (``options.rules``)."""
    return RuleSet.make(state["players"], **state["options"]["rules"])


def request_action(event: dict[str, Any]) -> dict[str, Any]:
    """An ``action`` event as a decision request lists it: ``{seat, action, won?}``."""
    return {k: event[k] for k in ACTION_FIELDS if k in event}


class DealLog:
    """The current deal's actions, as the seat heard them: ``hear`` each numbered table event in order
    (a ``join``'s ``log`` too); a ``deal_start`` begins a new list."""

    def __init__(self) -> None:
        self.actions: list[dict[str, Any]] = []
        self.seq: int | None = None

    def hear(self, seq: int, event: dict[str, Any]) -> None:
        if self.seq is not None and seq <= self.seq:
            return  # heard already (a join's log after the events themselves)
        self.seq = seq
        if event.get("type") == "deal_start":
            self.actions = []
        elif event.get("type") == "action":
            self.actions.append(request_action(event))

    def restart(self, log: list[dict[str, Any]]) -> None:
        """Start again from a ``join``'s ``log`` (the current deal's events from its ``deal_start``)."""
        self.actions, self.seq = [], None
        for entry in log:
            self.hear(entry["seq"], entry["event"])

    def gap(self, seq: int) -> bool:
        """Whether event ``seq`` is not the next one: some event went unheard (join again)."""
        return self.seq is not None and seq > self.seq + 1


def site_request(deal_view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
    """A decision request's ``view`` and ``actions`` (``messages.decide``'s) from what the site sent."""
    return {"view": deal_view, "actions": actions}


def site_observation(
    rules: RuleSet, seat: int, deal_view: dict[str, Any], actions: list[dict[str, Any]]
) -> Observation:
    """``seat``'s observation from its DealView and the deal's actions; KeyError or ValueError when they
    are not a deal's (``views.observation_from_json``)."""
    return observation_from_json(rules, seat, site_request(deal_view, actions))

"""Patches: what changed in a viewer's TableView from one telling to the next (docs/protocol.md).

The shared and public parts' changes are worked out once per telling and reused for every viewer
whose last state was made from the previous telling; only the private parts differ per viewer.
"""

from __future__ import annotations

from typing import Any

from ..engine.view import PRIVATE

_NOTHING = object()


def changed(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``after`` that differ from ``before``'s."""
    return {k: v for k, v in after.items() if (old := before.get(k, _NOTHING)) is not v and old != v}


def state_patch(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What changed from one TableView to the next, for a client that asked for patches: ``patch`` holds
    the top-level fields that changed (a new value replaces the old), ``deal_patch`` the DealView's
    fields that changed when both states have a deal (docs/protocol.md, "Patches")."""
    patch = changed(before, after)
    out: dict[str, Any] = {"patch": patch}
    old_deal, new_deal = before.get("deal"), after.get("deal")
    if "deal" in patch and old_deal is not None and new_deal is not None:
        del patch["deal"]
        out["deal_patch"] = changed(old_deal, new_deal)
    return out


Parts = tuple[dict[str, Any], Any, Any, Any, Any]
"""A TableView as its parts: the shared view (or the whole state), you, changed, the deal view, and
the public deal view that deal view was made from (None if unknown)."""


def patch_for(basis: Parts, parts: Parts, last_shared: Any, shared_changed: dict[str, Any] | None,
              public_changed: dict[str, Any] | None) -> dict[str, Any]:
    """``state_patch`` from the client's last state to this one; quick when the last state was made from
    the table's last telling: the shared and public fields' changes are then the same for every viewer,
    worked out once."""
    its_shared, its_you, its_changed, old_deal, its_public = basis
    _, you, options_changed, new_deal, _ = parts
    if shared_changed is None or its_shared is not last_shared:
        return state_patch(_whole(basis), _whole(parts))
    patch = dict(shared_changed)
    if its_you != you:
        patch["you"] = you
    if its_changed != options_changed:
        patch["changed"] = options_changed
    out: dict[str, Any] = {"patch": patch}
    if old_deal is None or new_deal is None:
        if old_deal is not new_deal:
            patch["deal"] = new_deal
        return out
    if public_changed is not None and its_public is not None:
        deal_patch = dict(public_changed)
        for key in PRIVATE:
            if old_deal[key] != new_deal[key]:
                deal_patch[key] = new_deal[key]
    else:
        deal_patch = changed(old_deal, new_deal)
    if deal_patch:
        out["deal_patch"] = deal_patch
    return out


def _whole(parts: Parts) -> dict[str, Any]:
    shared, you, options_changed, deal, _ = parts
    return {**shared, "you": you, "changed": options_changed, "deal": deal}


__all__ = ["Parts", "changed", "patch_for", "state_patch"]

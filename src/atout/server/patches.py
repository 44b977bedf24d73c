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
"""A TableView as its parts: the shared view (or the whole state), you, changed, and its DealView as
the public view and the viewer's private fields over it (None: none, a spectator's, or a DealView held
whole). A telling keeps a seat's private fields apart rather than merging them into a copy of the
public view for every seat: a patch reads only the fields that may differ."""


def deal_of(parts: Parts) -> dict[str, Any] | None:
    """The DealView the parts make: the public view, with the viewer's private fields over it."""
    public, private = parts[3], parts[4]
    return public if public is None or private is None else {**public, **private}


def patch_for(basis: Parts, parts: Parts, last_shared: Any, shared_changed: dict[str, Any] | None,
              public_changed: dict[str, Any] | None) -> dict[str, Any]:
    """``state_patch`` from the client's last state to this one; quick when the last state was made from
    the table's last telling: the shared and public fields' changes are then the same for every viewer,
    worked out once, and only the viewer's private fields are compared (none, when they are the same
    dict as last time: a seat that neither played nor came to act)."""
    its_shared, its_you, its_changed, old_public, old_private = basis
    _, you, options_changed, new_public, new_private = parts
    if shared_changed is None or its_shared is not last_shared:
        return state_patch(_whole(basis), _whole(parts))
    patch = dict(shared_changed)
    if its_you != you:
        patch["you"] = you
    if its_changed != options_changed:
        patch["changed"] = options_changed
    out: dict[str, Any] = {"patch": patch}
    if old_public is None or new_public is None:
        if old_public is not new_public:
            patch["deal"] = deal_of(parts)
        return out
    if public_changed is not None:
        deal_patch = dict(public_changed)
        if old_private is not new_private or old_private is None:
            old_own = old_public if old_private is None else old_private
            new_own = new_public if new_private is None else new_private
            for key in PRIVATE:
                if old_own[key] != new_own[key]:
                    deal_patch[key] = new_own[key]
    else:
        deal_patch = changed(deal_of(basis) or {}, deal_of(parts) or {})
    if deal_patch:
        out["deal_patch"] = deal_patch
    return out


def unmoved(basis: Parts, parts: Parts, last_shared: Any) -> bool:
    """Whether the client's last state was made from the table's last telling and its own parts (you,
    changed, its private fields) stayed as they were: its patch is then the shared and public changes
    alone, the same for every such client, so the frame is made once for all of them."""
    return basis[0] is last_shared and basis[4] is parts[4] and basis[1] == parts[1] and basis[2] == parts[2]


def _whole(parts: Parts) -> dict[str, Any]:
    shared, you, options_changed, _, _ = parts
    return {**shared, "you": you, "changed": options_changed, "deal": deal_of(parts)}


__all__ = ["Parts", "changed", "deal_of", "patch_for", "state_patch", "unmoved"]

"""The fair shuffle anyone can check: seed commitments and the verification of a dealt deal.

Before a deal the server publishes ``commitment(seed)``, the SHA-256 of its secret
seed; after the deal it reveals the seed and the record.  A deal is a pure
function of the seed (``deal.deal_cards``), so anyone can recompute the cards,
check that the seed is the committed one, that every action was legal on those
cards, and that the hand they were shown is the hand the seed dealt them.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .actions import IllegalAction
from .cards import codes
from .record import RecordError, _cards, parse_action, start_deal
from .state import Deal

_HEX64 = re.compile(r"[0-9a-f]{64}")


def commitment(seed: str) -> str:
    """SHA-256 of the seed's UTF-8 bytes, lowercase hex: what is published before the deal."""
    if not isinstance(seed, str):
        raise TypeError(f"a seed is a string, not {seed!r}")
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Check:
    """One check of a verification: ``name`` is commitment, replay or hand; ``message`` says what was found."""

    name: str
    ok: bool
    message: str
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"check": self.name, "ok": self.ok, "message": self.message}
        if self.seat is not None:
            out["seat"] = self.seat
        return out


@dataclass(frozen=True)
class Verification:
    """Every check made on a published deal; it passes only when each of them does."""

    checks: tuple[Check, ...]
    seed: str | None
    commitment: str | None

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    @property
    def failures(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]

    def to_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "seed": self.seed,
            "commitment": self.commitment,
            "checks": [c.to_json() for c in self.checks],
        }


def normalize_commitment(value: Any, where: str) -> str:
    """A commitment as 64 lowercase hex digits; RecordError naming ``where`` it came from otherwise."""
    if not isinstance(value, str):
        raise RecordError(
            None, "commitment", f"the commitment ({where}) must be a string of 64 hex digits, not {value!r}"
        )
    text = value.strip().lower()
    if not _HEX64.fullmatch(text):
        raise RecordError(
            None, "commitment", f"the commitment ({where}) must be 64 hexadecimal digits (a SHA-256), not {value!r}"
        )
    return text


def _unwrap(published: Any) -> tuple[dict[str, Any], str | None, str | None]:
    """The record, the file's commitment and the revealed seed, from any of the accepted shapes.

    Accepted: a deal record; ``{"commitment", "record"}`` (the server's ``deal_end``
    event, whose ``seed`` is kept to compare with the record's); the ``event``
    message that carries that event.
    """
    if not isinstance(published, Mapping):
        raise RecordError(
            None, "record", 'a published deal is a JSON object: a deal record, or {"commitment": ..., "record": {...}}'
        )
    if isinstance(published.get("event"), Mapping) and "record" not in published:
        published = published["event"]
    if "record" not in published:
        return dict(published), None, None
    record = published["record"]
    if not isinstance(record, Mapping):
        raise RecordError(None, "record", '"record" must be a deal record (a JSON object)')
    found = published.get("commitment")
    file_commitment = None if found is None else normalize_commitment(found, "in the file")
    seed = published.get("seed")
    if seed is not None and not isinstance(seed, str):
        raise RecordError(None, "record", f"the revealed seed must be a string, not {seed!r}")
    return dict(record), file_commitment, seed


def _commitment_check(record: dict[str, Any], revealed: str | None, given: list[tuple[str, str]]) -> Check:
    if "seed" not in record:
        return Check(
            "commitment",
            False,
            "this record gives the hands and the dog instead of a seed, so it cannot be checked "
            "against a commitment: nothing shows its cards came from the committed shuffle",
        )
    seed = record["seed"]
    if revealed is not None and revealed != seed:
        return Check("commitment", False, f"the revealed seed {revealed!r} is not the record's seed {seed!r}")
    if not given:
        return Check(
            "commitment",
            False,
            "no commitment to check the seed against: give the commitment published when the deal began",
        )
    digest = commitment(seed)
    for where, value in given:
        if value != digest:
            return Check(
                "commitment", False, f"sha256 of the seed {seed!r} is {digest}, not the commitment {value} ({where})"
            )
    return Check("commitment", True, f"sha256 of the seed {seed!r} is the commitment {digest}")


def _replay_check(deal: Deal, record: dict[str, Any]) -> Check:
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(None, "record", "actions must be a list")
    parsed = [parse_action(entry, i, deal.players) for i, entry in enumerate(actions)]
    cards = "the cards the seed deals" if deal.seed is not None else "the record's hands and dog"
    for i, (seat, action) in enumerate(parsed):
        try:
            deal.apply(action, seat=seat)
        except IllegalAction as err:
            return Check("replay", False, f"action {i} ({_describe(actions[i])}) is illegal on {cards}: {err.message}")
    state = "the deal is complete" if deal.is_over else "the record stops before the deal's end"
    return Check("replay", True, f"all {len(parsed)} actions are legal on {cards}; {state}")


def _describe(entry: dict[str, Any]) -> str:
    return ", ".join(
        f"{key} {value if not isinstance(value, list) else ' '.join(map(str, value))}" for key, value in entry.items()
    )


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _hand_check(deal: Deal, seat: int, seen: int) -> Check:
    dealt = deal.initial_hands[seat]
    missing, extra = codes(dealt & ~seen), codes(seen & ~dealt)
    if not missing and not extra:
        return Check("hand", True, f"seat {seat} was dealt exactly the {seen.bit_count()} cards seen", seat)
    if missing and extra:
        text = f"seat {seat} was dealt {_and(missing)}, not {_and(extra)}"
    elif missing:
        text = f"seat {seat} was also dealt {_and(missing)}, not among the cards seen"
    else:
        text = f"seat {seat} was not dealt {_and(extra)}"
    return Check("hand", False, text, seat)


def verify(published: Any, commitment: str | None = None, seen: Mapping[int, list[str]] | None = None) -> Verification:
    """Check a published deal: its seed against the commitment, every action's legality, the hands seen.

    ``published`` is a deal record or ``{"commitment": ..., "record": {...}}``;
    ``commitment`` (when given) must match as well as any in ``published``;
    ``seen`` maps a seat to the card codes it was shown as its dealt hand.
    Malformed input (not a record, a bad card code, a commitment that is not
    64 hex digits) raises RecordError naming what is wrong; a check that fails
    is reported in the Verification, not raised.
    """
    record, file_commitment, revealed = _unwrap(published)
    given: list[tuple[str, str]] = []
    if commitment is not None:
        given.append(("given", normalize_commitment(commitment, "given")))
    if file_commitment is not None:
        given.append(("in the file", file_commitment))
    deal = start_deal(record)
    checks = [_commitment_check(record, revealed, given), _replay_check(deal, record)]
    for seat, hand in sorted((seen or {}).items()):
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < deal.players:
            raise RecordError(None, "hand", f"a seen hand needs a seat from 0 to {deal.players - 1}, not {seat!r}")
        checks.append(_hand_check(deal, seat, _cards(hand, None, f"the hand seen by seat {seat}")))
    return Verification(tuple(checks), record.get("seed"), given[0][1] if given else None)

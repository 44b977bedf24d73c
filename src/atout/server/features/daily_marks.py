"""One ranked play of the daily deal per person, where accounts share an address or a browser (issue 37,
item 3; docs/daily.md, "One ranked play a person").

The day's cards are the same for everyone, so a second account that plays them knowing them (a moment
later, from the same machine) would be ranked on cards it has seen. Each play stores two marks: its
address and its browser (a long-lived random cookie, ``atout_browser``), each hashed with a salt of the
day's own that is never published (so the store holds no address, and a mark of one day matches nothing of
another). The day's ranking keeps, of the plays sharing an address or a browser, the first one started;
the others are shown unranked, with the reason, to everyone and to the player.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from enum import StrEnum
from typing import Any

BROWSER_COOKIE = "atout_browser"
"""A random mark a browser keeps for a year (no session, no account: the same before and after logging in)."""
BROWSER_MARK = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
"""What a browser mark is made of: anything else is no mark (the play is then told apart by its address)."""


class Unranked(StrEnum):
    """Why a play of the day is not in its ranking (a play of an account before it shares the mark)."""

    SAME_ADDRESS = "same_address"
    SAME_BROWSER = "same_browser"


def mark(salt: str, kind: str, value: str | None) -> str | None:
    """A play's mark of ``kind`` ("address" or "browser"): a salted hash, or None when there is no value."""
    if not value or (kind == "browser" and not BROWSER_MARK.match(value)):
        return None
    return hashlib.sha256(f"atout-daily-mark/1/{salt}/{kind}/{value}".encode()).hexdigest()


def unranked(plays: Iterable[Any]) -> dict[str, Unranked]:
    """Each play that is not its address's or browser's first of the day, and why. ``plays``: rows with
    ``player_id``, ``started_at``, ``address`` and ``browser`` (marks, or None)."""
    seen_address: set[str] = set()
    seen_browser: set[str] = set()
    out: dict[str, Unranked] = {}
    for play in sorted(plays, key=lambda p: (p.started_at, p.player_id)):
        if play.address is not None and play.address in seen_address:
            out[play.player_id] = Unranked.SAME_ADDRESS
        elif play.browser is not None and play.browser in seen_browser:
            out[play.player_id] = Unranked.SAME_BROWSER
        if play.address is not None:
            seen_address.add(play.address)
        if play.browser is not None:
            seen_browser.add(play.browser)
    return out


def reason_text(reason: Unranked | None) -> str | None:
    """The reason, in words, for the API's readers (the page has its own words for each)."""
    if reason is None:
        return None
    where = "address" if reason == Unranked.SAME_ADDRESS else "browser"
    return (
        f"not ranked: another account played this day's deals from the same {where} before this play "
        "(one ranked play a person a day: docs/daily.md)"
    )


__all__ = ["BROWSER_COOKIE", "BROWSER_MARK", "Unranked", "mark", "reason_text", "unranked"]

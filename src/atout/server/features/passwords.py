"""Whether a new password is too easy to guess, and why (OWASP ASVS 2.1.1, 2.1.7): at least 12
characters, not containing the account's name, and rated "safely unguessable" by zxcvbn, which knows
the most used passwords, words, names, keyboard rows, sequences, repeats and dates, offline (its lists
ship in the package). Only a new password is judged: an old account's weak one still logs in.

zxcvbn's own advice is English only: the reason is one of ``Weakness``, which the page words itself.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from enum import StrEnum

from zxcvbn import zxcvbn

MIN_LENGTH = 12
MAX_LENGTH = 200
MIN_SCORE = 3
"""zxcvbn's score 3: 10^8 guesses or more, "safely unguessable" (zxcvbn's words), some protection even
against an attacker who stole the argon2 hashes; online, at 100 guesses an hour, a century's guessing."""
JUDGED = 72
"""zxcvbn's own bound: it reads the first 72 characters (its time grows fast with length: 200 repeated
characters take a second). Beyond 72, the password only gets harder."""
_SPACES = re.compile(r"\s+")
_ZXCVBN = threading.Lock()  # zxcvbn keeps the user inputs of a call in a module-level dict: one call at once


class Weakness(StrEnum):
    """Why a password is refused: ``reason`` in the ``weak_password`` error (the page's words are keyed by it)."""

    TOO_SHORT = "too_short"
    TOO_LONG = "too_long"
    HAS_NAME = "has_name"
    COMMON = "common"  # a much used password, word or name, even spelt with digits (p4ssw0rd) or backwards
    KEYBOARD = "keyboard"  # a row or a pattern of keys: qwerty, zxcvbn, 1qaz2wsx
    SEQUENCE = "sequence"  # abcdef, 13579, 9876
    REPEAT = "repeat"  # aaaaaa, abcabcabc
    DATE = "date"  # a date or a year
    GUESSABLE = "guessable"  # none of the above alone, but too few possibilities all the same


MESSAGES = {
    Weakness.TOO_SHORT: f"a password has at least {MIN_LENGTH} characters: a few words make a good one",
    Weakness.TOO_LONG: f"a password has at most {MAX_LENGTH} characters",
    Weakness.HAS_NAME: "a password may not contain your name",
    Weakness.COMMON: "this password, or a word in it, is among the most used (even spelt with digits): easy to guess",
    Weakness.KEYBOARD: "a row or a pattern of keys (qwerty, asdf) is easy to guess",
    Weakness.SEQUENCE: "a sequence (abcd, 1234) is easy to guess",
    Weakness.REPEAT: "repeated characters or words (aaaa, abcabc) are easy to guess",
    Weakness.DATE: "dates and years are easy to guess",
    Weakness.GUESSABLE: "this password is too easy to guess: add a word or two",
}
PATTERNS = {
    "dictionary": Weakness.COMMON,
    "spatial": Weakness.KEYBOARD,
    "sequence": Weakness.SEQUENCE,
    "repeat": Weakness.REPEAT,
    "date": Weakness.DATE,
    "regex": Weakness.DATE,
}
"""zxcvbn's kinds of match (``regex`` is a recent year), as a reason."""


def _key(text: str) -> str:
    """Case and accents aside (as names are compared: ``accounts.name_key``)."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return unicodedata.normalize("NFKC", bare.casefold())


def length(password: str) -> int:
    """Its length, a run of spaces counted as one (ASVS 2.1.1: twelve spaces are no password)."""
    return len(_SPACES.sub(" ", password))


def weakness(password: str, name: str) -> Weakness | None:
    """Why ``password`` is too easy to guess for the account ``name``; None when it is good."""
    if len(password) > MAX_LENGTH:
        return Weakness.TOO_LONG
    if _key(name) in _key(password):
        return Weakness.HAS_NAME
    with _ZXCVBN:
        rated = zxcvbn(password[:JUDGED], user_inputs=[name])
    if rated["score"] < MIN_SCORE:
        found = [m for m in rated["sequence"] if m["pattern"] in PATTERNS]
        if not found:
            return Weakness.GUESSABLE
        worst = max(found, key=lambda m: len(m["token"]))  # the longest: what makes it guessable
        return Weakness.HAS_NAME if worst.get("dictionary_name") == "user_inputs" else PATTERNS[worst["pattern"]]
    if length(password) < MIN_LENGTH:
        return Weakness.TOO_SHORT
    return None


__all__ = ["MAX_LENGTH", "MESSAGES", "MIN_LENGTH", "MIN_SCORE", "Weakness", "length", "weakness"]

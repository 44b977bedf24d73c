"""The lessons' words, one file a language (``texts/en.toml``, ``fr.toml``, ``es.toml``): read by the terminal
(``atout learn``) and sent to the page (``GET /api/learn/words/LANG``), so both say the same.

A key is the path to a text: ``cards.title``, ``cards.bouts.ask``, ``rule.follow_suit``. ``{name}`` marks a
placeholder: ``card``, ``top``, ``called`` and ``king`` are cards, ``cards`` and ``trumps`` lists of cards,
``suit`` a suit, any other a number; each client writes them in its own way (``ARG_KINDS``).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "fr", "es")
CARD_ARGS = frozenset({"card", "top", "called", "king"})
CARDS_ARGS = frozenset({"cards", "trumps"})
SUIT_ARGS = frozenset({"suit"})
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in table.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flatten(value, path + "."))
        else:
            out[path] = str(value).strip()
    return out


@cache
def raw(language: str) -> bytes:
    """A language's file as shipped."""
    if language not in LANGUAGES:
        raise ValueError(f"no lessons in {language!r}: they are in {', '.join(LANGUAGES)}")
    return (resources.files(__package__) / "texts" / f"{language}.toml").read_bytes()


@cache
def words(language: str) -> dict[str, str]:
    """Every text of ``language`` by its key."""
    return _flatten(tomllib.loads(raw(language).decode("utf-8")))


@cache
def version() -> str:
    """A digest of every language's texts: a page asks for them under it, and keeps them while it holds."""
    digest = hashlib.sha256()
    for language in LANGUAGES:
        digest.update(raw(language))
    return digest.hexdigest()[:12]


def paragraphs(text: str) -> list[str]:
    """A text's paragraphs (a blank line apart)."""
    return [p.strip() for p in text.split("\n\n") if p.strip()]


__all__ = ["CARDS_ARGS", "CARD_ARGS", "LANGUAGES", "PLACEHOLDER", "SUIT_ARGS", "paragraphs", "raw", "version", "words"]

"""The terminal game's words in the person's language: English as written in the code, French and Spanish
from catalogues beside this file (``fr.py``, ``es.py``).

A message is its English text, marked where it is written: ``_("Your turn")`` translates it now,
``N_("Hint")`` only marks it (a key's label, translated when the footer draws it), ``n_("{n} card",
"{n} cards", n)`` picks the plural form the language's rule asks for. The catalogues are Python dicts, not
gettext ``.mo`` files: they need no compiling step, so ``pip install -e .`` (and a checkout on PYTHONPATH)
speaks every language at once; tests/tui/test_words.py checks every marked message has its translations
with the same ``{placeholders}``, and that no translation is left that no code uses.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from enum import StrEnum
from importlib import import_module

from rich.text import Text


class Language(StrEnum):
    """The languages the terminal game speaks."""

    EN = "en"
    FR = "fr"
    ES = "es"


_current = Language.EN
_catalogues: dict[Language, tuple[dict[str, str], dict[str, tuple[str, str]]]] = {}


def catalogue(language: Language) -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    """A language's messages (English text → its words) and plurals (English singular → its two forms)."""
    if language is Language.EN:
        return {}, {}
    if language not in _catalogues:
        module = import_module(f"{__name__}.{language.value}")
        _catalogues[language] = (module.WORDS, module.PLURALS)
    return _catalogues[language]


def parse_language(text: str) -> Language:
    """``es``, ``es_ES.UTF-8``, ``fr-FR`` → the language; a clear error naming the ones there are."""
    base = text.strip().lower().replace("-", "_").split(".")[0].split("@")[0].split("_")[0]
    try:
        return Language(base)
    except ValueError:
        raise ValueError(
            f"no {text!r} language: the terminal game speaks {', '.join(language.value for language in Language)}"
        ) from None


def language_from_environment(environ: Mapping[str, str] | None = None) -> Language:
    """The locale's language as POSIX sets it (LC_ALL, then LC_MESSAGES, then LANG; LANGUAGE's list first
    when the locale is not C), English when it names none the game speaks."""
    env = os.environ if environ is None else environ
    locale = next((env[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(name)), "")
    choices = [] if locale in ("", "C", "POSIX") or locale.startswith("C.") else env.get("LANGUAGE", "").split(":")
    for tag in [*choices, locale]:
        try:
            return parse_language(tag)
        except ValueError:  # a language the game does not speak (or none): the next choice
            continue
    return Language.EN


def set_language(language: Language | str) -> None:
    """Speak ``language`` from now on (the next screen drawn speaks it)."""
    global _current
    _current = language if isinstance(language, Language) else parse_language(language)
    catalogue(_current)


def language() -> Language:
    return _current


def _(message: str, /, **params: object) -> str:
    """``message`` in the current language, its ``{name}`` filled from ``params``."""
    words = catalogue(_current)[0].get(message, message)
    return words.format(**params) if params else words


def N_(message: str, /) -> str:
    """Marks ``message`` for the catalogues without translating it yet (a key's label, drawn later)."""
    return message


def plural_form(count: int) -> int:
    """0 for the singular form, 1 for the plural, by the current language's rule (French: 0 and 1 are
    singular; English and Spanish: 1 alone)."""
    if _current is Language.FR:
        return 0 if count in (0, 1) else 1
    return 0 if count == 1 else 1


def n_(one: str, many: str, count: int, /, **params: object) -> str:
    """The form of ``one``/``many`` that ``count`` takes, its ``{n}`` the count and ``{name}`` from ``params``."""
    forms = catalogue(_current)[1].get(one, (one, many))
    return forms[plural_form(count)].format(n=count, **params)


def number(value: float) -> str:
    """A card count (``45.5``) as the language writes it: ``45,5`` in French and Spanish."""
    text = f"{value:g}"
    return text if _current is Language.EN else text.replace(".", ",")


def rich(template: str, /, **parts: Text | str) -> Text:
    """A translated sentence whose ``{name}`` parts keep their own style (a card's colour, a name's bold):
    the words may put them in any order."""
    out = Text()
    at = 0
    while (start := template.find("{", at)) >= 0:
        end = template.index("}", start)
        out.append(template[at:start])
        part = parts[template[start + 1 : end]]
        out.append_text(part if isinstance(part, Text) else Text(str(part)))
        at = end + 1
    out.append(template[at:])
    return out


__all__ = [
    "N_",
    "Language",
    "_",
    "catalogue",
    "language",
    "language_from_environment",
    "n_",
    "number",
    "parse_language",
    "rich",
    "set_language",
]

"""The page's words used (issue 36): every key of a catalogue (words/en.js, the words of the pages a first visit
may show, and words/en/*.js, those of each part of the site loaded when opened: the rules, the lessons…) is asked
for by some code, by its whole name or by a name the code builds from a prefix (`t(\\`board.${key}\\`)`). A key
no code asks for is a translation kept for nothing, or a key misspelt in the code (then the page shows the key
itself). And the catalogues are the one place words live (issue 49): no module keeps a table of its own.

The catalogues are read by Node (they are plain JavaScript objects); without Node this test skips loudly."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "atout" / "web" / "static"
NODE = shutil.which("node")


def catalogue_files(language: str) -> list[Path]:
    """A language's catalogue: its core (words/en.js) and one file per part of the site (words/en/rules.js…)."""
    return [STATIC / "words" / f"{language}.js", *sorted((STATIC / "words" / language).glob("*.js"))]


def catalogues() -> dict[str, list[str]]:
    """Each English catalogue file's keys, by its name under words/ (``en.js``, ``en/rules.js``…)."""
    if NODE is None:
        pytest.skip("node not found: the page's catalogues were not read (apt-get install nodejs)")
    names = [path.relative_to(STATIC / "words").as_posix() for path in catalogue_files("en")]
    urls = {name: (STATIC / "words" / name).as_uri() for name in names}
    script = "const out = {};\n" + "".join(
        f"out[{json.dumps(name)}] = Object.keys((await import({json.dumps(url)})).default);\n"
        for name, url in urls.items()
    )
    script += "console.log(JSON.stringify(out));"
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script], capture_output=True, text=True, check=True, timeout=60
    )
    return json.loads(done.stdout)


PLURAL = re.compile(r"\.(zero|one|two|few|many|other)$")
"""A plural's forms are one key's (i18n.js picks `lobby.deals.one` or `.other` for `lobby.deals`)."""


def strings(text: str, whole: set[str], prefixes: set[str]) -> None:
    """The strings in ``text`` (JavaScript): quoted ones whole; a template literal whole when it has no ${…},
    else its head as a prefix, and the strings inside its ${…} (templates nest) read the same way."""

    def expression(i: int, closing: str | None) -> int:
        depth = 0
        while i < len(text):
            c = text[i]
            if text.startswith("//", i):
                i = text.find("\n", i) if "\n" in text[i:] else len(text)
            elif text.startswith("/*", i):
                i = text.index("*/", i) + 2
            elif c in "\"'":
                end = i + 1
                while end < len(text) and text[end] not in (c, "\n"):
                    end += 2 if text[end] == "\\" else 1
                if end < len(text) and text[end] == c:
                    whole.add(text[i + 1 : end])
                i = end + 1
            elif c == "`":
                i = template(i + 1)
            elif c == "{":
                depth, i = depth + 1, i + 1
            elif c == "}":
                if depth == 0 and closing:
                    return i + 1
                depth, i = depth - 1, i + 1
            else:
                i += 1
        return i

    def template(i: int) -> int:
        static, holes = [], False
        while i < len(text) and text[i] != "`":
            if text[i] == "\\":
                static.append(text[i : i + 2])
                i += 2
            elif text.startswith("${", i):
                if not holes and static:
                    prefixes.add("".join(static))
                holes = True
                i = expression(i + 2, "}")
            else:
                if not holes:
                    static.append(text[i])
                i += 1
        if not holes:
            whole.add("".join(static))
        return i + 1

    expression(0, None)


def asked_for() -> tuple[set[str], set[str]]:
    """Every string the page's code holds (whole names) and every prefix of a name it builds
    (`error.${code}` → "error."), read from every module but the catalogues themselves."""
    whole: set[str] = set()
    prefixes: set[str] = set()
    for path in sorted(STATIC.glob("*.js")):  # the modules, not the catalogues under words/
        strings(path.read_text(), whole, prefixes)
    return whole, prefixes - NOT_KEYS


NOT_KEYS = {"rules."}
"""Prefixes the code builds names from that are no words' keys: the create form's fields (options.js's
`rules.${name}`), which would otherwise pass every key of the rules' words (rules.*) as asked for."""


def unused(keys: dict[str, list[str]], whole: set[str], prefixes: set[str]) -> dict[str, list[str]]:
    """Each catalogue's keys that no code asks for."""

    def used(key: str) -> bool:
        key = PLURAL.sub("", key)
        return key in whole or any(key.startswith(p) for p in prefixes)

    found = {catalogue: sorted(k for k in names if not used(k)) for catalogue, names in keys.items()}
    return {k: v for k, v in found.items() if v}


def test_every_key_of_every_catalogue_is_asked_for_by_some_code():
    keys = catalogues()
    assert len(keys["en.js"]) > 300 and {"en/daily.js", "en/tournaments.js", "en/analysis.js", "en/table.js"} <= set(
        keys
    ), {k: len(v) for k, v in keys.items()}
    whole, prefixes = asked_for()
    assert "error." in prefixes and "board." in prefixes, sorted(prefixes)  # the reader sees the built names
    assert "card.playable" in whole  # and the names inside a template's ${…}
    left = unused(keys, whole, prefixes)
    assert not left, f"keys no code asks for: {left}"


def test_the_check_finds_a_key_no_code_asks_for():
    """The check above can fail: a catalogue with a key more than the code asks for, and a plural's forms."""
    whole, prefixes = asked_for()
    keys = {"en.js": ["lobby.deals.one", "lobby.deals.other", "lobby.never_said_anywhere"]}
    assert unused(keys, whole, prefixes) == {"en.js": ["lobby.never_said_anywhere"]}


OWN_WORDS = [
    (re.compile(r"\bconst WORDS\b"), "a table of words (const WORDS)"),
    (re.compile(r"[{,]\s*[\"']?(?:en|fr|es)[\"']?\s*:"), "an object keyed by language ({en: …, fr: …})"),
    (re.compile(r"\[\s*lang\(\)\s*\]"), "a lookup by language ([lang()])"),
    (re.compile(r"lang\(\)\s*[!=]==?\s*[\"'](?:en|fr|es)[\"']"), 'a test of the language (lang() === "fr")'),
]
"""How a module would keep words of its own, in every language, beside the catalogues."""


def own_words(text: str) -> list[str]:
    """What in a module's text looks like words of its own (each pattern of OWN_WORDS found)."""
    return [what for pattern, what in OWN_WORDS if pattern.search(text)]


def test_no_page_module_keeps_words_of_its_own():
    """Every word lives in the catalogues (issue 49): adding a language is adding its catalogue, nothing in a
    page module. Only i18n.js names the languages (each in itself) and their locales."""
    found = {path.name: own_words(path.read_text()) for path in sorted(STATIC.glob("*.js")) if path.name != "i18n.js"}
    assert len(found) > 30, found
    assert not {name: what for name, what in found.items() if what}, found


def test_the_check_finds_a_module_keeping_words_of_its_own():
    assert own_words("const WORDS = {\n  en: { title: 'Rules' },\n};") == [
        "a table of words (const WORDS)",
        "an object keyed by language ({en: …, fr: …})",
    ]
    assert own_words('const FACE = { fr: "ATOUT", en: "TRUMP" };\nface(FACE[lang()]);') == [
        "an object keyed by language ({en: …, fr: …})",
        "a lookup by language ([lang()])",
    ]
    assert own_words('return lang() === "fr" ? "atout" : "trump";') == ['a test of the language (lang() === "fr")']
    assert own_words('import { t } from "./i18n.js";\nh("p", {}, t("rules.title"));') == []

"""The page's words used (issue 36): every key of a catalogue (words/en.js, and the words a module keeps for
itself: daily, tournaments, analysis, the screen reader's) is asked for by some code, by its whole name or by a
name the code builds from a prefix (`t(\\`board.${key}\\`)`). A key no code asks for is a translation kept for
nothing, or a key misspelt in the code (then the page shows the key itself).

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
WORDS_BLOCK = re.compile(r"^const WORDS = (\{.*?^\});", re.S | re.M)


def catalogues() -> dict[str, dict]:
    """Each catalogue's English keys: ``i18n`` (words/en.js) and each module's own (its ``const WORDS``)."""
    if NODE is None:
        pytest.skip("node not found: the page's catalogues were not read (apt-get install nodejs)")
    sources = {"i18n": (STATIC / "words" / "en.js").read_text().split("export default", 1)[1].rsplit(";", 1)[0]}
    for path in sorted(STATIC.glob("*.js")):
        found = WORDS_BLOCK.search(path.read_text())
        if found and "export const KEYS" in path.read_text():
            sources[path.name] = found.group(1) + ".en"
    script = "const out = {};\n" + "".join(f"out[{json.dumps(k)}] = Object.keys({v});\n" for k, v in sources.items())
    script += "console.log(JSON.stringify(out));"
    done = subprocess.run([NODE, "-e", script], capture_output=True, text=True, check=True, timeout=60)
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
    for path in sorted(STATIC.glob("*.js")):
        strings(WORDS_BLOCK.sub("", path.read_text()), whole, prefixes)  # a module's own words are no use of them
    return whole, prefixes


def unused(keys: dict[str, list[str]], whole: set[str], prefixes: set[str]) -> dict[str, list[str]]:
    """Each catalogue's keys that no code asks for."""

    def used(key: str) -> bool:
        key = PLURAL.sub("", key)
        return key in whole or any(key.startswith(p) for p in prefixes)

    found = {catalogue: sorted(k for k in names if not used(k)) for catalogue, names in keys.items()}
    return {k: v for k, v in found.items() if v}


def test_every_key_of_every_catalogue_is_asked_for_by_some_code():
    keys = catalogues()
    assert len(keys["i18n"]) > 300 and {"daily.js", "tournaments.js", "analysis.js", "speech-words.js"} <= set(keys), {
        k: len(v) for k, v in keys.items()
    }
    whole, prefixes = asked_for()
    assert "error." in prefixes and "board." in prefixes, sorted(prefixes)  # the reader sees the built names
    assert "card.playable" in whole  # and the names inside a template's ${…}
    left = unused(keys, whole, prefixes)
    assert not left, f"keys no code asks for: {left}"


def test_the_check_finds_a_key_no_code_asks_for():
    """The check above can fail: a catalogue with a key more than the code asks for, and a plural's forms."""
    whole, prefixes = asked_for()
    keys = {"i18n": ["lobby.deals.one", "lobby.deals.other", "lobby.never_said_anywhere"]}
    assert unused(keys, whole, prefixes) == {"i18n": ["lobby.never_said_anywhere"]}

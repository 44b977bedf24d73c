"""The terminal game's words (issue 36): every message the code marks has its French and Spanish words with
the same placeholders, no translation is left that no code uses, the language comes from --lang or the
locale, and a whole game played in Spanish shows Spanish (the Spanish rules' words) and no English."""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.widgets import Input

from atout.engine import Deal
from atout.tui.app import AtoutApp, GameScreen, InfoScreen, ResultScreen
from atout.tui.game import Game
from atout.tui.widgets import HandView
from atout.tui.words import Language, catalogue, language_from_environment, parse_language, set_language

from .helpers import SIZE, buttons, message, settle, shown

SOURCES = Path(__file__).resolve().parents[2] / "src" / "atout"
PLACEHOLDER = re.compile(r"\{(\w+)")


def marked() -> tuple[set[str], set[tuple[str, str]]]:
    """Every message the terminal game's code marks (``_("…")``, ``N_("…")``) and every plural pair
    (``n_("…", "…", n)``), read from the source as the catalogues' keys."""
    files = [
        *sorted((SOURCES / "tui").rglob("*.py")),
        SOURCES / "cli" / "play.py",
        SOURCES / "cli" / "robots_game.py",
        SOURCES / "cli" / "learn.py",
    ]
    singles: set[str] = set()
    plurals: set[tuple[str, str]] = set()
    for path in files:
        if "words" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args):
                continue
            texts = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if node.func.id in ("_", "N_") and isinstance(node.args[0], ast.Constant):
                singles.add(node.args[0].value)
            elif node.func.id == "n_" and len(texts) >= 2:
                plurals.add((texts[0], texts[1]))
    return singles, plurals


def test_the_code_marks_its_messages():
    singles, plurals = marked()
    assert len(singles) > 200 and len(plurals) >= 8, (len(singles), len(plurals))
    assert "Your turn: play one of the bright cards." in singles and ("{n} card", "{n} cards") in plurals


@pytest.mark.parametrize("language", [Language.FR, Language.ES])
def test_every_message_has_its_words_and_every_word_a_message(language):
    singles, plurals = marked()
    words, forms = catalogue(language)
    missing = sorted(singles - set(words))
    assert not missing, f"no {language} words for {missing}"
    unused = sorted(set(words) - singles)
    assert not unused, f"{language} words no code uses: {unused}"
    missing_plurals = sorted(one for one, _many in plurals if one not in forms)
    assert not missing_plurals, f"no {language} plural for {missing_plurals}"
    unused_plurals = sorted(set(forms) - {one for one, _many in plurals})
    assert not unused_plurals, f"{language} plurals no code uses: {unused_plurals}"
    for english in singles:
        assert sorted(PLACEHOLDER.findall(words[english])) == sorted(PLACEHOLDER.findall(english)), (
            f"{language}: other placeholders in {words[english]!r} than in {english!r}"
        )
        assert words[english].strip() or not english.strip()
    for one, many in plurals:
        for form in forms[one]:
            assert set(PLACEHOLDER.findall(form)) <= set(PLACEHOLDER.findall(many)), (language, one, form)


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "es_ES.UTF-8"}, Language.ES),
        ({"LANG": "fr_FR.UTF-8"}, Language.FR),
        ({"LANG": "en_GB.UTF-8", "LC_ALL": "es_AR.UTF-8"}, Language.ES),  # LC_ALL wins over LANG
        ({"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "es_ES"}, Language.ES),
        ({"LANG": "de_DE.UTF-8", "LANGUAGE": "de:es:fr"}, Language.ES),  # the first of the list the game speaks
        ({"LANG": "C.UTF-8", "LANGUAGE": "es"}, Language.EN),  # gettext ignores LANGUAGE under the C locale
        ({"LANG": "de_DE.UTF-8"}, Language.EN),
        ({}, Language.EN),
    ],
)
def test_the_language_comes_from_the_locale(environ, expected):
    assert language_from_environment(environ) is expected


def test_a_language_the_game_does_not_speak_is_named_in_the_error():
    assert parse_language("es-MX") is Language.ES and parse_language("FR_ca.utf8") is Language.FR
    with pytest.raises(ValueError, match=r"no 'de' language: the terminal game speaks en, fr, es"):
        parse_language("de")


@pytest.fixture
def spanish() -> Iterator[None]:
    set_language(Language.ES)
    try:
        yield
    finally:
        set_language(Language.EN)


ENGLISH = re.compile(
    r"\b(the|your|you|trick|tricks|deal|deals|bid|bids|pass|passes|take|took|trumps?|dog|score|sheet|plays?|"
    r"hint|save|quit|help|turn|cards?|partner|taker|dealer|prise|garde|chelem|poignée|excuse|petit|void|made|"
    r"failed|none|each|defender|called|shown|leave|stay|close|continue|analyse)\b",
    re.IGNORECASE,
)
"""Words a Spanish player must not meet (robots' names and the cards' K Q C J letters aside)."""


async def test_a_whole_game_in_spanish_shows_spanish_words_only(spanish, tmp_path):
    game = Game(players=4, level="random", deals=1, seed="espanol", save_dir=tmp_path)
    app = AtoutApp(game, delay=0, save_dir=tmp_path)
    rng = random.Random(36)
    seen: set[str] = set()
    async with app.run_test(size=(110, 36)) as pilot:
        for _step in range(400):
            await settle(app, pilot)
            if not app.is_running:
                break
            screen = app.screen
            text = shown(app)
            found = ENGLISH.search(text)
            assert not found, f"English on the {type(screen).__name__}: {found.group(0)!r} in\n{text}"
            if isinstance(screen, ResultScreen):
                seen.add("result")
                assert "Hoja de puntos" in text and "Clasificación final" in text, text
                assert re.search(r"(CUMPLIDA|FALLADA) por \d+|La ronda es nula", text), text
                await pilot.press("enter")
                continue
            if isinstance(screen, InfoScreen):
                seen.add(screen.kind)
                await pilot.press("enter")
                continue
            assert isinstance(screen, GameScreen)
            mode = screen.prompt.mode
            seen.add(mode)
            if mode == "bid":
                labels = [str(b.label) for b in buttons(app)]
                assert labels[:5] == [
                    "1 Paso",
                    "2 Toma",
                    "3 Guardia",
                    "4 Guardia sin el Perro",
                    "5 Guardia contra el Perro",
                ], labels
                assert message(app).startswith("Tu declaración: 1 pasa"), message(app)
                assert {"Consejo", "Baza anterior", "Ayuda", "Guardar", "Salir"} <= set(text.splitlines()), text
                await pilot.press("2" if "take" not in seen and not buttons(app)[1].disabled else "1")
                seen.add("take")
            elif mode == "play":
                hand = screen.query_one(HandView)
                if "poignee-offer" not in seen and screen.query("#no-poignee"):
                    seen.add("poignee-offer")
                    await pilot.click("#no-poignee")
                    continue
                assert message(app) == "Te toca: juega una de las cartas iluminadas.", message(app)
                playable = [c for c in hand.cards if hand.marked >> c & 1]
                hand.focus_card(rng.choice(playable))
                await pilot.press("enter")
            elif mode == "ecart":
                hand = screen.query_one(HandView)
                assert message(app).startswith("Aparta "), message(app)
                for card in hand.cards:
                    if len([c for c in hand.cards if hand.selected >> c & 1]) == game.current.settings.dog_size:
                        break
                    if screen.prompt.ecart_pick_reason(card) is None and not hand.selected >> card & 1:
                        hand.focus_card(card)
                        await pilot.press("enter")
                        await pilot.pause()
                await pilot.click("#lay-aside")
            else:  # a call, a chelem, the petit sec: the first button
                await pilot.press("1")
    assert {"bid", "play", "result"} <= seen, seen
    assert isinstance(game.current, Deal) and game.is_over


async def test_the_spanish_help_and_log_use_the_spanish_rules_words(spanish, tmp_path):
    game = Game(players=4, level="random", deals=1, seed="ayuda", save_dir=tmp_path)
    app = AtoutApp(game, delay=0, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        text = shown(app)
        for word in (
            "Teclas",
            "Rey",
            "Reina",
            "Caballo",
            "Sota",
            "la Excusa",
            "el Pequeño",
            "Guardia sin el Perro",
            "Capote",
            "puñado",
            "Pequeño al final",
            "descarte",
            "baza",
        ):
            assert word in text, word
        await pilot.press("escape")
        await pilot.pause()
        log = shown(app)
        assert "Ronda 1 de 1: Reparte " in log or "Ronda 1 de 1: Repartes tú." in log, log


@pytest.mark.parametrize("language", list(Language))
async def test_the_start_screens_fields_show_their_whole_placeholder(language, tmp_path):
    """In the smallest terminal (80×24) each field's placeholder shows whole: the Spanish seed's was cut
    ("misma semilla, mismas ronda")."""
    set_language(language)
    try:
        app = AtoutApp(None, delay=0, save_dir=tmp_path, start_screen=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            for field in app.screen.query(Input):
                room = field.content_region.width - 1  # the cursor's cell after the text
                assert cell_len(str(field.placeholder)) <= room, (field.id, field.placeholder, room)
    finally:
        set_language(Language.EN)

"""The page in English, French and Spanish (issue 36): every word in every language (every file of the
catalogues, issue 49), a page downloading only its own language's words (and a phone's first visit under budget
in each), the browser's first choice honoured, and a Spanish speaker playing a whole deal who meets the Spanish
rules' words and no English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .pages import Person, play_until_over
from .test_static_files import FIRST_VISIT_BYTES, PHONE, visit

pytestmark = pytest.mark.slow

STATIC = Path(__file__).resolve().parents[2] / "src" / "atout" / "web" / "static"
LANGUAGES = ("en", "fr", "es")
SHOTS = "/tmp"
EMPTY_ON_PURPOSE = {"net.online", "daily.status"}
"""Keys whose words are nothing in every language (no status shown when online or when a play is over)."""
ENGLISH_OR_FRENCH = re.compile(
    r"\b(the|your|you|trick|deal|pass|take|takes|trump|dog|guard|score|sheet|seat|waiting|played|plays|"
    r"prise|garde|chelem|poignée|excuse|pli|donne|atout|preneur|chien|votre|vous|joue)\b",
    re.IGNORECASE,
)
"""Words a Spanish page must not show (the site's name "Atout" stays outside the page's main part)."""


def parts(language: str) -> list[str]:
    """The parts of a language's catalogue besides its core (words/<language>/<part>.js): ``rules``, ``learn``…"""
    return sorted(path.stem for path in (STATIC / "words" / language).glob("*.js"))


def test_every_catalogue_file_has_every_key_in_every_language(browser, site):
    """Every file of the catalogues (each language's core and each part of the site's), as i18n.js loads them:
    the same files and the same keys in English, French and Spanish, none empty by mistake, and the same
    {placeholders} in each (a translation never drops a name or a number)."""
    names = ["core", *parts("en")]
    assert {"rules", "learn", "table", "daily", "tournaments", "analysis"} <= set(names), names
    for language in LANGUAGES[1:]:
        assert parts(language) == parts("en"), f"{language}'s parts: {parts(language)}, English's: {parts('en')}"
    person = Person(browser, site.url, "Lexique")
    page = person.page
    page.goto(site.url)
    page.wait_for_selector("form.welcome")
    tables = page.evaluate(
        """async ([names, languages]) => {
      const i18n = await import('/static/i18n.js');
      const out = {};
      for (const name of names) {
        out[name] = {};
        for (const l of languages) out[name][l] = await i18n.catalogue(l, name);
      }
      return out;
    }""",
        [names, list(LANGUAGES)],
    )
    assert sorted(page.evaluate("async () => Object.keys((await import('/static/i18n.js')).LANGUAGES)")) == sorted(
        LANGUAGES
    )
    placeholders = re.compile(r"\{(\w+)\}")
    seen: dict[str, str] = {}  # a key in two files: the one loaded last would hide the other
    for name, table in tables.items():
        twice = sorted(key for key in table["en"] if key in seen)
        assert not twice, f"{name}: keys {twice} are in {sorted({seen[key] for key in twice})} too"
        seen.update(dict.fromkeys(table["en"], name))
    for module, table in tables.items():
        english = table["en"]
        assert english, f"{module}: no words read"
        for language in LANGUAGES[1:]:
            words = table[language]
            missing = sorted(set(english) - set(words))
            extra = sorted(set(words) - set(english))
            assert not missing, f"{module}: no {language} for {missing}"
            assert not extra, f"{module}: {language} has keys English lacks: {extra}"
            for key, text in words.items():
                assert text or key in EMPTY_ON_PURPOSE, f"{module}: {language} {key} is empty"
                assert sorted(placeholders.findall(text)) == sorted(placeholders.findall(english[key])), (
                    f"{module}: {language} {key} has other placeholders than English: {text!r}"
                )
    spanish = tables["core"]["es"]  # said of anyone, friend or seat: no masculine "conectado" for everyone
    for key in ("presence.online", "presence.offline", "friends.away", "seat.disconnected"):
        assert not re.search(r"ad[oa]s?\b", spanish[key]), f"es {key}: {spanish[key]!r} says a gender"
    person.close()


@pytest.mark.parametrize(
    ("accept", "language", "create"),
    [
        ("en-GB,en;q=0.9", "en", "Create the table"),
        ("fr-FR,fr;q=0.9", "fr", "Créer la table"),
        ("es-ES,es;q=0.9", "es", "Crear la mesa"),
        ("de-DE,es;q=0.8", "es", "Crear la mesa"),  # the first language the site speaks
    ],
)
def test_a_phones_first_visit_speaks_its_browsers_language_and_downloads_only_its_words(
    browser, site, accept, language, create
):
    # The browser's languages: the list its requests send (Accept-Language) and its pages read
    # (navigator.languages), as a browser set to prefer German, then Spanish, has them.
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, extra_http_headers={"Accept-Language": accept}
    )
    languages = [tag.split(";")[0] for tag in accept.split(",")]
    context.add_init_script(f"Object.defineProperty(navigator, 'languages', {{ get: () => {languages!r} }})")
    page, wire, went = visit(context, site.url, "Telefono")
    expect(page.locator("#create-form button[type=submit]")).to_have_text(create)
    assert page.evaluate("() => document.documentElement.lang") == language
    expect(page.locator("select.lang")).to_have_value(language)
    words = sorted(
        re.sub(r"\.[0-9a-f]{12}\.js$", ".js", e["url"].split("/static/")[1])
        for e in went
        if "/static/words/" in e["url"]
    )
    assert words == [f"words/{language}.js"], words  # its own language only
    total = wire.total()
    print(f"\nfirst visit in {language} ({accept}): {total} bytes over the wire")
    assert total <= FIRST_VISIT_BYTES, (total, wire.answers)
    page.close()
    context.close()


def test_a_spanish_speaker_chooses_espanol_and_plays_a_whole_deal_in_spanish(browser, site):
    """She arrives in English, chooses Español: the page is Spanish at once (lang="es", the Spanish rules'
    words for the bids, the cards named in Spanish), and stays so through a whole deal and its result."""
    lucia = Person(browser, site.url, "Lucia").arrive()
    page = lucia.page
    expect(page.locator("select.lang option")).to_have_text(["English", "Français", "Español"])
    page.select_option("select.lang", "es")
    expect(page.locator("#create-form button[type=submit]")).to_have_text("Crear la mesa")
    assert page.evaluate("() => document.documentElement.lang") == "es"
    assert page.evaluate("() => localStorage.getItem('atout.lang')") == "es"
    page.check("#create-form input[name=players][value='4']")
    page.fill("#opt-deals", "1")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".table-page .seat")
    page.click("text=Completar los asientos vacíos con robots")
    page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind !== 'empty')")
    page.click("text=Empezar la partida")
    page.wait_for_function("() => window.atout.view.state.status === 'playing'")
    page.wait_for_function("() => window.atout.view.isMyTurn() && document.querySelector('.actions [data-bid]')")
    bids = page.eval_on_selector_all(".actions [data-bid]", "els => els.map((e) => [e.dataset.bid, e.textContent])")
    assert dict(bids) == {
        "pass": "Paso",
        "prise": "Toma",
        "garde": "Guardia",
        "garde_sans": "Guardia sin el Perro",
        "garde_contre": "Guardia contra el Perro",
    }, bids
    labels = page.eval_on_selector_all(
        ".hand-cards .card", "els => els.map((e) => e.querySelector('.sr-only').textContent)"
    )
    assert all(
        re.match(r"(As|Sota|Caballo|Reina|Rey|\d+) de (picas|corazones|diamantes|tréboles)|triunfo \d+|Excusa", x)
        for x in labels
    ), labels
    page.screenshot(path=f"{SHOTS}/words-es-bidding.png")
    shown = page.inner_text("main")
    assert not ENGLISH_OR_FRENCH.search(shown), ENGLISH_OR_FRENCH.search(shown)
    play_until_over([lucia])
    expect(page.locator(".game-over")).to_be_visible()
    shown = page.inner_text("main")
    assert "La partida ha terminado" in shown
    assert not ENGLISH_OR_FRENCH.search(shown), ENGLISH_OR_FRENCH.search(shown)
    log = page.inner_text(".log-list")
    assert "Empieza una partida de una ronda." in log and "Baza" in log, log
    page.screenshot(path=f"{SHOTS}/words-es-over.png", full_page=True)
    assert not [f for f in lucia.frames if f.get("type") == "pageerror"] and not lucia.policy_violations()
    lucia.close()

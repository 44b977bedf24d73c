"""axe-core on every page a person meets (issue 36): the welcome and the log-in dialog, the lobby, a table
mid-deal and at its game's end, the daily deal, the tournaments, a profile, a deal's review, on a desktop
and on a phone. A serious or critical violation fails the test, with what axe said of each element.

axe-core is vendored (tests/web/vendor/, its version and checksum in its README): nothing is fetched at
test time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import Site
from .pages import Person, http_post, play_until_over
from .test_lobby import PHONE
from .test_profile import log_in
from .test_table import advance_until

pytestmark = pytest.mark.slow

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text()
DESKTOP = {"width": 1280, "height": 800}
GRAVE = {"serious", "critical"}

RUN = """async () => {
  const r = await window.axe.run(document, { resultTypes: ["violations"] });
  return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), html: n.html.slice(0, 160), why: n.failureSummary })) }));
}"""


def axe(page, where: str, found: dict) -> None:
    """axe's violations on ``page`` as it is now, kept under ``where`` in ``found``."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.evaluate(AXE + "\n;true")  # through the debugger: the site's Content Security Policy allows no inline script
    found[where] = page.evaluate(RUN)


def grave(found: dict) -> dict:
    return {where: [v for v in violations if v["impact"] in GRAVE] for where, violations in found.items()
            if any(v["impact"] in GRAVE for v in violations)}


def summary(found: dict) -> str:
    lines = []
    for where, violations in found.items():
        for v in violations:
            lines.append(f"{where}: {v['id']} ({v['impact']}) x{len(v['nodes'])}: "
                         + "; ".join(f"{n['target']} {n['html']}" for n in v["nodes"][:4]))
    return "\n".join(lines)


@pytest.fixture(scope="module")
def axe_site(tmp_path_factory):
    server = Site(tmp_path_factory.mktemp("axe"), args=("--daily-deals", "1"))
    try:
        yield server
    finally:
        server.stop()


WORDS = {  # what the test clicks and waits for, as each language's page says it
    "en-GB": {"fill": "Fill empty seats with robots", "start": "Start the game", "tournaments": "Tournaments"},
    "fr-FR": {"fill": "Compléter avec des robots", "start": "Lancer la partie", "tournaments": "Tournois"},
}


@pytest.mark.parametrize(("viewport", "lang"), [(DESKTOP, "en-GB"), (PHONE, "fr-FR")],  # each size, each name's language
                         ids=["desktop", "phone-fr"])
def test_axe_finds_nothing_serious_on_any_page(browser, axe_site, viewport, lang):
    url = axe_site.url
    name = {"en-GB": "Axel", "fr-FR": "Axelfr"}[lang] + ("" if viewport is DESKTOP else "le")
    words = WORDS[lang]
    found: dict = {}

    stranger = Person(browser, url, f"{name}Out", lang=lang, viewport=viewport)
    page = stranger.page
    page.goto(url)
    page.wait_for_selector("form.welcome")
    axe(page, "welcome", found)
    page.click("form.welcome .linklike")
    page.wait_for_selector("dialog.account[open]")
    axe(page, "log in or register", found)
    stranger.close()

    made = http_post(f"{url}/api/register", json={"name": name, "password": "my long secret"},
                     headers={"Origin": url})
    assert made.status_code == 201, made.text
    person = log_in(browser, url, name, lang=lang, viewport=viewport)
    page = person.page
    axe(page, "lobby", found)
    person.create(3, deals=1)
    axe(page, "table before its game", found)
    page.get_by_role("button", name=words["fill"]).click()
    page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind !== 'empty')")
    page.get_by_role("button", name=words["start"]).click()
    advance_until(person, "() => { const v = window.atout.view; const d = v.state.deal;"
                          " return d && (d.phase !== 'bidding' || v.isMyTurn()); }", limit=120)
    axe(page, "table at the bids", found)
    advance_until(person, "() => { const v = window.atout.view; const d = v.state.deal;"
                          " return d && d.phase === 'play' && d.trick.length > 0 && v.isMyTurn(); }", limit=120)
    axe(page, "table mid-deal", found)
    page.keyboard.press("?")  # the keys' list, over the table
    page.get_by_role("dialog").last.wait_for()
    axe(page, "the keys' list", found)
    page.keyboard.press("Escape")
    play_until_over([person])
    page.wait_for_selector(".result-panel .game-over")
    axe(page, "table at the game's end", found)
    game = person.state()["game"]["id"]
    page.goto(f"{url}/#/g/{game}/1")
    page.wait_for_selector(".review-page")
    axe(page, "a deal's review", found)
    page.goto(f"{url}/#/g/{game}")
    page.wait_for_selector("main h1")
    axe(page, "a game's page", found)
    for route, ready in (("daily", ".daily"), ("tournaments", f"main h1:has-text('{words['tournaments']}')"), (f"p/{name}", ".profile"),
                         ("leaderboard", "main table")):
        page.goto(f"{url}/#/{route}")
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        axe(page, route.split("/")[0], found)
    print(summary(found))  # every finding, the minor ones too, in the test's output
    out = Path("/tmp") / f"axe-{viewport['width']}-{lang}.json"
    out.write_text(json.dumps(found, indent=1, ensure_ascii=False))
    person.close()
    assert not grave(found), summary(grave(found))

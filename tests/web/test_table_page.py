"""The table page as a regular of other sites expects it (issue 23), on a phone (390×844) and a desktop
(1280×800): every phase without sideways scroll and every hand card readable, results read whole until
closed, the log kept whole after a reload and for a late spectator, the language switched at once, the
score sheet whole, a private table's refusal, and your turn noticed in a hidden tab (automatic mode
and I'm back: test_back.py)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from .pages import AUTOPLAY, Person

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
TAKE = """() => { const v = window.atout.view; if (!v || !v.state || !v.isMyTurn()) return null;
  const b = [...document.querySelectorAll('.actions [data-bid]')].filter((x) => !x.disabled);
  const g = b.find((x) => x.dataset.bid === 'garde'); if (g) { g.click(); return 'garde'; } return null; }"""
PHASE = """() => { const v = window.atout.view; const d = v && v.state && v.state.deal;
  return d ? d.phase + (v.isMyTurn() ? ':me' : '') : ''; }"""
FIT = """() => {
  const out = { scroll: document.documentElement.scrollWidth, width: innerWidth, cards: [], outside: 0 };
  const rects = [...document.querySelectorAll('.hand-cards .card')].map((c) => c.getBoundingClientRect());
  rects.forEach((r, i) => {
    const next = rects[i + 1];
    out.cards.push(Math.round(next && Math.abs(next.top - r.top) < 4 ? next.left - r.left : r.width));
    if (r.left < 0 || r.right > innerWidth) out.outside += 1;
  });
  const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const dog = document.querySelector('.felt .dog');
  out.dogCovers = dog ? [...document.querySelectorAll('.felt .seat .seat-name')]
    .filter((n) => hit(n.getBoundingClientRect(), dog.getBoundingClientRect())).length : 0;
  return out;
}"""
WHOLE = """(sel) => { const el = document.querySelector(sel); if (!el || el.hidden) return null;
  const r = el.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, scroll: el.scrollHeight, client: el.clientHeight,
           height: innerHeight, width: innerWidth, text: el.innerText }; }"""


def fits(person: Person, where: str) -> None:
    got = person.page.evaluate(FIT)
    assert got["scroll"] <= got["width"], f"{where}: the page scrolls sideways ({got['scroll']} > {got['width']})"
    assert all(w >= 24 for w in got["cards"]), f"{where}: a hand card shows less than 24 px: {got['cards']}"
    assert got["outside"] == 0, f"{where}: {got['outside']} hand cards run off the screen"
    assert got["dogCovers"] == 0, f"{where}: the dog covers a seat's name"


def read_whole(person: Person, selector: str) -> dict:
    box = person.page.evaluate(WHOLE, selector)
    assert box is not None, f"no {selector}"
    assert (
        box["top"] >= -0.5
        and box["bottom"] <= box["height"] + 0.5
        and box["left"] >= 0
        and box["right"] <= box["width"] + 0.5
    ), box
    assert box["scroll"] <= box["client"] + 1, f"{selector} must be scrolled to be read: {box}"
    return box


def log_lines(person: Person) -> list[str]:
    return person.page.eval_on_selector_all(".log-list li", "els => els.map((e) => e.innerText)")


def test_every_phase_on_a_phone_and_the_log_kept(browser, shared_site):
    """A three-seat game on a phone, taking with a garde: thirty cards in the hand at the écart. At each
    phase: no sideways scroll, every card at least 24 px, nothing off screen, the dog beside the seats'
    names; a refusal's toast away from the hand; prompts injected for a poignée; the deal's result read
    whole, kept over the next deal until closed; the log whole after a reload and for a late spectator,
    a deal's last trick logged before "The deal is over."."""
    alice = Person(browser, shared_site.url, "Pia", viewport=PHONE).arrive()
    table = alice.create(3, deals=2)
    alice.fill_and_start()
    page = alice.page
    seen: set[str] = set()
    spectator = None
    deadline = time.monotonic() + 240  # bounds a hang only
    while not alice.game_over():
        assert time.monotonic() < deadline, f"the game did not end; phases seen {seen}"
        phase = page.evaluate(PHASE)
        if "end" not in seen and phase != "end" and page.locator(".result-panel.deal-end").is_visible():
            phase = "end"  # the deal ended between two looks (0.3 s between deals): its result stays till closed
        if phase and phase not in seen:
            seen.add(phase)
            fits(alice, phase)
            if phase == "discard:me":
                assert page.locator(".felt .dog .card").count() > 0  # the dog shown on the felt
                assert page.locator(".hand-cards .card").count() in (24, 30)
                refused = page.evaluate(
                    "() => { const d = window.atout.view.legal('discard_from')[0];"
                    " return d.discard_from.length < window.atout.view.state.deal.hand.length"
                    " ? window.atout.view.state.deal.hand.find((c) => !d.discard_from.includes(c)) : null; }"
                )
                if refused:
                    page.click(f".hand-cards .card[data-card='{refused}']", force=True)
                    toast = page.wait_for_selector(".toast.error").bounding_box()
                    hand = page.locator(".hand").bounding_box()
                    assert toast["y"] + toast["height"] <= hand["y"] or toast["y"] >= hand["y"] + hand["height"], (
                        toast,
                        hand,
                    )
                page.evaluate(AUTOPLAY)
                page.evaluate(AUTOPLAY)
                fits(alice, "two cards chosen")
            if phase == "play:me" and "poignee" not in seen:
                seen.add("poignee")  # a poignée is rare: offered by hand to the real state, its prompt measured
                page.evaluate("""() => { const v = window.atout.view; const s = structuredClone(v.state);
                  const trumps = s.deal.hand.filter((c) => c.startsWith('T'));
                  s.deal.legal = [{ poignee_from: trumps.length ? trumps : s.deal.hand, sizes: { simple: 8 } },
                    ...s.deal.legal];
                  v.setState(s); document.querySelector('[data-poignee=simple]').click(); }""")
                fits(alice, "poignée chosen")
                page.evaluate(
                    "() => { [...document.querySelectorAll('.actions button')].find((b) => b.textContent === "
                    '"Don\'t show").click();'
                    " window.atout.view.open(); }"
                )
                page.wait_for_function(
                    "() => !window.atout.view.legal('poignee_from').length || window.atout.view.state.deal.legal.length"
                )
            if phase == "end":
                for _ in range(5):  # the next deal may begin between any two looks (a loaded machine's robots)
                    if page.locator(".result-panel.deal-end.docked").count():
                        # it asks for this person: the result went below the hand, and the note where it went
                        # brings it into sight
                        page.click(".dock-note button")
                    box = page.evaluate(WHOLE, ".result-panel.deal-end")
                    if box and box["top"] >= -0.5 and box["bottom"] <= box["height"] + 0.5:
                        break
                panel = read_whole(alice, ".result-panel.deal-end")
                names = alice.page.evaluate("() => window.atout.view.state.seats.map((s) => s.name)")
                assert all(name in panel["text"] for name in names), panel["text"]  # every player's score
                lines = log_lines(alice)
                ends = [i for i, line in enumerate(lines) if line == "The deal is over."]
                tricks = [i for i, line in enumerate(lines) if line.startswith("Trick to ")]
                assert ends and tricks and tricks[-1] < ends[-1], lines[-6:]
                caption, winners, now = page.evaluate(  # at one moment: the next deal may start any time
                    "() => [(document.querySelector('.trick-caption') || {}).innerText || '',"
                    " document.querySelectorAll('.played.winner').length, window.atout.view.state.deal.phase]"
                )
                assert now != "end" or ("takes the trick" in caption and winners == 1), (caption, winners)
                page.wait_for_function(
                    "() => window.atout.view.state.game.over || window.atout.view.state.deal.phase !== 'end'"
                )
                if not alice.game_over():  # the next deal began: the result stays until it is closed
                    assert page.locator(".result-panel.deal-end").is_visible()
                    page.click("[data-dismiss=result]")
                    expect(page.locator(".result-panel")).to_be_hidden()
        if (
            phase.startswith("play")
            and "reload" not in seen
            and page.evaluate("() => window.atout.view.state.deal.tricks_won.reduce((a, b) => a + b, 0) >= 2")
        ):
            seen.add("reload")
            before = log_lines(alice)
            page.reload()
            page.wait_for_function(
                "() => window.atout.view && window.atout.view.state && document.querySelectorAll('.log-list li').length"
            )
            after = log_lines(alice)
            assert after[: len(before)] == before, (before, after)
            spectator = Person(browser, shared_site.url, "PiaWatch", viewport=PHONE).arrive()
            spectator.page.goto(f"{shared_site.url}/#/t/{table}")
            spectator.page.wait_for_function("() => document.querySelectorAll('.log-list li').length > 5")
            watched = log_lines(spectator)
            assert any("Deal 1" in line or "Deal 2" in line for line in watched), watched
            laid = [line for line in watched if "lays" in line]
            assert all("lays aside" not in line for line in laid), laid  # the écart's cards stay hidden
            contract = spectator.page.evaluate("() => window.atout.view.state.deal.contract")
            assert laid or contract not in ("prise", "garde"), (contract, watched)  # an écart was laid, and told
            fits(spectator, "spectator")
        # act only on a turn this loop has seen (and measured): the robots answer at once, so a step taken
        # on a phase seen as the robots' would play a turn of Pia's that was never looked at
        if not phase.endswith(":me") or (page.evaluate(TAKE) is None and alice.step() is None):
            page.wait_for_timeout(20)
    assert {"bidding:me", "play:me", "end", "reload"} <= seen, seen
    print("phases seen:", sorted(seen))
    read_whole(alice, ".result-panel.game-end")
    assert page.locator(".game-end .ranking li").count() == 3
    fits(alice, "game over")
    alice.close()
    if spectator:
        spectator.close()


def test_a_desktop_reads_the_game_over_and_the_whole_sheet(browser, shared_site):
    """1280×800: the game-over panel read whole (no inner scroll, on screen), the ranking numbered once, the
    score sheet's every column seen; a ranking is closed and opened again."""
    dora = Person(browser, shared_site.url, "Dora", viewport=DESKTOP).arrive()
    dora.create(4, deals=1)
    dora.fill_and_start()
    deadline = time.monotonic() + 180
    while not dora.game_over():
        assert time.monotonic() < deadline
        if dora.step() is None:
            dora.idle()
    page = dora.page
    read_whole(dora, ".result-panel.game-end")
    style = page.eval_on_selector(".game-end .ranking", "el => getComputedStyle(el).listStyleType")
    assert style == "none"
    first = page.inner_text(".game-end .ranking li")
    assert first.startswith(("1.", "2.")) and first.count(".") == 1, first
    sheet = page.evaluate("""() => { const panel = document.querySelector('.sheet-panel').getBoundingClientRect();
      const cols = [...document.querySelectorAll('.sheet tr.total td.num')].map((c) => c.getBoundingClientRect());
      return { right: panel.right, cols: cols.map((c) => [c.left, c.right]),
        over: [...document.querySelectorAll('.sheet td.num')]
        .filter((c) => c.scrollWidth > c.clientWidth + 1).length }; }""")
    assert len(sheet["cols"]) == 4 and all(right <= sheet["right"] for _, right in sheet["cols"]), sheet
    assert sheet["over"] == 0, sheet
    page.click(".result-panel .close")
    expect(page.locator(".result-panel")).to_be_hidden()
    page.click("text=The result")
    expect(page.locator(".result-panel.game-end")).to_be_visible()
    dora.close()


def test_french_at_once_plurals_dates_minus_and_card_letters(browser, shared_site):
    """The switch changes every word on screen at once, the log's lines included; plurals and dates by
    language; one minus sign; card letters by language."""
    eve = Person(browser, shared_site.url, "Evelyne", viewport=DESKTOP).arrive()
    eve.create(4, deals=1)
    eve.fill_and_start()
    page = eve.page
    # Eve's turn (the game's start and the deal's at least in the log, more if robots bid first): the table
    # waits for her, so the log holds still while it is read in both languages
    page.wait_for_function(
        "() => window.atout.view.isMyTurn() && document.querySelectorAll('.log-list li').length >= 2"
    )
    english = log_lines(eve)
    assert english[0] == "A game of one deal starts.", english
    page.select_option("select.lang", "fr")
    expect(page.locator(".side")).to_contain_text("Options de la table")
    side = page.inner_text(".side")
    for word in ("Discussion", "Envoyer", "Journal"):
        assert word in side, side
    for word in ("Table options", "Chat", "Send", "Log\n"):
        assert word not in side, (word, side)
    french = log_lines(eve)
    assert french[0] == "Une partie d'une donne commence." and len(french) == len(english), french
    assert any(line.startswith("Donne 1 :") for line in french), french
    assert page.eval_on_selector(".skip", "el => el.textContent") == "Aller au contenu"
    got = page.evaluate("""async () => {
      const i18n = await import('/static/i18n.js'); const cards = await import('/static/cards.js');
      const result = await import('/static/result.js');
      const out = {};
      for (const l of ['en', 'fr']) {
        await i18n.setLang(l);
        out[l] = { deals: [1, 2].map((n) => i18n.t('lobby.deals', { n })), robots: [1,
          3].map((n) => i18n.t('lobby.robots', { n })),
                   bouts: [0, 1, 2].map((n) => i18n.t('result.bouts', { n })), cards: ['KS', 'QH', 'ND',
                     'JC'].map(cards.short),
                   date: i18n.dateTime(1795000000) };
      }
      const failed = { contract: 'garde', taker: 0, partner: null, made: false, margin: 7, petit_au_bout: 'defence',
        poignees: [],
                       chelem: null, unit: -74, points: 44, bouts: 1, target: 51, scores: [-222, 74, 74, 74] };
      out.formula = result.resultBlock(failed, (x) => `seat ${x}`, 4, window.atout.catalogue).innerText;
      await i18n.setLang('fr');
      return out;
    }""")
    assert got["en"]["deals"] == ["1 deal", "2 deals"] and got["fr"]["deals"] == ["1 donne", "2 donnes"], got
    assert got["en"]["robots"] == ["1 robot", "3 robots"] and got["en"]["bouts"] == ["0 bouts", "1 bout", "2 bouts"], (
        got
    )
    assert got["fr"]["bouts"] == ["0 bout", "1 bout", "2 bouts"], got
    assert got["en"]["cards"] == ["K♠", "Q♥", "C♦", "J♣"] and got["fr"]["cards"] == ["R♠", "D♥", "C♦", "V♣"], got
    assert "nov." in got["fr"]["date"] and "Nov" in got["en"]["date"] and "/" not in got["fr"]["date"], got
    assert "-" not in got["formula"].replace("—", "") and "−74" in got["formula"] and "−222" in got["formula"], got[
        "formula"
    ]
    eve.close()


def noticed_while_hidden(person: Person, done: str) -> None:
    """The person plays on (the shared site's robots answer at once) until ``done`` holds in the page."""
    page = person.page
    deadline = time.monotonic() + 120  # bounds a hang only
    while not page.evaluate(done):
        assert time.monotonic() < deadline and not person.game_over(), page.evaluate("() => window.__titles")
        # ``done`` looked at in the same breath as the click: a turn that came back (its tone played) between
        # a look and a click was played at once, its title gone before the test read it
        if person.step(unless=f"({done})()") is None:
            page.wait_for_function(f"() => window.atout.view.isMyTurn() || ({done})()")


@pytest.mark.parametrize("link", ["t", "table"])
def test_a_table_not_open_says_so_with_the_way_back(browser, shared_site, link):
    """A link to a table that is over (and gone from the server) or never was: a page that says so and
    leads back to the tables, not the lobby shown as if the link had worked (a toast, gone in seconds).
    ``#/table/ID``, the word written out, is the same link."""
    person = Person(browser, shared_site.url, f"Lost{link}", viewport=PHONE).arrive()
    page = person.page
    page.goto(f"{shared_site.url}/#/{link}/nosuch{link}")
    refusal = page.wait_for_selector(".refused[data-refused=no_table]")
    text = refusal.inner_text()
    assert "This table is not open" in text and f"Table nosuch{link} is not open" in text, text
    assert page.locator("#create-form, .felt").count() == 0
    page.click(".refused a")
    page.wait_for_selector("#create-form")
    person.close()


def test_private_tables_and_your_turn_in_a_hidden_tab(browser, shared_site):
    """A private table opened by an outsider: a page that says so. The master is not told of his own
    option change. Your turn in a hidden tab, as the server's robots bring it back: the title and icon say
    so and a tone plays (not once the bell is off). A guest's page says nothing of connecting before a
    name, and its console no 401. (Automatic mode and I'm back: test_back.py.)"""
    guest = Person(browser, shared_site.url, "Nobody", viewport=PHONE)
    guest.page.goto(shared_site.url)
    guest.page.wait_for_selector("form.welcome")
    guest.page.wait_for_load_state("networkidle")
    assert guest.page.locator(".netstatus").count() == 0
    assert not [e for e in guest.console_errors if "401" in e], guest.console_errors
    guest.close()

    max_ = Person(browser, shared_site.url, "Maxime", viewport=DESKTOP).arrive()
    table = max_.create(4, deals=3)
    page = max_.page
    page.check("#opt-private")  # the master changes an option: no "changed" news for himself
    page.wait_for_function("() => window.atout.view.state.options.private === true")
    assert page.locator(".actions .notice").count() == 0
    outsider = Person(browser, shared_site.url, "Otto", viewport=PHONE).arrive()
    outsider.page.goto(f"{shared_site.url}/#/t/{table}")
    refusal = outsider.page.wait_for_selector(".refused[data-refused=private]")
    assert "private" in refusal.inner_text() and outsider.page.locator(".felt, .chat-form").count() == 0
    outsider.close()

    max_.fill_and_start()
    page.wait_for_function("() => window.atout.view.isMyTurn()")
    page.evaluate("""() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
      window.__titles = [];  // every title the tab shows from now on
      new MutationObserver(() => window.__titles.push(document.title))
        .observe(document.querySelector('title'), { childList: true, characterData: true, subtree: true });
    }""")
    noticed_while_hidden(max_, "() => (window.atout.beeps || 0) > 0")  # played on until the turn came back
    noticed = page.evaluate(
        "() => ({ title: document.title, icon: document.querySelector('link[rel=icon]').href,"
        " beeps: window.atout.beeps })"
    )
    # a tone a turn: one at least (two where the step that brought the turn back was itself one of two
    # decisions in a row, an écart then the chelem question, each a turn of its own)
    assert noticed["title"] == "Your turn — Atout" and "circle" in noticed["icon"] and noticed["beeps"] >= 1, noticed
    page.click(".table-bar .sound")  # the bell off: no tone next time
    page.evaluate("() => { window.__titles = []; }")
    noticed_while_hidden(max_, "() => window.__titles.includes('Your turn — Atout')")  # gone, and back again
    # read at the turn itself: under load the tab may be read a moment after the turn it saw went by
    page.wait_for_function("() => window.atout.view.isMyTurn()")
    got = page.evaluate("() => [window.atout.beeps, document.title, window.__titles]")
    assert got[:2] == [noticed["beeps"], "Your turn — Atout"], got
    shown = page.evaluate("""() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      document.dispatchEvent(new Event('visibilitychange'));
      return { back: document.title, stored: localStorage.getItem('atout.sound') }; }""")
    assert shown["back"] != "Your turn — Atout" and shown["stored"] == "off", shown
    max_.close()


FINISHED = """() => ({
  sheet: [...document.querySelectorAll('.sheet thead th.num')].map((th) => th.title),
  trick: [...document.querySelectorAll('.felt .trick .played .sr-only')].map((s) => s.textContent),
  ranking: [...document.querySelectorAll('.game-end .ranking li')].map((li) => li.innerText).join(' | '),
  seat: document.querySelector('.felt .seat[data-seat="1"] .seat-name').innerText,
})"""


def test_a_finished_game_keeps_its_players_names_when_someone_sits_down_after_it(browser, shared_site):
    """Issue 47, item 3: after a 3-player game with two robots, the master removes Robot 2 and Bruno sits
    there: the finished game's score sheet, its last trick on the felt and its ranking still name the
    robot, the seat names Bruno; and once another game starts, the last game's result does not stay open."""
    ana = Person(browser, shared_site.url, "Anaïs", viewport=DESKTOP).arrive()
    table = ana.create(3, deals=1)
    ana.fill_and_start()
    deadline = time.monotonic() + 180
    while not ana.game_over():
        assert time.monotonic() < deadline
        if ana.step() is None:
            ana.idle()
    page = ana.page
    robot = ana.state()["seats"][1]["name"]
    shown = page.inner_text('.felt .seat[data-seat="1"] .seat-name').split(" ")[0:2]  # "Robot 2", as the page says it
    before = page.evaluate(FINISHED)
    assert before["sheet"][1].startswith(" ".join(shown)) and robot.startswith(" ".join(shown)), (before, robot)
    page.click(".result-panel .close")
    page.get_by_role("button", name=f"Remove the robot {before['sheet'][1]}").click()
    page.wait_for_function("() => window.atout.view.state.seats[1].kind === 'empty'")
    bruno = Person(browser, shared_site.url, "Bruno", viewport=DESKTOP).arrive()
    bruno.sit_at(table)
    for person in (ana, bruno):
        person.page.wait_for_function("() => window.atout.view.state.seats[1].name === 'Bruno'")
        if person.page.locator(".result-panel.game-end").is_hidden():  # Ana closed it; Bruno arrives to it open
            person.page.click("text=The result")
        person.page.wait_for_selector(".result-panel.game-end .ranking li")
        after = person.page.evaluate(FINISHED)
        assert after["sheet"] == before["sheet"], f"{person.name}: the sheet relabelled: {after['sheet']}"
        assert after["trick"] == before["trick"] and not any("Bruno" in x for x in after["trick"]), after
        assert "Bruno" not in after["ranking"] and before["sheet"][1] in after["ranking"], after
        assert after["seat"].startswith("Bruno"), after
    over = ana.state()["game"]["id"]
    page.click(".result-panel .close")
    page.click("text=Another game")
    page.wait_for_function(
        "(over) => { const s = window.atout.view.state; return s.game && s.game.id !== over"
        " && s.deal && s.deal.phase === 'bidding'; }",
        arg=over,
    )
    assert ana.state()["game"]["names"][1] == "Bruno"
    expect(page.locator(".result-panel")).to_be_hidden()  # the last game's last deal is not shown again
    for person in (ana, bruno):
        person.close()

"""The table page's layout where features meet (issue 34), at 1280×800 and 390×844: the last deal's result
still open while the next deal needs you, every hand card's index in sight in a big hand, the top seat
while waiting, a long title, the score sheet's names."""

from __future__ import annotations

import time

import pytest

from .pages import AUTOPLAY, FRAMES, Person, play_until_over
from .test_table_page import PHASE, TAKE

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

UNCOVERED = """(el) => { el.scrollIntoView({ block: 'nearest' }); const r = el.getBoundingClientRect();
  const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  // a pixel's slack: scrolled to the nearest edge, a box can end a fraction of a pixel beyond it
  return { inView: r.top >= -1 && r.bottom <= innerHeight + 1 && r.left >= -1 && r.right <= innerWidth + 1,
           box: [r.top, r.bottom, r.left, r.right, innerHeight, innerWidth],
           hit: Boolean(at && (at === el || el.contains(at))), at: at ? at.outerHTML.slice(0, 80) : null }; }"""

DEAL_1_STEP = f"() => window.atout.view.state.game.deal_number < 2 ? ({AUTOPLAY})() : 'deal 2'"
"""One click of deal 1's, checked and made at one moment: none once deal 2 began."""

INDICES = """() => {
  const covered = [];
  document.querySelector('.hand').scrollIntoView({ block: 'nearest' });
  for (const card of document.querySelectorAll('.hand-cards .card')) {
    const index = card.querySelector('svg text.index, svg text.tindex');
    if (!index) { covered.push(card.dataset.card + ' has no index'); continue; }
    const r = index.getBoundingClientRect();
    const points = [[r.left + 1, r.top + 1], [r.right - 1, r.top + 1], [r.left + 1, r.bottom - 1], [r.right - 1,
      r.bottom - 1],
                    [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
    for (const [x, y] of points) {
      const at = document.elementFromPoint(x, y);
      if (!at || at.closest('button.card') !== card) {
        const under = at && at.closest('[data-card]') ? at.closest('[data-card]').dataset.card : at && at.tagName;
        covered.push(`${card.dataset.card} at ${Math.round(x)},${Math.round(y)} under ${under}`);
        break;
      }
    }
    for (const label of card.querySelectorAll('svg text.tlabel')) { // TRUMP at a card's foot: whole, or not at all
      if (getComputedStyle(label).display === 'none') continue;
      const l = label.getBoundingClientRect();
      for (const x of [l.left + 1, l.right - 1]) {
        const at = document.elementFromPoint(x, (l.top + l.bottom) / 2);
        const mine = at && at.closest('button.card') === card;
        if (!mine) covered.push(`${card.dataset.card}'s word cut at ${Math.round(x)}`);
      }
    }
  }
  return { n: document.querySelectorAll('.hand-cards .card').length, covered };
}"""


def close_result(person: Person) -> None:
    """A result read and closed (it stays open till closed)."""
    page = person.page
    if page.locator("[data-dismiss=result]").is_visible():
        page.click("[data-dismiss=result]")


def test_the_next_deals_bids_are_in_sight_while_the_last_result_is_open(browser, shared_site):
    """A person reads the last deal's result slowly while the next deal begins: at their turn to bid, the
    result is still open, and the bid buttons and the clock are in sight and take a real click. Its review
    trick by trick, opened over the table then, says it is their turn, with the clock and the way back."""
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        reader = Person(browser, shared_site.url, f"Slow{size}", viewport=viewport).arrive()
        reader.create(4, deals=3, turn_seconds=30)
        reader.fill_and_start()
        page = reader.page
        deadline = time.monotonic() + 180  # bounds a hang only
        while True:  # deal 1 played, and nothing of deal 2's (a step and the deal's start may cross)
            assert time.monotonic() < deadline, "deal 1 did not end"
            seq = reader.seq()
            done = page.evaluate(DEAL_1_STEP)
            if done == "deal 2":
                break
            if done and not done.startswith("pick"):
                page.wait_for_function("(seq) => window.atout.view.seq > seq", arg=seq)
            else:
                page.wait_for_timeout(20)
        assert page.locator(".result-panel.deal-end").is_visible()  # deal 1's result, never closed
        page.wait_for_function("() => window.atout.view.isMyTurn()")
        if page.evaluate("() => window.atout.view.state.deal.phase") != "bidding":  # a petit sec held, asked first
            page.evaluate(AUTOPLAY)
            page.wait_for_function(
                "() => window.atout.view.isMyTurn() && window.atout.view.state.deal.phase === 'bidding'"
            )
        page.screenshot(path=f"/tmp/layout-result-{size}.png")
        assert page.locator(".result-panel.deal-end").is_visible(), "the last result closed itself"
        page.click(".result-panel .review-open")  # reading the last deal trick by trick, over the table
        turn = page.wait_for_selector("dialog.review-dialog[open] .review-turn")  # says it is your turn, with the clock
        assert "Your turn" in turn.inner_text() and page.locator(".review-turn .clock").inner_text().endswith(" s")
        page.screenshot(path=f"/tmp/layout-review-{size}.png")
        page.click(".review-turn button")
        page.wait_for_selector("dialog.review-dialog", state="detached")
        assert page.evaluate("() => document.activeElement.dataset.bid") == "pass"  # the first bid, for the keyboard
        bids = page.eval_on_selector_all(".actions [data-bid]", "els => els.map((e) => e.dataset.bid)")
        assert len(bids) >= 5, bids
        for what in [f".actions [data-bid={bid}]" for bid in bids] + [".actions .clock", ".hand-cards .card"]:
            got = page.eval_on_selector(what, UNCOVERED)
            assert got["inView"] and got["hit"], f"{size}: {what} covered: {got}"
        seq = reader.seq()
        page.locator(".actions [data-bid=pass]").click(timeout=10_000)  # a real click: refused if covered
        page.wait_for_function("(seq) => window.atout.view.seq > seq", arg=seq)
        assert page.locator(".result-panel.deal-end").is_visible()
        page.click("[data-dismiss=result]")
        # closed, and not shown again; the only panel after it the next deal's own result (everyone passed
        # meanwhile, a void deal: the likely cause of a failure in a loaded run)
        assert page.evaluate(
            "() => { const v = window.atout.view; return v.dismissed.size > 0"
            " && (v.resultBox.hidden || !v.dismissed.has(v.result.key)); }"
        )
        reader.close()


def reach_ecart(person: Person) -> None:
    """Garde whenever the bidding allows, deals played on until this person lays an écart aside."""
    page = person.page
    deadline = time.monotonic() + 300  # bounds a hang only
    while True:
        assert time.monotonic() < deadline, "no écart of this person's in time"
        phase = page.evaluate(PHASE)
        if phase == "discard:me":
            return
        if phase.endswith(":me"):
            if page.evaluate(TAKE) is None:
                person.step()
        else:
            page.wait_for_timeout(20)


@pytest.mark.parametrize("players", [4, 3])
def test_every_card_index_in_sight_in_a_big_hand(browser, shared_site, players):
    """At the écart of a garde (24 cards at four players, 30 at three), on a desktop and a phone, before and
    after two cards are chosen: each hand card's index is in sight, under no other card (at 1280 px the next
    card covered the second digit of a trump's centred index: 10, 11 and 12 all read "1"); a trump's word at
    its foot is whole or not shown (a covered one read "TRU")."""
    taker = Person(browser, shared_site.url, f"Fan{players}", viewport=DESKTOP).arrive()
    taker.create(players, deals=9)
    taker.fill_and_start()
    reach_ecart(taker)
    close_result(taker)
    page = taker.page
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.wait_for_function(
            "(w) => innerWidth === w && document.querySelector('.hand-cards .card')", arg=viewport["width"]
        )
        page.evaluate(FRAMES)
        got = page.evaluate(INDICES)
        assert got["n"] == {4: 24, 3: 30}[players], got
        page.screenshot(path=f"/tmp/layout-fan{players}-{size}.png")
        assert not got["covered"], f"{size}: indices covered: {got['covered']}"
    for _ in range(2):  # two cards chosen stand out of the fan: the next card's index still in sight
        assert (taker.step() or "").startswith("pick"), "no card to choose"
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        page.wait_for_function("(w) => innerWidth === w", arg=viewport["width"])
        page.evaluate(FRAMES)
        got = page.evaluate(INDICES)
        assert not got["covered"], f"{size}, two chosen: indices covered: {got['covered']}"
    taker.close()


def test_a_long_title_keeps_the_bar_buttons_on_its_first_row(browser, shared_site):
    """A taker with a twenty-letter name at 1280 px: the bar's facts grow long ("Deal 1 of 9 · Garde by …"),
    and still every button of the bar, *Leave the seat* included, stays on the title's row; on a phone the
    bar wraps, and nothing runs off the screen."""
    taker = Person(browser, shared_site.url, "Bartholomew_Fairfax1", viewport=DESKTOP).arrive()
    taker.create(4, deals=9)
    taker.fill_and_start()
    reach_ecart(taker)
    close_result(taker)
    page = taker.page
    expect_facts = "Garde by Bartholomew_Fairfax1"
    assert expect_facts in page.inner_text(".table-bar .facts")
    bar = page.evaluate("""() => {
      const box = (e) => { const r = e.getBoundingClientRect(); return [Math.round(r.top), Math.round(r.bottom)]; };
      return { title: box(document.querySelector('.table-bar h1')),
               buttons: [...document.querySelectorAll('.table-bar button:not(.commitment)')]
                 .map((b) => [b.textContent, ...box(b)]) }; }""")
    page.screenshot(path="/tmp/layout-bar-desktop.png")
    top, bottom = bar["title"]
    for text, b_top, b_bottom in bar["buttons"]:
        assert b_top < bottom and b_bottom > top, f"{text!r} is not on the title's row: {bar}"
    page.set_viewport_size(PHONE)
    page.wait_for_function("() => innerWidth === 390")
    page.screenshot(path="/tmp/layout-bar-phone.png")
    wide = page.evaluate(
        "() => [document.documentElement.scrollWidth, innerWidth, [...document.querySelectorAll('.table-bar button')]"
        ".filter((b) => b.getBoundingClientRect().right > innerWidth).length]"
    )
    assert wide[0] <= wide[1] and wide[2] == 0, wide
    taker.close()


HEADERS = """() => [...document.querySelectorAll('.sheet-panel .sheet th.num')].map((th) => {
  const node = th.firstChild; const text = th.textContent; const broken = []; let at = 0;
  for (const word of text.split(' ')) {
    const range = document.createRange(); range.setStart(node, at); range.setEnd(node, at + word.length);
    if (range.getClientRects().length > 1) broken.push(word);
    at += word.length + 1;
  }
  return { text, title: th.title, broken, over: th.scrollWidth > th.clientWidth + 1 };
})"""


def test_score_sheet_names_break_between_words_only(browser, shared_site):
    """Five columns of names in the side's score sheet, a long one-word name among them, on a desktop and a
    phone: a name breaks between its words only (a word too long for its column ends in "…"), its whole name
    in the column's title, no header wider than its column (the sheet broke "Slowdesktop" into "Slowd / es…")."""
    host = Person(browser, shared_site.url, "Slowdesktopperson", viewport=DESKTOP).arrive()
    host.page.select_option("#opt-robot_level", "expert")  # "Robot 3 (expert)" read "(expe…", the last column cut
    host.create(5, deals=1)
    host.fill_and_start()
    page = host.page
    names = page.evaluate("() => window.atout.view.state.seats.map((s) => s.name)")
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.wait_for_function(
            "(w) => innerWidth === w && document.querySelectorAll('.sheet th.num').length === 5", arg=viewport["width"]
        )
        page.locator(".sheet-panel").scroll_into_view_if_needed()
        page.locator(".sheet-panel").screenshot(path=f"/tmp/layout-sheet-{size}.png")
        heads = page.evaluate(HEADERS)
        assert [x["title"] for x in heads] == names, heads
        for head in heads:
            assert not head["broken"] and not head["over"], f"{size}: {head}"
        fits = page.evaluate("""() => { const panel = document.querySelector('.sheet-panel');
          return [...panel.querySelectorAll('.sheet th, .sheet td')]
            .every((c) => c.getBoundingClientRect().right <= panel.getBoundingClientRect().right)
            && panel.scrollWidth <= panel.clientWidth; }""")
        assert fits, f"{size}: the sheet runs out of its panel"
        robots = [x for x in heads if x["title"].startswith("Robot ")]
        assert len(robots) == 4 and all(x["text"] == x["title"].split(" (")[0] for x in robots), robots
    host.close()


TOP_SEAT = """() => { const seat = document.querySelector('.felt .seat.pos-top');
  const r = seat.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, height: innerHeight, y: scrollY }; }"""


def test_a_phone_keeps_the_top_seat_in_sight_while_the_table_waits(browser, shared_site):
    """390×844, a table waiting for players: the master takes the keyboard to add a robot, another person sits
    down and chats, the seats are filled and an option changed: the seat at the top of the felt stays in sight
    all along (the page scrolls by itself at none of these)."""
    host = Person(browser, shared_site.url, "Phonehost", viewport=PHONE).arrive()
    table = host.create(4, deals=3)
    page = host.page

    def top_in_sight(after: str) -> None:
        box = page.evaluate(TOP_SEAT)
        assert box["top"] >= 0 and box["bottom"] <= box["height"], f"the top seat is out of sight after {after}: {box}"

    top_in_sight("creating the table")
    page.locator(".felt .seat.pos-top button").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.atout.view.state.seats.filter((s) => s.kind === 'robot').length === 1")
    top_in_sight("a robot added from the keyboard")
    guest = Person(browser, shared_site.url, "Phoneguest", viewport=DESKTOP).arrive()
    guest.sit_at(table)
    page.wait_for_function("() => window.atout.view.state.seats.filter((s) => s.kind === 'person').length === 2")
    top_in_sight("a person sat down")
    guest.page.fill(".chat-form input", "hello")
    guest.page.press(".chat-form input", "Enter")
    page.wait_for_function("() => document.querySelectorAll('.chat-list li').length === 1")
    top_in_sight("a chat line")
    page.fill("#opt-deals", "5")
    page.press("#opt-deals", "Tab")
    page.wait_for_function("() => window.atout.view.state.options.deals === 5")
    page.evaluate("() => window.scrollTo(0, 0)")  # the person scrolled back up to the felt
    page.click("text=Fill empty seats with robots")
    page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind !== 'empty')")
    top_in_sight("the seats filled")
    page.screenshot(path="/tmp/layout-waiting-phone.png")
    guest.close()
    host.close()


TRICK_INDICES = """() => {
  const covered = [];
  const cards = [...document.querySelectorAll('.trick .played')];
  if (cards.length) cards[0].closest('.trick').scrollIntoView({ block: 'nearest' });
  for (const card of cards) {
    const index = card.querySelector('svg text.index, svg text.tindex');
    const name = card.querySelector('[data-card]') ? card.querySelector('[data-card]').dataset.card : card.className;
    if (!index) { covered.push(name + ' has no index'); continue; }
    const r = index.getBoundingClientRect();
    const points = [[r.left + 1, r.top + 1], [r.right - 1, r.top + 1], [r.left + 1, r.bottom - 1], [r.right - 1,
      r.bottom - 1],
                    [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
    for (const [x, y] of points) {
      const at = document.elementFromPoint(x, y);
      if (!at || at.closest('.played') !== card) {
        const under = at && at.closest('.played') ? at.closest('.played').className : at && at.className;
        covered.push(`${name} (${card.className}) at ${Math.round(x)},${Math.round(y)} under ${under}`);
        break;
      }
    }
  }
  return { n: cards.length, covered };
}"""


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_card_on_the_felt_shows_its_index(browser, shared_site, players):
    """At each of the person's turns, on a desktop and then a phone, until a whole trick and six turns were
    looked at (deals follow until the person has won a trick and leads after it): every card on the felt (the trick
    being played, or the last one whole
    while the person leads) shows its corner index under no other card (the top seat's card covered the
    right seat's index at four players)."""
    person = Person(browser, shared_site.url, f"Felt{players}", viewport=DESKTOP).arrive()
    person.create(players, deals=5)  # a whole trick is on the felt at the person's turn only once they won one
    person.fill_and_start()
    page = person.page
    seen = {"desktop": 0, "phone": 0}
    full = 0
    deadline = time.monotonic() + 240  # bounds a hang only
    looks = 0
    while not person.game_over() and not (full and looks >= 6):
        assert time.monotonic() < deadline, "no whole trick at the person's turn in time"
        if page.evaluate(
            "() => { const v = window.atout.view; const d = v && v.state && v.state.deal;"
            " return Boolean(d && d.phase === 'play' && v.isMyTurn()); }"
        ):
            for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                page.set_viewport_size(viewport)
                page.wait_for_function("(w) => innerWidth === w", arg=viewport["width"])
                page.evaluate(FRAMES)
                got = page.evaluate(TRICK_INDICES)
                seen[size] += got["n"]
                full += got["n"] == players
                assert not got["covered"], f"{players} players, {size}: indices covered: {got['covered']}"
            page.set_viewport_size(DESKTOP)
            looks += 1
        close_result(person)
        if person.step() is None:
            person.idle()
    assert seen["desktop"] > 0 and full > 0, (seen, full)  # cards were looked at, whole tricks among them
    person.close()


HAND_TOPS = """() => { window.__tops = []; const box = document.querySelector('.actions');
  const look = () => { const v = window.atout.view; const d = v.state.deal;
    const hand = document.querySelector('.hand');
    if (!d || !['bidding', 'play'].includes(d.phase) || !hand) return;
    window.__tops.push({ phase: d.phase, mine: v.isMyTurn(),
      top: Math.round(hand.getBoundingClientRect().top + window.scrollY),
      boxh: Math.round(box.getBoundingClientRect().height), poignee: Boolean(box.querySelector('[data-poignee]')),
      said: box.innerText.replace(/\\s+/g, ' ').slice(0, 50) }); };
  new MutationObserver(look).observe(box, { childList: true, subtree: true, characterData: true }); }"""
"""Where the hand's top is (in the page), and the actions' box's height, each time the box changed during the bidding
and the play: the person's turns, the others', and the moment their bid or card is on its way."""


def test_the_hand_stays_put_through_the_bidding_and_the_play_on_a_phone(browser, shared_site):
    """390×844, a whole four-player deal: the actions' box keeps its height whether it is the person's turn, another's,
    or their bid or card is on its way, in the bidding (where the bids' two rows came and went at each turn: 55 px) and
    in the play (38 px twice a trick), and the bar keeps its rows, so the hand below them never moves under a finger
    within the bidding nor within the play. The bar moved it too: in the play by 31 px when the first trick's end added
    "Last trick" to it, in the bidding by 24 px when its facts took a second line for the first bid's contract (the
    seats' bubbles say the bids; the bar says the contract once the bidding is over). A poignée offered on the first
    trick adds its row: those moments aside."""
    person = Person(browser, shared_site.url, "Steady", viewport=PHONE).arrive()
    person.create(4, deals=1)
    person.page.evaluate(HAND_TOPS)  # from before the deal: the bidding's first turns too
    person.fill_and_start()
    play_until_over([person])
    tops = person.page.evaluate("() => window.__tops")
    for phase in ("bidding", "play"):
        seen = [t for t in tops if t["phase"] == phase and not t["poignee"]]
        assert {t["mine"] for t in seen} == {True, False}, (phase, tops[:6])
        places = [(t["top"], t["boxh"], t["said"]) for t in seen]
        assert len({place[:2] for place in places}) == 1, (phase, places)
    person.close()

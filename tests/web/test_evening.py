"""An evening at the table (issue 34), lived the way people live it: Anna on a desktop (1280×800) and Bruno
on a phone (390×844) play three games back to back with two robots, Chloé watching. Anna's clock runs out
and she is back; Bruno reloads mid-trick and registers while seated; both read a deal's result while the
next deal's bidding begins; Bruno proposes to cancel, Anna refuses, and in the next game accepts; at the end
the score sheets and Bruno's profile. The test waits on what the pages show, clicks what a person would,
and fails on any error toast, console error or page error of anyone's."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .evening import Guest, calm, hidden_cards_seen, play_until, turn_of
from .pages import WAIT_MS

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
TURN = 90  # seconds a turn, the longest offered: the test clock runs it out, a slow page never does

COVERED = """(els) => els.map((el) => { el.scrollIntoView({ block: 'nearest' }); const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!top || el.contains(top)) return null;
  const what = `${el.dataset.bid || el.className} under ${top.className || top.tagName}`
    + ` "${top.textContent.slice(0, 60)}"`;
  return top.closest('.result-panel') ? `${what} of the result panel` : what; }).filter(Boolean)"""
"""Which of the controls are covered at their centre (each scrolled into view first): a click would not reach
them."""


def numbers(texts: list[str]) -> list[int]:
    return [int(x.replace("\u2212", "-").replace("+", "")) for x in texts]


def test_an_evening_at_the_table(browser, clocked_site):
    site = clocked_site
    anna = Guest(browser, site.url, "Anna", viewport=DESKTOP)  # registered: Bruno will share her address
    anna.page.goto(site.url)
    anna.page.get_by_role("button", name="Log in or register", exact=True).click()
    anna.page.fill("#account-name", "Anna")
    anna.page.fill("#account-password", "a long secret for tonight")
    anna.page.get_by_role("dialog").get_by_role("button", name="Register", exact=True).click()
    anna.page.wait_for_selector("#create-form")
    bruno = Guest(browser, site.url, "Bruno", viewport=PHONE).arrive()
    chloe = Guest(browser, site.url, "Chloé", viewport=PHONE).arrive()
    people = [anna, bruno]
    everyone = [anna, bruno, chloe]

    table = anna.create(4, deals=2, turn_seconds=TURN)
    bruno.sit_at(table)
    anna.wait("() => window.atout.view.state.seats.filter((s) => s.kind === 'person').length === 2", "Bruno seated")
    anna.fill_and_start()
    chloe.page.goto(f"{site.url}/#/t/{table}")
    chloe.wait(
        "() => window.atout.view && window.atout.view.state && window.atout.view.state.status === 'playing'",
        "the game, watched",
    )
    expect(chloe.page.locator(".table-bar .tag", has_text="watching")).to_be_visible(timeout=WAIT_MS)
    calm(everyone, "the table set")
    games = [anna.state()["game"]["id"]]

    # ---- game 1, deal 1: Anna's clock runs out, and she is back
    play_until(people, lambda: turn_of(anna, "play"), "Anna's turn to play", [chloe])
    seq = anna.seq()
    site.advance_clock(TURN + 1)
    anna.wait(
        "(seq) => window.atout.view.seq > seq && window.atout.view.automatic()",
        "automatic mode after the clock ran out",
        arg=seq,
    )
    back = anna.page.get_by_role("button", name="I'm back", exact=True)
    expect(back).to_be_visible(timeout=WAIT_MS)
    back.click()
    anna.wait(
        "() => !window.atout.view.automatic() || document.querySelector('.toast.error')",
        "the end of automatic mode (or a refusal)",
    )
    calm(everyone, "I'm back clicked")
    assert not anna.state()["seats"][anna.state()["you"]]["automatic"], "I'm back did not end automatic mode"
    expect(back).to_be_hidden(timeout=WAIT_MS)

    # ---- a reload mid-trick: the same seat, the same hand, the trick as it was
    play_until(people, lambda: turn_of(bruno, "play", trick=1), "Bruno's turn with cards on the felt", [chloe])
    before = bruno.seat_view()
    bruno.page.reload()
    bruno.wait(
        "() => window.atout.view && window.atout.view.state && window.atout.view.isMyTurn()",
        "Bruno's turn again after the reload",
    )
    after = bruno.seat_view()
    assert after == before, f"the reload did not bring the table back as it was: {before} -> {after}"
    calm(everyone, "Bruno's reload")

    # ---- Bruno registers while seated: he keeps his seat
    page = bruno.page
    page.get_by_role("button", name="Log in", exact=True).click()
    page.fill("#account-name", "Bruno")
    page.fill("#account-password", "an evening's secret")
    page.get_by_role("dialog").get_by_role("button", name="Register", exact=True).click()
    bruno.wait(
        "() => window.atout.registered && window.atout.view && window.atout.view.state",
        "the table again, as a registered person",
    )
    expect(page.locator(".top .who")).to_have_text("Bruno", timeout=WAIT_MS)  # no "guest" tag
    seat = before["you"]
    mine = bruno.seat_view()
    assert mine["you"] == seat and mine["name"] == "Bruno", (
        f"registering while seated gave up the seat: seat {seat} before, {mine['you']} after ({bruno.where()})"
    )
    assert mine["hand"] == before["hand"], (before, mine)
    bruno.wait(
        f"() => {{ const s = window.atout.view.state.seats[{seat}]; return s.connected !== false && s.present; }}",
        "Bruno present at his seat",
    )
    anna.wait(
        f"() => {{ const s = window.atout.view.state.seats[{seat}]; return s.name === 'Bruno' && s.connected !== false"
        f" && s.present && !document.querySelector('.seat[data-seat=\"{seat}\"].absent'); }}",
        "Bruno's seat shown present on Anna's page",
    )
    # Anna and Bruno, both registered now, share this machine's address: game 1 counts for nobody, said
    for person in everyone:
        expect(person.page.locator(".table-bar .unranked[data-unranked=same_address]")).to_be_visible(timeout=WAIT_MS)
        expect(person.page.locator(".log")).to_contain_text(
            "This game counts for nobody now: Anna, Bruno share an address."
        )
    calm(everyone, "Bruno registered while seated")

    # ---- the deal's result read slowly while the next deal begins: the bidding stays usable
    second = "window.atout.view.state.game.deal_number === 2"
    play_until(
        people,
        lambda: any(p.page.evaluate(f"() => {second}") for p in people),
        "the second deal",
        [chloe],
        unless=second,
    )  # nobody bids in it by the way: each person's bid is looked at below
    for person in people:
        panel = person.page.locator(".result-panel.deal-end")
        expect(panel).to_be_visible(timeout=WAIT_MS)
        panel.locator("details.review summary").click()  # reading the whole deal, trick by trick
        expect(panel.locator(".review-list")).to_be_visible(timeout=WAIT_MS)
    bid = {}
    for _ in range(8):  # each person's one bid of the deal, whoever speaks first
        play_until(
            [],
            lambda: (
                any(turn_of(p, "bidding") for p in people)
                or anna.page.evaluate("() => window.atout.view.state.deal.phase !== 'bidding'")
            ),
            "a person's bid",
            [chloe],
        )
        speaker = next((p for p in people if turn_of(p, "bidding")), None)
        if speaker is None:
            break
        panel = speaker.page.locator(".result-panel.deal-end")
        assert panel.is_visible(), f"{speaker.name}: the result panel closed by itself at the next deal's bidding"
        covered = speaker.page.locator(".actions [data-bid], .actions .clock").evaluate_all(COVERED)
        assert not covered, f"{speaker.name}: the next deal's bidding is covered: {covered}"
        offered = speaker.page.locator(".actions [data-bid]:not([disabled])")
        word = (
            offered.filter(has_text="Prise") if offered.filter(has_text="Prise").count() else offered.first
        ).inner_text()
        seq = speaker.seq()
        speaker.page.get_by_role("button", name=word, exact=True).click()
        bid[speaker.name] = word
        speaker.wait("(seq) => window.atout.view.seq > seq", f"{speaker.name}'s bid answered", arg=seq)
        assert panel.is_visible(), f"{speaker.name}: the result panel closed at a bid"
        calm(everyone, f"{speaker.name} bid with the result open")
    assert set(bid) == {"Anna", "Bruno"}, f"both bid with the result open: {bid}"
    for person in people:
        person.page.locator(".result-panel.deal-end").get_by_role("button", name="Continue").click()
        expect(person.page.locator(".result-panel")).to_be_hidden(timeout=WAIT_MS)

    # ---- the end of game 1: the score sheet
    play_until(people, lambda: all(p.game_over() for p in people), "the end of game 1", [chloe])
    check_sheet(anna, 2)
    check_sheet(bruno, 2)

    # ---- game 2, one deal: Bruno proposes to cancel, Anna plays on
    expect(anna.page.locator("[data-notice=same-address]")).to_contain_text(
        "Anna, Bruno share an address"
    )  # before game 2
    anna.page.fill("#opt-deals", "1")
    anna.page.press("#opt-deals", "Tab")
    anna.wait("() => window.atout.view.state.options.deals === 1", "the table's option: one deal")
    anna.page.locator(".actions").get_by_role("button", name="Another game").click()
    anna.wait(
        f"() => window.atout.view.state.game && window.atout.view.state.game.id !== {games[0]!r}"
        " && !window.atout.view.state.game.over",
        "game 2",
    )
    games.append(anna.state()["game"]["id"])
    for person in people:  # the last game's result, read: closed
        # at game 2 in this person's page too: till then its panel is game 1's, which game 2's state takes away
        # (a click on its × while that state came found the button gone: seen in CI)
        person.wait(
            f"() => window.atout.view.state.game && window.atout.view.state.game.id === {games[1]!r}",
            f"game 2 in {person.name}'s page",
        )
        if person.page.locator(".result-panel").is_visible():
            person.page.locator(".result-panel .close").click()
    play_until(
        people,
        lambda: (
            turn_of(bruno, "play")
            and anna.page.evaluate("() => window.atout.view.state.deal.tricks_won.some((n) => n > 0)")
        ),
        "a trick of game 2",
        [chloe],
    )
    vote(bruno, anna, chloe, accept=False)
    expect(anna.page.locator(".log-list li", has_text="The game goes on.")).to_be_visible(timeout=WAIT_MS)
    play_until(people, lambda: all(p.game_over() for p in people), "the end of game 2", [chloe])
    assert anna.state()["game"]["outcome"] == "finished"
    check_sheet(anna, 1)

    # ---- game 3: Bruno proposes again, Anna accepts
    anna.page.locator(".actions").get_by_role("button", name="Another game").click()
    anna.wait(
        f"() => window.atout.view.state.game && !{games!r}.includes(window.atout.view.state.game.id)"
        " && !window.atout.view.state.game.over",
        "game 3",
    )
    games.append(anna.state()["game"]["id"])
    play_until(  # either person's turn in a trick begun (a taker who wins every trick is never second in one)
        people,
        lambda: turn_of(anna, "play", trick=1) or turn_of(bruno, "play", trick=1),
        "a trick begun in game 3",
        [chloe],
    )
    vote(bruno, anna, chloe, accept=True)
    for person in everyone:
        person.wait("() => window.atout.view.state.game.outcome === 'cancelled'", "the game cancelled")
        expect(person.page.locator(".result-panel .game-over h2")).to_have_text(
            "The game was cancelled", timeout=WAIT_MS
        )
    calm(everyone, "game 3 cancelled")

    # ---- the spectator never held a hidden card
    assert chloe.state()["you"] is None
    assert hidden_cards_seen(anna.frames), "the search for hidden cards finds none even in a player's own frames"
    watched = [f for f in chloe.frames if f.get("type") == "event" and "play" in f.get("event", {}).get("action", {})]
    assert len(watched) > 40, f"the spectator saw {len(watched)} cards played"
    leaks = hidden_cards_seen(chloe.frames)
    assert not leaks, f"the spectator's frames held hidden cards: {leaks[:5]}"

    # ---- a seat taken after the game (issue 47, item 3): Anna removes a robot and Chloé sits there; the
    # game just played keeps its players' names on its sheet, on the felt's last trick and in its result
    robot = next(x for x in anna.state()["seats"] if x["kind"] == "robot")["seat"]
    played = """() => ({ sheet: [...document.querySelectorAll('.sheet thead th.num')].map((th) => th.title),
      trick: [...document.querySelectorAll('.felt .trick .played .sr-only')].map((x) => x.textContent) })"""
    before = anna.page.evaluate(played)
    for person in (anna, chloe):
        if person.page.locator(".result-panel").is_visible():
            person.page.locator(".result-panel .close").click()
    anna.page.get_by_role("button", name=f"Remove the robot {before['sheet'][robot]}", exact=True).click()
    chloe.wait(f"() => window.atout.view.state.seats[{robot}].kind === 'empty'", "the robot's seat emptied")
    chloe.page.get_by_role("button", name=f"Sit at seat {robot + 1}", exact=True).click()
    for person in everyone:
        person.wait(
            f"() => document.querySelector('.felt .seat[data-seat=\"{robot}\"] .seat-name')"
            ".textContent.startsWith('Chloé')",
            "Chloé seated, on the felt",
        )  # drawn: the sheet with it
        after = person.page.evaluate(played)
        assert after == before, f"{person.name}: the finished game was relabelled: {before} -> {after}"
    calm(everyone, "a seat taken after the game")

    # ---- Bruno's profile lists the evening's finished games; each game's sheet sums to zero each deal
    page = bruno.page
    page.locator(".top .who a").click()
    bruno.wait("() => document.querySelector('.profile .recent, .profile .hint')", "Bruno's profile")
    listed = page.locator(".recent li a").evaluate_all(
        "(links) => links.map((a) => decodeURIComponent(a.hash.slice(4)))"
    )
    assert set(games[:2]) <= set(listed), f"Bruno's profile lists {listed}, not the games he played: {games[:2]}"
    for game, deals in zip(games[:2], (2, 1), strict=True):
        page.locator(f".recent li a[href='#/g/{game}']").click()
        bruno.wait(
            "(id) => document.querySelector('.game-page') && document.querySelector('.game-page').dataset.game === id",
            f"game {game}'s page",
            arg=game,
        )
        rows = page.locator(".game-page tbody tr:not(.void)")
        assert rows.count() == deals, page.inner_text(".game-page")
        for i in range(deals):
            scores = numbers(rows.nth(i).locator("td.num").all_inner_texts())
            assert len(scores) == 4 and sum(scores) == 0, f"game {game}, deal {i + 1}: {scores}"
        page.go_back()
        bruno.wait("() => document.querySelector('.profile .recent')", "Bruno's profile again")
    calm(everyone, "the evening's end")
    for person in everyone:
        person.close()


def check_sheet(person: Guest, deals: int) -> None:
    """The table's score sheet at a game's end: each deal's line sums to zero, the totals are the lines'."""
    sheet = person.page.locator(".sheet-panel .sheet")
    expect(sheet).to_be_visible(timeout=WAIT_MS)
    lines = [
        numbers(row.locator("td.num").all_inner_texts())
        for row in sheet.locator("tbody tr:not(.void):not(.total)").all()
    ]
    assert len(lines) == deals, f"{person.name}'s sheet: {lines}"
    assert all(len(line) == 4 and sum(line) == 0 for line in lines), f"{person.name}'s sheet: {lines}"
    totals = numbers(sheet.locator("tr.total td.num").all_inner_texts())
    assert totals == [sum(column) for column in zip(*lines, strict=True)] == person.state()["game"]["totals"], totals


def vote(proposer: Guest, other: Guest, spectator: Guest, accept: bool) -> None:
    """``proposer`` proposes to cancel the game from the table's bar; ``other`` answers; the spectator
    sees the vote and has no say."""
    proposer.page.get_by_role("button", name="Propose to cancel").click()
    proposer.wait(
        "() => window.atout.view.state.vote || document.querySelector('.toast.error')",
        "the proposal taken by the table, or refused",
    )
    refused = proposer.page.locator(".toast.error")
    assert not refused.count(), f"{proposer.name}'s proposal refused: {refused.all_inner_texts()}"
    box = other.page.locator(".actions .vote")
    expect(box).to_contain_text(f"{proposer.name} proposes to cancel", timeout=WAIT_MS)
    expect(spectator.page.locator(".actions .vote")).to_contain_text(
        f"{proposer.name} proposes to cancel", timeout=WAIT_MS
    )
    assert spectator.page.locator(".actions [data-vote]").count() == 0
    box.get_by_role("button", name="Cancel the game" if accept else "Play on").click()
    for person in (proposer, other, spectator):
        person.wait("() => !window.atout.view.state.vote", "the vote's end")
    calm([proposer, other, spectator], f"the vote to cancel ({'accepted' if accept else 'refused'})")

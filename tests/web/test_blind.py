"""A whole deal played blind (issue 36): a person who hears the page through its live regions and moves
through it with the keyboard only. Every control is found by its role and accessible name (never a CSS
selector, never coordinates), every move is decided from what the live regions said ("Your turn to bid",
"Your turn to play") and the accessibility tree (the hand's cards named "..., playable"); at the end,
what the live regions said is checked against what the server sent: every card the other seats played,
named, and every trick's winner. The single-key commands are tried on the way: H reads the hand, T the
trick, ? lists the keys, and none fires while the chat's field is typed in."""

from __future__ import annotations

import re
import time
from collections import Counter

import pytest
from playwright.sync_api import Page, expect

from .pages import Person

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1280, "height": 800}
WITHIN = 240.0  # bounds a hang only

HEAR = """() => {
  window.__heard = [];
  const spoken = (node) => { const el = node.nodeType === 1 ? node : node.parentElement;
    const region = el && el.closest('[aria-live]');
    if (region && node.textContent.trim()) window.__heard.push([region.getAttribute('aria-live'),
      node.textContent.trim()]); };
  new MutationObserver((changes) => { for (const c of changes) c.addedNodes.forEach(spoken); })
    .observe(document, { childList: true, subtree: true });
}"""
"""What a screen reader is told: each thing added to a live region, with its politeness, as it is added."""

RANKS = {1: "Ace", 11: "Jack", 12: "Knight", 13: "Queen", 14: "King"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
LETTER = {"J": 11, "N": 12, "Q": 13, "K": 14}


def card_name(code: str) -> str:
    """A card's name as an English page says it (the protocol's codes: KS, 10H, T21, EX)."""
    if code == "EX":
        return "Excuse"
    if code.startswith("T"):
        return f"trump {code[1:]}"
    rank = LETTER.get(code[:-1]) or int(code[:-1])
    return f"{RANKS.get(rank, str(rank))} of {SUITS[code[-1]]}"


def heard(page: Page) -> list[tuple[str, str]]:
    return [tuple(x) for x in page.evaluate("() => window.__heard")]


def focused(locator) -> bool:
    return locator.evaluate_all("els => els.includes(document.activeElement)")


def tab_to(page: Page, locator, limit: int = 200) -> None:
    """Tab, as a person does, until ``locator`` (found by role and name) has the focus."""
    for _ in range(limit):
        if locator.count() and focused(locator):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{locator} never reached with Tab")


def hear_next(page: Page, since: int, test, what: str) -> tuple[int, str]:
    """Wait until something said after the first ``since`` announcements passes ``test``: its index and words."""
    deadline = time.monotonic() + WITHIN
    while True:
        said = heard(page)
        for i in range(since, len(said)):
            if test(said[i]):
                return i, said[i][1]
        assert time.monotonic() < deadline, f"never heard {what}; last: {said[-8:]}"
        page.wait_for_timeout(20)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_whole_deal_played_blind_from_the_live_regions(browser, shared_site, players):
    name = f"Blind{players}"
    person = Person(browser, shared_site.url, name, viewport=DESKTOP)
    page = person.page
    page.add_init_script(f"({HEAR})();")  # from the page's first moment
    page.goto(shared_site.url)
    page.get_by_role("textbox", name="Your name at the table").wait_for()
    page.keyboard.type(name)  # the welcome's field has the focus
    page.keyboard.press("Enter")
    radio = page.get_by_role("radio", name=str(players))
    tab_to(page, page.get_by_role("radio", name="4"))
    for _ in range(3):
        if radio.is_checked():
            break
        page.keyboard.press("ArrowUp" if players < 4 else "ArrowDown")
    assert radio.is_checked()
    tab_to(page, page.get_by_role("spinbutton", name="Deals per game"))
    page.keyboard.press("Control+a")
    page.keyboard.type("1")
    tab_to(page, page.get_by_role("button", name="Create the table"))
    page.keyboard.press("Enter")
    tab_to(page, page.get_by_role("button", name="Fill empty seats with robots"))
    page.keyboard.press("Enter")
    start = page.get_by_role("button", name="Start the game")
    expect(start).to_be_enabled()
    tab_to(page, start)
    page.keyboard.press("Enter")

    hand = page.get_by_role("group", name=re.compile(r"^Your hand, \d+ cards?$"))
    playable = hand.get_by_role("button", name=re.compile(r", playable$"))
    tried = False
    at = 0
    deadline = time.monotonic() + WITHIN
    while True:
        assert time.monotonic() < deadline, f"the deal did not end; last heard: {heard(page)[-10:]}"
        at, words = hear_next(
            page,
            at,
            lambda x: (x[0] == "assertive" and x[1].startswith("Your turn")) or x[1].startswith("The game is over"),
            "a turn or the game's end",
        )
        at += 1
        if words.startswith("The game is over"):
            break
        if words == "Your turn to bid":
            tab_to(page, page.get_by_role("group", name="Your bid").get_by_role("button", name="Pass"))
            page.keyboard.press("Enter")
        elif words == "Your turn to play":
            if not tried:
                tried = True
                try_the_commands(page, person)
                at = len(heard(page))
            for _ in range(40):  # the arrows walk the hand to a card it names playable
                if focused(playable):
                    break
                page.keyboard.press("ArrowRight")
            assert focused(playable), "no playable card reached with the arrows"
            page.keyboard.press("Enter")
        else:  # a question with buttons (the petit sec): the first answer offered
            assert words == "Your turn", (words, heard(page)[-12:])
            tab_to(page, page.get_by_role("region", name="What you can do").get_by_role("button").first)
            page.keyboard.press("Enter")

    said = heard(page)
    polite = [text for kind, text in said if kind == "polite"]
    me = person.state()["you"]
    names = page.evaluate("(n) => Array.from({ length: n }, (_, i) => window.atout.view.nameOf(i))", players)
    events = [f["event"] for f in person.frames if f.get("type") == "event" and f.get("event")]
    last_deal = max(
        i for i, e in enumerate(events) if e["type"] == "deal_start"
    )  # a void deal before it was dealt again
    plays = [e for e in events[last_deal:] if e["type"] == "action" and "play" in e["action"]]
    others = [e for e in plays if e["seat"] != me]
    assert len(plays) == 78 - {3: 6, 4: 6, 5: 3}[players], len(plays)  # every card of the deal but the dog
    for e in others:
        line = f"{names[e['seat']]}: {card_name(e['action']['play'])}"
        assert line in polite, f"never said: {line}"
    won = [e["won"] for e in plays if e.get("won") is not None]
    assert len(won) == len(plays) // players
    for seat in won:
        said_won = "You win the trick" if seat == me else f"{names[seat]} wins the trick"
        assert any(x.startswith(said_won) for x in polite), f"never said: {said_won}"
    assert sum(1 for x in polite if " wins the trick, " in x or x.startswith("You win the trick, ")) == len(won)
    assert any("is made by" in x or "fails by" in x or x.startswith("Void deal") for x in polite)
    assert "You pass" in polite and f"{name} passes" not in polite  # one's own bid as one's cards: "You …"
    kinds = Counter(kind_of(text) for _, text in said)
    kinds["card played by another seat"] = sum(
        1
        for x in polite
        if re.match(r"^[^:]+: (Ace|King|Queen|Knight|Jack|\d+|trump|Excuse)", x) and not x.startswith("The dog")
    )
    print(f"{players} players, the live regions said {len(said)} things: {dict(kinds)}")
    person.close()


def kind_of(text: str) -> str:
    """What one announcement was about, for the figures the test prints."""
    for kind, pattern in (
        ("command answer", r"^(Spades|Hearts|Clubs|Diamonds|Trumps|The trick|No card)"),
        ("dog", r"^The dog"),
        ("turn", r"^Your turn"),
        ("card played", r"^(You play |[^:]+: (Ace|King|Queen|Knight|Jack|\d+|trump|Excuse))"),
        ("trick won", r"wins? the trick"),
        ("bid", r"( passes$|^You pass$|^You bid |: (Prise|Garde))"),
        ("dog", r"^The dog"),
        ("deal start", r"^Deal \d"),
        ("écart, call, chelem", r"(écart|discards$|calls the|chelem$)"),
        ("result", r"(made by|fails by|^Void deal)"),
        ("game over", r"^The game is over"),
        ("clock", r"seconds? left"),
    ):
        if re.search(pattern, text):
            return kind
    return "other"


def try_the_commands(page: Page, person: Person) -> None:
    """At the person's first turn to play: H reads the hand suit by suit (every card of it), T the trick, and
    ? lists the keys in a dialog Escape closes (the focus back where it was); typed in the chat's field, the
    same letters are only letters."""
    hand = person.state()["deal"]["hand"]
    before = len(heard(page))
    page.keyboard.press("h")
    _, words = hear_next(
        page, before, lambda x: x[0] == "assertive" and not x[1].endswith("seconds left"), "the hand read"
    )
    for code in hand:
        short = card_name(code) if code == "EX" or code.startswith("T") else card_name(code).split(" of ")[0]
        assert short in words, f"{code} missing from {words}"
    suits = [
        s
        for s in ("spades", "hearts", "clubs", "diamonds")
        if any(c[-1] == s[0].upper() and not c.startswith("T") and c != "EX" for c in hand)
    ]
    said = re.findall(r"(spades|hearts|clubs|diamonds|trumps):", words, re.IGNORECASE)  # "Spades: …": each a sentence
    assert [m.lower() for m in said if m.lower() != "trumps"] == suits, words
    before = len(heard(page))
    page.keyboard.press("t")
    _, words = hear_next(
        page, before, lambda x: x[0] == "assertive" and not x[1].endswith("seconds left"), "the trick read"
    )
    assert words.startswith(("The trick: ", "No card on the table")), words
    where = page.evaluate("() => document.activeElement.textContent")
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog", name="Keyboard commands")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("term")).to_have_count(16)
    expect(dialog.get_by_role("term").filter(has_text="G")).to_have_count(
        1
    )  # the quick guide over the table (issue 46)
    expect(dialog.get_by_role("term").filter(has_text="I")).to_have_count(1)  # a hint, at a practice table (issue 46)
    expect(dialog.get_by_role("combobox", name="Announcements")).to_have_value("all")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    assert page.evaluate("() => document.activeElement.textContent") == where
    chat = page.get_by_role("textbox", name="Say something at the table")
    chat.focus()
    before = len(heard(page))
    page.keyboard.type("th")
    assert chat.input_value() == "th", (
        page.evaluate("() => [document.activeElement.outerHTML.slice(0, 200), document.hasFocus()]"),
        heard(page)[before - 3 :],
    )
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.press("Shift+Tab")  # out of the field: the next key is a command again
    page.keyboard.press("w")  # keys are taken in order: had H or T fired in the field, their answers came first
    _, words = hear_next(
        page, before, lambda x: x[0] == "assertive" and not x[1].endswith("seconds left"), "whose turn"
    )
    assert words.startswith("Your turn to play, ") and words.endswith(" seconds"), words


def test_the_verbosity_says_less_when_asked_and_is_kept(browser, shared_site):
    """V steps the verbosity (everything, my turns and tricks, only what asks me to act), said at once and
    kept over a reload; at "only what asks me to act" the polite region says nothing of the other seats'
    cards while the urgent one still says the person's turns; back at "everything", the cards are said again."""
    person = Person(browser, shared_site.url, "Verbose", viewport=DESKTOP).arrive()
    page = person.page
    page.add_init_script(f"({HEAR})();")
    table = person.create(4, deals=3)
    page.goto(f"{shared_site.url}/#/t/{table}")
    page.reload()  # the recorder in place from the page's first moment
    page.get_by_role("button", name="Fill empty seats with robots").wait_for()
    for level in ("My turns and tricks", "Only what asks me to act"):
        before = len(heard(page))
        page.keyboard.press("v")
        hear_next(page, before, lambda x, level=level: x == ("assertive", f"Announcements: {level}"), level)
    page.reload()
    page.get_by_text("Screen reader: announcements and keys").click()  # the side's panel, folded
    expect(page.get_by_role("combobox", name="Announcements")).to_have_value("act")
    person.fill_and_start()
    deadline = time.monotonic() + WITHIN
    while sum(1 for x in heard(page) if x[0] == "assertive" and x[1].startswith("Your turn to play")) < 3:
        assert time.monotonic() < deadline and not person.game_over(), heard(page)  # others play cards meanwhile
        if person.step() is None:
            person.idle()
    assert not [x for x in heard(page) if x[0] == "polite"], heard(page)
    before = len(heard(page))
    page.keyboard.press("Escape")  # the focus off any field, then back to everything
    page.keyboard.press("v")
    hear_next(page, before, lambda x: x == ("assertive", "Announcements: Everything"), "everything")
    while not [x for x in heard(page)[before:] if x[0] == "polite"]:
        assert not person.game_over()
        if person.step() is None:
            person.idle()
    person.close()


def test_the_last_seconds_of_ones_own_turn_are_said_and_a_chat_line(browser, shared_site):
    """A 15 s clock left to run on the person's turn: "10 seconds left" then "5 seconds left" are said
    urgently, once each, before the person acts; another person's chat line is said politely, one's own not."""
    person = Person(browser, shared_site.url, "Clocked", viewport=DESKTOP).arrive()
    page = person.page
    page.add_init_script(f"({HEAR})();")
    table = person.create(4, deals=1, turn_seconds=15)
    page.reload()
    page.get_by_role("button", name="Fill empty seats with robots").wait_for()
    other = Person(browser, shared_site.url, "Chatty", viewport=DESKTOP).arrive()
    other.sit_at(table)
    other.page.get_by_role("textbox", name="Say something at the table").fill("good luck")
    other.page.keyboard.press("Enter")
    hear_next(page, 0, lambda x: x == ("polite", "Chatty says: good luck"), "the chat line")
    page.get_by_role("textbox", name="Say something at the table").fill("thanks")
    page.keyboard.press("Enter")
    expect(page.get_by_role("list", name="Chat")).to_contain_text("thanks")
    other.page.get_by_role("button", name="Leave the seat").click()
    # the seat free on the person's page first: robots filled around it, its leaving came after and emptied it
    page.wait_for_function("() => window.atout.view.state.seats.filter((s) => s.kind === 'person').length === 1")
    person.fill_and_start()
    turn, _ = hear_next(page, 0, lambda x: x[0] == "assertive" and x[1].startswith("Your turn"), "a turn")
    ten, _ = hear_next(page, turn, lambda x: x == ("assertive", "10 seconds left"), "10 seconds left")
    hear_next(page, ten, lambda x: x == ("assertive", "5 seconds left"), "5 seconds left")
    person.step()
    said = heard(page)
    assert [x for x in said if x[1].endswith("seconds left")] == [
        ("assertive", "10 seconds left"),
        ("assertive", "5 seconds left"),
    ]
    assert not [x for x in said if "thanks" in x[1]]  # one's own line is not read back
    other.close()
    person.close()

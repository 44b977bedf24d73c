"""The account page (#/account) in Chromium, as its owner uses it: where they are logged in, ending another
browser's session (that browser's open page hears it at once and becomes a guest's, no reload), a new
password, logging out everywhere, and deleting the account — in English and in French, at a desktop's
width and a phone's (390x844)."""

from __future__ import annotations

import pytest

from .pages import Person
from .test_security import log_in

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}


def open_account(person: Person, sessions: int) -> None:
    """The account page afresh (a page already there is reloaded: the same address is no navigation)."""
    if person.page.url.endswith("#/account"):
        person.page.reload()
    else:
        person.page.goto(f"{person.site}/#/account")
    person.page.wait_for_function(f"() => document.querySelectorAll('.sessions li').length === {sessions}")


def told(person: Person, why: str) -> None:
    """The page heard from the server that its session ended, and is a guest's welcome now (by itself)."""
    person.page.wait_for_selector("form.welcome")
    assert {"type": "session_ended", "why": why} in person.frames, [
        f for f in person.frames if f.get("type") != "event"
    ]


def test_the_sessions_listed_and_another_browsers_ended_from_the_page(browser, site):
    home = Person(browser, site.url, "Hugo")
    log_in(home, "first long secret", register=True)
    phone = Person(browser, site.url, "Hugo", viewport=PHONE)
    log_in(phone, "first long secret")
    open_account(home, 2)
    current = home.page.locator(".sessions li.current")
    assert current.count() == 1 and "this browser" in current.inner_text()
    other = home.page.locator(".sessions li:not(.current)")
    text = other.inner_text()
    assert "Chrome on Linux" in text and "from 127.0.0.1" in text and "Last used within the hour" in text, text
    other.get_by_role("button", name="End this session").click()
    told(phone, "ended")  # the other browser's open page: at once, without a reload of ours
    phone.page.wait_for_selector('.toast:has-text("This browser\'s session was ended")')
    home.page.wait_for_function("() => document.querySelectorAll('.sessions li').length === 1")
    assert home.page.evaluate("async () => (await fetch('/api/me')).status") == 200
    assert phone.page.evaluate("async () => (await fetch('/api/me')).status") == 401
    assert home.policy_violations() == [] and phone.policy_violations() == []
    assert not [f for f in home.frames + phone.frames if f.get("type") == "pageerror"]
    home.close()
    phone.close()


def test_a_new_password_then_log_out_everywhere_from_the_page(browser, site):
    home = Person(browser, site.url, "Inès")
    log_in(home, "first long secret", register=True)
    phone = Person(browser, site.url, "Inès", viewport=PHONE)
    log_in(phone, "first long secret")
    open_account(home, 2)
    page = home.page
    page.fill("#password-old", "first long secret")
    page.fill("#password-new", "second long secret")
    page.fill("#password-repeat", "second long secreT")
    page.click("#password-form button[type=submit]")
    assert page.locator("#password-form .refusal").inner_text() == "The two new passwords differ."
    page.fill("#password-old", "not the password")
    page.fill("#password-repeat", "second long secret")
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#password-form .refusal:has-text('Wrong password.')")
    page.fill("#password-old", "first long secret")
    page.click("#password-form button[type=submit]")
    page.wait_for_selector(".toast:has-text('Password changed: 1 other session ended.')")
    told(phone, "password_changed")
    page.wait_for_function("() => document.querySelectorAll('.sessions li').length === 1")
    log_in(phone, "second long secret")
    open_account(home, 2)
    page.once("dialog", lambda dialog: dialog.accept())  # "Log out of every browser, this one too?"
    page.click("#logout-everywhere")
    page.wait_for_selector("form.welcome")
    page.wait_for_selector(".toast:has-text('You are logged out everywhere.')")
    told(phone, "logout_everywhere")
    assert home.policy_violations() == [] and phone.policy_violations() == []
    home.close()
    phone.close()


def test_deleting_the_account_on_a_phone_in_french(browser, site):
    zoe = Person(browser, site.url, "Zoé", lang="fr-FR", viewport=PHONE)
    _register_in_french(zoe, "un long secret")
    open_account(zoe, 1)
    page = zoe.page
    assert page.locator("h2#sessions-title").inner_text() == "Où vous êtes connecté"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]  # nothing runs off the side
    page.click("#delete-open")
    dialog = page.locator("dialog.delete-dialog")
    submit = dialog.get_by_role("button", name="Supprimer définitivement")
    page.fill("#delete-password", "pas le bon")
    page.fill("#delete-name", "Zo")
    assert submit.is_disabled()  # the name typed out first
    page.fill("#delete-name", "Zoé")
    submit.click()
    page.wait_for_selector("dialog.delete-dialog .refusal:has-text('Mot de passe erroné.')")
    assert page.evaluate("async () => (await fetch('/api/me')).status") == 200
    page.fill("#delete-password", "un long secret")
    submit.click()
    page.wait_for_selector("form.welcome")
    page.wait_for_selector(".toast:has-text('Votre compte est supprimé.')")
    assert page.evaluate("async () => (await fetch('/api/players/Zo%C3%A9')).status") == 404
    _register_in_french(zoe, "a new person's secret")  # the name is free again
    assert zoe.policy_violations() == []
    zoe.close()


def _register_in_french(person: Person, password: str) -> None:
    page = person.page
    page.goto(person.site)
    page.click("text=Se connecter ou s'inscrire")
    page.fill("#account-name", person.name)
    page.fill("#account-password", password)
    page.click('dialog button:text-is("S\'inscrire")')
    page.wait_for_selector("#create-form")
    assert page.inner_text(".top .who") == person.name


def test_the_register_dialog_says_the_passwords_rules_first_and_keeps_a_short_one_from_the_server(browser, site):
    """The label says both rules a new password keeps before anything is typed (12 characters, not the name);
    a short one, or one holding the name, is refused on the page with the server's own words, and the server
    is not asked; logging in asks nothing of the password's length (an account's password is what it is)."""
    ivo = Person(browser, site.url, "Ivo")
    page = ivo.page
    page.goto(ivo.site)
    page.click("text=Log in or register")
    label = page.inner_text("label[for=account-password]")
    assert "12 characters" in label and "without your name" in label, label
    assert page.get_attribute("#account-password", "minlength") is None
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/register" in r.url else None)
    page.fill("#account-name", "Ivo")
    for password, why in (
        ("too short", "at least 12 characters"),
        ("ivo's long secret words", "may not contain your name"),
    ):
        page.fill("#account-password", password)
        page.click("dialog button:text-is('Register')")
        page.wait_for_selector(f"dialog .refusal:has-text('{why}')")
    assert asked == []
    page.fill("#account-password", "a long enough secret")
    page.click("dialog button:text-is('Register')")
    page.wait_for_selector("#create-form")
    assert asked and page.inner_text(".top .who") == "Ivo"
    ivo.close()

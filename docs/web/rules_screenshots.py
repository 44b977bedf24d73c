"""The rules page, its calculator and the quick guide in docs/web.md (issue 46): against a running ``atout serve``
(its URL the first argument), at 1280×800 in English and at 390×844 in French and Spanish, the guide over a
table too; writes rules-*.png and guide-*.png in the folder given second (default docs/web beside this file):
``python docs/web/rules_screenshots.py http://127.0.0.1:8000``."""

import json
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

URL = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
OUT = sys.argv[2] if len(sys.argv) > 2 else str(Path(__file__).resolve().parent)
CHROMIUM = "/usr/bin/chromium-headless-shell"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def shoot(browser, tag, locale, name, scheme="light"):
    phone = tag == "phone"
    context = browser.new_context(
        viewport=SIZES[tag], locale=locale, color_scheme=scheme, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    suffix = "" if tag == "desktop" else "-phone"

    page.goto(f"{URL}/#/rules")
    page.wait_for_selector(".rules-page .calculator")
    page.screenshot(path=f"{OUT}/rules{suffix}.png")
    page.locator("#rules-play h2").scroll_into_view_if_needed()
    page.evaluate(
        "() => document.querySelector('#rules-play .rule-example:nth-of-type(3)').scrollIntoView({ block: 'start' })"
    )
    page.screenshot(path=f"{OUT}/rules-play{suffix}.png")
    page.locator(".worked li").nth(0).locator("button").click()
    page.wait_for_selector(".calc-result table")
    page.evaluate("() => document.querySelector('.calculator .calc-said').scrollIntoView({ block: 'center' })")
    page.screenshot(path=f"{OUT}/rules-calculator{suffix}.png")
    page.goto(f"{URL}/#/guide")
    page.wait_for_selector(".guide-grid")
    page.screenshot(path=f"{OUT}/guide{suffix}.png")

    page.goto(URL)  # the guide over a table
    page.wait_for_selector("form.welcome")
    page.fill("#guest-name", name)
    page.click("form.welcome button[type=submit]")
    page.wait_for_selector("#create-form")
    page.check("#create-form input[name=players][value='4']")
    page.select_option("#opt-turn_seconds", json.dumps(0))
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".table-page .seat")
    page.locator(".actions button").first.click()  # fill the seats with robots
    page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind !== 'empty')")
    page.locator(".actions button.primary").last.click()  # start
    page.wait_for_selector(".hand-cards .card")
    page.click(".table-bar button.guide")
    page.wait_for_selector("dialog.guide-dialog[open] .guide-grid")
    page.screenshot(path=f"{OUT}/guide-table{suffix}.png")
    context.close()
    assert not errors, errors


with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    shoot(browser, "desktop", "en-GB", "Rulesdesk")
    shoot(browser, "phone", "fr-FR", "Reglesphone")
    browser.close()

"""The Spanish site's screenshots in docs/web.md: against a running ``atout serve --robot-pace 0.2`` (its URL
the first argument), a guest whose browser speaks Spanish plays a deal with robots at 1280×800 and at 390×844
(``python docs/web/spanish_screenshots.py http://127.0.0.1:8000``); writes es-*.png in the folder given second
(default /tmp): table-es.png, table-es-phone.png and lobby-es-phone.png are copies of three of them."""

import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

URL = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8814"
OUT = sys.argv[2] if len(sys.argv) > 2 else "/tmp"


def shoot(browser, size, tag):
    ctx = browser.new_context(
        viewport=size, locale="es-ES", is_mobile=size["width"] < 500, has_touch=size["width"] < 500
    )
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(URL)
    page.wait_for_selector("form.welcome")
    page.screenshot(path=f"{OUT}/es-{tag}-welcome.png")
    page.fill("#guest-name", f"Lucia{tag}")
    page.click("form.welcome button[type=submit]")
    page.wait_for_selector("#create-form")
    page.screenshot(path=f"{OUT}/es-{tag}-lobby.png", full_page=True)
    page.check("#create-form input[name=players][value='4']")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".table-page .seat")
    page.click("text=Completar los asientos vacíos con robots")
    page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind !== 'empty')")
    page.click("text=Empezar la partida")
    autoplay = (Path(__file__).resolve().parents[2] / "tests" / "web" / "autoplay.js").read_text()
    # play until some tricks are on the table
    deadline = time.time() + 120
    while time.time() < deadline:
        st = page.evaluate(
            "() => { const d = window.atout.view.state.deal; return d ? {phase: d.phase, tricks: "
            "(d.tricks_won||[]).length, trick: d.trick.length} : null; }"
        )
        if (
            st
            and st["phase"] == "play"
            and page.evaluate("() => window.atout.view.isMyTurn()")
            and page.evaluate("() => window.atout.view.state.deal.trick.length") >= 2
        ):
            n = page.evaluate("() => window.atout.view.state.deal.hand.length")
            if n <= 15:
                break
        page.evaluate(autoplay)
        page.wait_for_timeout(150)
    page.screenshot(path=f"{OUT}/es-{tag}-table.png")
    print(tag, "errors:", errors)
    ctx.close()


with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium-headless-shell")  # Debian's Chromium
    shoot(browser, {"width": 1280, "height": 800}, "desktop")
    shoot(browser, {"width": 390, "height": 844}, "phone")
    browser.close()

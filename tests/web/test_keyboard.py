"""A keyboard player at the table (issue 34): the skip link keeps the page, and focus never drops to the
page's body after an action, so the next key press goes on from where the person was."""

from __future__ import annotations

import pytest

from .pages import Person

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1280, "height": 800}


def test_the_skip_link_focuses_the_content_and_keeps_the_page(browser, shared_site):
    """Tab then Enter on "Skip to the content" at a table and on the daily page: the same page, focus in
    its main part (the link's `#main` was read as a route: the lobby)."""
    ada = Person(browser, shared_site.url, "SkipAda", viewport=DESKTOP).arrive()
    table = ada.create(4, deals=1)
    page = ada.page
    for route, ready in ((f"#/t/{table}", ".table-page .seat"), ("#/daily", "main h1")):
        page.goto(f"{shared_site.url}/{route}")
        page.reload()  # a fresh page: its first Tab stop is the skip link
        page.wait_for_selector(ready)
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.className") == "skip"
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement && document.activeElement.id === 'main'")
        assert page.evaluate("() => location.hash") == route
        page.wait_for_selector(ready)
        assert page.locator(".lobby").count() == 0
    ada.close()

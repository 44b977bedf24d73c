"""Screenshots of the analysis of one's play in the browser (docs/analysis.md): analysis.png at 1280×800 and
analysis-phone.png at 390×844.

Run from the repository: ``python docs/web/analysis_screenshots.py`` (needs Debian's chromium). It starts its
own ``atout serve``, plays a one-deal game as "Alice" with robots, then shows the analysis panel
(``static/analysis.js``) where the deal review will hold it, asks for the analysis and waits for it.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[1]))

from tests.web.conftest import CHROMIUM, Site  # noqa: E402
from tests.web.pages import Person  # noqa: E402
from tests.web.test_play import play_until_over  # noqa: E402

PANEL = """async (game) => {
  const m = await import('/static/analysis.js');
  const panel = m.analysisPanel({ game, deal: 0, onDone: () => { window.__done = true; } });
  document.querySelector('.felt-panel').append(panel);
  panel.scrollIntoView();
}"""


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        site = Site(Path(tmp))
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            for name, viewport in (
                ("analysis", {"width": 1280, "height": 800}),
                ("analysis-phone", {"width": 390, "height": 844}),
            ):
                alice = Person(browser, site.url, "Alice", viewport=viewport).arrive()
                alice.create(4, deals=1)
                alice.fill_and_start()
                play_until_over([alice])
                page = alice.page
                page.evaluate(PANEL, alice.state()["game"]["id"])
                page.click(".analysis-ask")
                page.wait_for_function("() => window.__done === true")
                page.evaluate("() => document.querySelector('.analysis').scrollIntoView()")
                page.wait_for_timeout(200)
                page.screenshot(path=str(HERE / f"{name}.png"))
                print("wrote", name)
                alice.close()
        finally:
            browser.close()
            site.stop()


if __name__ == "__main__":
    main()

"""How long a played card takes to show on the other people's pages: four Chromium pages at one table on
loopback play whole deals by clicking, and each page notes when each card appears in its trick.

    python benchmarks/card_latency.py --deals 3 --out benchmarks/results/card_latency.json

A timing, so a benchmark and not a test: the test of the same game (tests/web/test_play.py) checks that
every card shows on every other page, and after its click; this prints how fast, median / p95 / max over
every (card, other page) sighting. Needs Debian's chromium-headless-shell or chromium (or ATOUT_CHROMIUM).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the tests' own modules (served), as pytest finds them

from tests.web.conftest import CHROMIUM, Site  # noqa: E402
from tests.web.pages import Person, play_until_over  # noqa: E402
from tests.web.test_play import WATCH_TRICK  # noqa: E402


def one_deal(browser, site: Site, round_: int) -> list[float]:
    """Milliseconds from a card's click to its sighting on each other page, for one whole deal."""
    names = [f"{name}{round_}" for name in ("Anna", "Bruno", "Chloe", "David")]
    people = [Person(browser, site.url, name).arrive() for name in names]
    table = people[0].create(4, deals=1)
    for person in people[1:]:
        person.sit_at(table)
    people[0].page.wait_for_function("() => window.atout.view.state.seats.every((s) => s.kind === 'person')")
    for person in people:
        person.page.evaluate(WATCH_TRICK)
    people[0].page.click("text=Start the game")
    play_until_over(people)
    clicked = [p.page.evaluate("() => window.__clicked || {}") for p in people]
    seen = [p.page.evaluate("() => window.__seen") for p in people]
    delays = [
        seen[j][card] - at
        for i, mine in enumerate(clicked)
        for card, at in mine.items()
        for j in range(len(people))
        if j != i and card in seen[j]
    ]
    for person in people:
        person.close()
    return delays


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3, help="whole deals, each with four new people")
    parser.add_argument("--out", type=Path, help="write the figures as JSON")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    delays: list[float] = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        site = Site(Path(folder))
        try:
            for round_ in range(args.deals):
                started = time.monotonic()
                found = one_deal(browser, site, round_)
                delays += found
                print(
                    f"deal {round_ + 1}: {len(found)} sightings, median {statistics.median(found):.1f} ms "
                    f"({time.monotonic() - started:.0f} s)",
                    flush=True,
                )
        finally:
            site.stop()
            browser.close()
    delays.sort()
    figures = {
        "sightings": len(delays),
        "median_ms": round(statistics.median(delays), 1),
        "p95_ms": round(delays[int(len(delays) * 0.95)], 1),
        "max_ms": round(delays[-1], 1),
        "command": "python " + " ".join(["benchmarks/card_latency.py", *sys.argv[1:]]),
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    print(
        f"a card shown on the other pages: median {figures['median_ms']} ms, p95 {figures['p95_ms']} ms, "
        f"max {figures['max_ms']} ms over {figures['sightings']} sightings"
    )
    if args.out:
        args.out.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The rules' routes (issue 46): ``GET /api/rules`` gives the engine's facts, and ``POST /api/rules/score``, the
rules page's calculator, scores a deal's facts with the engine's own scorer: over 1,000 random complete deals
played by the engine (and sweeps rigged for each chelem), the route gives every seat the score the table gave.
A wrong fact is refused naming its field; sizes and rates are limited as on every route."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from typing import Any

import httpx

from atout.engine import (
    GARDE,
    GARDE_CONTRE,
    PASS,
    Bid,
    Chelem,
    Deal,
    Play,
    PoigneeFrom,
    RuleSet,
    new_deal,
)
from atout.engine.cards import EXCUSE, TRUMPS, mask_of, parse_card
from atout.engine.choices import concrete, random_action, random_discard
from atout.engine.rulebook import facts
from atout.server.http.rules import facts_body

from .helpers import SQLITE_ONLY, running_server, site_page

DEALS = 1000
OPTIONS = {
    "excuse_last_trick": ("other_side", "trick_winner"),
    "chelem_announce": ("before_first_lead", "with_bid"),
    "first_lead": ("dealer_right", "taker"),
    "petit_sec": ("redeal", "holder_may_play"),
}
_addresses = itertools.count(1)


def address() -> dict[str, str]:
    """A client of its own (the calculator's budget is an address's): 10.200.x.y."""
    n = next(_addresses)
    return {"X-Forwarded-For": f"10.200.{n >> 8 & 255}.{n & 255}"}


def random_deal(rng: random.Random, k: int) -> Deal:
    """A complete deal of random legal moves at a random table and options; a poignée shown when offered
    one time in two, so that they are many (redealt until no deal is void)."""
    players = rng.choice([3, 4, 5])
    options = {name: rng.choice(values) for name, values in OPTIONS.items()}
    if players == 5:
        options["five_players"] = rng.choice(["call_king", "dealer_sits_out"])
    rules = RuleSet.make(players, **options)
    for attempt in itertools.count():
        deal = new_deal(rules, rng.randrange(players), f"calc-{k}-{attempt}")
        while not deal.is_over:
            legal = deal.legal_actions()
            offer = next((c for c in legal if isinstance(c, PoigneeFrom)), None)
            action = concrete(offer, rng) if offer is not None and rng.random() < 0.5 else random_action(legal, rng)
            deal.apply(action, deal.to_act)
        if deal.void is None:
            return deal
    raise AssertionError("unreachable")


def rigged(sweep: str, rng: random.Random, announce: bool) -> Deal:
    """A deal rigged for a chelem: at three the taker holds every trump, the Excuse and two kings and plays
    its Excuse last (``taker``); at four the taker holds low cards only in a Garde contre and the defence
    always plays its best (``defence``)."""
    if sweep == "taker":
        players, taker, contract = 3, 0, GARDE
        taker_hand = TRUMPS | 1 << EXCUSE | mask_of(parse_card(c) for c in ("KS", "KH"))
    else:
        players, taker, contract = 4, 0, GARDE_CONTRE
        taker_hand = mask_of(parse_card(f"{r}{s}") for s in "SH" for r in range(1, 8)) | mask_of(
            parse_card(f"{r}D") for r in range(1, 5)
        )
    rules = RuleSet(players)
    size, dog_size = rules.settings.hand_size, rules.settings.dog_size
    free = [c for c in range(78) if not taker_hand >> c & 1]
    rng.shuffle(free)
    dog = mask_of([c for c in free if c < 56 and c % 14 < 10][:dog_size])  # low suit cards: no king, no bout
    rest = [c for c in free if not dog >> c & 1]
    hands = [taker_hand] + [mask_of(rest[i * size : (i + 1) * size]) for i in range(players - 1)]
    deal = Deal(rules, players - 1, hands, dog)
    while deal.phase == "bidding":
        deal.apply(Bid(contract if deal.to_act == taker else PASS), deal.to_act)
    if deal.phase == "discard":
        deal.apply(random_discard(deal.legal_actions()[0], rng), taker)
    if deal.phase == "chelem":
        deal.apply(Chelem(announce), taker)
    while not deal.is_over:
        seat = deal.to_act
        cards = [a.card for a in deal.legal_actions() if isinstance(a, Play)]
        ours = deal.side[seat] == (0 if sweep == "taker" else 1)
        plain = [c for c in cards if c != EXCUSE] or cards
        deal.apply(Play(max(plain) if ours else rng.choice(cards) if sweep == "taker" else min(plain)), seat)
    return deal


def told(deal: Deal) -> dict[str, Any]:
    """What a person reads of a finished deal and types into the calculator."""
    r = deal.result
    assert r is not None

    def side(seat: int) -> str:
        return "taker" if deal.side[seat] == 0 else "defence"

    winners = {side(t.winner) for t in deal.tricks}
    out: dict[str, Any] = {
        "players": deal.players,
        "contract": r.contract,
        "bouts": r.bouts,
        "points": r.points,
        "petit_au_bout": r.petit_au_bout,
        "poignees": [{"size": p["size"], "side": side(p["seat"])} for p in r.poignees],
        "chelem": {
            "announced": bool(deal.chelem_announced),
            "all_tricks": winners.pop() if len(winners) == 1 else None,
        },
        "taker": r.taker,
        "partner": r.partner,
    }
    if deal.players == 5:
        out.update(five_players=deal.rules.option("five_players"), dealer=deal.dealer)
    return out


def in_process(server: Any) -> httpx.AsyncClient:
    """The site's own page calling its app in this process (ASGI, no socket): every middleware and the route
    itself, at a thousand requests in a few seconds."""
    base = "http://127.0.0.1"
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=server.app), base_url=base, headers={"Origin": base})


@SQLITE_ONLY
async def test_the_calculator_gives_every_seat_the_tables_score_over_a_thousand_deals(db_url: str) -> None:
    rng = random.Random(46)
    started = time.perf_counter()
    deals = [random_deal(rng, k) for k in range(DEALS)]
    deals += [
        rigged(sweep, rng, announce) for sweep in ("taker", "defence") for announce in (True, False) for _ in range(3)
    ]
    played = time.perf_counter() - started
    seen = {"chelem": set(), "petit_au_bout": set(), "poignees": 0, "players": set(), "partner": 0, "made": set()}
    async with running_server(db_url) as server, in_process(server) as http:
        asked = time.perf_counter()

        async def check(deal: Deal) -> None:
            answer = await http.post("/api/rules/score", json=told(deal), headers=address())
            assert answer.status_code == 200, (told(deal), answer.text)
            got = answer.json()
            r = deal.result
            assert got["scores"] == r.scores, (told(deal), got, r)
            assert (got["unit"], got["made"], got["margin"], got["target"], got["chelem"], got["petit_au_bout"]) == (
                r.unit,
                r.made,
                r.margin,
                r.target,
                r.chelem,
                r.petit_au_bout,
            )
            seen["chelem"].add(r.chelem)
            seen["petit_au_bout"].add(r.petit_au_bout)
            seen["poignees"] += len(r.poignees)
            seen["players"].add((deal.players, deal.rules.option("five_players") if deal.players == 5 else ""))
            seen["partner"] += r.partner is not None
            seen["made"].add(r.made)

        for start in range(0, len(deals), 25):
            await asyncio.gather(*(check(deal) for deal in deals[start : start + 25]))
        print(
            f"{len(deals)} deals played in {played:.1f} s, scored by the route in {time.perf_counter() - asked:.1f} s"
        )
    assert seen["chelem"] == {None, "announced_failed", "announced_made", "made", "defence"}, seen
    assert seen["petit_au_bout"] == {None, "taker", "defence"} and seen["made"] == {True, False}, seen
    assert seen["poignees"] >= 10 and seen["partner"] > 50, seen  # a poignée is dealt to one hand in a hundred or so
    assert seen["players"] == {(3, ""), (4, ""), (5, "call_king"), (5, "dealer_sits_out")}, seen


@SQLITE_ONLY
async def test_the_facts_route_and_the_calculators_refusals_and_limits(db_url: str) -> None:
    async with running_server(db_url) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        answer = await http.get("/api/rules")
        assert answer.status_code == 200 and answer.json() == httpx.Response(200, content=facts_body()).json()
        assert answer.json()["deck"]["points"] == facts()["deck"]["points"] == 91
        assert "max-age" in answer.headers["cache-control"]

        for body, field in (
            ({"players": 4, "contract": "garde", "bouts": 2, "points": 95}, "points"),
            ({"players": 4, "contract": "gard", "bouts": 2, "points": 45}, "contract"),
            ({"players": 4, "contract": "garde", "bouts": 2}, "points"),
        ):
            refused = await http.post("/api/rules/score", json=body, headers=address())
            assert refused.status_code == 400, refused.text
            error = refused.json()["error"]
            assert (
                error["code"] == "bad_facts" and error["field"] == field and error["message"].startswith(f"{field}: ")
            )
        wrong = await http.post("/api/rules/score", content=b"[1, 2]", headers=address())
        assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "malformed"
        big = await http.post("/api/rules/score", content=b"{" + b" " * 5000 + b"}", headers=address())
        assert big.status_code == 400 and big.json()["error"]["code"] == "too_large"
        assert (await http.get("/api/rules/score")).status_code == 405
        foreign = await httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.port}").post(
            "/api/rules/score", json={}, headers={"Origin": "http://elsewhere.example", **address()}
        )
        assert foreign.status_code == 403

        one = address()
        deal = {"players": 4, "contract": "garde", "bouts": 2, "points": 45}
        codes = [(await http.post("/api/rules/score", json=deal, headers=one)).status_code for _ in range(60)]
        assert codes == [200] * 60
        limited = await http.post("/api/rules/score", json=deal, headers=one)
        assert limited.status_code == 429 and limited.json()["error"]["budget"] == "score", limited.text
        assert int(limited.headers["retry-after"]) >= 1
        assert (await http.post("/api/rules/score", json=deal, headers=address())).status_code == 200  # another address

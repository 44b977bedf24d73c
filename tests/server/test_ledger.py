"""Chips, XP, levels and badges: the rules of PLATFORM.md §5/§6 as numbers, the ledger on SQLite and
PostgreSQL (a game settled once, with its game row or not at all), and over real servers."""

from __future__ import annotations

import asyncio
import itertools
import random

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from atout.engine.actions import Bid, Play, PoigneeFrom
from atout.engine.choices import concrete, random_poignee
from atout.engine.record import FORMAT, VERSION, action_to_json, replay, to_record
from atout.server.features import ledger
from atout.server.features.accounts import Accounts
from atout.server.features.ledger import BANK, GameEnd, LedgerError, SeatResult, plan
from atout.server.store import Append, GameRow, Store, StoredEvent, StoreError
from atout.server.store.db import badges, ratings, settlements, standings
from atout.server.store.db import ledger as ledger_table

from .helpers import LIGHT_ARGON2, Client, running_server, site_page
from .test_tables import game_over, play_until, table_with_robots

P = ["p_ann", "p_bob", "p_cat", "p_dan", "p_eve"]


def end(
    stakes: list[int],
    totals: list[int],
    *,
    players: list[str | None] | None = None,
    outcome: str = "finished",
    ranked: bool = True,
    deals: int = 5,
    abandoned: tuple[int, ...] = (),
    single: dict | None = None,
    game: str = "g1",
    records: tuple = (),
) -> GameEnd:
    players = players or P[: len(stakes)]
    seats = tuple(SeatResult(i, players[i], totals[i], i in abandoned, stakes[i]) for i in range(len(stakes)))
    return GameEnd(game, len(stakes), outcome, ranked, deals, seats, 1_700_000_000.0, single, records)


def chips(p) -> dict[str, int]:
    out: dict[str, int] = {}
    for (holder, _), amount in p.chips.items():
        out[holder] = out.get(holder, 0) + amount
    return out


# ---------------------------------------------------------------- the rules as numbers
def test_a_game_of_several_deals_pays_its_winners_the_pot_less_a_quarter_in_whole_chips() -> None:
    assert chips(plan(end([100] * 4, [90, -30, -30, -30]))) == {"p_ann": 300, BANK: 100}
    assert chips(plan(end([100] * 4, [50, 50, -50, -50]))) == {"p_ann": 150, "p_bob": 150, BANK: 100}
    # 21 chips: 15 to share, 7 each, the odd chip and the quarter to the bank
    assert chips(plan(end([7, 7, 7], [10, 10, -20]))) == {"p_ann": 7, "p_bob": 7, BANK: 7}
    # a robot that wins takes nothing: its share goes to the bank
    robots = plan(end([100, 100, 0, 0], [-10, -10, 30, -10], players=["p_ann", "p_bob", None, None]))
    assert chips(robots) == {BANK: 200} and robots.winners == [2]


def test_an_abandoner_forfeits_the_bet_gets_no_xp_and_the_best_of_the_others_wins() -> None:
    p = plan(end([100] * 4, [200, 50, -100, -150], abandoned=(0,)))
    assert p.winners == [1]
    assert chips(p) == {BANK: 100 + 75, "p_bob": 225}  # the forfeit, then the quarter of the other 300
    assert not any(player == "p_ann" for player, _ in p.xp)
    assert p.xp[("p_bob", "win")] == 40 and p.xp[("p_cat", "played")] == 5
    assert all(p.xp[(who, "deals")] == 40 for who in ("p_bob", "p_cat", "p_dan"))


def test_xp_after_a_game_played_to_its_end() -> None:
    five = plan(end([0] * 5, [40, 40, -20, -30, -30], deals=5))
    assert five.xp[("p_ann", "win")] == five.xp[("p_bob", "win")] == 50  # 10 × 5 players, shared wins too
    assert five.xp[("p_cat", "played")] == 5 and five.xp[("p_cat", "deals")] == 40
    one = plan(end([0] * 3, [20, -10, -10], deals=1, single={"taker": 0, "partner": None, "made": True}))
    assert one.xp == {("p_ann", "win"): 30, ("p_bob", "played"): 5, ("p_cat", "played"): 5}
    guests = plan(end([0] * 3, [20, -10, -10], players=["g1", "p_bob", None]))
    assert {who for who, _ in guests.xp} == {"p_bob"}  # guests and robots have no XP
    for unranked in (
        plan(end([0] * 3, [20, -10, -10], ranked=False)),
        plan(end([0] * 3, [20, -10, -10], outcome="cancelled")),
    ):
        assert unranked.xp == {} and unranked.chips == {}


def test_a_one_deal_game_is_settled_on_the_deal() -> None:
    made = end([100] * 4, [-60, 180, -60, -60], deals=1, single={"taker": 1, "partner": None, "made": True})
    assert chips(plan(made)) == {"p_bob": 400}  # the whole pot, no quarter for the bank
    at_five = end([100] * 5, [-40, 80, 40, -40, -40], deals=1, single={"taker": 1, "partner": 2, "made": True})
    assert chips(plan(at_five)) == {"p_bob": 333, "p_cat": 166, BANK: 1}  # two to one, whole chips
    failed = end([100] * 5, [40, -80, -40, 40, 40], deals=1, single={"taker": 1, "partner": 2, "made": False})
    assert chips(plan(failed)) == {"p_ann": 100, "p_dan": 100, "p_eve": 100, BANK: 200}
    # a taker that left: its winnings, like its bet, go to the bank
    gone = end([100] * 4, [-60, 180, -60, -60], deals=1, abandoned=(1,), single={"taker": 1, "made": True})
    assert chips(plan(gone)) == {BANK: 400}


def test_cancelled_deserted_and_unranked_games_give_the_bets_back_except_abandoners() -> None:
    cancelled = plan(end([100] * 4, [0] * 4, outcome="cancelled", abandoned=(2,)))
    assert chips(cancelled) == {"p_ann": 100, "p_bob": 100, "p_dan": 100, BANK: 100} and cancelled.xp == {}
    deserted = plan(end([100] * 3, [0] * 3, outcome="deserted", abandoned=(0, 1, 2)))
    assert chips(deserted) == {BANK: 300}
    unranked = plan(end([100] * 3, [30, -10, -20], ranked=False))
    assert chips(unranked) == {"p_ann": 100, "p_bob": 100, "p_cat": 100}


def test_levels_are_published_and_each_asks_more_than_the_last() -> None:
    thresholds = [ledger.level_threshold(n) for n in range(1, 30)]
    steps = [b - a for a, b in itertools.pairwise(thresholds)]
    assert thresholds[:6] == [0, 100, 250, 450, 700, 1000]
    assert all(b > a for a, b in itertools.pairwise(steps))
    assert [ledger.level_for(x) for x in (0, 99, 100, 249, 250, 1000)] == [1, 1, 2, 2, 3, 6]
    assert ledger.progress(120) == {"xp": 120, "level": 2, "level_xp": 100, "next_level_xp": 250}


# ---------------------------------------------------------------- the ledger in a real database
def crafted_record() -> dict:
    """A deal where seat 0 holds the Petit and seventeen top trumps: a Garde contre with a triple
    poignée, every trick (a chelem) and the Petit in the last one (petit au bout)."""
    trumps = ["T1"] + [f"T{i}" for i in range(5, 22)]
    suits = [f"{r}{s}" for s in "SHDC" for r in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]]
    others = ["T2", "T3", "T4", "EX", *suits]
    deal = replay(
        {
            "format": FORMAT,
            "version": VERSION,
            "players": 4,
            "options": {},
            "dealer": 3,
            "hands": [trumps, others[0:18], others[18:36], others[36:54]],
            "dog": others[54:60],
            "actions": [],
        }
    ).deal
    rng = random.Random(0)
    while not deal.is_over:
        seat, legal = deal.to_act, deal.legal_actions()
        choice = None
        for a in legal:
            if isinstance(a, PoigneeFrom):
                choice = random_poignee(a, rng, "triple") if seat == 0 else choice
            elif isinstance(a, Bid) and action_to_json(seat, a)["bid"] == ("garde_contre" if seat == 0 else "pass"):
                choice = a
        if choice is None and seat == 0 and any(isinstance(a, Play) for a in legal):
            choice = max((a for a in legal if isinstance(a, Play)), key=lambda a: a.card)
        deal.apply(choice or concrete(next(a for a in legal if not isinstance(a, PoigneeFrom)), rng), seat=seat)
    assert deal.result.chelem == "made" and deal.result.petit_au_bout == "taker"
    return to_record(deal, with_seed=False)


def accounts(store: Store, *names: str) -> list[str]:
    made = Accounts(store, LIGHT_ARGON2)
    return [made.register(name, "a good password").id for name in names]


def held(store: Store, holder: str, kind: str = "chips") -> int:
    with store.engine.connect() as conn:
        return ledger.balance(conn, holder, kind)


def test_a_new_account_gets_its_chips_as_a_ledger_row(store: Store) -> None:
    (ann,) = accounts(store, "Ann")
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(ledger_table).where(ledger_table.c.holder == ann)).all()
        assert [(r.kind, r.amount, r.reason) for r in rows] == [("chips", 1000, "grant")]
        assert ledger.standing(conn, ann) == {
            "chips": 1000,
            "xp": 0,
            "level": 1,
            "level_xp": 0,
            "next_level_xp": 100,
            "badges": [],
        }


def test_the_daily_claim_is_for_accounts_below_200_once_a_day(store: Store) -> None:
    ann, bob = accounts(store, "Ann", "Bob")
    day = 1_700_000_000.0
    with pytest.raises(LedgerError) as refused:
        ledger.claim(store.engine, ann, day)
    assert refused.value.code == "not_below" and "1000" in refused.value.message
    with store.engine.begin() as conn:  # Ann bets 900 at a game and loses it
        ledger.take_bets(conn, ledger.Bets("g1", ((ann, 900), (bob, 900)), day))
        ledger.settle(conn, end([900, 900], [-10, 10], players=[ann, bob], game="g1"))
    assert held(store, ann) == 100
    assert ledger.claim(store.engine, ann, day + 60) == 300
    with pytest.raises(LedgerError) as again:
        ledger.claim(store.engine, ann, day + 120)
    assert again.value.code == "claimed_today" and held(store, ann) == 300


def test_a_game_is_settled_once_and_with_its_game_row_or_not_at_all(store: Store) -> None:
    ann, bob = accounts(store, "Ann", "Bob")
    store.create_table("t1", 1.0, {"seq": 0}, 2)
    store.append(
        [Append("t1", [StoredEvent(1, 1.0, "game_start", {})], bets=ledger.Bets("g1", ((ann, 100), (bob, 100)), 1.0))]
    )
    assert held(store, ann) == held(store, bob) == 900 and held(store, "pot:g1") == 200
    settlement = end([100, 100], [30, -30], players=[ann, bob], game="g1", deals=2)
    row = GameRow("g1", "t1", 2, "finished", 1.0, 2.0, {})
    store.append([Append("t1", [StoredEvent(2, 2.0, "game_end", {})], game=row, settlement=settlement)])
    after = {h: held(store, h) for h in (ann, bob, BANK, "pot:g1")}
    assert after == {ann: 1050, bob: 900, BANK: 50, "pot:g1": 0}
    assert held(store, ann, "xp") == 20 + 10 and held(store, bob, "xp") == 5 + 10
    with pytest.raises(StoreError):  # the same settlement again, under another game row: refused, nothing kept
        store.append(
            [
                Append(
                    "t1",
                    [StoredEvent(3, 3.0, "game_end", {})],
                    game=GameRow("g2", "t1", 2, "finished", 1.0, 3.0, {}),
                    settlement=settlement,
                )
            ]
        )
    with pytest.raises(IntegrityError), store.engine.begin() as conn:  # and directly
        ledger.settle(conn, settlement)
    assert {h: held(store, h) for h in after} == after
    assert store.game("g2") is None and [e.seq for e in store.events_after("t1", 0)] == [1, 2]
    with store.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(settlements)).scalar_one() == 1


def test_bets_need_the_chips_at_the_moment_they_are_written(store: Store) -> None:
    ann, bob = accounts(store, "Ann", "Bob")
    store.create_table("t1", 1.0, {"seq": 0}, 2)
    with pytest.raises(StoreError, match="holds 1000 chips, less than the bet of 1001"):
        store.append(
            [
                Append(
                    "t1", [StoredEvent(1, 1.0, "game_start", {})], bets=ledger.Bets("g1", ((ann, 5), (bob, 1001)), 1.0)
                )
            ]
        )
    assert held(store, ann) == 1000 and store.events_after("t1", 0) == []


def test_badges_are_earned_once_per_player(store: Store) -> None:
    ann, bob = accounts(store, "Ann", "Bob")
    record = crafted_record()
    with store.engine.begin() as conn:
        summary = ledger.settle(
            conn,
            end(
                [0] * 4,
                [2106, -702, -702, -702],
                players=[ann, bob, None, None],
                deals=1,
                single={"taker": 0, "partner": None, "made": True},
                records=(record,),
                game="g1",
            ),
        )
    assert {b["badge"] for b in summary["badges"]} == {
        "first_win",
        "garde_contre",
        "chelem",
        "petit_au_bout",
        "triple_poignee",
    }
    with store.engine.begin() as conn:  # the same moments again: nothing new
        again = ledger.settle(
            conn,
            end(
                [0] * 4,
                [2106, -702, -702, -702],
                players=[ann, bob, None, None],
                deals=1,
                single={"taker": 0, "made": True},
                records=(record,),
                game="g2",
            ),
        )
        unranked = ledger.settle(
            conn,
            end(
                [0] * 4,
                [-702, 2106, -702, -702],
                players=[ann, bob, None, None],
                ranked=False,
                records=(record,),
                game="g3",
            ),
        )
    assert again["badges"] == [] and unranked["badges"] == []
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(badges.c.player_id, badges.c.badge)).all()
        assert len(rows) == 5 and {p for p, _ in rows} == {ann}
        shown = ledger.standing(conn, ann)["badges"]
        assert {b["badge"] for b in shown} == {b for _, b in rows} and all(b["what"] for b in shown)


def test_milestones_count_games_played_to_the_end(store: Store) -> None:
    (ann,) = accounts(store, "Ann")
    for n in range(100):
        with store.engine.begin() as conn:
            won = n < 10
            summary = ledger.settle(
                conn, end([0, 0, 0], [10 if won else -10, 0, 0], players=[ann, None, None], deals=1, game=f"g{n}")
            )
        names = {b["badge"] for b in summary["badges"]}
        assert ("ten_wins" in names) == (n == 9) and ("hundred_games" in names) == (n == 99)


# ---------------------------------------------------------------- over real servers
async def register(http: httpx.AsyncClient, name: str) -> str:
    answer = await http.post("/api/register", json={"name": name, "password": "a good password"})
    assert answer.status_code == 201, answer.text
    return answer.cookies["atout_session"]


def last_event(client: Client, kind: str) -> dict:
    return next(f for f in reversed(client.frames) if f.get("event", {}).get("type") == kind)["event"]


async def test_claims_over_http_and_a_bet_forfeited_by_leaving(db_url: str) -> None:
    async with running_server(db_url) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        cookie = await register(http, "Ann")
        me = (await http.get("/api/me")).json()
        assert (me["chips"], me["xp"], me["level"], me["badges"]) == (1000, 0, 1, [])
        refused = await http.post("/api/claim")
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_below"
        assert "1000" in refused.json()["error"]["message"]
        ann = await Client.connect(server.url, "x", cookie=cookie)
        table = await table_with_robots(ann, 3, level="random", deals=2, bet=1000)
        await ann.request({"type": "start", "table": table})
        assert last_event(ann, "game_start")["stakes"] == [1000, 0, 0] and ann.state["game"]["pot"] == 1000
        assert (await http.get("/api/me")).json()["chips"] == 0
        answer = {"code": "stale"}
        while answer.get("code") == "stale":  # robots may play meanwhile
            await ann.settle()
            answer = await ann.request({"type": "leave", "table": table})  # an abandonment: the table closes
        assert answer["event"]["type"] == "abandon", answer
        store = server.hub.store
        assert (held(store, "bank"), held(store, ann.id)) == (1000, 0)
        with store.engine.connect() as conn:
            (row,) = conn.execute(sa.select(settlements)).all()
            assert (row.outcome, row.pot) == ("deserted", 1000) and ledger.totals(conn)["pots"] == 0
        claimed = await http.post("/api/claim")
        assert claimed.status_code == 200 and claimed.json() == {"claimed": 200, "chips": 200}
        again = await http.post("/api/claim")
        assert again.status_code == 409 and again.json()["error"]["code"] == "claimed_today"
        assert (await http.get("/api/me")).json()["chips"] == 200
        server.clock.advance(86400)  # the next day: 200 is not below 200
        assert (await http.post("/api/claim")).json()["error"]["code"] == "not_below"
        http.cookies.clear()
        assert (await http.post("/api/claim")).status_code == 401


async def test_betting_tables_are_for_registered_players_who_hold_the_bet(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with site_page(base) as http_a, site_page(base) as http_b:
            ann = await Client.connect(server.url, "x", cookie=await register(http_a, "Ann"))
            bob = await Client.connect(server.url, "x", cookie=await register(http_b, "Bob"))
            guest = await Client.connect(server.url, "Guesty")
            await ann.send({"type": "create", "players": 3, "options": {"bet": 1001}})
            error = await ann.expect("error")
            assert (error["code"], error["bet"], error["balance"]) == ("not_enough_chips", 1001, 1000)
            assert "1001" in error["message"] and "1000" in error["message"]
            await guest.send({"type": "create", "players": 3, "options": {"bet": 10}})
            assert (await guest.expect("error"))["code"] == "registered_only"
            first = await table_with_robots(ann, 3, level="random", bet=600)
            await ann.request({"type": "start", "table": first})  # Ann now holds 400
            await bob.send({"type": "create", "players": 3, "options": {}})
            second = (await bob.expect("master"))["table"]
            await bob.settle()
            for client in (ann, guest):
                await client.send({"type": "join", "table": second})
                await client.expect("table")
            assert (await guest.request({"type": "sit", "table": second, "seat": 2}))["event"]["type"] == "sat"
            await bob.settle()
            refused = await bob.request({"type": "options", "table": second, "options": {"bet": 500}})
            assert refused["code"] == "bad_option" and "guest" in refused["message"]
            await guest.request({"type": "leave", "table": second})
            await bob.settle()
            assert (await bob.request({"type": "options", "table": second, "options": {"bet": 500}}))["type"] == "event"
            await guest.settle()
            refused = await guest.request({"type": "sit", "table": second, "seat": 2})
            assert refused["code"] == "registered_only"
            refused = await ann.request({"type": "sit", "table": second, "seat": 1})
            assert (refused["code"], refused["bet"], refused["balance"]) == ("not_enough_chips", 500, 400)
            # seated before the bet rose: the start is refused, naming who is short
            await bob.request({"type": "options", "table": second, "options": {"bet": 0}})
            await ann.settle()
            assert (await ann.request({"type": "sit", "table": second, "seat": 1}))["event"]["type"] == "sat"
            await bob.settle()
            await bob.request({"type": "options", "table": second, "options": {"bet": 500}})
            await bob.request({"type": "robot", "table": second, "seat": 2, "level": "random"})
            refused = await bob.request({"type": "start", "table": second})
            assert refused["code"] == "not_enough_chips" and "Ann holds 400" in refused["message"]
            assert bob.state["status"] == "waiting"
            assert (held(server.hub.store, ann.id), held(server.hub.store, bob.id)) == (400, 1000)


async def test_a_betting_game_pays_its_winner_xp_levels_and_the_leaderboard(db_url: str) -> None:
    async with running_server(db_url) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        ann = await Client.connect(server.url, "x", cookie=await register(http, "Ann"))
        table = await table_with_robots(ann, 3, level="random", deals=2, bet=100)
        await ann.request({"type": "start", "table": table})
        assert ann.state["game"]["ranked"] and ann.state["same_address"] == []
        await play_until(ann, game_over)
        totals = last_event(ann, "game_end")["totals"]
        winners = [s for s in range(3) if totals[s] == max(totals)]
        share = 75 // len(winners) if 0 in winners else 0
        me = (await http.get("/api/me")).json()
        xp = (30 if 0 in winners else 5) + 10
        assert (me["chips"], me["xp"], me["level"]) == (900 + share, xp, 1)
        assert (
            held(server.hub.store, "bank") == 100 - share
            and held(server.hub.store, f"pot:{ann.state['game']['id']}") == 0
        )
        profile = (await http.get("/api/players/Ann")).json()
        assert (profile["chips"], profile["xp"]) == (900 + share, xp)
        assert ("first_win" in {b["badge"] for b in profile["badges"]}) == (0 in winners)
        (row,) = (await http.get("/api/leaderboard", params={"players": 3})).json()["rows"]
        assert (row["name"], row["xp"], row["level"]) == ("Ann", xp, 1)


async def test_a_one_deal_game_is_settled_on_its_deal(db_url: str) -> None:
    async with running_server(db_url) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        ann = await Client.connect(server.url, "x", cookie=await register(http, "Ann"))
        table = await table_with_robots(ann, 4, level="random", deals=1, bet=100)
        await ann.request({"type": "start", "table": table})
        await play_until(ann, game_over)
        (line,) = [line for line in ann.state["game"]["sheet"] if not line["void"]]
        # her contract made: the whole pot; failed: lost to the bank; a robot's made: its pot to the bank;
        # a robot's failed: each defender's own bet back
        expected = 1000 if (line["taker"] == 0) == line["made"] else 900
        assert (await http.get("/api/me")).json()["chips"] == expected
        assert held(server.hub.store, "bank") == 1000 - expected


async def test_two_registered_players_from_one_address_play_unranked_and_are_told_before(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with site_page(base) as http_a, site_page(base) as http_b:
            ann = await Client.connect(server.url, "x", cookie=await register(http_a, "Ann"), address="192.0.2.7")
            bob = await Client.connect(server.url, "x", cookie=await register(http_b, "Bob"), address="192.0.2.7")
            table = await table_with_robots(ann, 3, level="random", deals=2, bet=100)
            await ann.request({"type": "unrobot", "table": table, "seat": 1})
            assert ann.state["same_address"] == []
            await bob.send({"type": "join", "table": table})
            await bob.expect("table")
            await bob.request({"type": "sit", "table": table, "seat": 1})
            await ann.settle()
            assert ann.state["same_address"] == [0, 1] == bob.state["same_address"]  # told before the game
            await ann.request({"type": "start", "table": table})
            start = last_event(ann, "game_start")
            assert (start["ranked"], start["unranked"], start["stakes"]) == (False, "same_address", [0, 0, 0])
            await bob.settle()
            await asyncio.gather(play_until(ann, game_over), play_until(bob, game_over))
            for http in (http_a, http_b):
                me = (await http.get("/api/me")).json()
                assert (me["chips"], me["xp"], me["badges"]) == (1000, 0, [])
            assert (await http_a.get("/api/leaderboard", params={"players": 3, "period": "all"})).json()["rows"] == []
            game = (await http_a.get(f"/api/games/{start['game']}")).json()
            assert (game["ranked"], game["unranked"]) == (False, "same_address")
            with server.hub.store.engine.connect() as conn:
                assert conn.execute(sa.select(settlements.c.ranked, settlements.c.pot)).all() == [(False, 0)]


async def test_a_guest_who_registers_mid_game_at_a_registered_players_address_makes_it_count_for_nobody(
    db_url: str,
) -> None:
    """Issue 47, item 4: Ann (registered) and the guest Gus, from one address, start a competitive game: it
    counts (a guest is never ranked). Gus registers during it ("registering keeps your seat"): from then on
    two registered people at the game share an address, and the game stops counting, said to everyone and
    stored, so the stored game, the profiles (no XP, no rating) and the leaderboard agree with the banner."""
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with site_page(base) as http_a, site_page(base) as http_b:
            ann = await Client.connect(server.url, "x", cookie=await register(http_a, "Ann"), address="192.0.2.9")
            table = await table_with_robots(ann, 3, level="random", deals=2, turn_seconds=0)
            await ann.request({"type": "unrobot", "table": table, "seat": 1})
            guest = await Client.connect(server.url, "Gus", address="192.0.2.9")
            await guest.send({"type": "join", "table": table})
            await guest.expect("table")
            await guest.request({"type": "sit", "table": table, "seat": 1})
            await ann.settle()
            assert ann.state["same_address"] == []  # a guest's address makes nothing unranked by itself
            await ann.request({"type": "start", "table": table})
            start = last_event(ann, "game_start")
            assert (start["ranked"], start["unranked"]) == (True, None)
            await guest.settle()
            made = await http_b.post(
                "/api/register", json={"name": "Gus", "password": "a good password", "guest": guest.token}
            )
            assert made.status_code == 201, made.text
            await guest.expect("handed", seat=1)
            await guest.settle()
            gus = await Client.connect(server.url, "Gus", cookie=made.cookies["atout_session"], address="192.0.2.9")
            await gus.send({"type": "join", "table": table, "last_seq": guest.seq})
            await gus.expect("table")
            unranked = (await ann.expect("unranked"))["event"]
            assert (unranked["why"], unranked["seats"]) == ("same_address", [0, 1])
            await ann.settle()
            assert (ann.state["game"]["ranked"], ann.state["game"]["unranked"]) == (False, "same_address")
            await asyncio.gather(play_until(ann, game_over), play_until(gus, game_over))
            for http in (http_a, http_b):
                me = (await http.get("/api/me")).json()
                assert (me["xp"], me["badges"]) == (0, []), me
            assert (await http_a.get("/api/leaderboard", params={"players": 3, "period": "all"})).json()["rows"] == []
            game = (await http_a.get(f"/api/games/{start['game']}")).json()
            assert (game["ranked"], game["unranked"]) == (False, "same_address")
            with server.hub.store.engine.connect() as conn:
                assert conn.execute(sa.select(settlements.c.ranked)).all() == [(False,)]
                assert conn.execute(sa.select(ratings)).all() == [] == conn.execute(sa.select(standings)).all()


async def test_an_amicable_cancel_gives_every_bet_back(db_url: str) -> None:
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with site_page(base) as http_a, site_page(base) as http_b:
            ann = await Client.connect(server.url, "x", cookie=await register(http_a, "Ann"))
            bob = await Client.connect(server.url, "x", cookie=await register(http_b, "Bob"))
            table = await table_with_robots(ann, 3, level="random", deals=3, bet=250)
            await ann.request({"type": "unrobot", "table": table, "seat": 1})
            await bob.send({"type": "join", "table": table})
            await bob.expect("table")
            await bob.request({"type": "sit", "table": table, "seat": 1})
            await ann.settle()
            await ann.request({"type": "start", "table": table})
            assert ann.state["same_address"] == [] and ann.state["game"]["pot"] == 500
            assert [(await h.get("/api/me")).json()["chips"] for h in (http_a, http_b)] == [750, 750]
            await bob.until_a_person_acts()
            await (
                ann.until_a_person_acts()
            )  # robots may have moved since the start: the proposal answers the latest seq
            proposed = await ann.request({"type": "cancel", "table": table})
            assert proposed["type"] == "event" and proposed["event"]["type"] == "cancel_proposed", proposed
            await bob.expect("cancel_proposed")
            await bob.until_a_person_acts()
            answer = await bob.request({"type": "vote", "table": table, "accept": True})
            assert any(f["event"]["type"] == "cancel_end" and f["event"]["cancelled"] for f in bob.batch), answer
            assert [(await h.get("/api/me")).json()["chips"] for h in (http_a, http_b)] == [1000, 1000]
            assert held(server.hub.store, "bank") == 0


async def test_a_restarted_server_settles_the_pot_of_a_game_it_resumed(db_url: str) -> None:
    async with running_server(db_url) as server:
        async with site_page(f"http://127.0.0.1:{server.port}") as http:
            cookie = await register(http, "Ann")
        ann = await Client.connect(server.url, "x", cookie=cookie)
        table = await table_with_robots(ann, 3, level="random", deals=2, bet=100)
        await ann.request({"type": "start", "table": table})
        await ann.close()
    async with running_server(db_url) as server:
        ann = await Client.connect(server.url, "x", cookie=cookie)
        await ann.send({"type": "join", "table": table})
        await ann.expect("table")
        assert ann.state["game"]["pot"] == 100 and ann.state["game"]["ranked"]
        await play_until(ann, game_over)
        totals = last_event(ann, "game_end")["totals"]
        share = 75 // totals.count(max(totals)) if totals[0] == max(totals) else 0
        store = server.hub.store
        assert (held(store, ann.id), held(store, "bank")) == (900 + share, 100 - share)
        with store.engine.connect() as conn:
            assert ledger.totals(conn) == {"players": 900 + share, "bank": 100 - share, "pots": 0, "granted": 1000}

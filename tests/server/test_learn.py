"""The guided lessons over HTTP (``server/http/learn.py``): a guest learns without a name and keeps nothing on the
server, an account's furthest run is kept (never moved back, a finished lesson finished for good), a guest's
runs count once it registers, each replayed before it counts; bad answers, answers given as right that are
not, and the budget are refused in the site's words; the progress goes with a deleted account."""

from __future__ import annotations

import sqlalchemy as sa

from atout.learn import BY_ID, LESSONS
from atout.learn.texts import version
from atout.learn.wire import answer_to_json
from atout.server.store.db import lesson_progress
from learn.walker import course_answers

from .helpers import SQLITE_ONLY, running_server, site_page


def script(lesson_id: str) -> list[tuple[dict, dict]]:
    """(a wrong answer, the right one) at each step, as the wire carries them."""
    return [(answer_to_json(w), answer_to_json(r)) for w, r in course_answers(BY_ID[lesson_id])]


async def register(http, name: str) -> None:
    made = await http.post("/api/register", json={"name": name, "password": "a good long password"})
    assert made.status_code == 201, made.text


async def test_a_lesson_played_over_http_with_a_wrong_then_a_right_answer_at_each_step(db_url: str) -> None:
    steps = script("follow")
    async with running_server(db_url) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        course = (await http.get("/api/learn")).json()
        assert [x["id"] for x in course["lessons"]] == [x.id for x in LESSONS]
        assert course["progress"] is None and course["words"] == version()  # a guest: its browser keeps it
        first = (await http.post("/api/learn/follow", json={})).json()
        assert (first["step"], first["done"], first["ask"]["kind"]) == (0, False, "play")
        assert {"seat": 1, "play": "4H"} in first["events"] and first["verdict"] is None
        given: list[dict] = []
        for wrong, right in steps:
            refused = (await http.post("/api/learn/follow", json={"answers": given, "attempt": wrong})).json()
            assert refused["verdict"]["right"] is False and refused["verdict"]["key"], refused["verdict"]
            assert refused["step"] == len(given) and refused["events"] == []  # nothing moved
            taken = (await http.post("/api/learn/follow", json={"answers": given, "attempt": right})).json()
            assert taken["verdict"]["right"] is True and taken["verdict"]["key"].startswith("follow.")
            given.append(right)
            assert taken["step"] == len(given) and taken["events"][0]["seat"] == 0  # the learner's move first
        assert taken["done"] is True and taken["ask"] is None
        words = await http.get("/api/learn/words/es", params={"v": version()})
        assert words.status_code == 200 and "immutable" in words.headers["cache-control"]
        assert words.json()["follow.title"] == "Seguir el palo"
        assert "immutable" not in (await http.get("/api/learn/words/fr", params={"v": "old"})).headers["cache-control"]
        # nothing of a guest's is kept on the server
        with server.hub.store.engine.connect() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(lesson_progress)).scalar_one() == 0


async def test_an_account_s_progress_is_kept_never_moved_back_and_goes_with_the_account(db_url: str) -> None:
    steps = [right for _, right in script("excuse")]
    async with running_server(db_url) as server:
        base = f"http://127.0.0.1:{server.port}"
        async with site_page(base) as http:
            await register(http, "Lea")
            for i in range(2):
                answer = await http.post("/api/learn/excuse", json={"answers": steps[:i], "attempt": steps[i]})
                assert answer.json()["verdict"]["right"] is True
            wrong = await http.post("/api/learn/excuse", json={"answers": steps[:2], "attempt": {"choice": "anna"}})
            assert wrong.json()["verdict"]["right"] is False
            assert (await http.get("/api/learn")).json()["progress"] == {
                "excuse": {"answers": steps[:2], "done": False}
            }
        async with site_page(base) as elsewhere:  # another browser: a login brings the progress back
            login = await elsewhere.post("/api/login", json={"name": "Lea", "password": "a good long password"})
            assert login.status_code == 200
            assert (await elsewhere.get("/api/learn")).json()["progress"]["excuse"]["answers"] == steps[:2]
            # a shorter run (the lesson begun again) moves nothing back
            await elsewhere.post("/api/learn/excuse", json={"answers": [], "attempt": steps[0]})
            assert (await elsewhere.get("/api/learn")).json()["progress"]["excuse"]["answers"] == steps[:2]
            done = await elsewhere.post("/api/learn/excuse", json={"answers": steps[:-1], "attempt": steps[-1]})
            assert done.json()["done"] is True
            await elsewhere.post("/api/learn/excuse", json={"answers": [], "attempt": steps[0]})
            assert (await elsewhere.get("/api/learn")).json()["progress"]["excuse"] == {"answers": steps, "done": True}
            gone = await elsewhere.post("/api/account/delete", json={"password": "a good long password"})
            assert gone.status_code == 200
        with server.hub.store.engine.connect() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(lesson_progress)).scalar_one() == 0


@SQLITE_ONLY
async def test_a_guest_s_runs_count_once_it_registers_each_replayed_first(db_url: str) -> None:
    """The page sends a guest's runs after it registers (the same route, no attempt): each is replayed, the
    lesson's own right answers only are kept."""
    cards = [right for _, right in script("cards")]
    async with running_server(db_url) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        await register(http, "Newcomer")
        kept = await http.post("/api/learn/cards", json={"answers": cards})
        assert kept.status_code == 200 and kept.json()["done"] is True and kept.json()["verdict"] is None
        forged = await http.post("/api/learn/follow", json={"answers": [{"card": "KC"}]})
        assert (forged.status_code, forged.json()["error"]["code"], forged.json()["error"]["step"]) == (
            409,
            "not_the_lesson",
            0,
        )
        assert (await http.get("/api/learn")).json()["progress"] == {"cards": {"answers": cards, "done": True}}


@SQLITE_ONLY
async def test_bad_requests_are_refused_in_the_site_s_words_and_change_nothing(db_url: str) -> None:
    async with running_server(db_url) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        cases = [
            ("/api/learn/nothing", {}, 404, "no_lesson"),
            ("/api/learn/cards", {"answers": "x"}, 400, "bad_answer"),
            ("/api/learn/cards", {"answers": [{"card": "ZZ"}]}, 400, "bad_answer"),
            ("/api/learn/cards", {"attempt": {"card": "KS", "bid": "pass"}}, 400, "bad_answer"),
            ("/api/learn/cards", {"attempt": {"bid": "slam"}}, 400, "bad_answer"),
            ("/api/learn/cards", {"attempt": {"cards": ["KS", "KS"]}}, 400, "bad_answer"),
            ("/api/learn/cards", {"attempt": {"choice": "x" * 40}}, 400, "bad_answer"),
            ("/api/learn/cards", {"answers": [{"choice": "1"}] * 6}, 400, "bad_answer"),  # more than its 5 steps
        ]
        for path, body, status, code in cases:
            answer = await http.post(path, json=body)
            assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), (path, body, answer.text)
        assert (await http.get("/api/learn/words/de")).json()["error"]["code"] == "no_language"
        refused = await http.post("/api/learn/cards", json={"attempt": {"card": "KC"}})  # not in the hand
        assert refused.json()["verdict"] == {"right": False, "key": "rule.not_in_hand", "args": {}}
        foreign = await http.post("/api/learn/cards", json={}, headers={"Origin": "http://elsewhere.example"})
        assert foreign.status_code == 403


@SQLITE_ONLY
async def test_a_person_answers_at_most_sixty_times_a_minute(db_url: str) -> None:
    async with running_server(db_url) as server, site_page(f"http://127.0.0.1:{server.port}") as http:
        await register(http, "Quick")
        codes = [
            (await http.post("/api/learn/cards", json={"attempt": {"choice": "1"}})).status_code for _ in range(61)
        ]
        assert codes[:60] == [200] * 60 and codes[60] == 429
        server.clock.advance(1.0)  # one more a second after
        assert (await http.post("/api/learn/cards", json={})).status_code == 200

"""Never leaked: whole games through real connections, every frame checked against what its viewer may know.

Hypothesis picks the table (3, 4 or 5 seats, the rule options, people or robots
in each seat) and the people's choices among their legal actions.  Every frame
each person and spectator received, as the bytes that left the server, is
checked by ``leak_model`` against a model rebuilt from the stored events and
the records the deals' ends revealed.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from atout.bots import make_bot
from atout.engine.record import action_to_json
from atout.engine.rules import OPTIONS
from atout.server.options import TableOptions
from atout.server.protocol import dumps
from atout.server.table import Observer, Table, Timing, clocks, decided, play, seating

from .helpers import SQLITE_ONLY, Client, Server, first_legal, running_server, when_next_deal
from .leak_model import TableKnowledge, Viewer, leaks

EXAMPLES = 15
"""Whole games per run: each is a server, a store and up to seven connections (1 to 3 s each)."""

RULES = st.fixed_dictionaries({name: st.sampled_from(values) for name, values in OPTIONS.items()})
"""Every rule option, any of its values."""


def game_over(client: Client) -> bool:
    """Whether ``client`` heard the game end (or, joining late, was shown a finished game)."""
    if any(f.get("type") == "event" and f["event"]["type"] == "game_end" for f in client.frames):
        return True
    game = client.state and client.state["game"]
    return bool(game and game["over"])


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """One legal action, every choice left to ``rng``: which action, which écart, which poignée."""
    choice = rng.choice(legal)
    if "discard_from" in choice:
        count = choice["count"]
        plain = [c for c in choice["discard_from"] if not c.startswith("T")]
        trumps = [c for c in choice["discard_from"] if c.startswith("T")]
        if len(plain) >= count:  # trumps only when too few other cards may be laid aside
            return {"discard": rng.sample(plain, count)}
        return {"discard": plain + rng.sample(trumps, count - len(plain))}
    if "poignee_from" in choice:
        size = rng.choice(sorted(choice["sizes"].values()))
        trumps = [c for c in choice["poignee_from"] if c != "EX"]
        if len(trumps) >= size:
            return {"poignee": rng.sample(trumps, size)}
        return {"poignee": [*trumps, "EX"]}  # the Excuse stands for the one trump missing
    return choice


TURN_SECONDS = 15
"""The tables' turn clock; the fake clock stands still unless a test lets a person's time run out."""


async def person(
    client: Client,
    server: Server,
    table: str,
    rng: random.Random,
    rejoin_after: int | None = None,
    sleep_on: int | None = None,
) -> Client:
    """Play ``client``'s seat to the game's end with choices from ``rng``.

    After ``rejoin_after`` actions it reconnects and catches up; on its ``sleep_on``-th turn it lets the
    clock run out (the robot plays for it, in automatic mode), then says it is back.
    """
    acted_at = -1
    actions = turns = 0
    while not game_over(client):
        state = client.state
        deal = state and state["deal"]
        me = state and state["you"]
        if (
            deal
            and deal["to_act"] == me
            and deal["legal"]
            and state["vote"] is None
            and not state["seats"][me]["automatic"]
            and state["seq"] == client.seq
            and acted_at != client.seq
        ):
            acted_at = client.seq
            turns += 1
            if turns == sleep_on:
                server.clock.advance(TURN_SECONDS + 1)
                await client.expect("automatic", seat=me, on=True)
                await client.send({"type": "back", "table": table, "seq": client.seq})
                continue
            action = choose(deal["legal"], rng)
            await client.send({"type": "act", "table": table, "seq": client.seq, "action": action})
            actions += 1
            if actions == rejoin_after:
                client = await reconnect(client, server.url, table, client.seq)
                continue
        frame = await client.recv()
        if frame["type"] == "error" and frame["code"] in ("stale", "not_automatic"):
            continue  # someone's "back" moved the table on meanwhile; or came when the game had ended
        assert frame["type"] != "error", f"{client.name} was refused a legal action: {frame}"
    return client


async def reconnect(client: Client, url: str, table: str, last_seq: int | None) -> Client:
    """The same person on a new connection (its token), joining with ``last_seq``; its frames carried over."""
    await client.close()
    again = await Client.connect(url, client.name, token=client.token, patches=client.patches)
    again.raw = client.raw + again.raw
    again.frames = client.frames + again.frames
    join: dict[str, Any] = {"type": "join", "table": table}
    if last_seq is not None:
        join["last_seq"] = last_seq
    await again.send(join)
    await again.expect("table")
    return again


async def watch(client: Client, table: str, last_seq: int | None = None) -> Client:
    """A spectator following the table until the game ends."""
    join: dict[str, Any] = {"type": "join", "table": table}
    if last_seq is not None:
        join["last_seq"] = last_seq
    await client.send(join)
    while not game_over(client):
        frame = await client.recv()
        assert frame["type"] != "error", frame
    return client


async def connect(server: Server, name: str, patches: bool = False) -> Client:
    """A guest connection to ``server`` that has said hello (asking for patches, or whole states)."""
    return await Client.connect(server.url, name, patches=patches)


async def seat_table(
    server: Server, players: int, people: int, level: str, options: dict[str, Any], patches: bool = False
) -> tuple[str, list[Client]]:
    """A table with people in seats 0 … people-1 and robots after them; returns it and the people."""
    ann = await connect(server, "Ann", patches)
    await ann.send({"type": "create", "players": players, "options": options})
    table = (await ann.expect("master"))["table"]
    seated = [ann]
    for seat in range(1, people):
        other = await connect(server, f"Person{seat}", patches)
        await other.send({"type": "join", "table": table})
        await other.expect("table")
        answer = await other.request({"type": "sit", "table": table, "seat": seat})
        assert answer["type"] == "event" and answer["event"]["type"] == "sat", answer
        seated.append(other)
    await ann.settle()
    for seat in range(people, players):
        answer = await ann.request({"type": "robot", "table": table, "seat": seat, "level": level})
        assert answer["type"] == "event" and answer["event"]["type"] == "robot", answer
    return table, seated


def stored_events(server: Server, table: str) -> list[dict[str, Any]]:
    """The table's events as the store holds them, secrets included: the model's only source."""
    return [e.data for e in server.hub.store.events_after(table, 0, 1_000_000)]


def check(server: Server, table: str, players: int, viewers: list[tuple[Client, Viewer]]) -> TableKnowledge:
    """Fail with every leak found in what ``viewers`` received; the model, for more checks."""
    model = TableKnowledge(stored_events(server, table), players)
    assert model.deals and all(d.record is not None for d in model.deals)
    found = [str(leak) for client, viewer in viewers for leak in leaks(client.raw, viewer, model)]
    assert not found, "\n".join(found[:20])
    return model


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # frames are made from the table, not the SQL:
# the same games on PostgreSQL proved nothing more (its events' round trip: test_store.py, and below, after a restart)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_no_frame_tells_anyone_a_card_they_may_not_know(db_url: str, data: st.DataObject) -> None:
    """People (some reconnecting, one timing out), robots and two spectators; every frame checked."""
    players = data.draw(st.sampled_from([3, 4, 5]), label="players")
    rules = data.draw(RULES, label="rules")
    people = data.draw(st.integers(1, players), label="people")
    level = data.draw(st.sampled_from(["random", "heuristic"]), label="robots")
    deals = data.draw(st.integers(1, 2), label="deals")
    rejoin_after = data.draw(st.none() | st.integers(1, 12), label="person 0 reconnects after its action")
    sleep_on = data.draw(st.none() | st.integers(1, 12), label="person 0 lets its clock run out on its turn")
    late_after = data.draw(st.integers(1, 60), label="a second spectator joins after events")
    late_from = data.draw(st.none() | st.integers(0, 60), label="its last_seq")
    # the people's choices: from one generator hypothesis seeds (the deals are the server's secret, so draws
    # made turn by turn would differ from run to run, which hypothesis refuses)
    rng = data.draw(st.randoms(use_true_random=True), label="the people's choices")
    patches = data.draw(st.booleans(), label="clients ask for patches")
    async with running_server(db_url) as server:
        table, seated = await seat_table(
            server,
            players,
            people,
            level,
            {"deals": deals, "turn_seconds": TURN_SECONDS, "rules": rules},
            patches,
        )
        watcher = await connect(server, "Watcher", patches)
        await watcher.send({"type": "join", "table": table})
        await watcher.expect("table")
        await seated[0].settle()
        answer = await seated[0].request({"type": "start", "table": table})
        assert answer["type"] == "event" and answer["event"]["type"] == "game_start", answer

        async def latecomer() -> Client | None:
            while watcher.seq < answer["seq"] + late_after and not game_over(watcher):
                await asyncio.sleep(0.005)
            if game_over(watcher):
                return None
            return await watch(await connect(server, "Late", not patches), table, late_from)

        tasks = [
            person(c, server, table, rng, *((rejoin_after, sleep_on) if i == 0 else ())) for i, c in enumerate(seated)
        ]
        results = await asyncio.gather(*tasks, watch(watcher, table), latecomer())
        finished = [c for c in results if c is not None]
        for client in finished:
            await client.settle()
        viewers: list[tuple[Client, Viewer]] = [(c, i) for i, c in enumerate(results[:people])]
        viewers += [(c, None) for c in results[people:] if c is not None]
        model = check(server, table, players, viewers)
        # the first spectator heard every event from its join on, in order, without gaps
        seqs = [f["seq"] for f in watcher.frames if f["type"] == "event"]
        assert seqs == list(range(seqs[0], model.events[-1]["seq"] + 1))
        for client in finished:
            await client.close()


async def short_game(server: Server, patches: bool = False) -> tuple[str, list[tuple[Client, Viewer]]]:
    """One deal at three seats: a person in seat 0 (first legal actions), two robots, a spectator."""
    table, (ann,) = await seat_table(server, 3, 1, "random", {"deals": 1, "turn_seconds": 0}, patches)
    watcher = await connect(server, "Watcher", patches)
    await watcher.send({"type": "join", "table": table})
    await watcher.expect("table")
    await ann.request({"type": "start", "table": table})

    async def play() -> None:
        while not game_over(ann):
            state = ann.state
            deal = state["deal"]
            if deal and deal["to_act"] == 0 and deal["legal"] and state["seq"] == ann.seq:
                await ann.send({"type": "act", "table": table, "seq": ann.seq, "action": first_legal(state)})
            frame = await ann.recv()
            assert frame["type"] != "error", frame

    await asyncio.gather(play(), watch(watcher, table))
    await ann.settle()
    await watcher.settle()
    return table, [(ann, 0), (watcher, None)]


@SQLITE_ONLY
@pytest.mark.parametrize("patches", [False, True])
async def test_the_check_catches_a_spectator_shown_a_hand(
    db_url: str, monkeypatch: pytest.MonkeyPatch, patches: bool
) -> None:
    honest = Observer.deal_parts

    def leaky(self: Observer, viewers: set[int | None]) -> tuple[Any, dict[int, Any]]:
        public, private = honest(self, viewers | {0})
        if public is not None:
            public = {**public, "hand": private[0]["hand"]}
        return public, private

    monkeypatch.setattr(Observer, "deal_parts", leaky)
    async with running_server(db_url) as server:
        table, viewers = await short_game(server, patches)
        model = TableKnowledge(stored_events(server, table), 3)
        spectator = leaks(viewers[1][0].raw, None, model)
        assert any("a spectator's hand" in str(leak) for leak in spectator)
        assert any("cards it may not know" in str(leak) for leak in spectator)
        assert not leaks(viewers[0][0].raw, 0, model)  # seat 0 may see its own hand
        with pytest.raises(AssertionError, match="told a spectator"):
            check(server, table, 3, viewers)


@SQLITE_ONLY
async def test_the_check_catches_a_seed_sent_early(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    honest = Observer.public_event

    def leaky(self: Observer, event: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        out = honest(self, event, viewer)
        if event["type"] == "deal_start":
            out["seed"] = event["_seed"]
        return out

    monkeypatch.setattr(Observer, "public_event", leaky)
    async with running_server(db_url) as server:
        table, viewers = await short_game(server)
        model = TableKnowledge(stored_events(server, table), 3)
        for client, viewer in viewers:
            assert any("secret seed" in str(leak) for leak in leaks(client.raw, viewer, model))


@SQLITE_ONLY
async def test_the_check_catches_another_seats_card(db_url: str) -> None:
    """A frame naming a card of another seat's hand, injected into what a spectator received, is caught."""
    async with running_server(db_url) as server:
        table, viewers = await short_game(server)
        model = TableKnowledge(stored_events(server, table), 3)
        watcher = viewers[1][0]
        assert not leaks(watcher.raw, None, model)
        deal = model.deals[0]
        start = next(i for i, f in enumerate(watcher.frames) if f.get("seq", 0) >= deal.start_seq)
        hidden = sorted(deal.known[1][0] - deal.known[None][0])[0]  # seat 1's dealt card, unknown to others
        forged = {
            "type": "event",
            "table": table,
            "seq": deal.start_seq,
            "event": {"type": "chat", "name": "x", "text": "hi", "hint": {"play": hidden}},
        }
        watcher.raw.insert(start + 1, json.dumps(forged))
        found = leaks(watcher.raw, None, model)
        assert len(found) == 1 and hidden in str(found[0])


@settings(max_examples=15, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(players=st.sampled_from([3, 4, 5]), rules=RULES, seed=st.integers(0, 10**6))
def test_the_tables_views_over_many_robot_deals_tell_nothing_hidden(
    players: int, rules: dict[str, str], seed: int
) -> None:
    """The table's own views and events (no network: many more deals), each viewer's, checked the same way."""
    table = Table("t", players, TableOptions(deals=3, rules=rules), Timing())
    bots = [make_bot("random", seed + s) for s in range(players)]
    viewers: list[Viewer] = [None, *range(players)]
    frames: dict[Viewer, list[str]] = {v: [] for v in viewers}
    log: list[dict[str, Any]] = []

    def tell(events: list[dict[str, Any]]) -> None:
        log.extend(events)
        for viewer in viewers:
            for i, event in enumerate(events):
                frame: dict[str, Any] = {
                    "type": "event",
                    "table": "t",
                    "seq": event["seq"],
                    "event": Observer(table).public_event(event, viewer),
                }
                if i == len(events) - 1:
                    frame["state"] = Observer(table).view(viewer, 2.0)
                frames[viewer].append(dumps(frame))

    tell(decided(table, 0.0, seating.create, "p0", "Ann"))
    for seat in range(1, players):
        tell(decided(table, 0.0, seating.add_robot, "p0", seat, "random", table.seq))
    tell(decided(table, 1.0, play.start, "p0", table.seq))
    while table.status == "playing":
        if table.deal.is_over:
            events = decided(table, when_next_deal(table), clocks.tick)
            assert events, "the next deal did not come"
        else:
            seat = table.deal.to_act
            body = action_to_json(seat, bots[seat].choose(table.deal.observation(seat)))
            del body["seat"]
            events = decided(table, 2.0, play.play, seat, body, by="robot")
        tell(events)
    model = TableKnowledge(log, players)
    assert len(model.deals) >= 3 and all(d.record is not None for d in model.deals)
    for viewer in viewers:
        assert not leaks(frames[viewer], viewer, model), viewer


def ecart_then_plays(client: Client) -> bool:
    """Whether the deal being played has had its écart laid and two cards played since."""
    events = [f["event"] for f in client.frames if f["type"] == "event"]
    starts = [i for i, e in enumerate(events) if e["type"] == "deal_start"]
    since = events[starts[-1] + 1 :] if starts else []
    actions = [e["action"] for e in since if e["type"] == "action"]
    laid = [i for i, a in enumerate(actions) if "discard" in a or "ecart" in a]
    return bool(laid) and sum("play" in a for a in actions[laid[0] :]) >= 2


async def play_as_ann(ann: Client, table: str, until) -> None:
    """Ann's turns: a Garde when she may bid it, else her first legal action; until ``until(ann)``."""
    acted_at = -1
    while not until(ann) and not game_over(ann):
        state = ann.state
        deal = state["deal"]
        if deal and deal["to_act"] == 0 and deal["legal"] and state["seq"] == ann.seq != acted_at:
            acted_at = ann.seq
            action = {"bid": "garde"} if {"bid": "garde"} in deal["legal"] else first_legal(state)
            await ann.send({"type": "act", "table": table, "seq": ann.seq, "action": action})
        frame = await ann.recv()
        assert frame["type"] != "error", frame


async def test_after_a_restart_events_resent_from_the_store_hide_the_same(db_url: str) -> None:
    """A server stopped mid-deal, after an écart, and started again on the same store: the events it
    re-sends from the store to returning viewers hide what they hid the first time."""
    async with running_server(db_url) as server:
        table, (ann,) = await seat_table(server, 4, 1, "heuristic", {"deals": 3, "turn_seconds": 0})
        watcher = await connect(server, "Watcher")
        await watcher.send({"type": "join", "table": table})
        await watcher.expect("table")
        await ann.request({"type": "start", "table": table})
        await play_as_ann(ann, table, ecart_then_plays)
        assert ecart_then_plays(ann), "no écart was laid in three deals"
        await ann.settle()
        await watcher.settle()
        await ann.close()
        await watcher.close()
    async with running_server(db_url) as server:
        again = await Client.connect(server.url, "Ann", token=ann.token)
        late = await connect(server, "Late")
        for client in (again, late):
            await client.send({"type": "join", "table": table, "last_seq": 0})
            await client.expect("table")
        resent = [f["event"] for f in late.frames if f["type"] == "event"]
        assert any({"ecart", "discard"} & set(e.get("action", {})) for e in resent)  # re-sent from the store
        await asyncio.gather(play_as_ann(again, table, lambda c: False), watch(late, table))
        await again.settle()
        await late.settle()
        again.raw = ann.raw + again.raw
        check(server, table, 4, [(again, 0), (watcher, None), (late, None)])

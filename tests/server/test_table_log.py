"""What a table tells a page that arrives (its log so far, hidden parts hidden), who won each trick, the
turn clock's automatic mode and how a person ends it, and the options' "changed" mark."""

from __future__ import annotations

import json
from typing import Any

from .helpers import Client, concrete, quick_config, running_server
from .test_tables import play_until, table_with_robots


def taker_first(state: dict[str, Any]) -> dict[str, Any]:
    """A legal action that takes with a garde when it may (an écart to lay aside), else the first."""
    legal = state["deal"]["legal"]
    for choice in legal:
        if choice.get("bid") == "garde" and not choice.get("chelem"):
            return {"bid": "garde"}
    for choice in legal:
        if choice.get("bid") == "pass":
            return {"bid": "pass"}
    plays = [c for c in legal if "play" in c]
    return plays[0] if plays else concrete(legal[0])


def ecart_laid(client: Client) -> bool:
    """The deal is being played after an écart (a prise or a garde), two tricks won."""
    deal = client.state and client.state["deal"]
    return bool(
        deal and deal["phase"] == "play" and deal["contract"] in ("prise", "garde") and sum(deal["tricks_won"]) >= 2
    )


async def test_a_page_that_arrives_gets_the_deals_log_with_hidden_parts_hidden(db_url: str) -> None:
    async with running_server(db_url, quick_config()) as server:
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 4, level="heuristic", deals=20, turn_seconds=0)
        await ann.request({"type": "start", "table": table})
        await play_until(ann, ecart_laid, limit=3000, choose=taker_first)
        deal = ann.state["deal"]
        me = ann.state["you"]
        watcher = await Client.connect(server.url, "Watcher")
        await watcher.send({"type": "join", "table": table})
        seen = await watcher.expect("table")
        again = await Client.connect(server.url, "Ann", token=ann.token)  # a reload of Ann's page
        await again.send({"type": "join", "table": table})
        mine = await again.expect("table")
        for message, viewer in ((seen, None), (mine, me)):
            log = message["log"]
            kinds = [x["event"]["type"] for x in log]
            assert "deal_start" in kinds and kinds.index("deal_start") <= 2, kinds
            seqs = [x["seq"] for x in log]
            assert seqs == sorted(seqs) and seqs[-1] <= message["seq"]
            text = json.dumps(log)
            for secret in ('"hand"', '"seed"', '"_seed"', '"record"', '"dog"', '"player"'):
                assert secret not in text, (viewer, secret)
            actions = [x["event"] for x in log if x["event"]["type"] == "action"]
            laid = [a for a in actions if "discard" in a["action"] or "ecart" in a["action"]]
            assert len(laid) == 1, laid
            if viewer is None or viewer != deal["taker"]:  # the écart is its trumps and size to all but the taker
                assert "discard" not in laid[0]["action"] and laid[0]["action"]["ecart"]["count"] == len(
                    deal["dog"] or [6]
                )
            else:
                assert sorted(laid[0]["action"]["discard"]) == sorted(deal["ecart"])
            plays = [a for a in actions if "play" in a["action"]]
            assert sum(1 for a in plays if "won" in a) == sum(deal["tricks_won"])
            assert all("won" not in a or a["won"] in range(4) for a in plays)
        # the events as they come carry the same: a trick's last card says who won it
        winners = [f["event"]["won"] for f in ann.frames if f.get("type") == "event" and "won" in f["event"]]
        assert winners and ann.state["deal"]["last_trick"]["winner"] == winners[-1]
        # with last_seq, a page that holds a log already gets the missed events as before, no log
        await again.send({"type": "join", "table": table, "last_seq": again.seq})
        assert "log" not in await again.expect("table")


async def test_back_restarts_the_clock_and_a_persons_own_action_ends_automatic_mode(db_url: str) -> None:
    async with running_server(db_url, quick_config(robot_pace=1.0)) as server:  # robots wait for the clock
        ann = await Client.connect(server.url, "Ann")
        table = await table_with_robots(ann, 4, level="random", turn_seconds=15)
        await ann.request({"type": "start", "table": table})

        async def until_my_turn() -> None:
            while ann.state["deal"]["to_act"] != 0:
                before = ann.seq
                server.clock.advance(1)
                while ann.seq == before:
                    await ann.recv()

        await until_my_turn()
        server.clock.advance(16)
        await ann.expect("automatic", seat=0, on=True)
        await ann.settle()
        assert ann.state["seats"][0]["automatic"] and ann.state["deal"]["to_act"] == 0
        server.clock.advance(0.5)  # half the robot's pace later, still her turn: she is back
        answer = await ann.request({"type": "back", "table": table})
        assert answer["event"]["type"] == "automatic" and answer["event"]["on"] is False
        await ann.settle()
        assert not ann.state["seats"][0]["automatic"]
        assert ann.state["clock"] == {"seat": 0, "seconds_left": 15.0, "turn_seconds": 15}  # a whole turn again
        server.clock.advance(14)
        await ann.settle()
        assert ann.state["deal"]["to_act"] == 0 and not ann.state["seats"][0]["automatic"]
        # runs out again; this time she plays herself: her action ends automatic mode, said by an event
        server.clock.advance(2)
        await ann.expect("automatic", seat=0, on=True)
        await ann.settle()
        if ann.state["deal"]["to_act"] == 0:
            legal = ann.state["deal"]["legal"]
            action = next(({"bid": "pass"} for c in legal if c.get("bid") == "pass"), None) or concrete(legal[0])
            answer = await ann.request({"type": "act", "table": table, "action": action})
            kinds = [(f["event"]["type"], f["event"].get("on")) for f in ann.batch]
            assert answer["event"]["type"] == "action" and kinds[:2] == [("action", None), ("automatic", False)], kinds
            await ann.settle()
            assert not ann.state["seats"][0]["automatic"]


async def test_the_master_is_not_told_of_his_own_change_and_a_game_ends_the_news(db_url: str) -> None:
    async with running_server(db_url, quick_config()) as server:
        ann = await Client.connect(server.url, "Ann")
        await ann.send({"type": "create", "players": 3})
        table = (await ann.expect("master"))["table"]
        await ann.settle()
        bob = await Client.connect(server.url, "Bob")
        await bob.send({"type": "join", "table": table})
        await bob.expect("table")
        await bob.request({"type": "sit", "table": table, "seat": 1, "seq": bob.seq})
        await ann.settle()
        await ann.request({"type": "options", "table": table, "options": {"deals": 2}})
        await ann.settle()
        await bob.settle()
        assert ann.state["changed"] == [] and bob.state["changed"] == ["deals"]
        await ann.request({"type": "robot", "table": table, "seat": 2, "level": "random"})
        await ann.request({"type": "start", "table": table})
        await bob.settle()
        assert bob.state["changed"] == [] and bob.state["status"] == "playing"

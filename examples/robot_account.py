"""A robot account's client (docs/robot-accounts.md): it connects to an Atout site with its API token, opens a
practice table with the site's robots (or joins the table it is invited to) and plays every turn with a legal
move from the ``legal`` list the server sends. Replace ``choose`` with your own robot.

    ATOUT_TOKEN=atr_... python examples/robot_account.py ws://localhost:8000/ws [--games 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random

import websockets  # pip install websockets


def choose(legal: list[dict]) -> dict:
    """One action from the server's legal list: here a random one (an écart or poignée: its first cards)."""
    choice = random.choice(legal)
    if "discard_from" in choice:
        return {"discard": choice["discard_from"][: choice["count"]]}
    if "poignee_from" in choice:
        return {"poignee": choice["poignee_from"][: min(choice["sizes"].values())]}
    return dict([next(iter(choice.items()))])


async def play(url: str, token: str, games: int) -> None:
    async with websockets.connect(url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:

        async def send(message: dict) -> None:
            await ws.send(json.dumps(message))

        await send({"type": "hello", "protocol": 1})
        welcome = json.loads(await ws.recv())
        print("playing as", welcome["you"]["name"], "robot account of", welcome["you"]["robot_of"], flush=True)
        await send({"type": "create", "players": 4, "options": {"competitive": False, "deals": 1}})
        started, acted, played = False, None, 0
        while played < games:
            message = json.loads(await ws.recv())
            if message["type"] == "invitation":  # a person invited us: go and look (sit with `sit`)
                await send({"type": "join", "table": message["table"]})
            if message["type"] == "error":
                print("error:", message["code"], message["message"], flush=True)
            if message["type"] == "event" and message["event"]["type"] in ("game_end", "cancel_end"):
                played, started = played + 1, False
                print("game over:", message["event"].get("ranking"), flush=True)
            state = message.get("state")
            if state is None:
                continue
            table, seq = message["table"], state["seq"]
            if state["status"] == "waiting" and state["master"] == state["you"] and not started and played < games:
                empty = [s["seat"] for s in state["seats"] if s["kind"] == "empty"]
                if empty:
                    await send({"type": "robot", "table": table, "seat": empty[0], "level": "club", "seq": seq})
                else:
                    started = True
                    await send({"type": "start", "table": table, "seq": seq})
            deal = state.get("deal")
            if deal and deal.get("to_act") == state["you"] and deal.get("legal") and acted != seq:
                acted = seq  # one answer to each state: the next event brings the next turn
                await send({"type": "act", "table": table, "seq": seq, "action": choose(deal["legal"])})


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", nargs="?", default="ws://localhost:8000/ws")
    parser.add_argument("--games", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(play(args.url, os.environ["ATOUT_TOKEN"], args.games))

"""Duplicate deals: the same cards played by the baseline everywhere, then by the candidate in each seat.

Luck of the cards cancels out: the candidate's figure on a deal is its score
minus the baseline's score in the same seat on the same deal.  Every deal is a
pure function of (arena seed, deal number), robots included, so a run is
reproducible and can be split over processes.

The luck of the robots' own draws cancels too (``SEEDINGS``, by default ``common``): a seat's robot
is seeded by the deal and the seat, never by its level, and restarts its stream at each decision
(``bots.streams``), so the candidate and the baseline search the same worlds wherever they face the
same decision, and a robot against an identical copy of itself measures 0 exactly.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..bots import RETIRED_LEVELS, make_bot
from ..bots.base import Bot
from ..bots.streams import PerDecision
from ..engine import (
    Bid,
    Call,
    Chelem,
    DiscardFrom,
    IllegalAction,
    Observation,
    PetitSecDecision,
    Play,
    PoigneeFrom,
    RuleSet,
    new_deal,
)
from ..engine.record import to_record
from ..protocol import EngineFault
from ..protocol.host import EngineBot
from ..protocol.messages import illegal_message
from .engines import EngineSettings, engine_seed, is_engine, seated_engine

DECISION_KINDS = ("bid", "call", "ecart", "chelem", "poignee", "petit_sec", "card")
"""The kinds of decision the arena times separately (the issue's targets are per kind)."""

_KIND_OF = {
    Bid: "bid",
    Call: "call",
    DiscardFrom: "ecart",
    Chelem: "chelem",
    PoigneeFrom: "poignee",
    PetitSecDecision: "petit_sec",
    Play: "card",
}


def decision_kind(observation: Observation) -> str:
    """What the seat is asked to decide: one of ``DECISION_KINDS`` (a poignée offer beats the card)."""
    legal = observation.legal
    if any(type(a) is PoigneeFrom for a in legal):
        return "poignee"
    return _KIND_OF.get(type(legal[0]), "other")


@dataclass(slots=True)
class Game:
    """One playing of a deal: scores, who took, and the decision times of the watched seat."""

    scores: list[int]
    taker: int | None
    partner: int | None
    contract: str | None
    made: bool | None
    void: str | None
    times: list[float] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    faults: list[dict] = field(default_factory=list)  # engines that failed, each finished by FALLBACK

    def role(self, seat: int) -> str:
        if self.void:
            return "void"
        if seat == self.taker:
            return "taker"
        if seat == self.partner:
            return "partner"
        return "defender"


def deal_seed(seed: str, index: int) -> str:
    return f"{seed}/deal/{index}"


FALLBACK = "heuristic"
"""The robot that finishes a deal for an engine's seat once that engine failed in it."""

SEEDINGS = ("common", "level")
"""How the arena seeds a seat's robot on a deal.  ``common`` (the default): by the deal and the seat
alone (``engine_seed(deal, seat)``, the seed an engine is told too), its stream restarted at each
decision (``bots.streams.PerDecision``); ``level``: by the level's name too (``{deal}/seat/{s}/{level}``,
an engine by a hash with its command), one running stream for the deal: the arena's seeding before
issue 39, which the figures measured before it rest on (benchmarks/results/strength.md says which)."""


def seat_robot(level: str, seed: str, seat: int, seeding: str = "common") -> Bot:
    """The robot of ``level`` (played in process) for ``seat`` of the deal of ``seed``; a retired level is
    refused (a stored table plays its successor, but a measure against it would be a false one)."""
    if level in RETIRED_LEVELS:
        raise ValueError(f"robot level {level!r} left the package; its yardstick is {RETIRED_LEVELS[level].yardstick}")
    if seeding == "level":
        return make_bot(level, f"{seed}/seat/{seat}/{level}")
    if seeding != "common":
        raise ValueError(f"unknown seeding {seeding!r}; seedings are {', '.join(SEEDINGS)}")
    own = engine_seed(seed, seat)
    return PerDecision(make_bot(level, own), own)


def _seat_bots(
    rules: RuleSet,
    dealer: int,
    seed: str,
    levels: list[str],
    roles: list[str],
    budget: float | None,
    settings: EngineSettings,
    faults: list[dict],
    seeding: str,
) -> list[Any]:
    """One robot per seat: a level's robot made for this deal, or that seat's engine process told of
    the deal.  An engine that cannot be (re)started leaves its seat to the fallback, said in ``faults``."""
    bots: list[Any] = []
    for s, level in enumerate(levels):
        if not is_engine(level):
            bots.append(seat_robot(level, seed, s, seeding))
            continue
        bot: Any
        try:
            bot = seated_engine(level, roles[s], s, rules, budget, settings)
            bot.new_deal(_number(seed), dealer, engine_seed(seed, s, level if seeding == "level" else None))
        except EngineFault as fault:
            faults.append({"seat": s, "engine": roles[s], "decision": None, **fault.to_json()})
            bot = seat_robot(FALLBACK, seed, s, seeding)
        bots.append(bot)
    return bots


def _number(seed: str) -> int:
    """The deal's number in the run (``deal_seed``'s last part), told to engines; 0 for another seed."""
    tail = seed.rsplit("/", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def play_game(
    rules: RuleSet,
    dealer: int,
    seed: str,
    levels: list[str],
    budget: float | None = None,
    watch: int | None = None,
    roles: list[str] | None = None,
    engines: EngineSettings | None = None,
    seeding: str = "common",
) -> Game:
    """Play one deal with robots of ``levels`` (one per seat: a level or ``cmd:COMMAND``), seeded by
    ``seeding`` (``SEEDINGS``); time ``watch``'s decisions.  An engine that fails (``EngineFault``, or
    an action the deal refuses) has its seat played by the ``FALLBACK`` robot for the rest of the deal; ``Game.faults``
    says so."""
    deal = new_deal(rules, dealer, seed)
    roles = roles or [""] * len(levels)
    faults: list[dict] = []
    bots = _seat_bots(rules, dealer, seed, levels, roles, budget, engines or EngineSettings(), faults, seeding)
    seated = [b if isinstance(b, EngineBot) else None for b in bots]  # told of the end, even if replaced
    times: list[float] = []
    kinds: list[str] = []
    decision = 0
    while (seat := deal.to_act) is not None:  # None once the deal is over
        obs = deal.observation(seat)
        bot = bots[seat]
        start = time.perf_counter()
        if isinstance(bot, EngineBot):
            try:
                action = bot.choose(obs, budget)
                if not (type(action) is Play and deal.may_play(action.card)):
                    try:
                        deal.clone().apply(action, seat)  # checked on a copy: the deal names the rule broken
                    except IllegalAction as err:
                        raise EngineFault("illegal", f"{action}: {illegal_message(err)}") from None
            except EngineFault as fault:
                faults.append({"seat": seat, "engine": roles[seat], "decision": decision, **fault.to_json()})
                bot = bots[seat] = seat_robot(FALLBACK, seed, seat, seeding)
                action = bot.choose(obs, budget)
        else:
            action = bot.choose(obs, budget)
        elapsed = time.perf_counter() - start
        if seat == watch:
            times.append(elapsed)
            kinds.append(decision_kind(obs))
        deal.apply(action, seat=seat)
        decision += 1
    r = deal.result
    assert r is not None
    if any(seated):
        result, record = r.to_json(), to_record(deal, with_seed=False)  # never the seed: it deals every hand
        for s, engine in enumerate(seated):
            if engine is not None and engine.alive:
                try:
                    engine.deal_end(_number(seed), result, record)
                except EngineFault as fault:
                    faults.append({"seat": s, "engine": roles[s], "decision": None, **fault.to_json()})
    return Game(list(r.scores), r.taker, r.partner, r.contract, r.made, r.void, times, kinds, faults)


def play_duplicate(
    players: int,
    candidate: str,
    baseline: str,
    seed: str,
    index: int,
    budget: float | None = None,
    engines: EngineSettings | None = None,
    seeding: str = "common",
) -> dict:
    """Deal ``index``: once all-baseline, then the candidate in each seat in turn (robots seeded by
    ``seeding``, see ``SEEDINGS``).

    Returns a JSON-ready record with, per seat, the candidate's score, the
    baseline's score in that seat, their difference, the roles, and the
    candidate's decision times with their kinds (``DECISION_KINDS``); ``faults`` lists every engine
    failure of the deal's playings (``game``: "baseline" or the candidate's seat), each seat's
    ``faults`` and ``baseline_faults`` count them per playing.
    """
    rules = RuleSet(players)
    dealer = index % players
    dseed = deal_seed(seed, index)
    base = play_game(
        rules,
        dealer,
        dseed,
        [baseline] * players,
        budget,
        roles=["baseline"] * players,
        engines=engines,
        seeding=seeding,
    )
    faults = [{"game": "baseline", **f} for f in base.faults]
    seats = []
    for seat in range(players):
        levels = [baseline] * players
        levels[seat] = candidate
        roles = ["baseline"] * players
        roles[seat] = "candidate"
        game = play_game(
            rules, dealer, dseed, levels, budget, watch=seat, roles=roles, engines=engines, seeding=seeding
        )
        faults.extend({"game": seat, **f} for f in game.faults)
        seats.append(
            {
                "seat": seat,
                "candidate": game.scores[seat],
                "baseline": base.scores[seat],
                "diff": game.scores[seat] - base.scores[seat],
                "role": game.role(seat),
                "baseline_role": base.role(seat),
                "made": game.made,
                "baseline_made": base.made,
                "contract": game.contract,
                "times": [round(t, 6) for t in game.times],
                "kinds": game.kinds,
                "faults": len(game.faults),
            }
        )
    return {
        "index": index,
        "seed": dseed,
        "dealer": dealer,
        "baseline_scores": base.scores,
        "baseline_contract": base.contract,
        "baseline_faults": len(base.faults),
        "seats": seats,
        "faults": faults,
    }

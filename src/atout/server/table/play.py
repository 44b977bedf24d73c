"""Deciding the game: its start (a table's, a quick one's, a daily deal's, a tournament's), each deal's start,
every action (a person's or a robot's, checked by the engine), each deal's end and the game's end."""

from __future__ import annotations

import secrets
from typing import Any

from ...engine import IllegalAction
from ...engine.actions import Play
from ...engine.fairness import commitment as seed_commitment
from ...engine.record import RecordError, action_to_json, parse_action, to_record
from ..fair_sets import daily_deal_seed
from ..kinds import NEVER_CAME, EventType, SeatKind, TableStatus, Unranked
from ..protocol import ProtocolError
from .seats import robot_name
from .state import Batch, check_master, check_seq, check_waiting, seated


def start(b: Batch, player: str, seq: int, same_address: list[int] | None = None) -> None:
    """Start a game; ``same_address`` (the runtime's): seats of registered people sharing an address,
    which makes the game unranked (no bets taken, nothing won)."""
    t = b.table
    check_seq(t, seq)
    check_master(t, player)
    check_waiting(t, "starting a game")
    if t.daily is not None and t.game_id is not None:
        raise ProtocolError("daily_played", "a daily deal is played once: its game is over")
    empty = [i for i, s in enumerate(t.seats) if s.kind == SeatKind.EMPTY]
    if empty:
        raise ProtocolError("seats_empty", f"every seat must be filled first; empty: {', '.join(map(str, empty))}")
    unranked = Unranked.PRACTICE if not t.options.competitive else Unranked.SAME_ADDRESS if same_address else None
    stakes = [
        t.options.bet if unranked is None and s.kind == SeatKind.PERSON and (s.player or "").startswith("p") else 0
        for s in t.seats
    ]
    b.emit(
        EventType.GAME_START,
        game=secrets.token_hex(8),
        deals=t.options.deals,
        options=t.options.to_json(),
        ranked=unranked is None,
        unranked=unranked,
        stakes=stakes,
        _seed=t.daily_seed if t.daily is not None else secrets.token_hex(16),
    )
    assert t.game is not None
    b.emit(EventType.GAME_DEALER, dealer=t.game.dealer)
    _start_deal(b)


def fill_with_robots(b: Batch) -> None:
    """Robots of the table's level in every empty seat (quick play, a daily deal, a tournament's table)."""
    for i, seat in enumerate(b.table.seats):
        if seat.kind == SeatKind.EMPTY:
            level = b.table.options.robot_level
            b.emit(EventType.ROBOT, seat=i, level=level, name=robot_name(i, level))


def quick_start(b: Batch, player: str) -> None:
    """A quick table's first game, at once: robots in every empty seat, then the start."""
    check_master(b.table, player)
    fill_with_robots(b)
    start(b, player, b.table.seq)


def daily_start(b: Batch, player: str) -> None:
    """A daily deal's game, at once: the day's robots in every other seat, then the start."""
    if b.table.daily is None:
        raise ProtocolError("bad_option", "not a daily deal's table")
    quick_start(b, player)


def tournament_open(b: Batch, seats: list[tuple[str, str] | None], spec: dict[str, Any], seed: str) -> None:
    """A tournament's table (docs/tournaments.md), opened by the server and started at once: each
    person (id, name) in their seat, robots in the others (None); ``spec`` {tournament, round, deals} and
    ``seed`` the round's secret seed, whose preset deals every table of the round plays (as a daily
    deal's: ``daily`` carries them)."""
    t = b.table
    people = [(i, s) for i, s in enumerate(seats) if s is not None]
    if len(seats) != t.players or not people:
        raise ProtocolError("bad_option", "a tournament's table seats its players, one person at least")
    b.emit(
        EventType.CREATED,
        players=t.players,
        options=t.options.to_json(),
        quick=False,
        daily={"day": None, **spec},
        _daily_seed=seed,
    )
    for i, (player, name) in people:
        b.emit(EventType.SAT, seat=i, player=player, name=name)
    b.emit(EventType.MASTER, seat=people[0][0])
    fill_with_robots(b)
    start(b, people[0][1][0], t.seq)


def _start_deal(b: Batch) -> None:
    t = b.table
    assert t.game is not None
    if t.daily is not None and t.daily_seed is not None:  # the day's preset deal, the same for all
        seed = daily_deal_seed(t.daily_seed, t.game.deal_index)
    else:
        seed = secrets.token_hex(16)
    number = t.game.deal_index + 1 if t.daily is not None else t.game.deals_played + 1  # deal_number's rule
    b.emit(EventType.DEAL_START, number=number, dealer=t.game.next_dealer, commitment=seed_commitment(seed), _seed=seed)
    if t.deal is not None and t.deal.is_over:  # a petit sec voided it as it was dealt
        _end_deal(b)


def act(b: Batch, player: str, action: dict[str, Any], seq: int) -> None:
    """A person's own game action."""
    check_seq(b.table, seq)
    play(b, seated(b.table, player, "only a seated player may play"), action, by=SeatKind.PERSON)


def play(b: Batch, seat: int, action: dict[str, Any], by: str) -> None:
    """``seat``'s action (by its person or its robot), checked by the engine."""
    t = b.table
    deal = t.deal
    if deal is None or not t.in_deal:
        raise ProtocolError("no_deal", "no deal is being played at this table")
    if t.vote is not None:
        raise ProtocolError("vote_running", "a vote to cancel the game is running: vote first")
    if deal.to_act != seat:
        raise ProtocolError("not_your_turn", f"it is seat {deal.to_act}'s turn, not seat {seat}'s")
    if not isinstance(action, dict) or "seat" in action:
        raise ProtocolError("malformed", 'an action is an object such as {"play": "7H"}, without a seat')
    try:
        parsed_seat, parsed = parse_action({"seat": seat, **action}, 0, t.players)
        if not isinstance(parsed, Play) or not deal.may_play(parsed.card):
            deal.clone().apply(parsed, parsed_seat)  # checked on a copy: the engine names the broken rule
    except RecordError as err:
        raise ProtocolError("malformed", err.message) from None
    except IllegalAction as err:
        raise ProtocolError("illegal", err.message, rule=err.rule) from None
    stored = action_to_json(seat, parsed)
    del stored["seat"]
    tricks = len(deal.tricks)
    was_automatic = t.seats[seat].automatic
    event = b.emit(EventType.ACTION, parsed, seat=seat, action=stored, by=by)  # applied without parsing it again
    if len(deal.tricks) > tricks:  # this card ended a trick: who won it, for every log
        event["won"] = deal.tricks[-1].winner
    if was_automatic and by == SeatKind.PERSON:  # the person's own action ends automatic mode (said)
        b.emit(EventType.AUTOMATIC, seat=seat, on=False)
    if deal.is_over:
        _end_deal(b)


def _end_deal(b: Batch) -> None:
    t = b.table
    assert t.game is not None and t.deal is not None
    deal = t.deal
    line = t.game.sheet[-1].to_json()
    line.pop("record", None)
    names = [s.name or f"Seat {i + 1}" for i, s in enumerate(t.seats)]  # for whoever replays it
    if t.daily is not None:  # the day's seeds stay secret until the day is over: the record by its hands
        line.pop("seed", None)
        b.emit(
            EventType.DEAL_END,
            _seed=deal.seed,
            commitment=t.commitment,
            record={**to_record(deal, with_seed=False), "names": names},
            line=line,
        )
        if t.game.is_over or t.game.deal_index >= t.daily["deals"]:  # a void deal counts as one
            _end_game(b)
        return
    b.emit(
        EventType.DEAL_END,
        seed=deal.seed,
        commitment=t.commitment,
        record={**to_record(deal), "names": names},
        line=line,
    )
    if t.game.is_over:
        _end_game(b)


def _end_game(b: Batch) -> None:
    t = b.table
    assert t.game is not None
    unrank_shared(b, t.same_address)  # learnt at the last card: it still counts for nobody
    for seat in sorted(t.awaited):  # fetched, given their time, and never came: absent, not ranked as a player
        person = t.seats[seat]
        if person.kind == SeatKind.PERSON and not person.abandoned:
            b.emit(EventType.ABANDON, seat=seat, player=person.player, why=NEVER_CAME)
    ranking = [{"place": p, "seat": s, "total": total} for p, s, total in t.game.ranking()]
    b.emit(EventType.GAME_END, game=t.game_id, totals=t.game.totals, ranking=ranking, abandoned=list(t.abandoned))
    hand_over_claims(b)
    if t.daily is not None:  # played once: the table closes (no second game, nobody to sit)
        why = (
            "the tournament's round is played here: its ranking is on the tournament's page"
            if "tournament" in t.daily
            else "the daily deal is played: its ranking is on the daily page"
        )
        b.emit(EventType.CLOSED, why=why)


def unrank_shared(b: Batch, seats: list[int]) -> None:
    """The one rule of a shared address (docs/server.md, "One address"): two registered people seated at
    a game who share an address, learnt at any moment of it (a guest who registers during the game
    counts from then on), and the game counts for nobody: no ranking points, rating, XP, badges, and its
    bets go back. A game starts so (``start``) or becomes so here, once, stored (``unranked``): the
    banner, the stored game, the profiles and the leaderboard all read ``game_ranked``."""
    t = b.table
    if t.status == TableStatus.PLAYING and t.game_ranked and seats:
        b.emit(EventType.UNRANKED, why=Unranked.SAME_ADDRESS, seats=sorted(seats))


def next_deal(b: Batch) -> None:
    t = b.table
    if (
        t.status == TableStatus.PLAYING
        and t.game is not None
        and t.deal is not None
        and t.deal.is_over
        and not t.game.is_over
    ):
        hand_over_claims(b)
        _start_deal(b)


def hand_over_claims(b: Batch) -> None:
    """Between deals (or games): the people who claimed robots' seats take them."""
    for i, seat in enumerate(b.table.seats):
        if seat.kind == SeatKind.ROBOT and seat.claimant is not None:
            b.emit(EventType.REPLACED, seat=i, player=seat.claimant, name=seat.claimant_name)


def back(b: Batch, player: str, seq: int | None) -> None:
    """The person plays for themselves again (automatic mode off)."""
    t = b.table
    if seq is not None:  # stale only beyond the table's event: the robot plays on meanwhile
        check_seq(t, seq, since=0)
    seat = seated(t, player, "you do not sit at this table")
    if not t.seats[seat].automatic:
        raise ProtocolError("not_automatic", "your seat is not in automatic mode")
    b.emit(EventType.AUTOMATIC, seat=seat, on=False)


__all__ = [
    "act",
    "back",
    "daily_start",
    "fill_with_robots",
    "hand_over_claims",
    "next_deal",
    "play",
    "quick_start",
    "start",
    "tournament_open",
    "unrank_shared",
]

"""The vote to cancel, on the table actor without a network: an amicable end needs two people present
(robots do not vote), whatever happens during the vote (issue 34: one person alone with robots could
erase a lost game at will)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.bots import make_bot
from atout.engine.record import action_to_json
from atout.server.options import TableOptions
from atout.server.protocol import ProtocolError
from atout.server.table import Table, Timing, clocks, decided, play, seating, votes

from .helpers import when_next_deal

NAMES = ["Ann", "Bob", "Carl", "Dan", "Eve"]


def table_of(players: int, people: int) -> Table:
    """``people`` people in the first seats, robots in the others, the game started."""
    table = Table("t", players, TableOptions(deals=3), Timing())
    decided(table, 0.0, seating.create, "p0", NAMES[0])
    for seat in range(1, players):
        if seat < people:
            decided(table, 0.0, seating.sit, f"p{seat}", NAMES[seat], seat, table.seq)
        else:
            decided(table, 0.0, seating.add_robot, "p0", seat, "random", table.seq)
    decided(table, 0.0, play.start, "p0", table.seq)
    return table


@pytest.mark.parametrize("players", [3, 4, 5])
def test_alone_with_robots_a_proposal_is_refused_and_changes_nothing(players: int) -> None:
    table = table_of(players, 1)
    before = table.snapshot()
    with pytest.raises(ProtocolError) as refused:
        decided(table, 1.0, votes.propose_cancel, "p0", table.seq)
    assert refused.value.code == "needs_two_people"
    assert table.snapshot() == before


def test_a_second_person_away_counts_for_nobody() -> None:
    """Two people, but Bob's connection is lost: Ann is the only one present, and may not propose."""
    table = table_of(4, 2)
    clocks.connection_lost(table, 1, 1.0)
    with pytest.raises(ProtocolError) as refused:
        decided(table, 2.0, votes.propose_cancel, "p0", table.seq)
    assert refused.value.code == "needs_two_people"
    decided(table, 3.0, clocks.connection_back, "p1")
    assert [e["type"] for e in decided(table, 4.0, votes.propose_cancel, "p0", table.seq)] == ["cancel_proposed"]


def test_two_people_agreeing_cancel_and_one_refusing_does_not() -> None:
    table = table_of(4, 2)
    decided(table, 1.0, votes.propose_cancel, "p0", table.seq)
    ended = decided(table, 2.0, votes.cast_vote, "p1", False, table.seq)
    assert [e["type"] for e in ended] == ["vote", "cancel_end"] and ended[-1]["cancelled"] is False
    decided(table, 3.0, votes.propose_cancel, "p1", table.seq)
    ended = decided(table, 4.0, votes.cast_vote, "p0", True, table.seq)
    assert ended[-1]["type"] == "cancel_end" and ended[-1]["cancelled"] is True
    assert table.game_outcome == "cancelled"


def test_a_robot_account_neither_proposes_nor_votes_nor_counts_as_a_person() -> None:
    """A robot account (a person's program, ids starting with b) is a robot: alone with one person it
    makes no pair for an amicable end, may not propose one, and is not waited for in a vote of two people
    (the site bridge, like any engine, never answers a vote: the vote ran out on it)."""
    table = Table(
        "t", 4, TableOptions(deals=3, competitive=False), Timing()
    )  # a practice table: robot accounts sit there
    decided(table, 0.0, seating.create, "p0", "Ann")
    decided(table, 0.0, seating.sit, "b1", "Botty", 1, table.seq)
    decided(table, 0.0, seating.add_robot, "p0", 2, "random", table.seq)
    decided(table, 0.0, seating.add_robot, "p0", 3, "random", table.seq)
    decided(table, 0.0, play.start, "p0", table.seq)
    before = table.snapshot()
    for player, code in (("p0", "needs_two_people"), ("b1", "not_voter")):
        with pytest.raises(ProtocolError) as refused:
            decided(table, 1.0, votes.propose_cancel, player, table.seq)
        assert refused.value.code == code
    assert table.snapshot() == before

    table = Table(
        "t", 4, TableOptions(deals=3, competitive=False), Timing()
    )  # a practice table: robot accounts sit there
    decided(table, 0.0, seating.create, "p0", "Ann")
    decided(table, 0.0, seating.sit, "p1", "Bob", 1, table.seq)
    decided(table, 0.0, seating.sit, "b2", "Botty", 2, table.seq)
    decided(table, 0.0, seating.add_robot, "p0", 3, "random", table.seq)
    decided(table, 0.0, play.start, "p0", table.seq)
    proposed = decided(table, 1.0, votes.propose_cancel, "p0", table.seq)
    assert proposed[-1]["voters"] == [0, 1]
    ended = decided(table, 2.0, votes.cast_vote, "p1", True, table.seq)
    assert ended[-1]["type"] == "cancel_end" and ended[-1]["cancelled"] is True


def test_robots_playing_do_not_make_a_proposal_stale_but_a_new_game_does() -> None:
    """A proposal answers the game under way, not its last card: robots play while a person reaches for the
    button (a page one event behind was refused as stale, again and again). One made during an earlier game is
    stale in the next, and changes nothing."""
    shuffles = random.Random(0)  # the same deals each run (a petit sec, one deal in 450, is dealt again later)
    with patch.object(play, "secrets", SimpleNamespace(token_hex=lambda n: shuffles.randbytes(n).hex())):
        table = table_of(4, 2)
    seen = table.seq  # Ann's page, as the game started
    bot = make_bot("random", 1)
    while table.seq == seen or table.to_act() in (2, 3):  # the robots bid (and Bob, if they come later)
        to_act = table.to_act()
        assert to_act is not None
        body = action_to_json(to_act, bot.choose(table.deal.observation(to_act)))  # type: ignore[union-attr]
        del body["seat"]
        decided(table, 1.0, play.play, to_act, body, by="robot")
    assert table.guard_seq > seen  # a card Ann chose on her page would be stale; her proposal is not
    proposed = decided(table, 2.0, votes.propose_cancel, "p0", seen)
    assert [e["type"] for e in proposed] == ["cancel_proposed"]
    ended = decided(table, 3.0, votes.cast_vote, "p1", True, table.seq)
    assert ended[-1]["type"] == "cancel_end" and ended[-1]["cancelled"] is True

    before_game = table.seq  # a proposal clicked as the cancelled game ended, arriving after a new game's start
    decided(table, 4.0, play.start, "p0", table.seq)
    restored = type(table).from_snapshot(table.snapshot())  # the game's first event is kept with the table
    for t in (table, restored):
        before = t.snapshot()
        with pytest.raises(ProtocolError) as refused:
            decided(t, 5.0, votes.propose_cancel, "p1", before_game)
        assert refused.value.code == "stale" and t.snapshot() == before


class Model:
    """Who is seated and present, as the events say: the test's own count, not the table's."""

    def __init__(self, people: int) -> None:
        self.people = set(range(people))
        self.absent: set[int] = set()  # told by an event
        self.automatic: set[int] = set()  # their turn clock ran out: a robot plays, they do not vote
        self.lost: set[int] = set()  # without a connection (runtime: no event yet)
        self.left: set[int] = set()
        self.yes: set[int] = set()
        self.by = -1

    def here(self) -> set[int]:
        return self.people - self.absent - self.lost - self.left

    def present(self) -> set[int]:
        return self.here() - self.automatic

    def follow(self, events: list[dict[str, Any]]) -> None:
        for e in events:
            kind = e["type"]
            if kind == "abandon":
                self.left.add(e["seat"])
            elif kind == "absent":
                self.absent.add(e["seat"])
            elif kind == "present":
                self.absent.discard(e["seat"])
            elif kind == "automatic":
                (self.automatic.add if e["on"] else self.automatic.discard)(e["seat"])
            elif kind == "cancel_proposed":
                self.by = e["by"]
                self.yes = {e["by"]}
            elif kind == "vote" and e["accept"]:
                self.yes.add(e["seat"])
            elif kind == "cancel_end" and e["cancelled"]:
                agreeing = self.yes & (self.present() | ({self.by} & self.here()))  # the proposer, automatic or not
                assert len(agreeing) >= 2, f"cancelled with the agreement of {sorted(agreeing)} only: {e}"
                assert len(self.yes) >= 2


STEP = st.tuples(
    st.sampled_from(["propose", "yes", "no", "leave", "lost", "back", "wait", "play"]),
    st.integers(0, 4),
    st.sampled_from([1.0, 11.0, 61.0, 200.0]),
)


@settings(max_examples=150, deadline=None)
@given(
    players=st.sampled_from([3, 4, 5]),
    people=st.integers(1, 5),
    steps=st.lists(STEP, max_size=30),
    seed=st.integers(0, 1000),
)
def test_no_vote_passes_without_two_people_present(players: int, people: int, steps: list, seed: int) -> None:
    """Whatever people do during votes (propose, accept, refuse, leave, lose their connection, come back,
    let the time run out, play on), a game is cancelled only with two people present who accepted, and a
    proposal is refused exactly when fewer than two people are present."""
    people = min(people, players)
    shuffles = random.Random(seed)  # the table's seeds too: the same steps, the same deals (hypothesis replays)
    with patch.object(play, "secrets", SimpleNamespace(token_hex=lambda n: shuffles.randbytes(n).hex())):
        table = table_of(players, people)
        play_steps(table, people, players, steps, seed)


def play_steps(table: Table, people: int, players: int, steps: list, seed: int) -> None:
    model = Model(people)
    bot = make_bot("random", seed)
    now = 1.0
    for what, who, dt in steps:
        if table.status != "playing":
            break
        seat = who % players
        player = f"p{seat}"
        events: list[dict[str, Any]] = []
        try:
            if what == "propose":
                alone = len(model.present() | {seat}) < 2
                try:
                    events = decided(table, now, votes.propose_cancel, player, table.seq)
                except ProtocolError as refused:
                    if refused.code == "needs_two_people":
                        assert alone
                    raise
                assert not alone
            elif what in ("yes", "no"):
                events = decided(table, now, votes.cast_vote, player, what == "yes", table.seq)
            elif what == "leave":
                events = decided(table, now, seating.leave, player, table.seq)
            elif what == "lost" and seat in model.people - model.left:
                clocks.connection_lost(table, seat, now)
                model.lost.add(seat)
            elif what == "back" and seat in model.people - model.left:
                events = decided(table, now, clocks.connection_back, player)
                model.lost.discard(seat)
            elif what == "wait":
                now += dt
                while more := decided(table, now, clocks.tick):
                    events += more
            elif what == "play" and table.vote is None:
                if table.deal.is_over:
                    events = decided(table, when_next_deal(table), clocks.tick)
                else:
                    to_act = table.deal.to_act
                    body = action_to_json(to_act, bot.choose(table.deal.observation(to_act)))
                    del body["seat"]
                    events = decided(table, now, play.play, to_act, body, by="robot")
        except ProtocolError:
            continue
        model.follow(events)
        if table.vote is not None:  # a vote still running: two of its voters have neither left nor been absent
            assert len(set(table.vote["voters"]) - model.left - model.absent) >= 2

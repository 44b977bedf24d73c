"""The game session model behind ``atout play``, without the UI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from atout.engine import PASS, Bid, IllegalAction, Play
from atout.engine.record import replay
from atout.tui.game import HUMAN, DealSummary, Game, default_level, hint_level


def run_deal(game: Game) -> DealSummary:
    """Robots play every seat, the person's included."""
    deal = game.deal
    while True:
        seat = deal.to_act
        action = game.robot(seat).choose(deal.observation(seat))
        summary = game.apply(action, seat=seat)
        if summary is not None:
            return summary


def play_game(game: Game) -> None:
    while not game.is_over:
        game.start_deal()
        if not game.deal.is_over:
            run_deal(game)


def test_settings_are_checked():
    with pytest.raises(ValueError):
        Game(players=6)
    with pytest.raises(ValueError):
        Game(level="nobody")
    with pytest.raises(ValueError):
        Game(deals=0)
    assert default_level() in ("heuristic", "random")
    assert hint_level() in ("expert", "search", "heuristic", "random")


def test_dealer_rotates_and_void_deals_do_not_count():
    game = Game(players=4, level="random", deals=3, seed="rotate")
    first = game.dealer
    dealers = []
    while not game.is_over:
        game.start_deal()
        dealers.append(game.deal.dealer)
        if not game.deal.is_over:
            run_deal(game)
    assert dealers == [(first + k) % 4 for k in range(len(dealers))]
    assert game.deals_played == 3
    assert len(game.sheet) == len(dealers)
    assert [s.number for s in game.counted] == [1, 2, 3]
    with pytest.raises(RuntimeError):
        game.start_deal()


def test_all_pass_is_void_and_redealt():
    game = Game(players=3, level="random", deals=1, seed="void")
    game.start_deal()
    while game.deal.phase == "petit_sec" or game.deal.is_over:
        game.start_deal()
    summary = None
    while summary is None:
        summary = game.apply(Bid(PASS), seat=game.deal.to_act)
    assert summary.void == "all_pass" and summary.number == 0
    assert game.deals_played == 0 and not game.is_over
    assert game.totals == [0, 0, 0]
    assert game.deal_number == 1  # the void deal 1 is over: deal 1 still, dealt again (issue 34: it said 0)
    game.start_deal()
    assert game.deal_number == 1


def test_totals_and_ranking():
    game = Game(players=4, level="random", deals=2, seed="rank")
    play_game(game)
    totals = game.totals
    assert sum(totals) == 0
    assert totals == [sum(s.scores[i] for s in game.counted) for i in range(4)]
    ranking = game.ranking()
    assert [t for _, _, t in ranking] == sorted(totals, reverse=True)
    assert ranking[0][0] == 1


def test_ranking_shares_places():
    game = Game(players=3, level="random", deals=1, seed="tie")
    game.sheet = [DealSummary(1, 0, "s", None, 0, "prise", None, True, [50, -25, -25])]
    assert game.ranking() == [(1, 0, 50), (2, 1, -25), (2, 2, -25)]


def test_illegal_action_changes_nothing():
    game = Game(players=4, level="random", deals=1, seed="illegal")
    game.start_deal()
    seat = game.deal.to_act
    before = list(game.deal.history)
    with pytest.raises(IllegalAction):
        game.apply(Play(0), seat=seat)
    assert game.deal.history == before


def test_save_resume_mid_deal_and_records(tmp_path):
    game = Game(players=5, level="random", deals=2, seed="save", save_dir=tmp_path)
    game.start_deal()
    while game.deal.is_over:
        game.start_deal()
    for _ in range(12):
        seat = game.deal.to_act
        if game.apply(game.robot(seat).choose(game.deal.observation(seat)), seat=seat):
            break
    path = game.save()
    data = json.loads(path.read_text())
    assert data["format"] == "atout-game" and data["players"] == 5
    resumed = Game.load(path)
    assert resumed.deal.history == game.deal.history
    assert resumed.deal.hands == game.deal.hands
    assert (resumed.dealer, resumed.deal_index, resumed.seed) == (game.dealer, game.deal_index, game.seed)
    # Finish the game from the resumed copy: every finished deal has its record.
    if not resumed.deal.is_over:
        run_deal(resumed)
    play_game(resumed)
    assert resumed.is_over
    records = sorted((tmp_path / "records").glob("*.json"))
    assert len(records) == len(resumed.sheet)
    for line in resumed.sheet:
        record = json.loads(Path(line.record).read_text(encoding="utf-8"))
        assert replay(record).deal.result.scores == line.scores
    again = Game.load(tmp_path / "game.json")
    assert again.totals == resumed.totals and again.is_over
    # The game's last screen measures every deal (issue 50): the deals this run played from memory, the others read
    # back from their saved files, in the sheet's order; a deal whose file is gone is left out.
    scores = [line.scores for line in resumed.sheet]
    assert [replay(r).deal.result.scores for r in resumed.finished_records()] == scores
    kept = [json.loads(Path(line.record).read_text(encoding="utf-8")) for line in again.sheet]
    assert again.records == {} and again.finished_records() == kept
    Path(again.sheet[0].record).unlink()
    assert again.finished_records() == kept[1:]


def test_load_refuses_other_files(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"format": "atout-deal"}))
    with pytest.raises(ValueError):
        Game.load(path)


def test_deals_are_reproducible_from_the_seed():
    a = Game(players=4, level="random", deals=1, seed="same")
    b = Game(players=4, level="random", deals=1, seed="same")
    a.start_deal()
    b.start_deal()
    assert a.dealer == b.dealer and a.deal.hands == b.deal.hands


def test_the_person_sees_only_their_observation():
    game = Game(players=4, level="random", deals=1, seed="obs")
    game.start_deal()
    obs = game.observation()
    assert obs.seat == HUMAN and obs.hand == game.deal.hands[HUMAN]
    with pytest.raises(RuntimeError):
        while game.deal.to_act != HUMAN:
            seat, action = game.robot_choice()
            game.apply(action, seat=seat)
        game.robot_choice()


def test_a_failing_save_does_not_end_the_game(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    game = Game(players=3, level="random", deals=1, seed="nosave", save_dir=blocker / "sub")
    play_game(game)
    assert game.is_over and game.save_error


def test_the_start_screen_offers_levels_by_their_peoples_names() -> None:
    from atout.tui.start import offered_levels

    assert offered_levels("heuristic") == (["beginner", "club", "expert"], "club")
    assert offered_levels("expert") == (["beginner", "club", "expert"], "expert")
    assert offered_levels("random") == (["random", "beginner", "club", "expert"], "random")
    assert "expert-1" not in offered_levels("club")[0]  # the frozen yardstick is for the arena, not people


def test_a_saved_game_naming_a_retired_level_resumes_with_the_expert(tmp_path):
    """A game saved when expert-2 was a level (issue 39 retired it) resumes, its robots the expert."""
    game = Game(players=3, level="random", deals=1, seed="retired", save_dir=tmp_path)
    game.start_deal()
    path = game.save()
    data = json.loads(path.read_text())
    data["level"] = "expert-2"
    path.write_text(json.dumps(data))
    assert Game.load(path).level == "expert"

"""The course as data: every lesson plays to its end the same way each time, every step has a wrong answer and a
right one, every right answer leads on to the end, every verdict has its words in three languages with what
they name, and what each lesson tells the learner of its deal is true of it."""

from __future__ import annotations

import json

import pytest

from atout.engine.cards import card_code, parse_card
from atout.learn import LESSONS, Answer, Ask, LessonRun, WrongAnswer, replay
from atout.learn.lessons import BY_ID
from atout.learn.run import LessonError, parse_move
from atout.learn.texts import LANGUAGES, PLACEHOLDER, words
from atout.learn.wire import state_json

from .walker import candidates, walk

IDS = [lesson.id for lesson in LESSONS]


def test_the_course_has_the_ten_topics_and_more():
    assert len(LESSONS) >= 10
    assert IDS[:1] == ["cards"] and IDS[-1] == "scoring"
    assert {"follow", "trumps", "excuse", "counting", "bidding", "ecart", "defence", "bonuses", "five"} <= set(IDS)
    assert any(lesson.players == 5 for lesson in LESSONS)


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_each_step_refuses_a_wrong_answer_and_takes_a_right_one_with_words_for_both(lesson):
    run, seen = walk(lesson)
    assert run.done and len(seen) == len(lesson.steps)
    for judged in seen:
        assert judged.wrongs, f"{lesson.id}.{judged.step}: nothing tried was wrong"
        for answer, verdict in judged.answers:
            for language in LANGUAGES:
                text = words(language).get(verdict.key)
                assert text, f"{verdict.key} has no words in {language}"
                missing = set(PLACEHOLDER.findall(text)) - set(verdict.args)
                assert not missing, f"{verdict.key} in {language} names {missing}, not given for {answer}"


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_right_answer_leads_on_to_the_lesson_s_end(lesson):
    """A learner may give any right answer (any heart that follows): the robots' prepared moves and the rest of
    the lesson still hold, to its end."""
    _, seen = walk(lesson)
    canonical = [judged.rights[0] for judged in seen]
    for i, judged in enumerate(seen):
        for other in judged.rights[1:]:
            run = LessonRun(lesson)
            for answer in canonical[:i]:
                assert run.answer(answer).right
            assert run.answer(other).right
            while not run.done:  # the first right answer of each step after
                right = next(a for a in candidates(run) if run.answer(a).right)
                assert right is not None


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_a_lesson_plays_the_same_way_every_time(lesson):
    def states():
        run, _ = walk(lesson)
        return json.dumps(state_json(run), sort_keys=True)

    assert states() == states()


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_question_s_words_have_what_they_name(lesson):
    run = LessonRun(lesson)
    while not run.done:
        ask = state_json(run)["ask"]
        for language in LANGUAGES:
            text = words(language)[ask["key"]]
            assert set(PLACEHOLDER.findall(text)) <= set(ask["args"]), (ask["key"], language)
            for option in ask.get("options", []):
                assert option["key"] is None or option["key"] in words(language)
        next(a for a in candidates(run) if run.answer(a).right)


def run_through(lesson_id: str) -> LessonRun:
    run, _ = walk(BY_ID[lesson_id])
    return run


def test_what_the_lessons_say_of_their_deals_is_true():
    """The facts the words state, held to the deals (a robot's change that broke a story fails here)."""
    cards = run_through("cards")
    first = cards.deal.tricks[0]
    assert (
        first.winner == 0
        and all(c >= 56 for _, c in first.plays)
        and parse_card("T1") not in dict(first.plays).values()
    )
    follow = run_through("follow").deal.tricks
    assert [card_code(c) for _, c in follow[0].plays] == ["4H", "10H", "KH", "QH"] and follow[1].leader == 3
    assert follow[2].plays[0] == (1, parse_card("KD")) and follow[2].winner == 1
    trumps = run_through("trumps").deal.tricks
    assert trumps[0].plays[2] == (3, parse_card("T8")) and trumps[2].plays[0] == (1, parse_card("T20"))
    defence = run_through("defence").deal.tricks
    assert defence[2].winner == 2 and defence[2].plays[0] == (2, parse_card("T21"))
    bonuses = run_through("bonuses").deal
    assert bonuses.result is not None and bonuses.result.petit_au_bout == "taker"
    assert [p["size"] for p in bonuses.result.poignees] == ["simple"] and bonuses.result.contract == "garde_sans"
    five = run_through("five").deal
    assert five.partner == 3 and five.called == parse_card("KC")
    scoring = run_through("scoring").deal.result
    assert scoring is not None and scoring.contract == "garde" and not scoring.poignees
    assert scoring.petit_au_bout is None and scoring.chelem is None


def test_the_petit_au_bout_comes_whichever_trump_the_learner_leads_first():
    """The lesson keeps the Petit for the last trick, and it wins there, whatever high trump opened the play."""
    lesson = BY_ID["bonuses"]
    _, seen = walk(lesson)
    leads = seen[1].rights
    assert len(leads) >= 5
    for lead in leads:
        run = LessonRun(lesson)
        run.answer(seen[0].rights[0])
        run.answer(lead)
        assert run.current is not None and run.current.name == "keep"
        assert run.deal.hands[0].bit_count() == 2 and run.deal.hands[0] >> parse_card("T1") & 1
        run.answer(next(a for a in candidates(run) if a.card != parse_card("T1")))
        assert run.deal.result is not None and run.deal.result.petit_au_bout == "taker", card_code(lead.card)


def test_an_answer_given_as_right_that_is_not_is_refused_on_replay():
    lesson = BY_ID["follow"]
    with pytest.raises(WrongAnswer) as caught:
        replay(lesson, [Answer(card=parse_card("QH")), Answer(card=parse_card("KC"))])
    assert caught.value.step == 1
    with pytest.raises(WrongAnswer):
        replay(
            lesson,
            [
                Answer(card=parse_card("QH")),
                Answer(card=parse_card("T6")),
                Answer(card=parse_card("9H")),
                Answer(card=parse_card("8H")),
            ],
        )
    run = replay(lesson, [Answer(card=parse_card("QH")), Answer(card=parse_card("T6"))])
    assert run.step == 2 and run.current is not None and run.current.ask is Ask.PLAY


def test_a_refused_move_changes_nothing_and_is_the_engine_s_rule():
    run = LessonRun(BY_ID["follow"])
    before = json.dumps(state_json(run), sort_keys=True)
    verdict = run.answer(Answer(card=parse_card("KC")))
    assert (verdict.right, verdict.key, verdict.args) == (False, "rule.follow_suit", {"card": "KC", "suit": "H"})
    assert json.dumps(state_json(run), sort_keys=True) == before
    assert run.step == 0 and not run.answers


def test_a_lesson_whose_robots_cannot_move_as_written_says_so():
    from dataclasses import replace

    broken = replace(BY_ID["follow"], moves={**BY_ID["follow"].moves, 3: "pass KS"})  # Chloé holds no KS
    with pytest.raises(LessonError, match="cannot"):
        LessonRun(broken)
    with pytest.raises(ValueError):
        parse_move("ecart:")

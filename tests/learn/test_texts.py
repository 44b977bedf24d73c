"""The lessons' words: the same keys in English, French and Spanish with the same placeholders, every key a
lesson or a rule asks for, and none that nothing asks for."""

from __future__ import annotations

from atout.engine.kinds import EcartRefusal
from atout.learn import LESSONS
from atout.learn.texts import LANGUAGES, PLACEHOLDER, paragraphs, version, words

RULES = {
    "follow_suit",
    "must_trump",
    "overtrump",
    "called_suit_lead",
    "not_in_hand",
    "bid_too_low",
    "call",
    "ecart_size",
    "poignee_size",
    "poignee_trumps",
    "poignee_excuse",
    "other",
}
"""The engine's refusals a learner's move can meet (``run.engine_verdict``), and the words for any other."""
ECART = {r.value for r in EcartRefusal} - {"not_in_hand", "full"}
"""An écart's faults by card (``engine.ecart.ecart_faults``); the cards not held and the count are rules above."""


def expected_keys() -> set[str]:
    """Every text a lesson or a refusal may say: a step's ``otherwise`` only where some answer reaches it (no
    outcome takes any answer), a worded choice's options."""
    keys = {"course.title", "course.intro", *(f"rule.{r}" for r in RULES), *(f"rule.ecart.{r}" for r in ECART)}
    for lesson in LESSONS:
        keys |= {f"{lesson.id}.{part}" for part in ("title", "summary", "intro", "end")}
        for step in lesson.steps:
            base = f"{lesson.id}.{step.name}"
            keys |= {f"{base}.ask", *(f"{base}.{o.key}" for o in step.outcomes)}
            if not step.answers_all:
                keys.add(f"{base}.{step.otherwise}")
            if step.worded and step.options is not None:
                keys |= {f"{base}.{option}" for option in step.options(lesson.deal())}
    return keys


def test_every_language_has_every_key_with_the_same_placeholders():
    english = words("en")
    for language in LANGUAGES:
        theirs = words(language)
        assert set(theirs) == set(english), (language, set(english) ^ set(theirs))
        for key, text in english.items():
            assert set(PLACEHOLDER.findall(theirs[key])) == set(PLACEHOLDER.findall(text)), (language, key)
            assert theirs[key].strip(), (language, key)


def test_the_keys_are_those_the_lessons_and_rules_ask_for():
    english = set(words("en"))
    wanted = expected_keys()
    assert not wanted - english, f"asked for, missing: {sorted(wanted - english)}"
    assert not english - wanted, f"words nothing asks for: {sorted(english - wanted)}"


def test_intros_are_a_few_short_paragraphs_and_the_version_changes_with_the_words():
    for language in LANGUAGES:
        for lesson in LESSONS:
            parts = paragraphs(words(language)[f"{lesson.id}.intro"])
            assert 1 <= len(parts) <= 4 and all(len(p) < 700 for p in parts), (language, lesson.id)
    assert len(version()) == 12

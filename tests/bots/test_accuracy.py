"""A seat's accuracy in a deal (bots/accuracy.py): what its choices cost against the expert's, by phase."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from atout.bots.accuracy import (
    PHASES,
    ROLES,
    accuracy,
    combine,
    decision_cost,
    habits,
    phase_of,
    record_roles,
    role_of,
    seat_accuracy,
)
from atout.bots.analysis import analyse
from atout.engine import RuleSet, new_deal
from atout.engine.kinds import DecisionKind
from atout.engine.record import to_record

KINDS = [str(k) for k in DecisionKind]
roles = st.sampled_from([*ROLES, None])
tenths = st.integers(min_value=0, max_value=20_000).map(lambda n: n / 10)


@st.composite
def decisions(draw: st.DrawFn) -> dict:
    """A scored decision as the analysis's JSON has it: a loss ≥ 0 and its 95% interval around it."""
    loss = draw(tenths)
    below = draw(st.integers(min_value=-5_000, max_value=int(loss * 10))) / 10
    above = loss + draw(tenths)
    return {"seat": 0, "phase": draw(st.sampled_from(KINDS)), "loss": loss, "interval": [below, above]}


@given(st.lists(decisions(), max_size=40), roles)
def test_costs_are_never_negative_and_the_phases_sum_to_the_total(found, role):
    acc = accuracy(found, role)
    assert acc.total >= 0 and all(v >= 0 for v in acc.phases.values())
    assert set(acc.phases) == set(PHASES) == set(acc.counts)
    assert round(sum(acc.phases.values()), 1) == acc.total
    assert sum(acc.counts.values()) == acc.decisions == len(found)
    assert acc.costly == sum(1 for d in found if decision_cost(d) > 0)
    # the total is no more than every loss summed, and no less than what the sure losses are worth
    assert acc.total <= round(sum(d["loss"] for d in found), 1) + 0.05 * len(PHASES)
    if acc.total > 0:
        assert acc.phases[acc.main] == max(acc.phases.values())
    else:
        assert acc.main is None


@given(st.lists(decisions(), max_size=40), roles)
def test_a_seat_that_chose_as_the_expert_everywhere_costs_nothing(found, role):
    expert = [{**d, "loss": 0.0, "interval": [min(d["interval"][0], 0.0), d["interval"][1]]} for d in found]
    acc = accuracy(expert, role)
    assert acc.total == 0 and acc.costly == 0 and acc.main is None


@given(st.lists(decisions(), max_size=40), roles)
def test_a_choice_within_the_noise_costs_nothing(found, role):
    noisy = [{**d, "interval": [min(d["interval"][0], 0.0), d["interval"][1]]} for d in found]
    assert accuracy(noisy, role).total == 0


@given(st.lists(decisions(), max_size=40), roles, st.data())
def test_a_costlier_choice_never_costs_less(found, role, data):
    if not found:
        return
    i = data.draw(st.integers(min_value=0, max_value=len(found) - 1))
    worse = list(found)
    extra = data.draw(st.integers(min_value=1, max_value=500)) / 10
    low = max(worse[i]["interval"][0], 0.1)
    worse[i] = {
        **worse[i],
        "loss": worse[i]["loss"] + extra + low,
        "interval": [low, worse[i]["interval"][1] + extra + low],
    }
    assert accuracy(worse, role).total >= accuracy(found, role).total


def test_phases_by_kind_and_role():
    assert phase_of("bid", None) == phase_of("call", "taker") == phase_of("chelem", "taker") == "bid"
    assert phase_of("petit_sec", "defence") == "bid"
    assert phase_of("ecart", "taker") == "ecart"
    assert [phase_of("card", r) for r in ROLES] == ["taker", "partner", "defence"]
    assert phase_of("poignee", "partner") == "partner"
    assert role_of(2, None, None) is None
    assert (role_of(1, 1, 1), role_of(3, 1, 3), role_of(0, 1, None)) == ("taker", "partner", "defence")


def test_a_sure_loss_counts_in_its_phase():
    found = [
        {"seat": 1, "phase": "bid", "loss": 2.0, "interval": [-0.5, 4.0]},  # noise: nothing
        {"seat": 1, "phase": "ecart", "loss": 3.5, "interval": [1.2, 5.8]},
        {"seat": 1, "phase": "card", "loss": 1.0, "interval": [0.2, 1.9]},
        {"seat": 2, "phase": "card", "loss": 40.0, "interval": [30.0, 50.0]},  # another seat's
    ]
    acc = seat_accuracy({"decisions": found}, 1, "taker")
    assert acc.total == 4.5 and acc.main == "ecart" and acc.costly == 2 and acc.decisions == 3
    assert acc.phases == {"bid": 0.0, "ecart": 3.5, "taker": 1.0, "partner": 0.0, "defence": 0.0}
    assert acc.to_json()["main"] == "ecart"
    summed = combine([acc, acc])
    assert summed["deals"] == 2 and summed["loss"] == 9.0 and summed["phases"]["ecart"] == 7.0
    assert summed["played"] == {"bid": 2, "ecart": 2, "taker": 2, "partner": 0, "defence": 0}


def test_the_roles_of_a_played_deal_and_its_accuracy():
    from atout.bots import make_bot

    deal = new_deal(RuleSet(4), 0, "accuracy/1")
    bots = [make_bot("club", f"accuracy/{s}") for s in range(4)]
    while deal.to_act is not None:
        seat = deal.to_act
        deal.apply(bots[seat].choose(deal.observation(seat)), seat)
    record = to_record(deal)
    found = record_roles(record)
    taker = deal.result.taker if deal.result else None
    assert found == {s: role_of(s, taker, None) for s in range(4)}
    analysis = analyse(record, [0], factor=1).to_json()
    acc = seat_accuracy(analysis, 0, found[0])
    assert acc.decisions == analysis["totals"][0]["decisions"]
    assert acc.total <= analysis["totals"][0]["loss"] + 0.5


def test_habits_name_the_kind_of_decision_that_cost_and_where_a_card_was_led() -> None:
    """A bid above the expert's, below it, the écart, a card led (the cards before it fill whole tricks) and one
    followed, by the seat's side; a choice within the noise is no habit."""

    def scored(phase: str, index: int, loss: float, low: float, action: dict, best: dict) -> dict:
        return {
            "phase": phase,
            "index": index,
            "loss": loss,
            "interval": [low, loss + 1],
            "action": action,
            "best": best,
        }

    plays = [{"seat": s % 4, "play": "1T"} for s in range(6)]  # six cards: a trick and two cards of the second
    record = {"players": 4, "actions": [{"seat": 0, "bid": "garde"}, *plays, {"seat": 1, "play": "2T"}]}
    made = habits(
        [
            scored("bid", 0, 4.0, 1.0, {"bid": "garde"}, {"bid": "pass"}),
            scored("bid", 0, 2.0, 0.5, {"bid": "pass"}, {"bid": "prise"}),
            scored("bid", 0, 3.0, -0.5, {"bid": "garde_sans"}, {"bid": "garde"}),  # within the noise
            scored("card", 1, 5.0, 2.0, {"play": "1T"}, {"play": "2T"}),  # the first card: a lead
            scored("card", 5, 1.5, 0.2, {"play": "1T"}, {"play": "2T"}),  # after four cards: a lead
            scored("card", 7, 2.5, 0.2, {"play": "2T"}, {"play": "3T"}),  # after six: followed
            scored("ecart", 0, 6.0, 3.0, {"discard": []}, {"discard": []}),
        ],
        record,
        "defence",
    )
    assert made == {
        "bid_high": [4.0, 1],
        "bid_low": [2.0, 1],
        "defence_lead": [6.5, 2],
        "defence_follow": [2.5, 1],
        "ecart": [6.0, 1],
    }
    assert habits([scored("card", 1, 5.0, 2.0, {}, {})], record, "taker") == {"taker_lead": [5.0, 1]}

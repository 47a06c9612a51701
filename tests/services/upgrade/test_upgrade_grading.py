"""Property-based tests of the valuation and grading rules."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from services.upgrade import grading

conditions = st.sampled_from(grading.CONDITIONS)
bases = st.integers(min_value=1, max_value=100_000_000)  # cents: up to the schema's 1,000,000.00
checklists = st.fixed_dictionaries({
    "power_on": st.booleans(), "screen": st.sampled_from(list(grading.SCREEN_LEVELS)),
    "body": st.sampled_from(list(grading.BODY_LEVELS)), "functions": st.booleans(),
    "battery_health": st.integers(0, 100), "account_lock_removed": st.booleans(), "data_wiped": st.booleans(),
    "accessories": st.booleans(),
})  # fmt: skip


@given(bases, conditions)
def test_value_is_the_modifier_share_of_the_base(base: int, condition: str) -> None:
    v = grading.value_cents(base, condition)
    exact = Decimal(base) * grading.MODIFIERS[condition] / 100
    assert abs(Decimal(v) - exact) <= Decimal("0.5")
    assert 0 <= v <= base and (v > 0 or base == 1)  # a 0.01 base in poor condition rounds to 0.00
    assert grading.value_cents(base, "excellent") == base


@given(bases, conditions, conditions)
def test_a_better_grade_is_never_worth_less(base: int, a: str, b: str) -> None:
    if grading.level(a) <= grading.level(b):
        assert grading.value_cents(base, a) >= grading.value_cents(base, b)


def test_the_spec_modifiers() -> None:
    assert [grading.value_cents(10000, c) for c in grading.CONDITIONS] == [10000, 8000, 6000, 4000]


@given(st.decimals(min_value=Decimal("0.01"), max_value=Decimal("1000000"), places=2))
def test_cents_round_trip(amount: Decimal) -> None:
    assert grading.from_cents(grading.to_cents(amount)) == amount


def _worse(checklist: dict[str, Any], item: str) -> dict[str, Any]:
    c = dict(checklist)
    if item in ("power_on", "functions", "accessories"):
        c[item] = False
    elif item == "screen":
        c[item] = "cracked"
    elif item == "body":
        c[item] = "damaged"
    elif item == "battery_health":
        c[item] = max(0, c[item] - 30)
    return c


@given(checklists, st.sampled_from(["power_on", "functions", "accessories", "screen", "body", "battery_health"]))
def test_a_worse_item_never_improves_the_grade(checklist: dict[str, Any], item: str) -> None:
    before, _ = grading.assess(checklist)
    after, _ = grading.assess(_worse(checklist, item))
    assert grading.level(after) >= grading.level(before)


@given(checklists)
def test_the_grade_comes_with_its_reasons(checklist: dict[str, Any]) -> None:
    grade, reasons = grading.assess(checklist)
    assert (grade == "excellent") == (reasons == [])
    if not checklist["power_on"] or not checklist["functions"]:
        assert grade == "poor"
    assert all(r.endswith(")") for r in reasons)
    blockers = grading.blockers(checklist)
    assert bool(blockers) == (not checklist["account_lock_removed"] or not checklist["data_wiped"])

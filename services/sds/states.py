"""The formula's state machine as data (services/core/states.py), after Perfumers Vault's formula
statuses (Scheduled, Under Development, Under Evaluation, In Production, To be reformulated,
Failure; docs/sds.md). Lines change only while a formula is worked on (draft, development,
reformulation): a formula in evaluation or production is what was tested and certified."""

from services.core.states import machine, move

STATES: tuple[str, ...] = ("draft", "development", "evaluation", "production", "reformulation", "failed")
EDITABLE = frozenset({"draft", "development", "reformulation"})

FORMULA = machine(
    "formula",
    STATES,
    [
        move("draft", "start", "development"),
        move("reformulation", "start", "development"),
        move("development", "evaluate", "evaluation"),
        move("evaluation", "release", "production"),
        move("evaluation", "rework", "development"),
        move("production", "reformulate", "reformulation"),
        move("draft", "fail", "failed"),
        move("development", "fail", "failed"),
        move("evaluation", "fail", "failed"),
        move("reformulation", "fail", "failed"),
    ],
    terminal=("failed",),
)

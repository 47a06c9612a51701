"""Tax's state machines as data (services/core/states.py).

Filing (Avalara's filing statuses, cut to what a seller follows; docs/tax.md):
upcoming -> ready (the period closed) -> approved -> filed -> accepted | rejected. A transaction
of an approved period that changes makes the filing ``dirty``: its approved figure no longer holds
and it is approved again. A rejected return is corrected and approved again. Filing locks the
period's transactions; a rejection unlocks them for the correction.
"""

from services.core.states import machine, move

FILING_STATES: tuple[str, ...] = ("upcoming", "ready", "approved", "filed", "accepted", "rejected", "dirty")

FILING = machine(
    "filing",
    FILING_STATES,
    [
        move("upcoming", "close", "ready", "system"),
        move("ready", "approve", "approved"),
        move("dirty", "approve", "approved"),
        move("rejected", "approve", "approved"),
        move("approved", "change", "dirty", "system"),
        move("approved", "file", "filed"),
        move("filed", "accept", "accepted"),
        move("filed", "reject", "rejected"),
    ],
    terminal=("accepted",),
)

# The actions people take (POST filings/{id} {"action"}); "close" and "change" are the system's.
PEOPLE_ACTIONS = ("approve", "file", "accept", "reject")

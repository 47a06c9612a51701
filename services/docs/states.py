"""The document's state machine as data (services/core/states.py).

draft -> published -> archived, with unpublish (back to draft) and publishing an archived
document again. The trash is not a status: a trashed document keeps its status and comes back
with it on restore (``deleted_at`` marks it).
"""

from services.core.states import machine, move

STATES: tuple[str, ...] = ("draft", "published", "archived")

DOCUMENT = machine(
    "document",
    STATES,
    [
        move("draft", "publish", "published"),
        move("archived", "publish", "published"),
        move("published", "unpublish", "draft"),
        move("archived", "unpublish", "draft"),
        move("published", "archive", "archived"),
        move("draft", "archive", "archived"),
    ],
)
ACTION_TO = {"published": "publish", "draft": "unpublish", "archived": "archive"}
check = DOCUMENT.check

"""The product's state machine as data (services/core/states.py), as Shopify's product status:
draft -> active -> archived; an archived product comes back as a draft."""

from services.core.states import machine, move

STATES: tuple[str, ...] = ("draft", "active", "archived")

PRODUCT = machine(
    "product",
    STATES,
    [
        move("draft", "activate", "active"),
        move("active", "deactivate", "draft"),
        move("draft", "archive", "archived"),
        move("active", "archive", "archived"),
        move("archived", "restore", "draft"),
    ],
)


def action_to(current: str, target: str) -> str:
    """The action that moves a product from ``current`` to ``target`` (the body of PUT names the state)."""
    for t in PRODUCT.transitions:
        if t.source == current and t.target == target:
            return t.action
    # No such move: the check names the current state (409).
    return {"active": "activate", "archived": "archive", "draft": "restore"}[target]

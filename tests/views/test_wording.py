"""Errors in people's words: what happened and what to do, from the service's code and details."""

from __future__ import annotations

import pytest

from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import Conflict, Forbidden, NotFound, ServiceError, ValidationFailed, conflict_state
from tests.services.fulfillment.fulfillment_helpers import ctx_for, order_in
from views.ops import error_message


def test_an_over_long_scan_says_how_long_and_what_to_do(runtime: Runtime) -> None:
    code = "7" * 10_000
    order = order_in(runtime, "pending")
    with pytest.raises(ValidationFailed) as exc:
        execute(ctx_for(runtime, "device@demo.test"), "fulfillment.orders.operate", id=order.id,
                body={"operation": "pick", "items": [{"code": code}]})  # fmt: skip
    assert exc.value.message == "request body failed validation"  # the API's words stay the API's
    assert error_message(exc.value, {"code": code}) == (
        "That scan is too long (10,000 characters; at most 100). Scan the barcode again."
    )
    assert error_message(exc.value) == "That scan is too long (at most 100). Scan the barcode again."


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (NotFound("no order " + "X" * 500, {"order": "X"}), "No order XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX… (500 characters). Check it and try again."),
        (Conflict("cannot save a order that is pending"), "Cannot save an order that is pending. Someone or something changed it meanwhile: look at it again before you go on."),
        (conflict_state("order", "picked", "ship"), "Cannot ship an order that is picked. It has to be moved on first: look at the steps it offers now."),
        (Forbidden("role operator may not cancel"), "Role operator may not cancel. Ask an administrator if you need to do this."),
        (ValidationFailed("bad", {"fields": [{"field": "email", "message": "Field required", "type": "missing"}]}), "The e-mail address is missing. Fill it in and try again."),
        (ValidationFailed("bad", {"fields": [{"field": "box", "message": "Input should be 'S'", "type": "literal_error"}]}), "The box size is not one of the choices. Pick one from the list."),
        (ValidationFailed("bad", {"fields": [{"field": "items.0.quantity", "message": "Input should be less than or equal to 10000", "type": "less_than_equal"}]}), "The quantity must be at most 10,000. Type a smaller number."),
        (ValidationFailed("bad", {"fields": [{"field": "email", "message": "Value error, not a valid e-mail address", "type": "value_error"}]}), "The e-mail address: not a valid e-mail address. Check it and type it again."),
        (ServiceError("boom"), "Something went wrong; it was logged. Try again, and tell an administrator if it keeps happening."),
        (RuntimeError("secret detail"), "Something went wrong; it was logged. Try again, and tell an administrator if it keeps happening."),
    ],
)  # fmt: skip
def test_every_error_says_what_happened_and_what_to_do(error: BaseException, said: str) -> None:
    assert error_message(error) == said

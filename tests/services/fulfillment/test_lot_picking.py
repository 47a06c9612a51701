"""Lots in fulfillment's pick: the pick list of one order and a batch's walk propose lots first to expire
(Inventory's FEFO), a batch's scanned lot is checked against its bin, and the picked lots ship."""

from __future__ import annotations

from typing import Any

import pytest

from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.errors import ValidationFailed
from tests.services.fulfillment.fulfillment_helpers import ctx_for, op

BTL = "BTL-STL-750"


def _lots(staff: Ctx) -> Any:
    execute(staff, "inventory.items.update", id=BTL, body={"tracking": "lot"})
    for code in ("A-01", "B-02"):
        execute(staff, "inventory.locations.create", body={"code": code, "name": code, "parent_id": "MAIN"})
    for code, where, qty, expires in (("L-NEW", "A-01", 5, "2027-06-01"), ("L-OLD", "A-01", 2, "2027-01-01"),
                                      ("L-MID", "B-02", 3, "2027-03-01")):  # fmt: skip
        execute(staff, "inventory.lots.receive",
                body={"sku": BTL, "code": code, "location_id": where, "quantity": qty, "expires_on": expires})  # fmt: skip
    return execute(
        staff, "fulfillment.orders.create", body={"customer_name": "Ann", "lines": [{"sku": BTL, "quantity": 4}]}
    )


def _pick(staff: Ctx, batch: str, **body: Any) -> Any:
    return execute(staff, "fulfillment.batches.operate", id=batch, body={"operation": "pick", "code": BTL, **body})


def _refused(staff: Ctx, batch: str, **body: Any) -> dict[str, Any]:
    with pytest.raises(ValidationFailed) as caught:
        _pick(staff, batch, **body)
    return dict(caught.value.details or {})


def test_the_pick_list_and_the_walk_propose_lots_first_to_expire(runtime: Runtime) -> None:
    staff = ctx_for(runtime, "owner@demo.test")
    o = _lots(staff)
    listed = execute(staff, "fulfillment.orders.pick_list", id=o.order_number)
    first = listed.lines[0]
    assert (first.location_code, first.quantity) == ("A-01", 4)
    assert [(x.code, x.quantity, str(x.expires_on)) for x in first.lots] == [
        ("LOLD", 2, "2027-01-01"),
        ("LNEW", 2, "2027-06-01"),
    ]
    b = execute(staff, "fulfillment.batches.create", body={"orders": [o.id]})
    assert [(x.code, x.quantity) for x in b.lines[0].lots] == [("LOLD", 2), ("LNEW", 2)]

    assert _refused(staff, b.id, location="A-01")["reason"] == "lot_required"
    mid = _refused(staff, b.id, location="A-01", lot="L-MID")  # in stock, but in B-02
    assert mid["reason"] == "lot_not_here" and mid["quantity"] == 0 and mid["proposed"] == ["LOLD", "LNEW"]
    _pick(staff, b.id, location="A-01", lot="l old", quantity=2)
    again = _refused(staff, b.id, location="A-01", lot="L-OLD")  # its 2 units are in the tote already
    assert again["reason"] == "lot_not_here" and again["quantity"] == 0
    picked = _pick(staff, b.id, location="A-01", lot="L-NEW", quantity=2)
    assert picked.status == "picked"
    assert [(x.code, x.quantity) for x in picked.lines[0].allocations[0].lots] == [("LOLD", 2), ("LNEW", 2)]
    assert execute(staff, "fulfillment.orders.get", id=o.id).status == "picked"

    execute(staff, "fulfillment.batches.operate", id=b.id, body={"operation": "pack", "order": o.id, "box": "M"})
    shipped = op(staff, o.id, operation="ship")  # the picked lots are on the order's line
    assert [(x.code, x.quantity) for x in shipped.lines[0].lots] == [("LOLD", 2), ("LNEW", 2)]
    assert execute(staff, "inventory.lots.recall", id="L-OLD").shipped[0].reference == o.order_number
    assert execute(staff, "inventory.lots.get", id="L-NEW").on_hand == 3


def test_a_lot_for_an_untracked_item_is_refused(runtime: Runtime) -> None:
    staff = ctx_for(runtime, "owner@demo.test")
    o = execute(staff, "fulfillment.orders.create",
                body={"customer_name": "Bo", "lines": [{"sku": "MUG-CER-01", "quantity": 1}]})  # fmt: skip
    b = execute(staff, "fulfillment.batches.create", body={"orders": [o.id]})
    body = {"operation": "pick", "code": "MUG-CER-01", "lot": "L-1", "location": b.lines[0].location_code}
    with pytest.raises(ValidationFailed) as caught:
        execute(staff, "fulfillment.batches.operate", id=b.id, body=body)
    assert (caught.value.details or {})["reason"] == "not_tracked"
    assert execute(staff, "fulfillment.orders.pick_list", id=o.id).lines[0].lots == []

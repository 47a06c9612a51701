"""A single order's shipment records the serials and lots of its tracked items and takes those units out
of Inventory (a recall and After-sale's shipped-serial check find them); bad paths store nothing."""

from __future__ import annotations

from typing import Any

import pytest

from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.errors import Conflict, ValidationFailed
from services.inventory.serials import has_shipped
from tests.services.fulfillment.fulfillment_helpers import ctx_for, op

HDP, MUG, BTL = "HDP-USB-C", "MUG-CER-01", "BTL-STL-750"


def _packed(ctx: Ctx, **lines: int) -> Any:
    body = {
        "customer_name": "Ann",
        "lines": [{"sku": sku.replace("_", "-"), "quantity": q} for sku, q in lines.items()],
    }
    o = execute(ctx, "fulfillment.orders.create", body=body)
    op(ctx, o.id, operation="pick", items=[{"code": ln.sku, "quantity": ln.quantity} for ln in o.lines])
    op(ctx, o.id, operation="pack", box="M")
    return o


def _on_hand(ctx: Ctx, sku: str, location: str) -> int:
    page = execute(ctx, "inventory.stock.list", query={"sku": sku, "location_id": location, "include_children": False})
    return sum(r.quantity for r in page.items)


def _refused(ctx: Ctx, order_id: str, kind: type[Exception], **body: Any) -> dict[str, Any]:
    with pytest.raises(kind) as caught:
        op(ctx, order_id, operation="ship", **body)
    assert execute(ctx, "fulfillment.orders.get", id=order_id).status == "packed"  # nothing stored
    return dict(caught.value.details or {})  # type: ignore[attr-defined]


def test_a_serial_tracked_line_ships_its_scanned_serial(runtime: Runtime) -> None:
    staff = ctx_for(runtime, "owner@demo.test")
    execute(staff, "inventory.serials.receive", body={"sku": HDP, "location_id": "MAIN", "serials": ["HP-1", "HP-2"]})
    o = _packed(staff, HDP_USB_C=1, MUG_CER_01=1)
    hdp_line = next(ln for ln in o.lines if ln.sku == HDP)
    before = _on_hand(staff, HDP, "MAIN")

    missing = _refused(staff, o.id, ValidationFailed)
    assert missing["reason"] == "serial_required" and missing["line_id"] == hdp_line.id
    assert (missing["needed"], missing["given"]) == (1, 0)
    assert _refused(staff, o.id, Conflict, units=[{"code": HDP, "serial": "HP-9"}])["reason"] == "serial_not_here"
    assert _refused(staff, o.id, ValidationFailed, units=[{"code": "NTB-A5-DOT", "serial": "HP-1"}])["reason"] == (
        "not_on_order"
    )
    # The mug tracks nothing: a serial for it is refused, naming its line.
    bad = _refused(
        staff, o.id, ValidationFailed, units=[{"code": HDP, "serial": "HP-1"}, {"code": MUG, "serial": "X1"}]
    )
    assert bad["reason"] == "not_tracked" and bad["sku"] == MUG
    two = _refused(
        staff, o.id, ValidationFailed, units=[{"code": HDP, "serial": "hp-1"}, {"code": HDP, "serial": "HP1"}]
    )
    assert two["reason"] == "serial_twice"
    assert not has_shipped_in(runtime, "HP1")

    shipped = op(staff, o.id, operation="ship", units=[{"code": HDP, "serial": "hp 1"}])
    assert shipped.status == "shipped"
    assert next(ln for ln in shipped.lines if ln.sku == HDP).serials == ["HP1"]
    unit = execute(staff, "inventory.serials.get", id="HP1")
    assert unit.status == "shipped" and unit.reference == o.order_number and unit.location_id is None
    assert has_shipped_in(runtime, "HP-1") and not has_shipped_in(runtime, "HP-2")
    assert _on_hand(staff, HDP, "MAIN") == before - 1  # one unit left, not two (no double take-out)

    again = _packed(staff, HDP_USB_C=1)
    assert _refused(staff, again.id, Conflict, units=[{"code": HDP, "serial": "HP-1"}])["reason"] == "serial_shipped"


def has_shipped_in(rt: Runtime, serial: str) -> bool:
    with rt.db.reading(None) as s:
        return has_shipped(s, serial)


def test_a_lot_tracked_line_ships_from_its_lots_and_a_recall_finds_the_order(runtime: Runtime) -> None:
    staff = ctx_for(runtime, "owner@demo.test")
    execute(staff, "inventory.items.update", id=BTL, body={"tracking": "lot"})
    execute(staff, "inventory.locations.create", body={"code": "A-01", "name": "Shelf A-01", "parent_id": "MAIN"})
    execute(staff, "inventory.lots.receive", body={"sku": BTL, "code": "L-1", "location_id": "MAIN", "quantity": 2})
    execute(staff, "inventory.lots.receive", body={"sku": BTL, "code": "L-2", "location_id": "A-01", "quantity": 5})
    o = _packed(staff, BTL_STL_750=3)

    short = _refused(staff, o.id, ValidationFailed, units=[{"code": BTL, "lot": "L-1", "quantity": 2}])
    assert short["reason"] == "lot_required" and (short["needed"], short["given"]) == (3, 2)
    over = _refused(staff, o.id, Conflict, units=[{"code": BTL, "lot": "L-1", "quantity": 3}])
    assert over["reason"] == "lot_short" and over["quantity"] == 2 and over["line_id"] == o.lines[0].id
    assert _refused(staff, o.id, Conflict, units=[{"code": BTL, "lot": "L-9", "quantity": 3}])["reason"] == (
        "unknown_lot"
    )
    serial = _refused(staff, o.id, ValidationFailed, units=[{"code": BTL, "serial": "S-1"}])
    assert serial["reason"] == "lot_required"
    assert execute(staff, "inventory.lots.get", id="L-1").on_hand == 2  # nothing moved by the refusals

    units = [{"code": BTL, "lot": "l1", "quantity": 2}, {"code": BTL, "lot": "L-2", "quantity": 1}]
    shipped = op(staff, o.id, operation="ship", units=units)
    assert [(x.code, x.quantity) for x in shipped.lines[0].lots] == [("L1", 2), ("L2", 1)]
    one = execute(staff, "inventory.lots.recall", id="L-1")
    assert [(x.reference, x.quantity) for x in one.shipped] == [(o.order_number, 2)] and one.lot.on_hand == 0
    two = execute(staff, "inventory.lots.recall", id="L-2")
    assert two.shipped_quantity == 1 and two.lot.places[0].location_code == "A-01" and two.lot.on_hand == 4


def test_a_serial_picked_in_a_batch_ships_with_its_order(runtime: Runtime) -> None:
    staff = ctx_for(runtime, "owner@demo.test")
    execute(staff, "inventory.serials.receive", body={"sku": HDP, "location_id": "MAIN", "serials": ["B-77"]})
    o = execute(
        staff, "fulfillment.orders.create", body={"customer_name": "Bo", "lines": [{"sku": HDP, "quantity": 1}]}
    )
    b = execute(staff, "fulfillment.batches.create", body={"orders": [o.id]})
    op_b = {"operation": "pick", "location": "MAIN", "code": HDP, "serial": "b77"}
    execute(staff, "fulfillment.batches.operate", id=b.id, body=op_b)
    execute(staff, "fulfillment.batches.operate", id=b.id, body={"operation": "pack", "order": o.id, "box": "S"})
    shipped = op(staff, o.id, operation="ship")  # the batch's pick put the serial on the order's line
    assert shipped.lines[0].serials == ["B77"] and has_shipped_in(runtime, "B77")


def test_units_taken_back_drop_their_codes_last_first() -> None:
    """An unpick leaves the line naming no more serials or lot units than it still has picked."""
    from local_db.models.fulfillment import FulfillmentLine
    from services.fulfillment.orders import _trim_codes

    ln = FulfillmentLine(picked_quantity=1, serials=["A1", "A2", "A3"], lots=[])
    _trim_codes(ln)
    assert ln.serials == ["A1"]
    ln = FulfillmentLine(
        picked_quantity=3, serials=[], lots=[{"code": "L1", "quantity": 2}, {"code": "L2", "quantity": 3}]
    )
    _trim_codes(ln)
    assert ln.lots == [{"code": "L1", "quantity": 2}, {"code": "L2", "quantity": 1}]
    ln.picked_quantity = 1
    _trim_codes(ln)
    assert ln.lots == [{"code": "L1", "quantity": 1}]
    untouched = FulfillmentLine(picked_quantity=2, serials=["S1"], lots=None)
    _trim_codes(untouched)
    assert untouched.serials == ["S1"] and untouched.lots is None

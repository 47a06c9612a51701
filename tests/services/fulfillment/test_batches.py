"""Batch picking through ``execute``: one walk by bin, scans put to orders, pack per order, bad paths."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from local_db.models import Event
from local_db.models.fulfillment_batches import FulfillmentBatch, FulfillmentBatchOrder
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed
from tests.services.fulfillment.fulfillment_helpers import ctx_for, order_in

OWNER, DEVICE = "owner@demo.test", "device@demo.test"
MUG, TSH, HDP = "MUG-CER-01", "TSH-BLK-M", "HDP-USB-C"


def _bins(ctx: Ctx) -> None:
    """Two shelves under MAIN (the shipping location): A-01 holds T-shirts, B-02 two mugs."""
    for code in ("B-02", "A-01"):
        execute(ctx, "inventory.locations.create", body={"code": code, "name": f"Shelf {code}", "parent_id": "MAIN"})
    execute(ctx, "inventory.stock.adjust", body={"sku": TSH, "location_id": "A-01", "delta": 5})
    execute(ctx, "inventory.stock.adjust", body={"sku": MUG, "location_id": "B-02", "delta": 2})


def _order(ctx: Ctx, name: str, **lines: int) -> Any:
    body = {"customer_name": name, "lines": [{"sku": sku.replace("_", "-"), "quantity": q} for sku, q in lines.items()]}
    return execute(ctx, "fulfillment.orders.create", body=body)


def _batch_op(ctx: Ctx, batch: str, **body: Any) -> Any:
    return execute(ctx, "fulfillment.batches.operate", id=batch, body=body)


def _count(rt: Runtime, model: Any) -> int:
    with rt.db.reading(None) as s:
        return int(s.execute(select(func.count()).select_from(model)).scalar_one())


def _events(rt: Runtime, type_: str) -> list[dict[str, Any]]:
    with rt.db.reading(None) as s:
        return [e.data for e in s.execute(select(Event).where(Event.type == type_)).scalars()]


def test_a_batch_is_one_walk_by_bin_picked_by_scan_and_packed_per_order(runtime: Runtime) -> None:
    staff, device = ctx_for(runtime, OWNER), ctx_for(runtime, DEVICE)
    _bins(staff)
    o1 = _order(staff, "Ann", MUG_CER_01=1, TSH_BLK_M=2)
    o2 = _order(staff, "Bob", MUG_CER_01=2)
    o3 = _order(staff, "Cy", TSH_BLK_M=1)
    b = execute(staff, "fulfillment.batches.create", body={"orders": [o1.order_number, o2.id, o3.pick_barcode]})
    assert b.status == "open" and b.batch_number.startswith("B-") and b.order_count == 3 and b.unit_count == 6
    assert [o.slot for o in b.orders] == [1, 2, 3]
    # One walk: bins in code order (A-01, B-02, MAIN), each item's quantity summed over the orders.
    walk = [(ln.location_code, ln.sku, ln.quantity) for ln in b.lines]
    assert walk == [("A-01", TSH, 3), ("B-02", MUG, 2), ("MAIN", MUG, 1)]
    assert [(a.order_number, a.quantity) for a in b.lines[0].allocations] == [
        (o1.order_number, 2),
        (o3.order_number, 1),
    ]
    assert b.allowed_actions == ["pick", "cancel"]
    assert _events(runtime, "batch.created")[-1]["order_ids"] == [o1.id, o2.id, o3.id]

    first = _batch_op(device, b.batch_number, operation="pick", location="a-01", code=TSH, quantity=2)
    assert first.status == "picking" and [(p.order_number, p.slot, p.quantity) for p in first.put_to] == [
        (o1.order_number, 1, 2)
    ]
    third = _batch_op(device, b.id, operation="pick", location="A-01", code=TSH)
    assert third.put_to[0].order_number == o3.order_number
    # Cy's order had one T-shirt: complete, so it is picked like an order picked alone.
    assert next(o for o in third.orders if o.order_id == o3.id).status == "picked"
    assert _events(runtime, "order.picked")[-1]["order_id"] == o3.id
    for loc in ("B-02", "B-02", "MAIN"):
        last = _batch_op(device, b.id, operation="pick", location=loc, code=MUG)
    assert last.status == "picked" and last.picked_units == 6 and last.picked_at is not None
    assert {o.status for o in last.orders} == {"picked"}
    assert _events(runtime, "batch.picked")[-1]["batch_id"] == b.id
    # Packed per order; the last one packs the batch.
    for o in (o1, o2):
        packed = _batch_op(device, b.id, operation="pack", order=o.order_number, box="M", weight_grams=800)
        assert packed.order is not None and packed.order.status == "packed" and packed.status == "picked"
    done = _batch_op(device, b.id, operation="pack", order=o3.pick_barcode, box="S")
    assert done.status == "packed" and done.allowed_actions == ["close"]
    closed = _batch_op(staff, b.id, operation="close")
    assert closed.status == "closed" and closed.closed_at is not None
    with runtime.db.reading(None) as s:
        assert s.execute(select(FulfillmentBatchOrder.open_order_id).where(
            FulfillmentBatchOrder.batch_id == b.id)).scalars().all() == [None, None, None]  # fmt: skip
    listed = execute(staff, "fulfillment.batches.list", query={"status": "closed"})
    assert [x.id for x in listed.items] == [b.id] and listed.items[0].picked_units == 6


def test_bad_scans_are_refused_and_change_nothing(runtime: Runtime) -> None:
    staff, device = ctx_for(runtime, OWNER), ctx_for(runtime, DEVICE)
    _bins(staff)
    o1 = _order(staff, "Ann", MUG_CER_01=1, TSH_BLK_M=1)
    b = execute(staff, "fulfillment.batches.create", body={"orders": [o1.id]})
    cases = [
        ({"code": "CAP-NVY", "location": "A-01"}, "not_in_batch"),
        ({"code": "no-such-thing", "location": "A-01"}, "not_in_batch"),
        ({"code": TSH}, "location_required"),
        ({"code": TSH, "location": "B-02"}, "wrong_location"),
        ({"code": TSH, "location": "A-01", "quantity": 2}, "over_pick"),
        ({"code": TSH, "location": "A-01", "serial": "X1"}, "not_tracked"),
    ]
    for body, reason in cases:
        with pytest.raises(ValidationFailed) as e:
            _batch_op(device, b.id, operation="pick", **body)
        assert e.value.details["reason"] == reason, body
    with pytest.raises(ValidationFailed) as e:
        _batch_op(device, b.id, operation="pick", code=TSH, location="B-02")
    assert e.value.details["expected"] == ["A-01"]
    again = execute(staff, "fulfillment.batches.get", id=b.batch_number.lower())
    assert again.status == "open" and again.picked_units == 0
    assert execute(staff, "fulfillment.orders.get", id=o1.id).picked_quantity == 0
    # Packing before everything is picked is a state error naming the batch's state.
    with pytest.raises(Conflict) as c:
        _batch_op(device, b.id, operation="pack", order=o1.id, box="S")
    assert c.value.details["current_state"] == "open"
    # A device picks and packs; it does not cancel a batch.
    with pytest.raises(Forbidden):
        _batch_op(device, b.id, operation="cancel")
    with pytest.raises(NotFound):
        _batch_op(device, "B-99999", operation="close")


def test_an_order_is_in_one_open_batch_and_only_pending_orders_are_batched(runtime: Runtime) -> None:
    staff = ctx_for(runtime, OWNER)
    o1 = _order(staff, "Ann", MUG_CER_01=1)
    o2 = _order(staff, "Bob", MUG_CER_01=1)
    b = execute(staff, "fulfillment.batches.create", body={"orders": [o1.id]})
    before = _count(runtime, FulfillmentBatch)
    with pytest.raises(Conflict) as e:
        execute(staff, "fulfillment.batches.create", body={"orders": [o2.id, o1.order_number]})
    assert e.value.details == {
        "reason": "in_open_batch",
        "order_number": o1.order_number,
        "batch_id": b.id,
        "batch_number": b.batch_number,
        "current_state": "open",
    }
    packed = order_in(runtime, "packed")
    with pytest.raises(Conflict) as e:
        execute(staff, "fulfillment.batches.create", body={"orders": [packed.order_number]})
    assert e.value.details["reason"] == "not_pickable" and e.value.details["current_state"] == "packed"
    with pytest.raises(NotFound):
        execute(staff, "fulfillment.batches.create", body={"orders": ["SO-999999"]})
    for bad in ({}, {"orders": []}, {"orders": [o2.id], "next": 2}, {"next": 0}, {"next": 201}):
        with pytest.raises(ValidationFailed):
            execute(staff, "fulfillment.batches.create", body=bad)
    assert _count(runtime, FulfillmentBatch) == before
    # "The next N ready orders" skips the one already in a batch; cancelling frees it.
    nxt = execute(staff, "fulfillment.batches.create", body={"next": 200})
    ids = {o.order_id for o in nxt.orders}
    assert o2.id in ids and o1.id not in ids and {o.status for o in nxt.orders} == {"pending"}
    cancelled = _batch_op(staff, b.id, operation="cancel", reason="picker off sick")
    assert cancelled.status == "cancelled" and _events(runtime, "batch.cancelled")[-1]["reason"] == "picker off sick"
    with pytest.raises(Conflict) as e:
        _batch_op(staff, b.id, operation="pick", code=MUG, location="MAIN")
    assert e.value.details["current_state"] == "cancelled"
    again = execute(staff, "fulfillment.batches.create", body={"next": 5})
    assert [o.order_id for o in again.orders] == [o1.id]
    with pytest.raises(Conflict) as e:
        execute(staff, "fulfillment.batches.create", body={"next": 5})
    assert e.value.details["reason"] == "nothing_to_pick"


def test_a_tracked_item_is_picked_by_serial_where_it_lies(runtime: Runtime) -> None:
    staff, device = ctx_for(runtime, OWNER), ctx_for(runtime, DEVICE)
    _bins(staff)
    execute(
        staff, "inventory.serials.receive", body={"sku": HDP, "location_id": "A-01", "serials": ["hp-001", "HP-002"]}
    )
    execute(staff, "inventory.serials.receive", body={"sku": HDP, "location_id": "MAIN", "serials": ["HP-003"]})
    o1 = _order(staff, "Ann", HDP_USB_C=2)
    b = execute(staff, "fulfillment.batches.create", body={"orders": [o1.id]})
    assert [(ln.location_code, ln.quantity) for ln in b.lines] == [("A-01", 2)]
    for body, reason in (
        ({}, "serial_required"),
        ({"serial": "HP-003"}, "serial_not_here"),  # in stock, but at MAIN
        ({"serial": "HP-404"}, "serial_not_here"),
        ({"serial": "HP-001", "quantity": 2}, "one_per_serial"),
    ):
        with pytest.raises(ValidationFailed) as e:
            _batch_op(device, b.id, operation="pick", code=HDP, location="A-01", **body)
        assert e.value.details["reason"] == reason, body
    one = _batch_op(device, b.id, operation="pick", code=HDP, location="A-01", serial="hp 001")
    assert one.put_to[0].serial == "HP001"
    with pytest.raises(ValidationFailed) as e:
        _batch_op(device, b.id, operation="pick", code=HDP, location="A-01", serial="HP-001")
    assert e.value.details["reason"] == "serial_already_picked"
    two = _batch_op(device, b.id, operation="pick", code=HDP, location="A-01", serial="HP-002")
    assert two.status == "picked" and two.lines[0].allocations[0].serials == ["HP001", "HP002"]


def test_an_order_cancelled_mid_batch_is_skipped(runtime: Runtime) -> None:
    staff, device = ctx_for(runtime, OWNER), ctx_for(runtime, DEVICE)
    o1 = _order(staff, "Ann", MUG_CER_01=1)
    o2 = _order(staff, "Bob", MUG_CER_01=1)
    b = execute(staff, "fulfillment.batches.create", body={"orders": [o1.id, o2.id]})
    execute(staff, "fulfillment.orders.operate", id=o1.id, body={"operation": "cancel", "reason": "changed mind"})
    res = _batch_op(device, b.id, operation="pick", code=MUG, location="MAIN")
    assert [p.order_number for p in res.put_to] == [o2.order_number] and res.status == "picked"
    with pytest.raises(Conflict) as c:
        _batch_op(device, b.id, operation="pick", code=MUG, location="MAIN")
    assert c.value.details["current_state"] == "picked"
    done = _batch_op(device, b.id, operation="pack", order=o2.id, box="S")
    assert done.status == "packed"
    with pytest.raises(Conflict):
        _batch_op(device, b.id, operation="pack", order=order_in(runtime, "pending").id, box="S")

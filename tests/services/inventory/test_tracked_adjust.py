"""A stock adjustment or count of a lot- or serial-tracked item names its lot or serial: without it 400
naming the field and nothing stored; with it the lot's or serial's stock moves with the item's row."""

from __future__ import annotations

from typing import Any

import pytest

from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.errors import Conflict, NotFound, ValidationFailed
from tests.services.fulfillment.fulfillment_helpers import ctx_for

BTL, HDP = "BTL-STL-750", "HDP-USB-C"


def _row(ctx: Ctx, sku: str) -> int:
    page = execute(ctx, "inventory.stock.list", query={"sku": sku, "location_id": "MAIN", "include_children": False})
    return sum(r.quantity for r in page.items)


def _adjust(ctx: Ctx, **body: Any) -> Any:
    return execute(ctx, "inventory.stock.adjust", body={"location_id": "MAIN", **body})


def _refused(ctx: Ctx, kind: type[Exception], **body: Any) -> dict[str, Any]:
    with pytest.raises(kind) as caught:
        _adjust(ctx, **body)
    return dict(caught.value.details or {})  # type: ignore[attr-defined]


def test_a_lot_tracked_item_is_adjusted_and_counted_through_its_lot(runtime: Runtime) -> None:
    staff = ctx_for(runtime, "owner@demo.test")
    execute(staff, "inventory.items.update", id=BTL, body={"tracking": "lot"})
    execute(staff, "inventory.lots.receive", body={"sku": BTL, "code": "L-1", "location_id": "MAIN", "quantity": 5})
    row = _row(staff, BTL)
    for body in ({"delta": -1}, {"counted": 3}):
        bad = _refused(staff, ValidationFailed, sku=BTL, **body)
        assert bad["reason"] == "lot_required" and bad["fields"][0]["field"] == "lot"
    assert _refused(staff, ValidationFailed, sku=BTL, delta=1, lot="L-1", serial="X")["fields"][0]["field"] == "serial"
    assert _refused(staff, NotFound, sku=BTL, delta=1, lot="L-9")["lot"] == "L9"
    assert _refused(staff, Conflict, sku=BTL, delta=-6, lot="L-1")["reason"] == "lot_short"
    assert _row(staff, BTL) == row and execute(staff, "inventory.lots.get", id="L1").on_hand == 5  # nothing stored

    taken = _adjust(staff, sku=BTL, delta=-2, lot="l 1", reason="broken")
    assert taken.delta == -2 and taken.quantity == row - 2
    assert execute(staff, "inventory.lots.get", id="L1").on_hand == 3
    counted = _adjust(staff, sku=BTL, counted=4, lot="L-1")
    assert counted.delta == 1 and counted.quantity == row - 1 and counted.counted_at is not None
    assert execute(staff, "inventory.lots.get", id="L1").on_hand == 4
    assert _adjust(staff, sku=BTL, counted=4, lot="L-1").movement_id is None  # the count agrees
    assert _refused(staff, ValidationFailed, sku="MUG-CER-01", delta=1, lot="L-1")["reason"] == "not_tracked"


def test_a_serial_tracked_item_is_adjusted_one_serial_at_a_time(runtime: Runtime) -> None:
    staff = ctx_for(runtime, "owner@demo.test")
    execute(staff, "inventory.serials.receive", body={"sku": HDP, "location_id": "MAIN", "serials": ["S-1"]})
    row = _row(staff, HDP)
    bad = _refused(staff, ValidationFailed, sku=HDP, delta=-1)
    assert bad["reason"] == "serial_required" and bad["fields"][0]["field"] == "serial"
    assert _refused(staff, ValidationFailed, sku=HDP, delta=2, serial="S-2")["fields"][0]["field"] == "delta"
    assert _refused(staff, Conflict, sku=HDP, delta=1, serial="S-1")["reason"] == "serial_in_stock"
    assert _refused(staff, Conflict, sku=HDP, delta=-1, serial="S-2")["reason"] == "serial_not_here"
    assert _row(staff, HDP) == row

    found = _adjust(staff, sku=HDP, delta=1, serial="s-2", reason="found on the shelf")
    assert found.quantity == row + 1 and execute(staff, "inventory.serials.get", id="S2").location_code == "MAIN"
    gone = _adjust(staff, sku=HDP, counted=0, serial="S-1")
    assert gone.delta == -1 and gone.quantity == row
    assert execute(staff, "inventory.serials.get", id="S1").status == "written_off"
    # A written-off unit found again comes back; one in stock elsewhere is refused (one place at a time).
    execute(staff, "inventory.locations.create", body={"code": "A-01", "name": "A-01", "parent_id": "MAIN"})
    assert _adjust(staff, sku=HDP, counted=1, serial="S1").delta == 1
    elsewhere = {"location_id": "A-01", "sku": HDP, "delta": 1, "serial": "S-2"}
    with pytest.raises(Conflict):
        execute(staff, "inventory.stock.adjust", body=elsewhere)

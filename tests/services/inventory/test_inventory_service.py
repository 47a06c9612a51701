"""Inventory in the service layer: a station's outbox, the ship-from setting, a tenant without the module."""

from __future__ import annotations

import dataclasses

from sqlalchemy import select

from local_db.models import OutboxEntry, Tenant
from local_db.models.inventory import InventoryMovement
from services.core.commands import execute
from services.core.context import Runtime
from services.core.demo import demo_id
from tests.services.fulfillment.fulfillment_helpers import ctx_for, op, order_in

MAIN = demo_id("inventory-location", "demo", "MAIN")
STORE = demo_id("inventory-location", "demo", "STORE")


def _qty(rt: Runtime, sku: str, loc: str) -> int:
    page = execute(ctx_for(rt, "owner@demo.test"), "inventory.stock.list", query={"sku": sku, "location_id": loc})
    return int(page.items[0].quantity) if page.items else 0


def test_a_station_adjustment_goes_to_the_outbox_with_its_ids(station: Runtime) -> None:
    ctx = ctx_for(station, "operator@demo.test")
    res = execute(ctx, "inventory.stock.adjust", body={"sku": "BAG-TOTE", "location_id": MAIN, "counted": 30})
    assert res.quantity == 30 and res.delta == -5
    with station.db.reading(None) as s:
        entry = s.execute(select(OutboxEntry).order_by(OutboxEntry.seq.desc())).scalars().first()
    assert entry is not None and entry.command == "inventory.stock.adjust"
    assert entry.path == "/demo/inventory/api/stock" and entry.body["counted"] == 30
    assert res.movement_id in entry.ids  # the platform's replay makes the same movement


def test_ship_from_the_tenant_setting(runtime: Runtime) -> None:
    with runtime.db.transaction(None) as s:
        t = s.get(Tenant, demo_id("tenant", "demo"))
        assert t is not None
        t.settings = {
            **(t.settings or {}),
            "fulfillment": {**(t.settings or {}).get("fulfillment", {}), "ship_from_location": "STORE"},
        }
    order = order_in(runtime, "packed")
    ctx = ctx_for(runtime, "owner@demo.test")
    op(ctx, order.id, operation="ship")
    with runtime.db.reading(None) as s:
        moves = s.execute(select(InventoryMovement).where(InventoryMovement.reference == order.order_number)).scalars()
        assert {m.from_location_id for m in moves} == {STORE}


def test_a_tenant_without_inventory_ships_as_before(runtime: Runtime) -> None:
    order = order_in(runtime, "packed")
    ctx = ctx_for(runtime, "owner@demo.test")
    assert ctx.tenant is not None
    ctx.tenant = dataclasses.replace(ctx.tenant, modules=ctx.tenant.modules - {"inventory"})
    op(ctx, order.id, operation="ship")
    with runtime.db.reading(None) as s:
        assert not s.execute(select(InventoryMovement).where(InventoryMovement.kind == "shipment")).first()


def test_a_transfer_carries_the_moves_its_state_allows_and_stamps_them(runtime: Runtime) -> None:
    ctx = ctx_for(runtime, "operator@demo.test")
    body = {"from_location_id": MAIN, "to_location_id": STORE, "lines": [{"sku": "BAG-TOTE", "quantity": 1}]}
    t = execute(ctx, "inventory.transfers.create", body=body)
    assert t.status == "draft" and t.allowed_actions == ["ship", "cancel"]
    shipped = execute(ctx, "inventory.transfers.update", id=t.id, body={"status": "in_transit"})
    assert shipped.allowed_actions == ["complete", "cancel"]
    assert shipped.shipped_at is not None and t.created_at <= shipped.shipped_at <= runtime.clock.now()
    listed = execute(ctx, "inventory.transfers.list", query={"status": "in_transit"}).items
    assert [x.allowed_actions for x in listed if x.id == t.id] == [["complete", "cancel"]]
    done = execute(ctx, "inventory.transfers.update", id=t.id, body={"status": "completed"})
    assert (done.status, done.allowed_actions) == ("completed", [])
    assert done.completed_at is not None and shipped.shipped_at <= done.completed_at <= runtime.clock.now()

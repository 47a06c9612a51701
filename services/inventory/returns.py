"""Returned items come back into stock: Inventory's reaction to Fulfillment's ``return.received``.

Resellable units go back into the shipping location (``ship_from``); damaged ones into the
tenant's quarantine location (kind ``quarantine``, code ``QUARANTINE``, made on first use with an
id derived from the tenant, as the transit location is), where they are counted but never
shipped or reserved. Each is a ``return`` movement with the RMA number as its reference.
"""

from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.inventory import InventoryLocation
from services.core.context import Ctx
from services.core.events import EmittedEvent, emit
from services.inventory import stock as engine

_QUARANTINE_NS = uuid.UUID("e2b7c1d4-5f6a-4b8c-9d0e-1a2b3c4d5e6f")


def quarantine_location(ctx: Ctx, s: Session) -> InventoryLocation:
    found = (
        s.execute(
            select(InventoryLocation)
            .where(InventoryLocation.kind == "quarantine")
            .order_by(InventoryLocation.created_at)
        )
        .scalars()
        .first()
    )
    if found is not None:
        return found
    code = "QUARANTINE"
    if s.execute(select(InventoryLocation.id).where(InventoryLocation.code == code)).first():
        code = "QUARANTINE-AUTO"
    loc = InventoryLocation(
        id=str(uuid.uuid5(_QUARANTINE_NS, ctx.tenant_id)),
        code=code,
        name="Quarantine (returned, damaged)",
        kind="quarantine",
        allow_negative=False,
        created_at=ctx.now(),
    )
    s.add(loc)
    s.flush()
    return loc


def on_return_received(ctx: Ctx, ev: EmittedEvent) -> None:
    """``return.received``: each received unit into stock or quarantine by its condition."""
    if ctx.operation is None or not ctx.operation[0].startswith("fulfillment."):
        return
    if ctx.tenant is None or "inventory" not in ctx.tenant.modules:
        return
    s = ctx.uow.session
    back = engine.ship_from(s, ctx.tenant_id)
    reference = str(ev.data["rma_number"])
    for item in ev.data.get("items") or []:
        target = back if item["condition"] == "resellable" else quarantine_location(ctx, s)
        if target is None:
            continue  # no location at all: nothing to put it in
        # A returned order line counts sales units (packs), as it shipped: the row counts units.
        units = int(item["quantity"]) * engine.units_per_sale(s.connection(), ctx.tenant_id, str(item["sku"]))
        mid, levels = engine.move(
            ctx,
            s,
            sku=str(item["sku"]),
            quantity=units,
            kind="return",
            source=None,
            target=target,
            reference=reference,
            reason=f"returned {item['condition']}",
        )
        emit(
            ctx,
            "stock.returned",
            {
                "movement_id": mid,
                "sku": item["sku"],
                "location_id": target.id,
                "quantity": units,
                "condition": item["condition"],
                "reference": reference,
                "on_hand": levels[-1].quantity,
            },
        )
        engine.check_alerts(ctx, s, str(item["sku"]), [target.id], f"return {reference}")

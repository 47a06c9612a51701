"""Inventory's side of production: a completed MES run's parts leave the run's location and its good
units come in, in the run's unit of work (``production.run_completed``, named in the manifest's
reactions). MES names this file in its ``depends`` only to check a run's location when it is made."""

from __future__ import annotations

from sqlalchemy.orm import Session

from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.events import EmittedEvent, emit
from services.inventory.stock import find_location, move


def check_location(ctx: Ctx, s: Session, ref: str) -> str:
    """The id of the location ``ref`` (an id or a code); 400 when Inventory has none of that name."""
    if ctx.tenant is None or "inventory" not in ctx.tenant.modules:
        raise ValidationFailed("a run's location needs the Inventory module", {"location": ref})
    loc = find_location(s, ref)
    if loc is None:
        raise ValidationFailed(f"no Inventory location {ref}", {"location": ref})
    return loc.id


def on_run_completed(ctx: Ctx, ev: EmittedEvent) -> None:
    """Take a completed run's parts out of its location and put its good units in.

    Only MES's own completion moves stock: the same event type published through the events API
    describes, it does not produce. A shortfall takes the row below zero (the parts were used;
    refusing would lose the record of it), as a shipment does, and shows in the stock level.
    """
    if ctx.operation is None or not ctx.operation[0].startswith("mes."):
        return
    if ctx.tenant is None or "inventory" not in ctx.tenant.modules:
        return
    data = ev.data
    ref = data.get("location")
    if not ref:
        return
    s = ctx.uow.session
    loc = find_location(s, str(ref))
    if loc is None:
        raise ValidationFailed(f"no Inventory location {ref}", {"location": ref})
    reference = f"run {data['run_id']}"
    for part in data.get("materials") or []:
        if int(part["quantity"]) > 0:
            mid, levels = move(
                ctx,
                s,
                sku=part["sku"],
                quantity=int(part["quantity"]),
                kind="consumption",
                source=loc,
                target=None,
                reference=reference,
                force=True,
            )
            emit(
                ctx,
                "stock.consumed",
                {
                    "movement_id": mid,
                    "sku": part["sku"],
                    "location_id": loc.id,
                    "quantity": int(part["quantity"]),
                    "on_hand": levels[0].quantity,
                    "run_id": data["run_id"],
                },
            )
    out = data.get("output") or {}
    if int(out.get("quantity") or 0) > 0:
        mid, levels = move(
            ctx,
            s,
            sku=out["sku"],
            quantity=int(out["quantity"]),
            kind="production",
            source=None,
            target=loc,
            reference=reference,
        )
        emit(
            ctx,
            "stock.produced",
            {
                "movement_id": mid,
                "sku": out["sku"],
                "location_id": loc.id,
                "quantity": int(out["quantity"]),
                "on_hand": levels[0].quantity,
                "run_id": data["run_id"],
            },
        )

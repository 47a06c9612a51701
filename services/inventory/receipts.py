"""Partial receipt of a transfer: what arrived goes in, the rest stays in transit or is written off.

Each receipt names what arrived per SKU; a line never receives more than was sent less what
arrived before (400 ``over_receipt``, nothing moves). With ``write_off_reason`` the rest of every
line leaves the transit location as an ``adjustment`` with that reason and the transfer completes;
a transfer whose lines have all arrived completes by itself (``transfer.completed``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, ValidationFailed
from services.inventory import stock as engine
from services.inventory.schemas import TransferOut, TransferReceive
from services.inventory.states import TRANSFER
from services.inventory.transfers import _transfer, out, remaining


@use_case(
    "inventory.transfers.receive",
    "POST /transfers/{id}/receive",
    tx="write",
    says="Transfer received",
    record="inventory.transfer",
    summary="receive part of a transfer in transit (the rest stays in transit, or is written off)",
)
def receive_transfer(ctx: Ctx, id: str, body: TransferReceive, session: Session = SESSION) -> TransferOut:
    s = session
    t = _transfer(s, id.strip())
    if t.status != "in_transit":
        raise Conflict(
            f"only a transfer in transit is received; this one is {t.status}",
            {"current_state": t.status, "action": "receive"},
        )
    lines: list[dict[str, Any]] = [dict(ln) for ln in t.lines]
    by_sku = {ln["sku"]: ln for ln in lines}
    arrived: dict[str, int] = {}
    for got in body.lines:
        arrived[got.sku] = arrived.get(got.sku, 0) + got.quantity
    # Every line is checked before anything moves.
    for sku, qty in arrived.items():
        ln = by_sku.get(sku)
        if ln is None:
            raise ValidationFailed(f"{sku} is not on this transfer", {"sku": sku, "reason": "not_on_transfer"})
        if qty > remaining(ln):
            raise ValidationFailed(
                f"{sku}: {ln['quantity']} sent, {ln.get('received', 0)} received before, {qty} now",
                {"sku": sku, "reason": "over_receipt", "sent": ln["quantity"], "in_transit": remaining(ln)},
            )
    transit = engine.location(s, t.transit_location_id or "")
    dst = engine.location(s, t.to_location_id)
    ref = f"transfer {t.id}"
    for sku, qty in arrived.items():
        engine.move(ctx, s, sku=sku, quantity=qty, kind="transfer", source=transit, target=dst, reference=ref,
                    force=True)  # fmt: skip
        by_sku[sku]["received"] = int(by_sku[sku].get("received", 0)) + qty
        engine.check_alerts(ctx, s, sku, [dst.id], ref)
    if body.write_off_reason is not None:
        for ln in lines:
            rest = remaining(ln)
            if rest > 0:
                engine.move(ctx, s, sku=ln["sku"], quantity=rest, kind="adjustment", source=transit, target=None,
                            reference=ref, reason=body.write_off_reason, force=True)  # fmt: skip
                ln["written_off"] = int(ln.get("written_off", 0)) + rest
    t.lines = lines  # a new list: the JSON column sees the change
    t.updated_at = ctx.now()
    if all(remaining(ln) <= 0 for ln in lines):
        # Nothing left in transit: complete (its move finds nothing more to carry).
        step = TRANSFER.apply(ctx, t, "complete", verb="receive")
        step.announce(
            ctx,
            {
                "transfer_id": t.id,
                "from_location_id": t.from_location_id,
                "to_location_id": dst.id,
                "lines": [{"sku": ln["sku"], "quantity": ln["quantity"]} for ln in lines],
                "received": [{"sku": ln["sku"], "received": ln.get("received", 0),
                              "written_off": ln.get("written_off", 0)} for ln in lines],
                "completed_at": ctx.now().isoformat(),
            },
        )  # fmt: skip
    s.flush()
    return out(t)

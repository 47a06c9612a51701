"""Inventory transfers between locations and their state changes."""

from __future__ import annotations

from typing import Any

from sqlalchemy import or_
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.inventory import (
    InventoryLocation,
    InventoryTransfer,
)
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.declaring import declare_defaults
from services.core.errors import Conflict, ValidationFailed, get_or_404
from services.core.pagination import Listing, Page, one_of
from services.inventory import stock as engine
from services.inventory.schemas import (
    TransferIn,
    TransferOut,
    TransferPatch,
    TransferQuery,
    TransferStatusIn,
)
from services.inventory.states import ACTION_TO, TRANSFER

record_kind("inventory.transfer", get="inventory.transfers.get", label="id")
declare_defaults("inventory.transfers", record="inventory.transfer")


TRANSFERS = Listing(
    InventoryTransfer,
    filters={
        "status": one_of(InventoryTransfer.status, TRANSFER.states),
        # A location's transfers: the ones leaving it and the ones reaching it.
        "location_id": lambda _n, v: or_(
            InventoryTransfer.from_location_id.in_(engine.within(v, False)),
            InventoryTransfer.to_location_id.in_(engine.within(v, False)),
        ),
    },
    # A transfer is known by its id (scanned from its sheet) or its note.
    search=(lambda term: InventoryTransfer.id == term, InventoryTransfer.note),
    sort={
        "created_at": InventoryTransfer.created_at,
        "updated_at": InventoryTransfer.updated_at,
        "status": InventoryTransfer.status,
    },
)


def out(t: InventoryTransfer) -> TransferOut:
    """The transfer; its lines as sent, and what partial receipts recorded (``receipts``)."""
    receipts = [
        {"sku": ln["sku"], "quantity": ln["quantity"], "received": ln.get("received", 0),
         "written_off": ln.get("written_off", 0)}
        for ln in t.lines
    ] if any("received" in ln or "written_off" in ln for ln in t.lines) else []  # fmt: skip
    data = {c: getattr(t, c) for c in TransferOut.model_fields if c not in ("lines", "receipts") and hasattr(t, c)}
    return TransferOut(
        **data, lines=[{"sku": ln["sku"], "quantity": ln["quantity"]} for ln in t.lines], receipts=receipts
    )


def remaining(ln: dict[str, Any]) -> int:
    """Units of a line still in transit (sent, less received and written off)."""
    return int(ln["quantity"]) - int(ln.get("received", 0)) - int(ln.get("written_off", 0))


def _transfer(s: Session, tid: str) -> InventoryTransfer:
    return get_or_404(s, InventoryTransfer, tid, what="transfer", key="id")


@use_case("inventory.transfers.list", "GET /transfers", tx="read", summary="list transfers")
def list_transfers(ctx: Ctx, query: TransferQuery, session: Session = SESSION) -> Page[TransferOut]:
    return TRANSFERS.page(session, query, out)


@use_case("inventory.transfers.get", "GET /transfers/{id}", tx="read", summary="read a transfer")
def get_transfer(ctx: Ctx, id: str, session: Session = SESSION) -> TransferOut:
    return out(_transfer(session, id.strip()))


@use_case(
    "inventory.transfers.create",
    "POST /transfers",
    tx="write",
    status=201,
    says="New transfer",
    summary="create a draft transfer",
)
def create_transfer(ctx: Ctx, body: TransferIn, session: Session = SESSION) -> TransferOut:
    found: dict[str, InventoryLocation] = {}
    for field, ref in (("from_location_id", body.from_location_id), ("to_location_id", body.to_location_id)):
        loc = engine.find_location(session, ref)  # an id or a code
        if loc is None:
            raise ValidationFailed(f"no location {ref}", {field: ref})
        found[field] = loc
    src, dst = found["from_location_id"], found["to_location_id"]
    if src.id == dst.id:
        raise ValidationFailed(
            "a transfer goes between two different locations",
            {"from_location_id": body.from_location_id, "to_location_id": body.to_location_id},
        )
    lines: dict[str, int] = {}
    for ln in body.lines:  # the same SKU twice is one line
        lines[ln.sku] = lines.get(ln.sku, 0) + ln.quantity
    now = ctx.now()
    t = InventoryTransfer(
        id=new_id(),
        from_location_id=src.id,
        to_location_id=dst.id,
        lines=[{"sku": k, "quantity": v} for k, v in lines.items()],
        status="draft",
        note=body.note,
        created_by=ctx.principal.id,
        created_at=now,
        updated_at=now,
    )
    session.add(t)
    session.flush()
    return out(t)


def change_transfer(ctx: Ctx, s: Session, tid: str, status: str) -> TransferOut:
    """Move a transfer to ``status`` as the machine allows (state and timestamp from its table); the
    stock moves in the same transaction."""
    action = ACTION_TO.get(status)
    t = _transfer(s, tid.strip())
    if action is None:
        raise Conflict(f"a transfer cannot go back to {status}", {"current_state": t.status, "status": status})
    step = TRANSFER.apply(ctx, t, action, verb=f"move to {status}")
    now = ctx.now()
    src, dst = engine.location(s, t.from_location_id), engine.location(s, t.to_location_id)
    ref = f"transfer {t.id}"
    touched: list[tuple[str, list[str]]] = []
    if action == "ship":
        transit = engine.transit_location(ctx, s)
        t.transit_location_id = transit.id
        short: list[dict[str, Any]] = []
        for ln in t.lines:
            try:
                engine.move(
                    ctx,
                    s,
                    sku=ln["sku"],
                    quantity=ln["quantity"],
                    kind="transfer",
                    source=src,
                    target=transit,
                    reference=ref,
                )
            except engine.Short as e:
                short.append({"sku": ln["sku"], "quantity": ln["quantity"], "on_hand": e.quantity})
            touched.append((ln["sku"], [src.id]))
        if short:
            # Nothing is kept: raising rolls back the lines already moved.
            raise Conflict(
                f"{src.code} lacks stock for {len(short)} line(s) of this transfer",
                {"current_state": "draft", "reason": "insufficient_stock", "lines": short},
            )
        step.announce(
            ctx, {"transfer_id": t.id, "from_location_id": src.id, "to_location_id": dst.id, "lines": t.lines}
        )
    elif action == "complete":
        transit = engine.location(s, t.transit_location_id or "")
        for ln in t.lines:
            if remaining(ln) <= 0:  # received already by a partial receipt
                continue
            engine.move(
                ctx,
                s,
                sku=ln["sku"],
                quantity=remaining(ln),
                kind="transfer",
                source=transit,
                target=dst,
                reference=ref,
                force=True,
            )
            touched.append((ln["sku"], [dst.id]))
        step.announce(
            ctx,
            {
                "transfer_id": t.id,
                "from_location_id": src.id,
                "to_location_id": dst.id,
                "lines": t.lines,
                "completed_at": now.isoformat(),
            },
        )
    else:
        if t.transit_location_id is not None and t.shipped_at is not None:
            transit = engine.location(s, t.transit_location_id)
            for ln in t.lines:
                if remaining(ln) <= 0:
                    continue
                engine.move(
                    ctx,
                    s,
                    sku=ln["sku"],
                    quantity=remaining(ln),  # what a partial receipt took stays where it arrived
                    kind="transfer",
                    source=transit,
                    target=src,
                    reference=ref,
                    reason="transfer cancelled",
                    force=True,
                )
                touched.append((ln["sku"], [src.id]))
        step.announce(
            ctx, {"transfer_id": t.id, "from_location_id": src.id, "to_location_id": dst.id, "lines": t.lines}
        )
    t.updated_at = now
    for sku, locs in touched:
        engine.check_alerts(ctx, s, sku, locs, ref)
    s.flush()
    return out(t)


# The body names the state a transfer goes to; the table names the move.
_MOVES = TRANSFER.moves(*ACTION_TO.values(), field="status", values={a: st for st, a in ACTION_TO.items()})


@use_case(
    "inventory.transfers.patch",
    "PATCH /transfers",
    tx="write",
    says="Transfer moved",
    summary="change a transfer's status ({id, status})",
    moves=_MOVES,
)
def patch_transfers(ctx: Ctx, body: TransferPatch, session: Session = SESSION) -> TransferOut:
    return change_transfer(ctx, session, body.id, body.status)


@use_case(
    "inventory.transfers.update",
    "PATCH /transfers/{id}",
    tx="write",
    says="Transfer moved",
    summary="change a transfer's status",
    moves=_MOVES,
)
def update_transfer(ctx: Ctx, id: str, body: TransferStatusIn, session: Session = SESSION) -> TransferOut:
    return change_transfer(ctx, session, id, body.status)


# --- alerts -------------------------------------------------------------------------------------

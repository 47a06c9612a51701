"""Inventory transfers between locations and their state changes."""

from __future__ import annotations

from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.inventory import (
    InventoryLocation,
    InventoryTransfer,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.events import emit
from services.core.pagination import Page, contains, paginate
from services.core.roles import ANYONE
from services.inventory import stock as engine
from services.inventory.filters import _states
from services.inventory.schemas import (
    TransferIn,
    TransferLine,
    TransferOut,
    TransferPatch,
    TransferQuery,
    TransferStatusIn,
)
from services.inventory.states import ACTION_TO, TRANSFER

record_kind("inventory.transfer", get="inventory.transfers.get", label="id")


def _transfer_out(t: InventoryTransfer) -> TransferOut:
    return TransferOut(
        id=t.id,
        from_location_id=t.from_location_id,
        to_location_id=t.to_location_id,
        transit_location_id=t.transit_location_id,
        lines=[TransferLine(sku=ln["sku"], quantity=ln["quantity"]) for ln in t.lines],
        status=t.status,
        note=t.note,
        created_at=t.created_at,
        updated_at=t.updated_at,  # type: ignore[arg-type]
        shipped_at=t.shipped_at,
        completed_at=t.completed_at,
        cancelled_at=t.cancelled_at,
    )


def _transfer(s: Session, tid: str) -> InventoryTransfer:
    t = s.get(InventoryTransfer, tid)
    if t is None:
        raise NotFound(f"no transfer {tid}", {"id": tid})
    return t


@use_case(
    "inventory.transfers.list",
    "GET /transfers",
    tx="read",
    roles=ANYONE,
    record="inventory.transfer",
    summary="list transfers",
)
def list_transfers(ctx: Ctx, query: TransferQuery) -> Page[TransferOut]:
    stmt = select(InventoryTransfer)
    wanted = _states(query.status, TRANSFER.states)
    if wanted:
        stmt = stmt.where(InventoryTransfer.status.in_(wanted))
    if query.location_id:
        stmt = stmt.where(
            or_(
                InventoryTransfer.from_location_id == query.location_id,
                InventoryTransfer.to_location_id == query.location_id,
            )
        )
    if query.search and query.search.strip():
        # A transfer is known by its id (scanned from its sheet) or its note.
        term = query.search.strip()
        stmt = stmt.where(or_(InventoryTransfer.id == term, contains(InventoryTransfer.note, term)))
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "created_at": InventoryTransfer.created_at,
                "updated_at": InventoryTransfer.updated_at,
                "status": InventoryTransfer.status,
            },
        )
    return page.map(_transfer_out)


@use_case(
    "inventory.transfers.get",
    "GET /transfers/{id}",
    tx="read",
    roles=ANYONE,
    record="inventory.transfer",
    summary="read a transfer",
)
def get_transfer(ctx: Ctx, id: str) -> TransferOut:
    with ctx.read() as s:
        return _transfer_out(_transfer(s, id.strip()))


@use_case(
    "inventory.transfers.create",
    "POST /transfers",
    tx="write",
    roles=ANYONE,
    status=201,
    says="New transfer",
    record="inventory.transfer",
    summary="create a draft transfer",
)
def create_transfer(ctx: Ctx, body: TransferIn) -> TransferOut:
    if body.from_location_id == body.to_location_id:
        raise ValidationFailed(
            "a transfer goes between two different locations",
            {"from_location_id": body.from_location_id, "to_location_id": body.to_location_id},
        )
    lines: dict[str, int] = {}
    for ln in body.lines:  # the same SKU twice is one line
        lines[ln.sku] = lines.get(ln.sku, 0) + ln.quantity
    with ctx.write() as s:
        for field, lid in (("from_location_id", body.from_location_id), ("to_location_id", body.to_location_id)):
            if s.get(InventoryLocation, lid) is None:
                raise ValidationFailed(f"no location {lid}", {field: lid})
        now = ctx.now()
        t = InventoryTransfer(
            id=new_id(),
            from_location_id=body.from_location_id,
            to_location_id=body.to_location_id,
            lines=[{"sku": k, "quantity": v} for k, v in lines.items()],
            status="draft",
            note=body.note,
            created_by=ctx.principal.id,
            created_at=now,
            updated_at=now,
        )
        s.add(t)
        s.flush()
        return _transfer_out(t)


def change_transfer(ctx: Ctx, tid: str, status: str) -> TransferOut:
    """Move a transfer to ``status`` as the machine allows; the stock moves in the same transaction."""
    action = ACTION_TO.get(status)
    with ctx.write() as s:
        t = _transfer(s, tid.strip())
        if action is None:
            raise Conflict(f"a transfer cannot go back to {status}", {"current_state": t.status, "status": status})
        t.status = TRANSFER.check(t.status, action, verb=f"move to {status}")
        now = ctx.now()
        src, dst = engine.location(s, t.from_location_id), engine.location(s, t.to_location_id)
        ref = f"transfer {t.id}"
        touched: list[tuple[str, list[str]]] = []
        if action == "ship":
            transit = engine.transit_location(ctx, s)
            t.transit_location_id, t.shipped_at = transit.id, now
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
            emit(
                ctx,
                "transfer.shipped",
                {"transfer_id": t.id, "from_location_id": src.id, "to_location_id": dst.id, "lines": t.lines},
            )
        elif action == "complete":
            transit = engine.location(s, t.transit_location_id or "")
            for ln in t.lines:
                engine.move(
                    ctx,
                    s,
                    sku=ln["sku"],
                    quantity=ln["quantity"],
                    kind="transfer",
                    source=transit,
                    target=dst,
                    reference=ref,
                    force=True,
                )
                touched.append((ln["sku"], [dst.id]))
            t.completed_at = now
            emit(
                ctx,
                "transfer.completed",
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
                    engine.move(
                        ctx,
                        s,
                        sku=ln["sku"],
                        quantity=ln["quantity"],
                        kind="transfer",
                        source=transit,
                        target=src,
                        reference=ref,
                        reason="transfer cancelled",
                        force=True,
                    )
                    touched.append((ln["sku"], [src.id]))
            t.cancelled_at = now
            emit(
                ctx,
                "transfer.cancelled",
                {"transfer_id": t.id, "from_location_id": src.id, "to_location_id": dst.id, "lines": t.lines},
            )
        t.updated_at = now
        for sku, locs in touched:
            engine.check_alerts(ctx, s, sku, locs, ref)
        s.flush()
        return _transfer_out(t)


@use_case(
    "inventory.transfers.patch",
    "PATCH /transfers",
    tx="write",
    roles=ANYONE,
    says="Transfer moved",
    record="inventory.transfer",
    summary="change a transfer's status ({id, status})",
)
def patch_transfers(ctx: Ctx, body: TransferPatch) -> TransferOut:
    return change_transfer(ctx, body.id, body.status)


@use_case(
    "inventory.transfers.update",
    "PATCH /transfers/{id}",
    tx="write",
    roles=ANYONE,
    says="Transfer moved",
    record="inventory.transfer",
    summary="change a transfer's status",
)
def update_transfer(ctx: Ctx, id: str, body: TransferStatusIn) -> TransferOut:
    return change_transfer(ctx, id, body.status)


# --- alerts -------------------------------------------------------------------------------------

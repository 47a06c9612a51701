"""Inventory use cases: items, locations, stock (list, adjust, count), movements, transfers, alerts.

Quantities change only through ``stock`` (one atomic statement and its
movement, in the unit of work of the call); state changes go through the
machines of ``states``; events are emitted in the same transaction.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.inventory import (
    InventoryAlert,
    InventoryAlertRule,
    InventoryItem,
    InventoryLocation,
    InventoryMovement,
    InventoryStock,
    InventoryTransfer,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.events import emit
from services.core.pagination import Page, contains, paginate
from services.core.roles import ANYONE, MANAGERS, STAFF
from services.inventory import stock as engine
from services.inventory.schemas import (
    AlertAction,
    AlertOut,
    AlertPatch,
    AlertQuery,
    AlertRuleIn,
    AlertRuleOut,
    ItemIn,
    ItemOut,
    ItemQuery,
    LocationIn,
    LocationOut,
    LocationQuery,
    MovementOut,
    MovementQuery,
    StockAdjust,
    StockQuery,
    StockResult,
    StockRow,
    TransferIn,
    TransferLine,
    TransferOut,
    TransferPatch,
    TransferQuery,
    TransferStatusIn,
)
from services.inventory.states import ACTION_TO, ALERT, TRANSFER

record_kind("inventory.location", get="inventory.locations.get", label="code")
record_kind("inventory.transfer", get="inventory.transfers.get", label="id")
record_kind("inventory.alert", get="inventory.alerts.get", label="sku")


def _states(raw: str | None, allowed: tuple[str, ...], field: str = "status") -> list[str] | None:
    if not raw:
        return None
    wanted = [x.strip() for x in raw.split(",") if x.strip()]
    unknown = sorted(set(wanted) - set(allowed))
    if unknown:
        raise ValidationFailed(f"unknown {field}: {', '.join(unknown)}", {field: unknown, "allowed": list(allowed)})
    return wanted


# --- items ---------------------------------------------------------------------------------


def _item_out(i: InventoryItem) -> ItemOut:
    return ItemOut(id=i.id, sku=i.sku, barcode=i.barcode, name=i.name, created_at=i.created_at)


def find_item(s: Session, code: str) -> InventoryItem | None:
    """The item a scan names: its barcode first, then its SKU."""
    code = code.strip()
    return (
        s.execute(select(InventoryItem).where(InventoryItem.barcode == code)).scalars().first()
        or s.execute(select(InventoryItem).where(InventoryItem.sku == code)).scalars().first()
    )


@use_case(
    "inventory.items.list",
    "GET /items",
    tx="read",
    roles=ANYONE,
    record="inventory.item",
    summary="list items (SKU, barcode, name); code= finds one by barcode or SKU",
)
def list_items(ctx: Ctx, query: ItemQuery) -> Page[ItemOut]:
    stmt = select(InventoryItem)
    if query.code:
        code = query.code.strip()
        stmt = stmt.where(or_(InventoryItem.barcode == code, InventoryItem.sku == code))
    if query.search:
        stmt = stmt.where(
            or_(
                contains(InventoryItem.sku, query.search),
                contains(InventoryItem.name, query.search),
                contains(InventoryItem.barcode, query.search),
            )
        )
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={"sku": InventoryItem.sku, "name": InventoryItem.name, "created_at": InventoryItem.created_at},
            default_sort="sku",
        )
    return page.map(_item_out)


@use_case(
    "inventory.items.create",
    "POST /items",
    tx="write",
    roles=STAFF,
    status=201,
    says="New item",
    record="inventory.item",
    summary="register an item's barcode and name",
)
def create_item(ctx: Ctx, body: ItemIn) -> ItemOut:
    with ctx.write() as s:
        if s.execute(select(InventoryItem.id).where(InventoryItem.sku == body.sku)).first():
            raise Conflict(f"item {body.sku} exists", {"sku": body.sku})
        if body.barcode and s.execute(select(InventoryItem.id).where(InventoryItem.barcode == body.barcode)).first():
            raise Conflict(f"barcode {body.barcode} is another item's", {"barcode": body.barcode})
        item = InventoryItem(id=new_id(), sku=body.sku, barcode=body.barcode, name=body.name, created_at=ctx.now())
        s.add(item)
        s.flush()
        return _item_out(item)


# --- locations -------------------------------------------------------------------------------


def _location_out(loc: InventoryLocation) -> LocationOut:
    return LocationOut(
        id=loc.id,
        code=loc.code,
        name=loc.name,
        kind=loc.kind,
        parent_id=loc.parent_id,  # type: ignore[arg-type]
        allow_negative=loc.allow_negative,
        created_at=loc.created_at,
    )


@use_case(
    "inventory.locations.list",
    "GET /locations",
    tx="read",
    roles=ANYONE,
    record="inventory.location",
    summary="list locations",
)
def list_locations(ctx: Ctx, query: LocationQuery) -> Page[LocationOut]:
    stmt = select(InventoryLocation)
    if query.kind:
        stmt = stmt.where(InventoryLocation.kind == query.kind)
    if query.code:
        stmt = stmt.where(InventoryLocation.code == query.code.strip())
    if query.search:
        stmt = stmt.where(
            or_(contains(InventoryLocation.code, query.search), contains(InventoryLocation.name, query.search))
        )
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "code": InventoryLocation.code,
                "name": InventoryLocation.name,
                "created_at": InventoryLocation.created_at,
            },
            default_sort="code",
        )
    return page.map(_location_out)


@use_case(
    "inventory.locations.get",
    "GET /locations/{id}",
    tx="read",
    roles=ANYONE,
    record="inventory.location",
    summary="read a location (by id or code)",
)
def get_location(ctx: Ctx, id: str) -> LocationOut:
    with ctx.read() as s:
        loc = (
            s.get(InventoryLocation, id)
            or s.execute(select(InventoryLocation).where(InventoryLocation.code == id.strip())).scalars().first()
        )
        if loc is None:
            raise NotFound(f"no location {id}", {"location": id})
        return _location_out(loc)


@use_case(
    "inventory.locations.create",
    "POST /locations",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="New location",
    record="inventory.location",
    summary="create a location",
)
def create_location(ctx: Ctx, body: LocationIn) -> LocationOut:
    with ctx.write() as s:
        if s.execute(select(InventoryLocation.id).where(InventoryLocation.code == body.code)).first():
            raise Conflict(f"location code {body.code} is taken", {"code": body.code})
        if body.parent_id is not None and s.get(InventoryLocation, body.parent_id) is None:
            raise ValidationFailed("parent location not found", {"parent_id": body.parent_id})
        loc = InventoryLocation(
            id=new_id(),
            code=body.code,
            name=body.name,
            kind=body.kind,
            parent_id=body.parent_id,
            allow_negative=body.allow_negative,
            created_at=ctx.now(),
        )
        s.add(loc)
        s.flush()
        return _location_out(loc)


# --- stock -----------------------------------------------------------------------------------

STOCK_SORT = {"sku": InventoryStock.sku, "quantity": InventoryStock.quantity, "updated_at": InventoryStock.updated_at}


def _items_by_sku(s: Session, skus: set[str]) -> dict[str, InventoryItem]:
    if not skus:
        return {}
    return {i.sku: i for i in s.execute(select(InventoryItem).where(InventoryItem.sku.in_(skus))).scalars()}


def _row(r: InventoryStock, item: InventoryItem | None) -> StockRow:
    return StockRow(
        id=r.id,
        sku=r.sku,
        location_id=r.location_id,
        quantity=r.quantity,
        reserved=r.reserved,
        available=r.quantity - r.reserved,
        name=item.name if item else None,
        barcode=item.barcode if item else None,
        counted_at=r.counted_at,
        updated_at=r.updated_at,
    )


@use_case(
    "inventory.stock.list",
    "GET /stock",
    tx="read",
    roles=ANYONE,
    record="inventory.stock",
    summary="list stock (by location)",
)
def list_stock(ctx: Ctx, query: StockQuery) -> Page[StockRow]:
    stmt = select(InventoryStock)
    if query.location_id:
        stmt = stmt.where(InventoryStock.location_id == query.location_id)
    if query.sku:
        stmt = stmt.where(InventoryStock.sku == query.sku.strip())
    if query.below is not None:
        stmt = stmt.where(InventoryStock.quantity - InventoryStock.reserved < query.below)
    if query.search:
        named = select(InventoryItem.sku).where(
            or_(contains(InventoryItem.name, query.search), contains(InventoryItem.barcode, query.search))
        )
        stmt = stmt.where(or_(contains(InventoryStock.sku, query.search), InventoryStock.sku.in_(named)))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns=STOCK_SORT, default_sort="sku")
        items = _items_by_sku(s, {r.sku for r in page.items})
    return page.map(lambda r: _row(r, items.get(r.sku)))


@use_case(
    "inventory.stock.adjust",
    "POST /stock",
    tx="write",
    roles=ANYONE,
    says="Stock adjusted",
    record="inventory.stock",
    summary="adjust stock (delta) or post a count (counted)",
)
def adjust_stock(ctx: Ctx, body: StockAdjust) -> StockResult:
    with ctx.write() as s:
        loc = engine.location(s, body.location_id)
        kind = "adjustment"
        if body.counted is not None:
            kind = "count"
            # Under the write lock of this unit of work (PostgreSQL: the row's lock), so the
            # difference from the book is the one that gets posted.
            current = s.execute(
                select(InventoryStock.quantity)
                .where(InventoryStock.sku == body.sku, InventoryStock.location_id == loc.id)
                .with_for_update()
            ).scalar_one_or_none()
            delta = body.counted - int(current or 0)
        else:
            assert body.delta is not None
            delta = body.delta
        mid: str | None = None
        try:
            if delta > 0:
                mid, levels = engine.move(
                    ctx, s, sku=body.sku, quantity=delta, kind=kind, source=None, target=loc, reason=body.reason
                )
            elif delta < 0:
                mid, levels = engine.move(
                    ctx, s, sku=body.sku, quantity=-delta, kind=kind, source=loc, target=None, reason=body.reason
                )
        except engine.Short as short:
            raise Conflict(
                f"only {short.quantity} of {body.sku} at {loc.code}; {loc.code} does not allow negative stock",
                {
                    "sku": body.sku,
                    "location_id": loc.id,
                    "quantity": short.quantity,
                    "delta": delta,
                    "reason": "insufficient_stock",
                },
            ) from None
        row = (
            s.execute(
                select(InventoryStock).where(InventoryStock.sku == body.sku, InventoryStock.location_id == loc.id)
            )
            .scalars()
            .first()
        )
        if row is None:  # a count of 0 where nothing was: make the row, so the count is on record
            row = InventoryStock(
                id=new_id(), sku=body.sku, location_id=loc.id, quantity=0, reserved=0, updated_at=ctx.now()
            )
            s.add(row)
        else:
            s.refresh(row)
        if kind == "count":
            row.counted_at = ctx.now()
        s.flush()
        if mid is not None:
            emit(
                ctx,
                "stock.adjusted",
                {
                    "stock_id": row.id,
                    "sku": row.sku,
                    "location_id": loc.id,
                    "delta": delta,
                    "quantity": row.quantity,
                    "available": row.quantity - row.reserved,
                    "kind": kind,
                    "reason": body.reason,
                    "movement_id": mid,
                },
            )
            engine.check_alerts(ctx, s, body.sku, [loc.id], body.reason)
        item = _items_by_sku(s, {row.sku}).get(row.sku)
        return StockResult(**_row(row, item).model_dump(), delta=delta, movement_id=mid)


# --- movements -------------------------------------------------------------------------------


def _movement_out(m: InventoryMovement) -> MovementOut:
    return MovementOut(
        id=m.id,
        sku=m.sku,
        from_location_id=m.from_location_id,
        to_location_id=m.to_location_id,
        quantity=m.quantity,
        kind=m.kind,
        reference=m.reference,
        reason=m.reason,  # type: ignore[arg-type]
        actor=m.actor,
        at=m.at,
    )


@use_case(
    "inventory.movements.list",
    "GET /movements",
    tx="read",
    roles=ANYONE,
    record="inventory.movement",
    summary="list movements",
)
def list_movements(ctx: Ctx, query: MovementQuery) -> Page[MovementOut]:
    stmt = select(InventoryMovement)
    if query.sku:
        stmt = stmt.where(InventoryMovement.sku == query.sku.strip())
    if query.location_id:
        stmt = stmt.where(
            or_(
                InventoryMovement.from_location_id == query.location_id,
                InventoryMovement.to_location_id == query.location_id,
            )
        )
    if query.kind:
        stmt = stmt.where(InventoryMovement.kind == query.kind)
    if query.reference:
        stmt = stmt.where(InventoryMovement.reference == query.reference)
    if query.search and query.search.strip():
        term = query.search.strip()
        stmt = stmt.where(
            or_(
                contains(InventoryMovement.sku, term),
                contains(InventoryMovement.reference, term),
                InventoryMovement.id == term,
            )
        )
    if query.from_ is not None:
        stmt = stmt.where(InventoryMovement.at >= query.from_)
    if query.to is not None:
        stmt = stmt.where(InventoryMovement.at <= query.to)
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={"at": InventoryMovement.at, "created_at": InventoryMovement.at, "sku": InventoryMovement.sku},
            default_sort="-at",
        )
    return page.map(_movement_out)


# --- transfers --------------------------------------------------------------------------------


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


def _alert_out(a: InventoryAlert) -> AlertOut:
    return AlertOut(
        id=a.id,
        rule_id=a.rule_id,
        sku=a.sku,
        location_id=a.location_id,
        threshold=a.threshold,
        available=a.available,
        state=a.state,
        reason=a.reason,
        opened_at=a.opened_at,  # type: ignore[arg-type]
        acknowledged_at=a.acknowledged_at,
        resolved_at=a.resolved_at,
    )


def _rule_out(r: InventoryAlertRule) -> AlertRuleOut:
    return AlertRuleOut(
        id=r.id, sku=r.sku, location_id=r.location_id, threshold=r.threshold, origin=r.origin, created_at=r.created_at
    )


@use_case(
    "inventory.alerts.list",
    "GET /alerts",
    tx="read",
    roles=ANYONE,
    record="inventory.alert",
    summary="list alerts (rules=true: the rules)",
)
def list_alerts(ctx: Ctx, query: AlertQuery) -> Page[AlertOut | AlertRuleOut]:
    with ctx.read() as s:
        if query.rules:
            rstmt = select(InventoryAlertRule)
            if query.sku:
                rstmt = rstmt.where(InventoryAlertRule.sku == query.sku.strip())
            if query.location_id:
                rstmt = rstmt.where(InventoryAlertRule.location_id == query.location_id)
            rules = paginate(
                s, rstmt, query, columns={"created_at": InventoryAlertRule.created_at, "sku": InventoryAlertRule.sku}
            )
            return rules.map(_rule_out)
        stmt = select(InventoryAlert)
        wanted = _states(query.state, ALERT.states, "state")
        if wanted:
            stmt = stmt.where(InventoryAlert.state.in_(wanted))
        if query.sku:
            stmt = stmt.where(InventoryAlert.sku == query.sku.strip())
        if query.location_id:
            stmt = stmt.where(InventoryAlert.location_id == query.location_id)
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "opened_at": InventoryAlert.opened_at,
                "created_at": InventoryAlert.opened_at,
                "sku": InventoryAlert.sku,
                "state": InventoryAlert.state,
            },
            default_sort="-opened_at",
        )
    return page.map(_alert_out)


@use_case(
    "inventory.alerts.get",
    "GET /alerts/{id}",
    tx="read",
    roles=ANYONE,
    record="inventory.alert",
    summary="read an alert",
)
def get_alert(ctx: Ctx, id: str) -> AlertOut:
    with ctx.read() as s:
        a = s.get(InventoryAlert, id.strip())
        if a is None:
            raise NotFound(f"no alert {id}", {"id": id})
        return _alert_out(a)


@use_case(
    "inventory.alerts.create",
    "POST /alerts",
    tx="write",
    roles=STAFF,
    status=201,
    says="New alert rule",
    record="inventory.alert",
    summary="create an alert rule",
)
def create_alert_rule(ctx: Ctx, body: AlertRuleIn) -> AlertRuleOut:
    with ctx.write() as s:
        if body.location_id is not None:
            engine.location(s, body.location_id)
        rule = InventoryAlertRule(
            id=new_id(),
            sku=body.sku,
            location_id=body.location_id,
            threshold=body.threshold,
            origin="rule",
            created_at=ctx.now(),
        )
        s.add(rule)
        s.flush()
        # Already below: the alert opens now, not at the next movement.
        engine.evaluate(ctx, s, rule, "below the threshold when the rule was made")
        return _rule_out(rule)


def act_on_alert(ctx: Ctx, aid: str, action: str) -> AlertOut:
    with ctx.write() as s:
        a = s.get(InventoryAlert, aid.strip())
        if a is None:
            raise NotFound(f"no alert {aid}", {"id": aid})
        a.state = ALERT.check(a.state, action)
        now = ctx.now()
        if action == "acknowledge":
            a.acknowledged_at = now
        else:
            a.resolved_at = now
        s.flush()
        return _alert_out(a)


@use_case(
    "inventory.alerts.patch",
    "PATCH /alerts",
    tx="write",
    roles=STAFF,
    says="Alert handled",
    record="inventory.alert",
    summary="acknowledge or resolve an alert ({id, action})",
)
def patch_alerts(ctx: Ctx, body: AlertPatch) -> AlertOut:
    return act_on_alert(ctx, body.id, body.action)


@use_case(
    "inventory.alerts.update",
    "PATCH /alerts/{id}",
    tx="write",
    roles=STAFF,
    says="Alert handled",
    record="inventory.alert",
    summary="acknowledge or resolve an alert",
)
def update_alert(ctx: Ctx, id: str, body: AlertAction) -> AlertOut:
    return act_on_alert(ctx, id, body.action)

"""Tax: transactions."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.base import table_of
from local_db.models.tax import TaxFiling, TaxTransaction, TaxTransactionRevision
from services.core.commands import record_kind, use_case
from services.core.connections import connection_client, note_sync, stored_connection
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.events import emit
from services.core.pagination import Page, contains, paginate
from services.core.roles import STAFF
from services.core.shop import ShopError
from services.tax import states
from services.tax.lookups import _expiry_check, _nexus, money, period_of, to_cents
from services.tax.schemas import (
    AmendIn,
    RefundIn,
    RevisionOut,
    TransactionDetail,
    TransactionOut,
    TransactionQuery,
    TransactionSyncIn,
    TransactionSyncOut,
)

CLOSED = ("filed", "accepted")  # a filing whose transactions are locked


BATCH = 2000  # shop rows written per transaction while the sync runs


record_kind("tax.transaction", get="tax.transactions.get", label="external_id")


def _shop_cents(v: Any, field: str, row: int) -> int:
    """A shop's money value (string or number) as cents; a bad one is a problem with that row."""
    if isinstance(v, bool) or v is None:
        raise ValueError(f"{field} is missing")
    try:
        d = Decimal(str(v))
    except InvalidOperation:
        raise ValueError(f"{field} is not a number: {v!r}") from None
    if not d.is_finite() or d < 0:
        raise ValueError(f"{field} must be zero or more")
    return to_cents(d)


def _tx_out(t: TaxTransaction) -> TransactionOut:
    return TransactionOut(
        id=t.id,
        kind=t.kind,  # type: ignore[arg-type]
        external_id=t.external_id,
        order_id=t.order_id,
        order_external_id=t.order_external_id,
        date=t.date,
        state=t.state,
        amount=money(t.amount_cents),
        shipping=money(t.shipping_cents),
        tax_collected=money(t.tax_cents),
        exempt=t.exempt,
        revision=t.revision,
        locked=t.locked,
        source=t.source,
        reason=t.reason,
        created_at=t.created_at,
        updated_at=t.updated_at,
    )


def _snapshot(t: TaxTransaction) -> dict[str, Any]:
    return {
        "date": t.date.isoformat(),
        "state": t.state,
        "amount": money(t.amount_cents),
        "shipping": money(t.shipping_cents),
        "tax_collected": money(t.tax_cents),
        "exempt": t.exempt,
    }


def _find_tx(s: Session, id: str) -> TaxTransaction:
    t = s.get(TaxTransaction, id)
    if t is None:
        raise NotFound(f"no transaction {id}", {"id": id})
    return t


def _closed_periods(s: Session) -> dict[str, list[tuple[date, date]]]:
    out: dict[str, list[tuple[date, date]]] = defaultdict(list)
    for st, a, b in s.execute(
        select(TaxFiling.state, TaxFiling.period_start, TaxFiling.period_end).where(TaxFiling.status.in_(CLOSED))
    ).all():
        out[st].append((a, b))
    return out


def _in_closed(closed: dict[str, list[tuple[date, date]]], state: str, d: date) -> bool:
    return any(a <= d <= b for a, b in closed.get(state, ()))


def _refuse_if_locked(s: Session, t: TaxTransaction, action: str) -> None:
    if t.locked or _in_closed(_closed_periods(s), t.state, t.date):
        raise Conflict(
            f"the transaction is in a filed period: it cannot be {action}ed; amend the return instead",
            {"current_state": "locked", "action": action, "state": t.state, "date": t.date.isoformat()},
        )


def _changed(ctx: Ctx, s: Session, touched: Iterable[tuple[str, date]]) -> None:
    """Approved filings whose period holds a changed transaction become dirty (approve them again)."""
    pairs = set(touched)
    if not pairs:
        return
    approved = s.execute(select(TaxFiling).where(TaxFiling.status == "approved")).scalars().all()
    for f in approved:
        if any(st == f.state and f.period_start <= d <= f.period_end for st, d in pairs):
            f.status = states.FILING.check(f.status, "change", "system")
            f.updated_at = ctx.now()
            emit(ctx, "filing.dirty", {"filing_id": f.id, "state": f.state, "period_start": f.period_start.isoformat()})


def _ensure_filings(ctx: Ctx, s: Session) -> None:
    """A monthly filing for every period with transactions in a state where nexus is reached, and
    ``upcoming -> ready`` for periods that have closed."""
    today = ctx.now().date()
    reached = {n.state for n in _nexus(s, today.year) if n.reached}
    reached |= {n.state for n in _nexus(s, today.year - 1) if n.reached}
    if reached:
        T = TaxTransaction
        months = s.execute(
            select(T.state, func.min(T.date), func.max(T.date)).where(T.state.in_(reached)).group_by(T.state)
        ).all()
        have = {(st, a) for st, a in s.execute(select(TaxFiling.state, TaxFiling.period_start)).all()}
        for st, first, last in months:
            d = date(first.year, first.month, 1)
            while d <= last:
                start, end = period_of(d)
                if (st, start) not in have:
                    s.add(
                        TaxFiling(
                            id=new_id(),
                            state=st,
                            period_start=start,
                            period_end=end,
                            frequency="monthly",
                            status="upcoming",
                            created_at=ctx.now(),
                            updated_at=ctx.now(),
                        )
                    )
                    have.add((st, start))
                d = end + timedelta(days=1)
        s.flush()
    for f in s.execute(select(TaxFiling).where(TaxFiling.status == "upcoming", TaxFiling.period_end < today)).scalars():
        f.status = states.FILING.check(f.status, "close", "system")
        f.updated_at = ctx.now()
        emit(ctx, "filing.ready", {"filing_id": f.id, "state": f.state, "period_start": f.period_start.isoformat()})


@use_case(
    "tax.transactions.list",
    "GET /transactions",
    tx="read",
    roles=STAFF,
    record="tax.transaction",
    summary="orders and refunds (filter by kind, state, date range, locked)",
)
def list_transactions(ctx: Ctx, query: TransactionQuery) -> Page[TransactionOut]:
    T = TaxTransaction
    stmt = select(T)
    if query.kind:
        stmt = stmt.where(T.kind == query.kind)
    if query.state:
        stmt = stmt.where(T.state == query.state.upper())
    if query.from_:
        stmt = stmt.where(T.date >= query.from_)
    if query.to:
        stmt = stmt.where(T.date <= query.to)
    if query.locked is not None:
        stmt = stmt.where(T.locked.is_(query.locked))
    if query.search:
        stmt = stmt.where(contains(T.external_id, query.search))
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={"created_at": T.created_at, "date": T.date, "state": T.state, "external_id": T.external_id},
        )
        return Page([_tx_out(t) for t in page.items], page.total, page.spec)


def _detail(s: Session, t: TaxTransaction) -> TransactionDetail:
    old = (
        s.execute(
            select(TaxTransactionRevision)
            .where(TaxTransactionRevision.transaction_id == t.id)
            .order_by(TaxTransactionRevision.revision)
        )
        .scalars()
        .all()
    )
    revisions = [RevisionOut(revision=r.revision, data=r.data, reason=r.reason, created_at=r.created_at) for r in old]
    revisions.append(RevisionOut(revision=t.revision, data=_snapshot(t), reason=t.reason, created_at=t.updated_at))
    return TransactionDetail(**_tx_out(t).model_dump(), revisions=revisions)


@use_case(
    "tax.transactions.get",
    "GET /transactions/{id}",
    tx="read",
    roles=STAFF,
    record="tax.transaction",
    summary="one transaction with every revision",
)
def get_transaction(ctx: Ctx, id: str) -> TransactionDetail:
    with ctx.read() as s:
        return _detail(s, _find_tx(s, id))


def _parse_shop_row(raw: dict[str, Any], kind: str, i: int) -> dict[str, Any]:
    ext = raw.get("id")
    if ext in (None, "") or isinstance(ext, bool):
        raise ValueError("id is missing")
    st = str(raw.get("state") or "").strip().upper()
    if len(st) != 2 or not st.isalpha():
        raise ValueError(f"state {raw.get('state')!r} is not a two-letter code")
    try:
        d = date.fromisoformat(str(raw.get("date"))[:10])
    except ValueError:
        raise ValueError(f"date {raw.get('date')!r} is not an ISO date") from None
    row = {
        "kind": kind,
        "external_id": str(ext)[:100],
        "date": d,
        "state": st,
        "amount_cents": _shop_cents(raw.get("amount"), "amount", i),
        "shipping_cents": _shop_cents(raw.get("shipping", 0), "shipping", i),
        "tax_cents": _shop_cents(raw.get("tax"), "tax", i),
        "exempt": bool(raw.get("exempt", False)),
        "order_external_id": None,
    }
    if kind == "refund":
        oid = raw.get("order_id")
        row["order_external_id"] = str(oid)[:100] if oid not in (None, "") else None
    return row


_COMPARED = ("date", "state", "amount_cents", "shipping_cents", "tax_cents", "exempt", "order_external_id")


def _apply_batch(ctx: Ctx, rows: list[dict[str, Any]], counts: dict[str, int]) -> None:
    """Write one batch of shop rows in one unit of work: new ones inserted, changed ones revised,
    the same ones skipped; a row in a filed period is left alone (counted)."""
    if not rows:
        return
    T = TaxTransaction
    now = ctx.now()
    with ctx.write() as s:
        closed = _closed_periods(s)
        kind = rows[0]["kind"]
        ext_ids = [r["external_id"] for r in rows]
        # Plain rows, not objects: a re-run compares thousands and changes few (only those are loaded).
        cols = [getattr(T, k) for k in _COMPARED]
        have: dict[str, Any] = {
            row.external_id: row
            for row in s.execute(
                select(T.id, T.external_id, T.order_id, T.locked, *cols).where(
                    T.kind == kind, T.external_id.in_(ext_ids)
                )
            ).all()
        }
        orders: dict[str, str] = {}
        if kind == "refund":
            wanted = list({r["order_external_id"] for r in rows if r["order_external_id"]})
            for i in range(0, len(wanted), 900):
                orders.update(
                    s.execute(
                        select(T.external_id, T.id).where(T.kind == "order", T.external_id.in_(wanted[i : i + 900]))
                    ).all()
                )
        new_rows: list[dict[str, Any]] = []
        touched: set[tuple[str, date]] = set()
        seen: set[str] = set()
        for r in rows:
            if r["external_id"] in seen:  # the shop listed it twice: once is enough
                counts["skipped"] += 1
                continue
            seen.add(r["external_id"])
            order_id = orders.get(r["order_external_id"] or "") if kind == "refund" else None
            held = have.get(r["external_id"])
            if held is None:
                if _in_closed(closed, r["state"], r["date"]):
                    counts["skipped"] += 1
                    counts["locked_skipped"] += 1
                    continue
                if kind == "refund" and order_id is None:
                    counts["refunds_without_order"] += 1  # kept on its own (a standalone refund)
                new_rows.append(
                    {
                        **r,
                        "id": new_id(),
                        "tenant_id": ctx.tenant_id,
                        "order_id": order_id,
                        "revision": 1,
                        "locked": False,
                        "source": "sync",
                        "reason": "",
                        "created_at": now,
                        "updated_at": now,
                    }
                )
                touched.add((r["state"], r["date"]))
                continue
            if all(getattr(held, k) == r[k] for k in _COMPARED):
                if kind == "refund" and held.order_id is None and order_id is not None:
                    # Its order arrived since: link it, nothing else changed.
                    s.execute(update(T).where(T.id == held.id).values(order_id=order_id))
                counts["skipped"] += 1
                continue
            if held.locked or _in_closed(closed, held.state, held.date) or _in_closed(closed, r["state"], r["date"]):
                counts["skipped"] += 1
                counts["locked_skipped"] += 1
                continue
            t = s.get(T, held.id)
            assert t is not None
            s.add(
                TaxTransactionRevision(
                    id=new_id(), transaction_id=t.id, revision=t.revision, data=_snapshot(t), reason=t.reason
                )
            )
            touched |= {(t.state, t.date), (r["state"], r["date"])}
            for k in _COMPARED:
                setattr(t, k, r[k])
            t.order_id = order_id if kind == "refund" else None
            t.revision += 1
            t.reason = "changed at the shop"
            t.updated_at = now
            counts["updated"] += 1
        if new_rows:
            s.execute(insert(table_of(TaxTransaction)), new_rows)
            counts["imported"] += len(new_rows)
        if kind == "order" and new_rows:
            # Refunds that arrived before their order: link them now.
            fresh = {r["external_id"]: r["id"] for r in new_rows}
            waiting = s.execute(
                select(T.id, T.order_external_id).where(
                    T.kind == "refund", T.order_id.is_(None), T.order_external_id.is_not(None)
                )
            ).all()
            for rid, ext in waiting:
                if ext in fresh:
                    s.execute(update(T).where(T.id == rid).values(order_id=fresh[ext]))
        _changed(ctx, s, touched)


@use_case(
    "tax.transactions.sync",
    "POST /transactions/sync",
    tx="own",
    needs=("the shop",),
    roles=STAFF,
    says="Sync transactions from the shop",
    record="tax.transaction",
    summary="import orders and refunds from the e-commerce connection by external_id (never twice)",
)
def sync_transactions(ctx: Ctx, body: TransactionSyncIn) -> TransactionSyncOut:
    if ctx.runtime.is_station:
        raise Conflict(
            "the transaction sync runs on the platform (it holds the shop's key): start it there",
            {"reason": "online_only", "action": "sync"},
        )
    with ctx.read() as s:
        conn = stored_connection(s, ctx.tenant_id, "ecommerce")
    if not conn:
        raise Conflict(
            "no e-commerce connection: save one at connections/ecommerce first",
            {"current_state": "not_connected", "action": "sync"},
        )
    counts = {"imported": 0, "updated": 0, "skipped": 0, "refunds_without_order": 0, "locked_skipped": 0}
    since = body.from_.isoformat() if body.from_ else None
    problems: list[str] = []
    try:
        with connection_client(ctx, conn) as shop:
            for kind, what in (("order", "orders"), ("refund", "refunds")):
                batch: list[dict[str, Any]] = []
                for page in shop.pages(what, since):
                    for i, raw in enumerate(page):
                        try:
                            row = _parse_shop_row(raw, kind, i)
                        except ValueError as exc:
                            counts["skipped"] += 1
                            problems.append(f"{what} {raw.get('id')!r}: {exc}")
                            continue
                        if body.to and row["date"] > body.to:
                            continue
                        batch.append(row)
                        if len(batch) >= BATCH:
                            _apply_batch(ctx, batch, counts)
                            batch = []
                _apply_batch(ctx, batch, counts)
    except ShopError as exc:
        note_sync(ctx, "ecommerce", at=None, error=str(exc))
        raise Conflict(
            f"the shop could not be read: {exc}", {"current_state": "shop_error", "action": "sync", **counts}
        ) from None
    now = ctx.now()
    with ctx.write() as s:
        _ensure_filings(ctx, s)
        _expiry_check(ctx, s)
        emit(ctx, "tax.transactions_synced", {"transaction_id": None, **counts, "problems": len(problems)})
    note_sync(ctx, "ecommerce", at=now, error="; ".join(problems[:3]) or None)
    return TransactionSyncOut(**counts, last_sync_at=now)


@use_case(
    "tax.transactions.refund",
    "POST /transactions/{id}/refund",
    tx="write",
    roles=STAFF,
    status=201,
    says="Refund",
    record="tax.transaction",
    summary="record a refund of an order (the whole order unless an amount is given)",
)
def refund(ctx: Ctx, id: str, body: RefundIn) -> TransactionOut:
    with ctx.write() as s:
        o = _find_tx(s, id)
        if o.kind != "order":
            raise Conflict("only an order can be refunded", {"current_state": o.kind, "action": "refund"})
        T = TaxTransaction
        done_amount, done_tax, done_ship = s.execute(
            select(
                func.coalesce(func.sum(T.amount_cents), 0),
                func.coalesce(func.sum(T.tax_cents), 0),
                func.coalesce(func.sum(T.shipping_cents), 0),
            ).where(T.kind == "refund", T.order_id == o.id)
        ).one()
        left = o.amount_cents - int(done_amount)
        amount = left if body.amount is None else to_cents(body.amount)
        if amount <= 0 or amount > left:
            raise ValidationFailed(
                f"the refund must be more than 0.00 and at most {money(left)}, what is left of the order",
                {"fields": [{"field": "amount", "message": f"at most {money(left)}", "type": "range"}]},
            )
        if amount == left:
            # The rest of the order: its tax and shipping in full, so nothing is left over by rounding.
            tax = o.tax_cents - int(done_tax)
            ship = o.shipping_cents - int(done_ship)
        else:
            share = Decimal(amount) / Decimal(o.amount_cents)
            tax = int((Decimal(o.tax_cents) * share).quantize(Decimal(1), rounding=ROUND_HALF_UP))
            ship = 0
        today = ctx.now().date()
        t = TaxTransaction(
            id=new_id(),
            kind="refund",
            external_id=f"manual-{new_id()}",
            order_id=o.id,
            order_external_id=o.external_id,
            date=today,
            state=o.state,
            amount_cents=amount,
            shipping_cents=ship,
            tax_cents=tax,
            exempt=o.exempt,
            revision=1,
            locked=False,
            source="manual",
            reason=body.reason,
            created_at=ctx.now(),
            updated_at=ctx.now(),
        )
        if _in_closed(_closed_periods(s), t.state, today):
            raise Conflict(
                "today's period is already filed for this state", {"current_state": "locked", "action": "refund"}
            )
        s.add(t)
        s.flush()
        _changed(ctx, s, {(t.state, t.date)})
        emit(
            ctx,
            "tax.transaction_refunded",
            {"transaction_id": t.id, "order_id": o.id, "amount": money(amount), "tax": money(tax)},
        )
        return _tx_out(t)


@use_case(
    "tax.transactions.amend",
    "PUT /transactions/{id}/amend",
    tx="write",
    roles=STAFF,
    says="Amend",
    record="tax.transaction",
    summary="write the next revision of a transaction, keeping the old one (409 in a filed period)",
)
def amend(ctx: Ctx, id: str, body: AmendIn) -> TransactionDetail:
    given = body.model_fields_set - {"reason"}
    if not given:
        raise ValidationFailed(
            "say what changes", {"fields": [{"field": "amount", "message": "nothing to amend", "type": "missing"}]}
        )
    with ctx.write() as s:
        t = _find_tx(s, id)
        _refuse_if_locked(s, t, "amend")
        new_state = body.state or t.state
        new_date = body.date or t.date
        if _in_closed(_closed_periods(s), new_state, new_date):
            raise Conflict(
                "the amendment moves the transaction into a filed period",
                {"current_state": "locked", "action": "amend", "state": new_state, "date": new_date.isoformat()},
            )
        before = (t.state, t.date)
        s.add(
            TaxTransactionRevision(
                id=new_id(),
                transaction_id=t.id,
                revision=t.revision,
                data=_snapshot(t),
                reason=t.reason,
                actor=ctx.principal.user_id,
                created_at=ctx.now(),
            )
        )
        t.state, t.date = new_state, new_date
        if body.amount is not None:
            t.amount_cents = to_cents(body.amount)
        if body.shipping is not None:
            t.shipping_cents = to_cents(body.shipping)
        if body.tax_collected is not None:
            t.tax_cents = to_cents(body.tax_collected)
        if body.exempt is not None:
            t.exempt = body.exempt
        t.revision += 1
        t.reason = body.reason
        t.updated_at = ctx.now()
        s.flush()
        _changed(ctx, s, {before, (t.state, t.date)})
        emit(ctx, "tax.transaction_amended", {"transaction_id": t.id, "revision": t.revision, "reason": body.reason})
        return _detail(s, t)

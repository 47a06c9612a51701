"""Rewards: receipts."""

from __future__ import annotations

from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.rewards import (
    RewardsDealer,
    RewardsFile,
    RewardsLedgerEntry,
    RewardsReceipt,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.events import emit
from services.core.pagination import Page, contains, paginate
from services.core.roles import STAFF
from services.rewards import points as ledger
from services.rewards import states
from services.rewards.accounts import is_dealer
from services.rewards.earning import load_tiers, suggestions, tier_status
from services.rewards.lookups import _own
from services.rewards.schemas import (
    ReceiptIn,
    ReceiptLine,
    ReceiptOut,
    ReceiptQuery,
    ReviewIn,
    money,
)

record_kind("rewards.receipt", get="rewards.receipts.get", label="retailer")


def _lines_out(r: RewardsReceipt) -> list[ReceiptLine]:
    return [
        ReceiptLine(
            product_code=x.get("product_code"),
            category=x.get("category"),
            amount=money(int(x["amount_cents"])),
            quantity=int(x.get("quantity", 1)),
        )
        for x in r.lines or []
    ]


def _receipt_out(r: RewardsReceipt, suggested: int, dealer_name: str | None = None) -> ReceiptOut:
    return ReceiptOut(
        id=r.id,
        dealer_id=r.dealer_id,
        dealer_name=dealer_name,
        file_id=r.file_id,
        retailer=r.retailer,
        purchase_date=r.purchase_date,
        total=money(r.total_cents),
        status=r.status,  # type: ignore[arg-type]
        points=r.points,
        suggested_points=suggested,
        lines=_lines_out(r),
        reverse_reason=r.reverse_reason,
        decline_reason=r.decline_reason,
        duplicate_of=r.duplicate_of,
        reviewed_at=r.reviewed_at,
        created_at=r.created_at,
    )


@use_case(
    "rewards.receipts.create",
    "POST /receipts",
    tx="write",
    auth="customer",
    status=201,
    says="Receipt",
    record="rewards.receipt",
    summary="submit a sales receipt for points (pending until staff review it)",
)
def create_receipt(ctx: Ctx, body: ReceiptIn) -> ReceiptOut:
    if body.purchase_date > ctx.now().date():
        raise ValidationFailed("the purchase date is in the future", {"purchase_date": str(body.purchase_date)})
    cents = int(body.total * 100)
    if cents <= 0:
        raise ValidationFailed("the total must be more than 0", {"total": str(body.total)})
    amounts = [int(x.amount * 100) for x in body.lines]
    for i, a in enumerate(amounts):
        if a <= 0:
            raise ValidationFailed("a line's amount must be more than 0", {f"lines.{i}.amount": money(a)})
    if sum(amounts) > cents:
        raise ValidationFailed(
            "the lines add up to more than the receipt's total", {"lines": money(sum(amounts)), "total": money(cents)}
        )
    lines: list[dict[str, Any]] = [
        {"product_code": x.product_code, "category": x.category, "amount_cents": a, "quantity": x.quantity}
        for x, a in zip(body.lines, amounts, strict=True)
    ]
    now = ctx.now()
    with ctx.write() as s:
        f = s.get(RewardsFile, body.file_id)
        if f is None or f.dealer_id != ctx.principal.id:
            raise ValidationFailed("file_id is not a file you uploaded", {"file_id": body.file_id})
        if s.execute(select(RewardsReceipt.id).where(RewardsReceipt.file_id == f.id)).first():
            raise Conflict("this file was submitted already", {"file_id": f.id})
        # Same image (by hash) or the same retailer, date and total: flagged for the reviewer.
        same_image = select(RewardsFile.id).where(RewardsFile.sha256 == f.sha256, RewardsFile.id != f.id)
        dup = s.execute(
            select(RewardsReceipt.id)
            .where(
                or_(
                    RewardsReceipt.file_id.in_(same_image),
                    (RewardsReceipt.retailer == body.retailer)
                    & (RewardsReceipt.purchase_date == body.purchase_date)
                    & (RewardsReceipt.total_cents == cents),
                ),
                RewardsReceipt.status != "declined",
            )
            .limit(1)
        ).scalar_one_or_none()
        r = RewardsReceipt(
            id=new_id(),
            dealer_id=ctx.principal.id,
            file_id=f.id,
            retailer=body.retailer,
            purchase_date=body.purchase_date,
            total_cents=cents,
            lines=lines,
            status="pending",
            duplicate_of=dup,
            created_at=now,
            updated_at=now,
        )
        s.add(r)
        s.flush()
        emit(
            ctx,
            "sale.recorded",
            {
                "receipt_id": r.id,
                "dealer_id": r.dealer_id,
                "retailer": r.retailer,
                "purchase_date": str(r.purchase_date),
                "total": money(cents),
            },
        )
        return _receipt_out(r, suggestions(s, ctx.tenant_id, [r], now)[r.id])


@use_case(
    "rewards.receipts.list",
    "GET /receipts",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="receipts: a dealer's own, or the tenant's for staff (status=, dealer_id=)",
)
def list_receipts(ctx: Ctx, query: ReceiptQuery) -> Page[ReceiptOut]:
    stmt = select(RewardsReceipt)
    if is_dealer(ctx):
        stmt = stmt.where(RewardsReceipt.dealer_id == ctx.principal.id)
    elif query.dealer_id:
        stmt = stmt.where(RewardsReceipt.dealer_id == query.dealer_id)
    if query.status:
        stmt = stmt.where(RewardsReceipt.status == query.status)
    if query.search:
        stmt = stmt.where(contains(RewardsReceipt.retailer, query.search))
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "created_at": RewardsReceipt.created_at,
                "purchase_date": RewardsReceipt.purchase_date,
                "total": RewardsReceipt.total_cents,
            },
        )
        suggested = suggestions(s, ctx.tenant_id, page.items, ctx.now())
        names = dict(
            s.execute(
                select(RewardsDealer.id, RewardsDealer.company).where(
                    RewardsDealer.id.in_({r.dealer_id for r in page.items})
                )
            ).all()
        )
    return page.map(lambda r: _receipt_out(r, suggested[r.id], names.get(r.dealer_id)))


@use_case(
    "rewards.receipts.get",
    "GET /receipts/{id}",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="one receipt",
)
def get_receipt(ctx: Ctx, id: str) -> ReceiptOut:
    with ctx.read() as s:
        r = s.get(RewardsReceipt, id)
        if r is None:
            raise NotFound("receipt not found", {"id": id})
        _own(ctx, r.dealer_id, "receipt", id)
        d = s.get(RewardsDealer, r.dealer_id)
        return _receipt_out(r, suggestions(s, ctx.tenant_id, [r], ctx.now())[r.id], d.company if d else None)


@use_case(
    "rewards.admin.receipts.review",
    "POST /admin/receipts/{id}",
    tx="write",
    roles=STAFF,
    says="{action} receipt",
    record="rewards.receipt",
    summary="approve a receipt with points (credited at once) or decline it with a reason",
)
def review_receipt(ctx: Ctx, id: str, body: ReviewIn) -> ReceiptOut:
    if body.action in ("decline", "reverse") and not body.reason:
        raise ValidationFailed(f"a {body.action} needs a reason", {"reason": "required"})
    if body.action == "reverse" and (body.points is not None or body.expires_in_days is not None):
        raise ValidationFailed(
            "a reversal takes back the points awarded; it takes no points", {"points": "not allowed"}
        )
    now = ctx.now()
    with ctx.write() as s:
        r = s.get(RewardsReceipt, id)
        if r is None:
            raise NotFound("receipt not found", {"id": id})
        d = ledger.lock_dealer(s, r.dealer_id)
        s.refresh(r)  # read again under the dealer's lock: two reviewers never both approve
        r.status = states.RECEIPT.check(r.status, body.action, states.STAFF)
        cfg = ledger.settings(s, ctx.tenant_id)
        r.updated_at = now
        if body.action == "reverse":
            _reverse(ctx, s, d, r, body.reason or "")
            return _receipt_out(r, suggestions(s, ctx.tenant_id, [r], now)[r.id], d.company)
        r.reviewed_by = ctx.principal.id
        r.reviewed_at = now
        if body.action == "approve":
            tiers = load_tiers(s)
            before = tier_status(s, d.id, now, cfg.tier_period_days, tiers).tier
            pts = body.points or suggestions(s, ctx.tenant_id, [r], now)[r.id]
            if pts <= 0:
                raise ValidationFailed("say how many points to award", {"points": "required"})
            r.points = pts
            ledger.sweep_expired(ctx, s, d)
            ledger.award(
                ctx,
                s,
                d,
                pts,
                kind="earn",
                source="receipt",
                source_id=r.id,
                description=f"receipt {r.retailer} {r.purchase_date}",
                expires_in_days=body.expires_in_days,
            )
            emit(ctx, "sale.approved", {"receipt_id": r.id, "dealer_id": d.id, "points": pts})
            after = tier_status(s, d.id, now, cfg.tier_period_days, tiers).tier
            if (after and after.id) != (before and before.id):
                emit(
                    ctx,
                    "dealer.tier_changed",
                    {"dealer_id": d.id, "from": before.name if before else None, "to": after.name if after else None},
                )
        else:
            r.decline_reason = body.reason
            emit(ctx, "sale.declined", {"receipt_id": r.id, "dealer_id": d.id, "reason": body.reason})
        s.flush()
        return _receipt_out(r, suggestions(s, ctx.tenant_id, [r], now)[r.id], d.company)


def _reverse(ctx: Ctx, s: Session, d: RewardsDealer, r: RewardsReceipt, reason: str) -> None:
    """Take an approved receipt's points back; spent ones leave the dealer owing (balance below zero)."""
    earn = s.execute(
        select(RewardsLedgerEntry).where(
            RewardsLedgerEntry.dealer_id == d.id,
            RewardsLedgerEntry.kind == "earn",
            RewardsLedgerEntry.source == "receipt",
            RewardsLedgerEntry.source_id == r.id,
        )
    ).scalar_one()
    r.reverse_reason = reason
    e = ledger.take_back(ctx, s, d, earn, description=f"reversed: {reason}")
    emit(
        ctx,
        "sale.reversed",
        {
            "receipt_id": r.id,
            "dealer_id": d.id,
            "points": -e.points,
            "balance_after": e.balance_after,
            "owed": max(0, -e.balance_after),
        },
    )
    s.flush()

"""The points ledger: append-only entries, award lots spent earliest-expiry first, the running
balance on the dealer row, and the tenant's program settings.

Every change of a dealer's points starts with ``lock_dealer`` (SELECT ... FOR UPDATE on
PostgreSQL; SQLite's write transactions are already serial, BEGIN IMMEDIATE), so lots, the
balance and the ledger move together and two checkouts never spend the same points.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from sqlalchemy import BindParameter, Select, func, select, update
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models import Tenant
from local_db.models.rewards import RewardsAllocation, RewardsDealer, RewardsLedgerEntry, RewardsLot
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound

# IRS information-reporting threshold (Form 1099-MISC, prizes and awards) for payments made
# after 31 Dec 2025: $2,000 (One Big Beautiful Bill Act s. 70433, raised from $600; indexed for
# inflation from 2027). https://sovos.com/regulatory-updates/trr/one-big-beautiful-bill-raises-1099-reporting-thresholds
DEFAULT_W9_THRESHOLD = Decimal("2000.00")
DEFAULT_POINT_VALUE = Decimal("0.01")
DEFAULT_EXPIRY_DAYS = 365
DEFAULT_POINTS_PER_DOLLAR = 10
DEFAULT_REMINDER_DAYS = 30  # a dealer is told a month before points expire
DEFAULT_TIER_PERIOD_DAYS = 365  # tiers count the points earned over the last year


@dataclass(frozen=True)
class Settings:
    w9_threshold: Decimal
    point_value: Decimal
    points_expiry_days: int
    points_per_dollar: int
    expiry_reminder_days: int
    tier_period_days: int


def settings(s: Session, tenant_id: str) -> Settings:
    t = s.get(Tenant, tenant_id)
    raw = ((t.settings or {}) if t else {}).get("rewards") or {}
    return Settings(
        w9_threshold=Decimal(str(raw.get("w9_threshold", DEFAULT_W9_THRESHOLD))),
        point_value=Decimal(str(raw.get("point_value", DEFAULT_POINT_VALUE))),
        points_expiry_days=int(raw.get("points_expiry_days", DEFAULT_EXPIRY_DAYS)),
        points_per_dollar=int(raw.get("points_per_dollar", DEFAULT_POINTS_PER_DOLLAR)),
        expiry_reminder_days=int(raw.get("expiry_reminder_days", DEFAULT_REMINDER_DAYS)),
        tier_period_days=int(raw.get("tier_period_days", DEFAULT_TIER_PERIOD_DAYS)),
    )


def value_cents(points: int, point_value: Decimal) -> int:
    return int((Decimal(points) * point_value * 100).to_integral_value(ROUND_HALF_UP))


def lock_dealer(s: Session, dealer_id: str) -> RewardsDealer:
    d = s.execute(select(RewardsDealer).where(RewardsDealer.id == dealer_id).with_for_update()).scalar_one_or_none()
    if d is None:
        raise NotFound("dealer not found", {"dealer_id": dealer_id})
    return d


def _entry(
    ctx: Ctx,
    s: Session,
    d: RewardsDealer,
    kind: str,
    points: int,
    *,
    source: str | None,
    source_id: str | None,
    description: str,
    expires_at: datetime | None = None,
    allow_negative: bool = False,
) -> RewardsLedgerEntry:
    # The balance moves by a conditional update: never below zero, whatever raced before the lock
    # (a reversal alone may take it below: the dealer then owes points, shown to them and to staff).
    if points < 0 and not allow_negative:
        res = s.execute(
            update(RewardsDealer)
            .where(RewardsDealer.id == d.id, RewardsDealer.balance >= -points)
            .values(balance=RewardsDealer.balance + points)
            .execution_options(synchronize_session=False)
        )
        if res.rowcount != 1:  # type: ignore[attr-defined]
            raise Conflict("not enough points", {"balance": d.balance, "needed": -points})
    else:
        s.execute(
            update(RewardsDealer)
            .where(RewardsDealer.id == d.id)
            .values(balance=RewardsDealer.balance + points)
            .execution_options(synchronize_session=False)
        )
    s.refresh(d, ["balance"])
    e = RewardsLedgerEntry(
        id=new_id(),
        dealer_id=d.id,
        kind=kind,
        points=points,
        balance_after=d.balance,
        expires_at=expires_at,
        source=source,
        source_id=source_id,
        description=description[:300],
        created_at=ctx.now(),
    )
    s.add(e)
    s.flush()
    return e


def award(
    ctx: Ctx,
    s: Session,
    d: RewardsDealer,
    points: int,
    *,
    kind: str,
    source: str | None,
    source_id: str | None,
    description: str,
    expires_in_days: int | None,
) -> RewardsLedgerEntry:
    """Points earned (or a positive adjustment): a ledger entry and a lot that expires on its own date."""
    cfg = settings(s, ctx.tenant_id)
    expires = ctx.now() + timedelta(days=expires_in_days or cfg.points_expiry_days)
    e = _entry(ctx, s, d, kind, points, source=source, source_id=source_id, description=description, expires_at=expires)
    # A dealer who owes points (a reversal after spending) pays that back first: only what the
    # balance shows above zero stays spendable in the lot, so the lots always add up to the balance.
    s.add(
        RewardsLot(
            id=new_id(),
            dealer_id=d.id,
            entry_id=e.id,
            points=points,
            remaining=min(points, max(0, e.balance_after)),
            expires_at=expires,
            created_at=ctx.now(),
        )
    )
    return e


def spend(
    ctx: Ctx,
    s: Session,
    d: RewardsDealer,
    points: int,
    *,
    kind: str,
    source: str | None,
    source_id: str | None,
    description: str,
) -> RewardsLedgerEntry:
    """Take points from the lots, earliest expiry first; 409 when the balance is short."""
    e = _entry(ctx, s, d, kind, -points, source=source, source_id=source_id, description=description)
    left = points
    lots = s.execute(
        select(RewardsLot)
        .where(RewardsLot.dealer_id == d.id, RewardsLot.remaining > 0)
        .order_by(RewardsLot.expires_at, RewardsLot.created_at)
    ).scalars()
    for lot in lots:
        take = min(lot.remaining, left)
        lot.remaining -= take
        s.add(RewardsAllocation(id=new_id(), entry_id=e.id, lot_id=lot.id, points=take))
        left -= take
        if left == 0:
            break
    if left:  # the balance and the lots disagree: refuse rather than write a ledger that does not add up
        raise Conflict("the points ledger does not add up; nothing was spent", {"dealer_id": d.id})
    s.flush()
    return e


def refund(ctx: Ctx, s: Session, d: RewardsDealer, redeem_entry_id: str, *, source_id: str, description: str) -> None:
    """Give a redemption's points back to the lots they came from (their own expiry dates)."""
    allocs = list(s.execute(select(RewardsAllocation).where(RewardsAllocation.entry_id == redeem_entry_id)).scalars())
    total = sum(a.points for a in allocs)
    if not total:
        return
    _entry(ctx, s, d, "refund", total, source="order", source_id=source_id, description=description)
    for a in allocs:
        lot = s.get(RewardsLot, a.lot_id)
        if lot is not None:
            lot.remaining += a.points
    s.flush()
    _pay_owed(s, d)
    sweep_expired(ctx, s, d)  # points returned to a lot past its date expire now


def _pay_owed(s: Session, d: RewardsDealer) -> None:
    """Keep the lots equal to what the balance shows above zero: points returned to a dealer who
    owes some pay the debt first (earliest expiry drained first)."""
    excess = int(
        s.execute(
            select(func.coalesce(func.sum(RewardsLot.remaining), 0)).where(
                RewardsLot.dealer_id == d.id, RewardsLot.remaining > 0
            )
        ).scalar_one()
    ) - max(d.balance, 0)
    if excess <= 0:
        return
    for lot in s.execute(
        select(RewardsLot)
        .where(RewardsLot.dealer_id == d.id, RewardsLot.remaining > 0)
        .order_by(RewardsLot.expires_at, RewardsLot.created_at)
    ).scalars():
        got = min(lot.remaining, excess)
        lot.remaining -= got
        excess -= got
        if excess == 0:
            break
    s.flush()


def take_back(
    ctx: Ctx, s: Session, d: RewardsDealer, earn: RewardsLedgerEntry, *, description: str
) -> RewardsLedgerEntry:
    """Take an award's points back (a reversed receipt): what is left of its lot first, then other
    lots earliest expiry first; what was spent already takes the balance below zero (owed).

    Points of the award that expired already left the balance by their ``expire`` entry, so they
    are not taken a second time.
    """
    sweep_expired(ctx, s, d)
    lot = s.execute(select(RewardsLot).where(RewardsLot.entry_id == earn.id)).scalar_one_or_none()
    expired = 0
    if lot is not None:
        expired = -int(
            s.execute(
                select(func.coalesce(func.sum(RewardsLedgerEntry.points), 0)).where(
                    RewardsLedgerEntry.dealer_id == d.id,
                    RewardsLedgerEntry.kind == "expire",
                    RewardsLedgerEntry.source_id == lot.id,
                )
            ).scalar_one()
        )
    take = earn.points - expired
    e = _entry(
        ctx,
        s,
        d,
        "reverse",
        -take,
        source=earn.source,
        source_id=earn.source_id,
        description=description,
        allow_negative=True,
    )
    left = take
    own = [lot] if lot is not None else []
    others = s.execute(
        select(RewardsLot)
        .where(RewardsLot.dealer_id == d.id, RewardsLot.remaining > 0, RewardsLot.id != (lot.id if lot else ""))
        .order_by(RewardsLot.expires_at, RewardsLot.created_at)
    ).scalars()
    for x in [*own, *others]:
        if left == 0:
            break
        got = min(x.remaining, left)
        if got:
            x.remaining -= got
            s.add(RewardsAllocation(id=new_id(), entry_id=e.id, lot_id=x.id, points=got))
            left -= got
    s.flush()
    return e


def sweep_expired(ctx: Ctx, s: Session, d: RewardsDealer) -> int:
    """Write an ``expire`` entry for each lot past its date with points left (the dealer is locked)."""
    now = ctx.now()
    lots = list(
        s.execute(
            select(RewardsLot).where(
                RewardsLot.dealer_id == d.id, RewardsLot.remaining > 0, RewardsLot.expires_at <= now
            )
        ).scalars()
    )
    gone = 0
    for lot in lots:
        pts = lot.remaining
        lot.remaining = 0
        _entry(ctx, s, d, "expire", -pts, source="lot", source_id=lot.id, description="points expired")
        gone += pts
    return gone


def expired_unswept_query(dealer_id: str | BindParameter[str], now: datetime | BindParameter[Any]) -> Select[int]:
    """The points of lots past their date not yet written off (a page reads it beside others)."""
    return select(func.coalesce(func.sum(RewardsLot.remaining), 0)).where(
        RewardsLot.dealer_id == dealer_id, RewardsLot.remaining > 0, RewardsLot.expires_at <= now
    )


def expired_unswept(s: Session, dealer_id: str, now: datetime) -> int:
    return int(s.execute(expired_unswept_query(dealer_id, now)).scalar_one())

"""Rewards: points expiry on the scheduler. Each run writes off the points past their date (an
``expire`` entry per lot, as a dealer's next change would) and mails each approved dealer once
about the points that expire within ``expiry_reminder_days`` (a lot is reminded once).
``POST /admin/points/expire`` runs the same for one tenant at once."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select

from local_db.models.rewards import RewardsDealer, RewardsLot
from services.core.commands import use_case
from services.core.context import Ctx, Runtime
from services.core.events import emit
from services.core.mail import Mail, send_after_commit
from services.core.roles import MANAGERS
from services.core.scheduler import each_tenant, periodic
from services.rewards import points as ledger
from services.rewards.schemas import ExpiryRunOut


def _reminder(d: RewardsDealer, lots: list[RewardsLot], tenant_name: str) -> Mail:
    total = sum(x.remaining for x in lots)
    first = min(x.expires_at for x in lots if x.expires_at)
    rows = "\n".join(f"  {x.remaining:,} points on {x.expires_at:%d %B %Y}" for x in lots if x.expires_at)
    return Mail(
        to=d.email,
        subject=f"{total:,} of your points expire soon",
        text=(
            f"Hello {d.name},\n\n"
            f"{total:,} of your {tenant_name} reward points expire, the first on {first:%d %B %Y}:\n\n"
            f"{rows}\n\n"
            "Redeem them from the catalog before then to keep their value.\n"
        ),
    )


def run_expiry(ctx: Ctx) -> ExpiryRunOut:
    """Write off expired points and send the reminders of one tenant (one transaction)."""
    now: datetime = ctx.now()
    with ctx.write() as s:
        cfg = ledger.settings(s, ctx.tenant_id)
        due = sorted(
            set(
                s.execute(
                    select(RewardsLot.dealer_id).where(RewardsLot.remaining > 0, RewardsLot.expires_at <= now)
                ).scalars()
            )
        )
        expired = 0
        for dealer_id in due:  # sorted: two runs lock dealers in the same order
            d = ledger.lock_dealer(s, dealer_id)
            gone = ledger.sweep_expired(ctx, s, d)
            if gone:
                expired += gone
                emit(ctx, "points.expired", {"dealer_id": d.id, "points": gone, "balance_after": d.balance})
        soon = s.execute(
            select(RewardsLot, RewardsDealer)
            .join(RewardsDealer, RewardsDealer.id == RewardsLot.dealer_id)
            .where(
                RewardsLot.remaining > 0,
                RewardsLot.reminded_at.is_(None),
                RewardsLot.expires_at > now,
                RewardsLot.expires_at <= now + timedelta(days=cfg.expiry_reminder_days),
                RewardsDealer.status == "approved",
            )
            .order_by(RewardsLot.expires_at)
        ).all()
        by_dealer: dict[str, tuple[RewardsDealer, list[RewardsLot]]] = {}
        grouped: defaultdict[str, list[RewardsLot]] = defaultdict(list)
        for lot, d in soon:
            by_dealer[d.id] = (d, grouped[d.id])
            grouped[d.id].append(lot)
        for d, lots in by_dealer.values():
            for lot in lots:
                lot.reminded_at = now
            send_after_commit(ctx, _reminder(d, lots, ctx.tenant.name if ctx.tenant else ""))
            emit(
                ctx,
                "points.reminded",
                {
                    "dealer_id": d.id,
                    "points": sum(x.remaining for x in lots),
                    "first_expiry": min(x.expires_at for x in lots if x.expires_at).isoformat(),
                },
            )
        s.flush()
    return ExpiryRunOut(expired_points=expired, dealers_expired=len(due), reminded=len(by_dealer))


@use_case(
    "rewards.admin.points.expire",
    "POST /admin/points/expire",
    tx="write",
    roles=MANAGERS,
    says="Expire points",
    summary="write off expired points and mail the reminders now (the scheduler does it daily)",
)
def expire_now(ctx: Ctx) -> ExpiryRunOut:
    return run_expiry(ctx)


def _one(ctx: Ctx) -> Any:
    if ctx.tenant is None or "rewards" not in ctx.tenant.modules:
        return ExpiryRunOut(expired_points=0, dealers_expired=0, reminded=0)
    ctx.operation = ("rewards.admin.points.expire", "rewards.dealer")  # open dealer lists refresh
    return run_expiry(ctx)


@periodic("rewards.expiry", every=timedelta(hours=6), lease=timedelta(minutes=10))
def expire_all(rt: Runtime) -> dict[str, Any]:
    """Every tenant's expiry and reminders; every 6 hours so a reminder is never a day late."""
    done = each_tenant(rt, _one)
    return {
        "tenants": len(done),
        "expired_points": sum(r["expired_points"] for r in done.values()),
        "reminded": sum(r["reminded"] for r in done.values()),
    }

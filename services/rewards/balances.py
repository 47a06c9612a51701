"""Rewards: balances."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import func, select

from local_db.models import Tenant
from local_db.models.rewards import (
    RewardsLedgerEntry,
    RewardsLot,
    RewardsReceipt,
)
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.pagination import Page, contains, paginate
from services.core.roles import MANAGERS, STAFF
from services.rewards import points as ledger
from services.rewards.accounts import find_dealer, is_dealer
from services.rewards.earning import load_tiers, multiplier, suggestions, tier_status
from services.rewards.schemas import (
    AdjustIn,
    Expiry,
    LedgerOut,
    LedgerQuery,
    PointsOut,
    SettingsIn,
    SettingsOut,
    money,
)


@use_case("rewards.points.get", "GET /points", tx="read", auth="customer", summary="the dealer's points balance")
def get_points(ctx: Ctx) -> PointsOut:
    now = ctx.now()
    with ctx.read() as s:
        d = find_dealer(s, ctx.principal.id)
        cfg = ledger.settings(s, ctx.tenant_id)
        # Lots past their date are written off at the dealer's next change; a read already leaves them out.
        balance = d.balance - ledger.expired_unswept(s, d.id, now)
        waiting = s.execute(
            select(RewardsReceipt).where(RewardsReceipt.dealer_id == d.id, RewardsReceipt.status == "pending")
        ).scalars()
        tiers = load_tiers(s)
        tier = tier_status(s, d.id, now, cfg.tier_period_days, tiers) if tiers else None
        # The settings, tiers and the dealer's multiplier read once for the suggestions too.
        factor = multiplier(tier)
        pending = sum(
            suggestions(s, ctx.tenant_id, waiting, now, cfg=cfg, tiers=tiers, factors={d.id: factor}).values()
        )
        lots = s.execute(
            select(RewardsLot.expires_at, func.sum(RewardsLot.remaining))
            .where(RewardsLot.dealer_id == d.id, RewardsLot.remaining > 0, RewardsLot.expires_at > now)
            .group_by(RewardsLot.expires_at)
            .order_by(RewardsLot.expires_at)
            .limit(5)
        ).all()
    return PointsOut(
        balance=balance,
        pending=pending,
        value=money(ledger.value_cents(balance, cfg.point_value)),
        next_expiries=[Expiry(points=int(p), expires_at=e) for e, p in lots],
        owed=max(0, -balance),
        tier=tier,
    )


def _ledger_out(e: RewardsLedgerEntry) -> LedgerOut:
    return LedgerOut.model_validate(e, from_attributes=True)


@use_case(
    "rewards.points.ledger",
    "GET /points/ledger",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="the points ledger, newest first (staff: every dealer's, or dealer_id=)",
)
def list_ledger(ctx: Ctx, query: LedgerQuery) -> Page[LedgerOut]:
    stmt = select(RewardsLedgerEntry)
    if is_dealer(ctx):
        stmt = stmt.where(RewardsLedgerEntry.dealer_id == ctx.principal.id)
    elif query.dealer_id:
        stmt = stmt.where(RewardsLedgerEntry.dealer_id == query.dealer_id)
    if query.search:
        stmt = stmt.where(contains(RewardsLedgerEntry.description, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": RewardsLedgerEntry.created_at})
    return page.map(_ledger_out)


@use_case(
    "rewards.admin.points.adjust",
    "POST /admin/dealers/{id}/points",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="Adjust points",
    record="rewards.dealer",
    summary="add or take points with a reason (an adjust entry)",
)
def adjust_points(ctx: Ctx, id: str, body: AdjustIn) -> LedgerOut:
    with ctx.write() as s:
        d = ledger.lock_dealer(s, id)
        ledger.sweep_expired(ctx, s, d)
        if body.points > 0:
            e = ledger.award(
                ctx,
                s,
                d,
                body.points,
                kind="adjust",
                source="staff",
                source_id=ctx.principal.id,
                description=body.reason,
                expires_in_days=body.expires_in_days,
            )
        else:
            e = ledger.spend(
                ctx,
                s,
                d,
                -body.points,
                kind="adjust",
                source="staff",
                source_id=ctx.principal.id,
                description=body.reason,
            )
        return _ledger_out(e)


def _settings_out(cfg: ledger.Settings) -> SettingsOut:
    return SettingsOut(
        w9_threshold=f"{cfg.w9_threshold:.2f}",
        point_value=str(cfg.point_value),
        points_expiry_days=cfg.points_expiry_days,
        points_per_dollar=cfg.points_per_dollar,
        expiry_reminder_days=cfg.expiry_reminder_days,
        tier_period_days=cfg.tier_period_days,
    )


@use_case("rewards.admin.settings.get", "GET /admin/settings", tx="read", roles=STAFF, summary="program settings")
def get_settings(ctx: Ctx) -> SettingsOut:
    with ctx.read() as s:
        return _settings_out(ledger.settings(s, ctx.tenant_id))


@use_case(
    "rewards.admin.settings.set",
    "PUT /admin/settings",
    tx="write",
    roles=MANAGERS,
    says="Rewards settings",
    summary="set the W-9 threshold, a point's value, points' lifetime and points per dollar",
)
def set_settings(ctx: Ctx, body: SettingsIn) -> SettingsOut:
    with ctx.write() as s:
        t = s.get(Tenant, ctx.tenant_id)
        assert t is not None
        settings = dict(t.settings or {})
        cur = dict(settings.get("rewards") or {})
        for k, v in body.model_dump(exclude_none=True).items():
            cur[k] = str(v) if isinstance(v, Decimal) else v
        settings["rewards"] = cur
        t.settings = settings  # a new dict: JSON columns track assignment only
        s.flush()
        return _settings_out(ledger.settings(s, ctx.tenant_id))

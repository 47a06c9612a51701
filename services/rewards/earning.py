"""Rewards: earning rules (what a receipt earns) and the tier a dealer stands in.

A receipt's points are worked out line by line. Each line's base rate (points per whole dollar)
is the most specific active rule in its period: the line's product code, else its category, else
a rule for every line, else the program's ``points_per_dollar``; of two rules equally specific the
higher rate wins. Every matching multiplier rule in its period multiplies that line (a campaign:
"double points on drills in March"). The amount the lines leave of the total earns the base rate
of a line with no product. The dealer's tier multiplier applies last, to the receipt's sum, and
every step rounds down (a dealer never gets a point the rules do not give).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import ROUND_FLOOR, Decimal
from typing import Any, Protocol

from sqlalchemy import BindParameter, Select, func, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.rewards import RewardsEarningRule, RewardsLedgerEntry, RewardsReceipt, RewardsTier
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed, get_or_404
from services.core.pagination import Listing, Page
from services.core.roles import MANAGERS, STAFF
from services.rewards import points as ledger
from services.rewards.schemas import EarningRuleIn, EarningRuleOut, EarningRuleQuery, TierOut, TierStatus


@dataclass(frozen=True)
class Rule:
    product_code: str | None
    category: str | None
    points_per_dollar: int | None
    multiplier: Decimal | None
    starts_on: date | None
    ends_on: date | None

    def applies(self, product_code: str | None, category: str | None, on: date) -> bool:
        if self.starts_on and on < self.starts_on or self.ends_on and on > self.ends_on:
            return False
        if self.product_code is not None:
            return self.product_code == product_code
        if self.category is not None:
            return self.category == category
        return True

    @property
    def rank(self) -> int:  # how specific: product 2, category 1, every line 0
        return 2 if self.product_code is not None else 1 if self.category is not None else 0


def load_rules(s: Session) -> list[Rule]:
    return [
        Rule(
            r.product_code,
            r.category,
            r.points_per_dollar,
            Decimal(r.multiplier) if r.multiplier else None,
            r.starts_on,
            r.ends_on,
        )
        for r in s.execute(select(RewardsEarningRule).where(RewardsEarningRule.active.is_(True))).scalars()
    ]


def line_points(
    rules: list[Rule], default_rate: int, product_code: str | None, category: str | None, cents: int, on: date
) -> int:
    hits = [r for r in rules if r.applies(product_code, category, on)]
    rated = [r for r in hits if r.points_per_dollar is not None]
    rate = default_rate
    if rated:
        best = max(r.rank for r in rated)
        rate = max(r.points_per_dollar or 0 for r in rated if r.rank == best)
    factor = Decimal(1)
    for r in hits:
        if r.multiplier is not None:
            factor *= r.multiplier
    return int((Decimal((cents // 100) * rate) * factor).to_integral_value(ROUND_FLOOR))


class Figures(Protocol):
    """What a receipt's points are worked out from: a receipt, or a row of its columns."""

    @property
    def total_cents(self) -> int: ...
    @property
    def lines(self) -> list[Any]: ...
    @property
    def purchase_date(self) -> date: ...


def receipt_points(rules: list[Rule], default_rate: int, r: Figures, tier_multiplier: Decimal) -> int:
    """What the rules give this receipt, the dealer's tier multiplier included."""
    total = 0
    rest = r.total_cents
    for ln in r.lines or []:
        cents = int(ln["amount_cents"])
        rest -= cents
        total += line_points(rules, default_rate, ln.get("product_code"), ln.get("category"), cents, r.purchase_date)
    if rest > 0:
        total += line_points(rules, default_rate, None, None, rest, r.purchase_date)
    return int((Decimal(total) * tier_multiplier).to_integral_value(ROUND_FLOOR))


def suggestions(
    s: Session,
    tenant_id: str,
    receipts: Iterable[RewardsReceipt],
    now: datetime,
    *,
    cfg: ledger.Settings | None = None,
    tiers: list[TierOut] | None = None,
    factors: dict[str, Decimal] | None = None,
) -> dict[str, int]:
    """Suggested points of each receipt (id -> points): rules read once, each dealer's tier once.

    Nothing is read when there is no receipt (a dealer's points page with none waiting), and a
    caller that has read the settings, the tiers or a dealer's tier multiplier already passes them:
    the points page read each of them twice per visit (issue 33: the pages' speed)."""
    todo = list(receipts)
    if not todo:
        return {}
    cfg = cfg or ledger.settings(s, tenant_id)
    rules = load_rules(s)
    tiers = load_tiers(s) if tiers is None else tiers
    factors = dict(factors or {})
    out: dict[str, int] = {}
    for r in todo:
        if r.dealer_id not in factors:
            # No tiers: no multiplier, and no need to sum the dealer's period.
            factors[r.dealer_id] = multiplier(
                tier_status(s, r.dealer_id, now, cfg.tier_period_days, tiers) if tiers else None
            )
        out[r.id] = receipt_points(rules, cfg.points_per_dollar, r, factors[r.dealer_id])
    return out


# --- tiers ------------------------------------------------------------------------------------------


def load_tiers(s: Session) -> list[TierOut]:
    return [TierOut.model_validate(t) for t in s.execute(select(RewardsTier).order_by(RewardsTier.threshold)).scalars()]


def earned_in_period_query(dealer_id: str | BindParameter[str], since: datetime | BindParameter[Any]) -> Select[int]:
    """Points earned from receipts since ``since``, reversals taken off (adjustments do not count)."""
    return select(func.coalesce(func.sum(RewardsLedgerEntry.points), 0)).where(
        RewardsLedgerEntry.dealer_id == dealer_id,
        RewardsLedgerEntry.kind.in_(("earn", "reverse")),
        RewardsLedgerEntry.created_at >= since,
    )


def earned_in_period(s: Session, dealer_id: str, since: datetime) -> int:
    return int(s.execute(earned_in_period_query(dealer_id, since)).scalar_one())


def tier_status(s: Session, dealer_id: str, now: datetime, period_days: int, tiers: list[TierOut]) -> TierStatus:
    return tier_at(earned_in_period(s, dealer_id, now - timedelta(days=period_days)), period_days, tiers)


def multiplier(status: TierStatus | None) -> Decimal:
    """What a dealer's tier multiplies a receipt's points by: 1 without tiers or below the first."""
    return Decimal(status.tier.multiplier) if status is not None and status.tier is not None else Decimal(1)


def tier_at(earned: int, period_days: int, tiers: list[TierOut]) -> TierStatus:
    """The tier reached with ``earned`` points in the period, and the next one."""
    reached = [t for t in tiers if t.threshold <= earned]
    ahead = [t for t in tiers if t.threshold > earned]
    nxt = ahead[0] if ahead else None
    return TierStatus(
        earned_in_period=earned,
        period_days=period_days,
        tier=reached[-1] if reached else None,
        next_tier=nxt,
        points_to_next=nxt.threshold - earned if nxt else None,
    )


# --- rules: use cases ---------------------------------------------------------------------------------

RULES = Listing(
    RewardsEarningRule,
    filters={"active": RewardsEarningRule.active},
    search=(RewardsEarningRule.name, RewardsEarningRule.product_code, RewardsEarningRule.category),
    sort={"created_at": RewardsEarningRule.created_at, "name": RewardsEarningRule.name},
)


def _check_rule(body: EarningRuleIn) -> None:
    if (body.points_per_dollar is None) == (body.multiplier is None):
        raise ValidationFailed(
            "a rule gives either points_per_dollar or a multiplier",
            {"points_per_dollar": "one of", "multiplier": "one of"},
        )
    if body.product_code and body.category:
        raise ValidationFailed(
            "a rule is for one product code or one category, not both", {"category": "with product_code"}
        )
    if body.starts_on and body.ends_on and body.ends_on < body.starts_on:
        raise ValidationFailed("the campaign ends before it starts", {"ends_on": str(body.ends_on)})


def _rule_values(body: EarningRuleIn) -> dict[str, Any]:
    v = body.model_dump()
    v["multiplier"] = str(body.multiplier.normalize()) if body.multiplier is not None else None
    return v


@use_case(
    "rewards.admin.earning_rules.list", "GET /admin/earning-rules", tx="read", roles=STAFF, summary="earning rules"
)
def list_rules(ctx: Ctx, query: EarningRuleQuery) -> Page[EarningRuleOut]:
    with ctx.read() as s:
        return RULES.page(s, query, EarningRuleOut)


@use_case(
    "rewards.admin.earning_rules.create",
    "POST /admin/earning-rules",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="Earning rule",
    summary="add a rate or multiplier for a product code, a category or every line, optionally for a period",
)
def create_rule(ctx: Ctx, body: EarningRuleIn) -> EarningRuleOut:
    _check_rule(body)
    now = ctx.now()
    with ctx.write() as s:
        r = RewardsEarningRule(id=new_id(), created_at=now, updated_at=now, **_rule_values(body))
        s.add(r)
        s.flush()
        return EarningRuleOut.model_validate(r)


@use_case(
    "rewards.admin.earning_rules.update",
    "PUT /admin/earning-rules/{id}",
    tx="write",
    roles=MANAGERS,
    says="Earning rule",
    summary="replace an earning rule (receipts already approved keep their points)",
)
def update_rule(ctx: Ctx, id: str, body: EarningRuleIn) -> EarningRuleOut:
    _check_rule(body)
    with ctx.write() as s:
        r = get_or_404(s, RewardsEarningRule, id, what="earning rule", key="id")
        for k, v in _rule_values(body).items():
            setattr(r, k, v)
        r.updated_at = ctx.now()
        s.flush()
        return EarningRuleOut.model_validate(r)


@use_case(
    "rewards.admin.earning_rules.delete",
    "DELETE /admin/earning-rules/{id}",
    tx="write",
    roles=MANAGERS,
    says="Delete earning rule",
    summary="delete an earning rule",
)
def delete_rule(ctx: Ctx, id: str) -> None:
    with ctx.write() as s:
        s.delete(get_or_404(s, RewardsEarningRule, id, what="earning rule", key="id"))

"""Rewards in depth through ``execute``: earning rules, tiers, expiry with reminders on the
scheduler (a real SMTP server on loopback), reversal of an approved receipt, coupon and gift-card codes."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes
from email.policy import default as default_policy
from typing import Any

import pytest
from sqlalchemy import func, select

from local_db.models import Event
from local_db.models.rewards import RewardsCode, RewardsEarningRule, RewardsLot, RewardsReceipt, RewardsTier
from local_db.models.scheduler import ScheduledJob
from services.core import auth
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.files import Upload
from services.core.mail import MailConfig
from services.core.scheduler import Scheduler
from tests.services.rewards.test_rewards_service import ADDRESS, dealer, ledger_sum, png, staff
from tests.smtp_server import SmtpServer

NOW = datetime(2027, 1, 10, 9, 0, tzinfo=UTC)  # after the demo's seeding; its points still live


def _clock(rt: Runtime) -> FixedClock:
    clock = FixedClock(NOW)
    rt.clock = clock
    return clock


def _count(rt: Runtime, model: Any, *where: Any) -> int:
    tenant = auth.load_tenant(rt.db, "demo")
    with rt.db.reading(tenant.id) as s:
        return int(s.execute(select(func.count()).select_from(model).where(*where)).scalar_one())


def _events(rt: Runtime, type_: str) -> list[dict[str, Any]]:
    with rt.db.reading(None) as s:
        return [
            e.data for e in s.execute(select(Event).where(Event.type == type_).order_by(Event.created_at)).scalars()
        ]


def _receipt(d: Ctx, total: str, day: str, lines: list[dict[str, Any]] | None = None) -> Any:
    f = execute(d, "rewards.files.upload", upload=Upload("r.png", "image/png", png() + total.encode()))
    body: dict[str, Any] = {"file_id": f.id, "retailer": f"Shop {total}", "purchase_date": day, "total": total}
    if lines is not None:
        body["lines"] = lines
    return execute(d, "rewards.receipts.create", body=body)


def _balance_matches_ledger_and_lots(rt: Runtime, dealer_id: str) -> int:
    total, balance = ledger_sum(rt, dealer_id)
    assert total == balance
    lots = _count_lots(rt, dealer_id)
    assert lots == max(balance, 0)  # the spendable lots are what the balance shows above zero
    return balance


def _count_lots(rt: Runtime, dealer_id: str) -> int:
    tenant = auth.load_tenant(rt.db, "demo")
    with rt.db.reading(tenant.id) as s:
        return int(
            s.execute(
                select(func.coalesce(func.sum(RewardsLot.remaining), 0)).where(RewardsLot.dealer_id == dealer_id)
            ).scalar_one()
        )


LINES = [
    {"product_code": "DRL-18", "category": "drills", "amount": "100.00"},
    {"category": "saws", "amount": "50.50", "quantity": 2},
]


def test_earning_rules_by_product_category_and_campaign_period(runtime: Runtime) -> None:
    rt = runtime
    _clock(rt)
    admin, d = staff(rt), dealer(rt)
    rule = "rewards.admin.earning_rules.create"
    execute(admin, rule, body={"name": "Drills", "product_code": "DRL-18", "points_per_dollar": 20})
    execute(admin, rule, body={"name": "Saws", "category": "saws", "points_per_dollar": 15})
    execute(
        admin,
        rule,
        body={
            "name": "Saw January",
            "category": "saws",
            "multiplier": "2",
            "starts_on": "2027-01-01",
            "ends_on": "2027-01-31",
        },
    )
    execute(
        admin, rule, body={"name": "June triple", "multiplier": 3, "starts_on": "2026-06-01", "ends_on": "2026-06-30"}
    )
    # In the campaign: 100 x 20 + 50 x 15 x 2 + the rest (99.50: 99 whole dollars) x 10 (the program's rate).
    inside = _receipt(d, "250.00", "2027-01-05", LINES)
    assert inside.suggested_points == 2000 + 1500 + 990
    assert [ln.amount for ln in inside.lines] == ["100.00", "50.50"] and inside.lines[1].quantity == 2
    before = _receipt(d, "250.00", "2026-12-20", LINES)  # before the saw campaign
    assert before.suggested_points == 2000 + 750 + 990
    plain = _receipt(d, "12.50", "2027-01-02")  # no lines: the program's rate on whole dollars
    assert plain.suggested_points == 120
    ok = execute(admin, "rewards.admin.receipts.review", id=inside.id, body={"action": "approve"})
    assert ok.status == "approved" and ok.points == 4490
    # A rule switched off no longer counts.
    saws = next(r for r in execute(admin, "rewards.admin.earning_rules.list", query={"search": "Saw January"}).items)
    execute(
        admin,
        "rewards.admin.earning_rules.update",
        id=saws.id,
        body={"name": "Saw January", "category": "saws", "multiplier": "2", "active": False},
    )
    # ... and the approval took North (17,390 earned in the demo) past the demo's Silver tier (20,000): x1.25.
    assert execute(d, "rewards.points.get").tier.tier.name == "Silver"
    assert execute(admin, "rewards.receipts.get", id=inside.id).suggested_points == 4675  # 3,740 x 1.25
    _balance_matches_ledger_and_lots(rt, d.principal.id)


@pytest.mark.parametrize(
    "body",
    [
        {"name": "Both", "points_per_dollar": 5, "multiplier": "2"},
        {"name": "Neither", "category": "saws"},
        {"name": "Two targets", "product_code": "X1", "category": "saws", "points_per_dollar": 5},
        {"name": "Backwards", "multiplier": "2", "starts_on": "2027-02-01", "ends_on": "2027-01-01"},
        {"name": "Zero", "multiplier": "0"},
        {"name": "Huge", "multiplier": "1000"},
        {"name": "Bad code", "product_code": "DRL 18!", "points_per_dollar": 5},
        {"name": "Negative", "points_per_dollar": -1},
    ],
)
def test_a_bad_earning_rule_is_refused_and_nothing_stored(runtime: Runtime, body: dict[str, Any]) -> None:
    before = _count(runtime, RewardsEarningRule)
    with pytest.raises(ValidationFailed):
        execute(staff(runtime), "rewards.admin.earning_rules.create", body=body)
    assert _count(runtime, RewardsEarningRule) == before


def test_receipt_lines_that_do_not_fit_the_total_are_refused(runtime: Runtime) -> None:
    rt = runtime
    _clock(rt)
    d = dealer(rt)
    before = _count(rt, RewardsReceipt)
    for lines in (
        [{"category": "saws", "amount": "30.00"}, {"category": "saws", "amount": "30.01"}],  # over the 60.00 total
        [{"category": "saws", "amount": "0"}],
        [{"category": "saws", "amount": "1.001"}],
        [{"category": "saws", "amount": "5", "unit": "kg"}],  # an unknown field
    ):
        with pytest.raises(ValidationFailed):
            _receipt(d, "60.00", "2027-01-02", lines)
    assert _count(rt, RewardsReceipt) == before


def test_tiers_from_points_earned_over_the_period_multiply_new_earnings(runtime: Runtime) -> None:
    rt = runtime
    clock = _clock(rt)
    admin, d = staff(rt), dealer(rt, "east")  # east has earned nothing yet
    for t in execute(admin, "rewards.tiers.list").root:  # the demo's tiers make way for this test's
        execute(admin, "rewards.admin.tiers.delete", id=t.id)
    with pytest.raises(NotFound):
        execute(admin, "rewards.admin.tiers.delete", id=t.id)
    execute(admin, "rewards.admin.tiers.create", body={"name": "Bronze", "threshold": 0})
    silver = execute(
        admin,
        "rewards.admin.tiers.create",
        body={"name": "Silver", "threshold": 1000, "multiplier": "1.5", "benefits": "free shipping"},
    )
    with pytest.raises(Conflict):  # one tier per threshold
        execute(admin, "rewards.admin.tiers.create", body={"name": "Also silver", "threshold": 1000})
    for bad in ({"name": "Less", "threshold": 5, "multiplier": "0.5"}, {"name": "Minus", "threshold": -1}):
        with pytest.raises(ValidationFailed):
            execute(admin, "rewards.admin.tiers.create", body=bad)
    assert _count(rt, RewardsTier) == 2
    assert [t.name for t in execute(d, "rewards.tiers.list").root] == ["Bronze", "Silver"]
    st = execute(d, "rewards.points.get").tier
    assert st.tier.name == "Bronze" and st.next_tier.name == "Silver" and st.points_to_next == 1000
    r1 = _receipt(d, "120.00", "2027-01-05")
    assert r1.suggested_points == 1200  # Bronze: x1
    execute(admin, "rewards.admin.receipts.review", id=r1.id, body={"action": "approve"})
    assert _events(rt, "dealer.tier_changed")[-1] == {"dealer_id": d.principal.id, "from": "Bronze", "to": "Silver"}
    st = execute(d, "rewards.points.get").tier
    assert st.tier.id == silver.id and st.tier.benefits == "free shipping" and st.earned_in_period == 1200
    assert _receipt(d, "10.99", "2027-01-06").suggested_points == 150  # 10 dollars x 10 x 1.5
    # A year later the earnings fall out of the period: back to Bronze.
    clock.advance(days=366)
    assert execute(d, "rewards.points.get").tier.tier.name == "Bronze"


def test_expiry_reminders_are_mailed_once_and_expired_points_written_off_on_the_scheduler(runtime: Runtime) -> None:
    rt = runtime
    clock = _clock(rt)
    admin, d = staff(rt), dealer(rt, "east")
    execute(admin, "rewards.admin.settings.set", body={"expiry_reminder_days": 14})
    execute(
        admin,
        "rewards.admin.points.adjust",
        id=d.principal.id,
        body={"points": 700, "reason": "welcome", "expires_in_days": 10},
    )
    execute(
        admin,
        "rewards.admin.points.adjust",
        id=d.principal.id,
        body={"points": 300, "reason": "later", "expires_in_days": 200},
    )
    sched = Scheduler(rt, owner="test")
    sched.sync()
    with SmtpServer() as smtp:
        rt.provide(MailConfig(smtp_url=smtp.url, sender="Rewards <rewards@demo.test>"))
        sched.run_due()  # every periodic job is due at its first start, rewards.expiry among them
        with rt.db.reading(None) as s:
            job = s.execute(select(ScheduledJob).where(ScheduledJob.name == "rewards.expiry")).scalar_one()
            assert job.last_status == "succeeded" and job.last_result["reminded"] >= 1, job.last_error
        mine = [m for m in smtp.messages if m["rcpt"] == ["east@demo.test"]]
        assert len(mine) == 1
        msg = message_from_bytes(mine[0]["data"], policy=default_policy)
        body = msg.get_content()
        assert msg["Subject"] == "700 of your points expire soon"  # the 300 expire after the 14-day window
        assert "700 points on 20 January 2027" in body and "300 points" not in body
        again = execute(admin, "rewards.admin.points.expire")  # a lot is reminded once
        assert again.reminded == 0 and again.expired_points == 0
        assert len([m for m in smtp.messages if m["rcpt"] == ["east@demo.test"]]) == 1
    assert execute(d, "rewards.points.get").balance == 1000
    clock.advance(days=11)
    out = execute(admin, "rewards.admin.points.expire")
    assert out.expired_points == 700 and out.dealers_expired >= 1
    assert execute(d, "rewards.points.get").balance == 300
    assert _events(rt, "points.expired")[-1] == {"dealer_id": d.principal.id, "points": 700, "balance_after": 300}
    assert execute(admin, "rewards.admin.points.expire").expired_points == 0
    _balance_matches_ledger_and_lots(rt, d.principal.id)


def test_bad_expiry_settings_are_refused(runtime: Runtime) -> None:
    admin = staff(runtime)
    before = execute(admin, "rewards.admin.settings.get")
    for bad in ({"expiry_reminder_days": 0}, {"tier_period_days": 4000}, {"expiry_reminder_days": "soon"}):
        with pytest.raises(ValidationFailed):
            execute(admin, "rewards.admin.settings.set", body=bad)
    assert execute(admin, "rewards.admin.settings.get") == before


def test_reversal_takes_points_back_and_spent_points_leave_the_dealer_owing(runtime: Runtime) -> None:
    rt = runtime
    _clock(rt)
    admin, d = staff(rt), dealer(rt, "east")
    r = _receipt(d, "50.00", "2027-01-05")
    with pytest.raises(Conflict):  # a pending receipt is not reversed
        execute(admin, "rewards.admin.receipts.review", id=r.id, body={"action": "reverse", "reason": "x"})
    execute(admin, "rewards.admin.receipts.review", id=r.id, body={"action": "approve", "points": 500})
    gift = execute(admin, "rewards.admin.products.create", body={"name": "Cap", "points": 400, "stock": 5})
    order = execute(d, "rewards.cart.checkout", body={**ADDRESS, "items": [{"product_id": gift.id, "quantity": 1}]})
    assert execute(d, "rewards.points.get").balance == 100
    for bad in ({"action": "reverse"}, {"action": "reverse", "reason": "x", "points": 5}):
        with pytest.raises(ValidationFailed):
            execute(admin, "rewards.admin.receipts.review", id=r.id, body=bad)
    out = execute(
        admin, "rewards.admin.receipts.review", id=r.id, body={"action": "reverse", "reason": "goods returned"}
    )
    assert out.status == "reversed" and out.reverse_reason == "goods returned"
    pts = execute(d, "rewards.points.get")
    assert pts.balance == -400 and pts.owed == 400  # shown to the dealer, not hidden
    owing = execute(admin, "rewards.admin.register_requests.list", query={"owing": True}).items
    assert [x.id for x in owing] == [d.principal.id] and owing[0].owed == 400
    assert _events(rt, "sale.reversed")[-1]["owed"] == 400
    with pytest.raises(Conflict):
        execute(admin, "rewards.admin.receipts.review", id=r.id, body={"action": "reverse", "reason": "again"})
    with pytest.raises(Conflict):  # nothing to spend while owing
        execute(d, "rewards.cart.checkout", body={**ADDRESS, "items": [{"product_id": gift.id, "quantity": 1}]})
    assert _balance_matches_ledger_and_lots(rt, d.principal.id) == -400
    # New earnings pay the debt first; a cancelled order's refund too.
    r2 = _receipt(d, "60.00", "2027-01-06")
    execute(admin, "rewards.admin.receipts.review", id=r2.id, body={"action": "approve", "points": 600})
    assert _balance_matches_ledger_and_lots(rt, d.principal.id) == 200
    execute(admin, "rewards.admin.orders.act", id=order.id, body={"action": "cancel", "reason": "test"})
    assert _balance_matches_ledger_and_lots(rt, d.principal.id) == 600
    assert execute(admin, "rewards.admin.register_requests.list", query={"owing": True}).items == []


def test_reversal_of_a_partly_unspent_receipt_takes_only_its_points(runtime: Runtime) -> None:
    rt = runtime
    _clock(rt)
    admin, d = staff(rt), dealer(rt)
    start = execute(d, "rewards.points.get").balance
    r = _receipt(d, "30.00", "2027-01-05")
    execute(admin, "rewards.admin.receipts.review", id=r.id, body={"action": "approve", "points": 300})
    execute(admin, "rewards.admin.receipts.review", id=r.id, body={"action": "reverse", "reason": "duplicate"})
    assert execute(d, "rewards.points.get").balance == start
    assert _balance_matches_ledger_and_lots(rt, d.principal.id) == start


def test_gift_card_and_coupon_codes_are_issued_on_redemption_and_redeemable_once(runtime: Runtime) -> None:
    rt = runtime
    _clock(rt)
    admin, d = staff(rt), dealer(rt)
    create = "rewards.admin.products.create"
    before = _count(rt, RewardsCode)
    for bad in (
        {"name": "GC", "points": 100, "kind": "gift_card"},  # no face value
        {"name": "Mug", "points": 100, "face_value": "5.00"},  # goods have none
        {"name": "X", "points": 100, "kind": "voucher"},
    ):
        with pytest.raises(ValidationFailed):
            execute(admin, create, body=bad)
    card = execute(
        admin,
        create,
        body={"name": "Gift card $25", "points": 100, "stock": 10, "kind": "gift_card", "face_value": "25.00"},
    )
    coupon = execute(admin, create, body={"name": "10% off", "points": 50, "stock": 10, "kind": "coupon"})
    assert card.kind == "gift_card" and card.face_value == "25.00"
    items = [{"product_id": card.id, "quantity": 2}, {"product_id": coupon.id, "quantity": 1}]
    order = execute(d, "rewards.cart.checkout", body={**ADDRESS, "items": items})
    assert sorted((c.kind, c.value or "", c.status) for c in order.codes) == [
        ("coupon", "", "issued"),
        ("gift_card", "25.00", "issued"),
        ("gift_card", "25.00", "issued"),
    ]
    codes = {c.code for c in order.codes}
    assert len(codes) == 3 and all(c.startswith(("GC-", "CP-")) and len(c) == 17 for c in codes)
    assert {c.code for c in execute(d, "rewards.orders.get", id=order.id).codes} == codes
    assert not any(
        code in str(p) for p in _events(rt, "redemption.created") for code in codes
    )  # bearer value stays out of events
    first = next(c for c in order.codes if c.kind == "gift_card")
    used = execute(admin, "rewards.admin.codes.redeem", body={"code": first.code.lower()})  # typed in lower case
    assert used.status == "redeemed" and used.redeemed_at == NOW
    with pytest.raises(Conflict) as twice:
        execute(admin, "rewards.admin.codes.redeem", body={"code": first.code})
    assert twice.value.details["status"] == "redeemed"
    with pytest.raises(NotFound):
        execute(admin, "rewards.admin.codes.redeem", body={"code": "GC-2222-3333-4444"})
    with pytest.raises(Conflict):  # a code of it was used: the order stays
        execute(admin, "rewards.admin.orders.act", id=order.id, body={"action": "cancel", "reason": "x"})
    # Another order cancelled: its codes are void and refused.
    other = execute(d, "rewards.cart.checkout", body={**ADDRESS, "items": [{"product_id": coupon.id, "quantity": 1}]})
    execute(admin, "rewards.admin.orders.act", id=other.id, body={"action": "cancel", "reason": "x"})
    with pytest.raises(Conflict) as void:
        execute(admin, "rewards.admin.codes.redeem", body={"code": other.codes[0].code})
    assert void.value.details["status"] == "void"
    assert _count(rt, RewardsCode) == before + 4

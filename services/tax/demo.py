"""Demo tax data (CONTRACT.md: "tax transactions in several states with a filing"): orders and
refunds over the last three months in five states, one refund whose order never synced, one
amended order, filings in each status a seller meets (one filed, with its transactions locked) and
three exemption certificates (active, expiring soon, expired). Deterministic ids (``demo_id``)."""

from __future__ import annotations

import random
from datetime import date, timedelta

from local_db.models.tax import TaxCertificate, TaxFiling, TaxTransaction, TaxTransactionRevision
from services.core.context import Ctx
from services.core.demo import demo_id, demo_seeder
from services.tax.lookups import _liability_cents, money, period_of
from services.tax.rates import import_sample

SAMPLE_FROM = date(2025, 4, 1)
STATES = [("CA", 725), ("NY", 800), ("TX", 625), ("FL", 600), ("WA", 650)]  # basis points of tax


def _month_back(d: date, n: int) -> date:
    y, m = divmod(d.year * 12 + d.month - 1 - n, 12)
    return date(y, m + 1, 1)


@demo_seeder
def seed_tax(ctx: Ctx) -> None:
    if ctx.tenant is None or ctx.tenant.slug != "demo":
        return
    slug = ctx.tenant.slug
    now = ctx.now()
    today = now.date()
    rng = random.Random(1300)
    with ctx.write() as s:
        if s.get(TaxTransaction, demo_id("tax-tx", slug, "order", "1")) is not None:
            return
        orders: list[TaxTransaction] = []
        first = _month_back(today, 2)
        span = (today - first).days
        for i in range(1, 61):
            st, bp = STATES[i % len(STATES)]
            amount = rng.randint(1500, 40000)
            exempt = i % 17 == 0
            t = TaxTransaction(
                id=demo_id("tax-tx", slug, "order", str(i)),
                kind="order",
                external_id=f"ORD-{1000 + i}",
                date=first + timedelta(days=(i * 7) % (span + 1)),
                state=st,
                amount_cents=amount,
                shipping_cents=rng.choice([0, 499, 899]),
                tax_cents=0 if exempt else (amount * bp + 5000) // 10000,
                exempt=exempt,
                revision=1,
                source="sync",
                created_at=now,
                updated_at=now,
            )
            orders.append(t)
            s.add(t)
        for j, o in enumerate(orders[3:40:9], 1):
            s.add(
                TaxTransaction(
                    id=demo_id("tax-tx", slug, "refund", str(j)),
                    kind="refund",
                    external_id=f"REF-{500 + j}",
                    order_id=o.id,
                    order_external_id=o.external_id,
                    date=min(today, o.date + timedelta(days=5)),
                    state=o.state,
                    amount_cents=o.amount_cents,
                    shipping_cents=o.shipping_cents,
                    tax_cents=o.tax_cents,
                    exempt=o.exempt,
                    revision=1,
                    source="sync",
                    reason="returned",
                    created_at=now,
                    updated_at=now,
                )
            )
        # A refund whose order never synced: kept on its own.
        s.add(
            TaxTransaction(
                id=demo_id("tax-tx", slug, "refund", "standalone"),
                kind="refund",
                external_id="REF-0999",
                order_id=None,
                order_external_id="ORD-0999",
                date=today - timedelta(days=3),
                state="CA",
                amount_cents=2500,
                shipping_cents=0,
                tax_cents=181,
                exempt=False,
                revision=1,
                source="sync",
                reason="order placed before the connection",
                created_at=now,
                updated_at=now,
            )
        )
        # An amended order: revision 2 counts, revision 1 is kept.
        amended = orders[-1]
        s.flush()
        s.add(
            TaxTransactionRevision(
                id=demo_id("tax-rev", slug, amended.id, "1"),
                transaction_id=amended.id,
                revision=1,
                data={
                    "date": amended.date.isoformat(),
                    "state": amended.state,
                    "amount": money(amended.amount_cents + 1000),
                    "shipping": money(amended.shipping_cents),
                    "tax_collected": money(amended.tax_cents + 80),
                    "exempt": amended.exempt,
                },
                reason="",
                created_at=now,
            )
        )
        amended.revision = 2
        amended.reason = "price adjusted after a coupon"
        # Filings: CA two months back filed (its transactions locked), NY two months back accepted,
        # last month CA approved and NY ready, this month upcoming.
        two, last = _month_back(today, 2), _month_back(today, 1)
        plan = [
            ("CA", two, "filed"),
            ("NY", two, "accepted"),
            ("TX", two, "rejected"),
            ("CA", last, "approved"),
            ("NY", last, "ready"),
            ("TX", last, "dirty"),
            ("CA", date(today.year, today.month, 1), "upcoming"),
        ]
        s.flush()
        for st, start, status in plan:
            begin, end = period_of(start)
            # The figure approved is the period's net as the liability report computes it (refunds
            # and the amended order's current revision included), so a filed month's liability is the
            # net of the transactions it locks.
            v = _liability_cents(s, st, begin, end).get(st)
            live = (v["collected"] - v["refunded"]) if v else 0
            s.add(
                TaxFiling(
                    id=demo_id("tax-filing", slug, st, begin.isoformat()),
                    state=st,
                    period_start=begin,
                    period_end=end,
                    frequency="monthly",
                    status=status,
                    liability_cents=live if status in ("approved", "filed", "accepted", "rejected", "dirty") else None,
                    approved_at=now if status in ("approved", "filed", "accepted", "rejected", "dirty") else None,
                    filed_at=now if status in ("filed", "accepted", "rejected") else None,
                    created_at=now,
                    updated_at=now,
                )
            )
            if status in ("filed", "accepted"):
                s.flush()
                for t in s.query(TaxTransaction).filter(
                    TaxTransaction.state == st, TaxTransaction.date >= begin, TaxTransaction.date <= end
                ):
                    t.locked = True
        # The bundled ZIP-code rate sample (CA, NY, TX), in force from Los Angeles County's last
        # rate change (2025-04-01): the calculation answers for the demo's ZIP codes (90001, ...).
        import_sample(ctx, s, SAMPLE_FROM)
        for key, name, st, number, exp in [
            ("active", "Acme Wholesale LLC", "CA", "SR-CA-104233", None),
            ("expiring", "Bayside Schools District", "NY", "ST-119-88412", today + timedelta(days=20)),
            ("expired", "Lone Star Resale Inc.", "TX", "01-339-4421", today - timedelta(days=10)),
        ]:
            s.add(
                TaxCertificate(
                    id=demo_id("tax-certificate", slug, key),
                    customer_name=name,
                    customer_email=None,
                    customer_id=f"CUST-{key.upper()}",
                    state=st,
                    exemption_number=number,
                    reason="government" if key == "expiring" else "resale",
                    exempt_percentage=100,
                    signed_date=today - timedelta(days=300),
                    expiration_date=exp,
                    status="expired" if key == "expired" else "active",
                    created_at=now,
                )
            )

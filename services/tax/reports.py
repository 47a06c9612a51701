"""Tax: reports."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta

from sqlalchemy import select

from local_db.models.tax import TaxCertificate, TaxFiling
from services.core.commands import use_case
from services.core.connections import stored_connection
from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.roles import STAFF
from services.tax.lookups import EXPIRY_NOTICE_DAYS, _cert_out, _filing_out, _liability_cents, _nexus, money
from services.tax.schemas import (
    DashboardOut,
    LiabilityOut,
    LiabilityQuery,
    LiabilityRow,
)


def _row(state: str, v: dict[str, int]) -> LiabilityRow:
    return LiabilityRow(
        state=state,
        taxable_sales=money(v["taxable"]),
        exempt_sales=money(v["exempt"]),
        tax_collected=money(v["collected"]),
        refunded=money(v["refunded"]),
        net_liability=money(v["collected"] - v["refunded"]),
        transactions=v["count"],
    )


def _total(rows: Iterable[dict[str, int]]) -> dict[str, int]:
    tot = {"taxable": 0, "exempt": 0, "collected": 0, "refunded": 0, "count": 0}
    for v in rows:
        for k in tot:
            tot[k] += v[k]
    return tot


@use_case(
    "tax.liability",
    "GET /liability",
    tx="read",
    roles=STAFF,
    summary="liability per state (taxable sales, tax collected, refunded, net), exact to the cent",
)
def liability(ctx: Ctx, query: LiabilityQuery) -> LiabilityOut:
    if query.from_ and query.to and query.to < query.from_:
        raise ValidationFailed("to is before from", {"fields": [{"field": "to", "message": "before from"}]})
    with ctx.read() as s:
        by_state = _liability_cents(s, query.state.upper() if query.state else None, query.from_, query.to)
    rows = [_row(st, v) for st, v in sorted(by_state.items())]
    return LiabilityOut(
        from_date=query.from_, to_date=query.to, states=rows, total=_row("ALL", _total(by_state.values()))
    )


@use_case(
    "tax.dashboard",
    "GET /dashboard",
    tx="read",
    roles=STAFF,
    summary="totals this year, nexus progress per state, upcoming filings, certificates about to expire",
)
def dashboard(ctx: Ctx) -> DashboardOut:
    today = ctx.now().date()
    with ctx.read() as s:
        year = _liability_cents(s, None, date(today.year, 1, 1), date(today.year, 12, 31))
        nexus = _nexus(s, today.year)
        filings = (
            s.execute(
                select(TaxFiling)
                .where(TaxFiling.status.in_(("upcoming", "ready", "approved", "dirty", "rejected")))
                .order_by(TaxFiling.period_end, TaxFiling.state)
                .limit(20)
            )
            .scalars()
            .all()
        )
        soon = today + timedelta(days=EXPIRY_NOTICE_DAYS)
        certs = (
            s.execute(
                select(TaxCertificate)
                .where(
                    TaxCertificate.status == "active",
                    TaxCertificate.expiration_date.is_not(None),
                    TaxCertificate.expiration_date <= soon,
                )
                .order_by(TaxCertificate.expiration_date)
            )
            .scalars()
            .all()
        )
        conn = stored_connection(s, ctx.tenant_id, "ecommerce") or {}
        return DashboardOut(
            year=today.year,
            totals=_row("ALL", _total(year.values())),
            nexus=nexus,
            upcoming_filings=[_filing_out(s, f) for f in filings],
            expiring_certificates=[_cert_out(c, today) for c in certs],
            last_sync_at=datetime.fromisoformat(conn["last_sync_at"]) if conn.get("last_sync_at") else None,
        )

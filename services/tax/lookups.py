"""Tax: lookups."""

from __future__ import annotations

import json
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from local_db.models.tax import TaxCertificate, TaxFiling, TaxTransaction
from services.core.context import Ctx
from services.core.events import emit
from services.tax import states
from services.tax.schemas import (
    CertificateOut,
    FilingOut,
    NexusRow,
)

CENT = Decimal("0.01")


EXPIRY_NOTICE_DAYS = 30  # certificate.expiring this many days before the expiration date


def money(cents: int | None) -> str:
    """Cents as a two-place decimal string, exact (no float on the way)."""
    return str((Decimal(int(cents or 0)) / 100).quantize(CENT))


def to_cents(d: Decimal) -> int:
    return int((d * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


@cache
def nexus_table() -> dict[str, Any]:
    """The bundled economic-nexus thresholds with their sources (services/tax/data/nexus.json)."""
    return dict(json.loads((Path(__file__).parent / "data" / "nexus.json").read_text()))


def period_of(d: date, frequency: str = "monthly") -> tuple[date, date]:
    if frequency == "annual":
        return date(d.year, 1, 1), date(d.year, 12, 31)
    if frequency == "quarterly":
        first = 3 * ((d.month - 1) // 3) + 1
        start = date(d.year, first, 1)
        months = 3
    else:
        start = date(d.year, d.month, 1)
        months = 1
    y, m = divmod(start.month - 1 + months, 12)
    return start, date(start.year + y, m + 1, 1) - timedelta(days=1)


def _liability_cents(s: Session, state: str | None, start: date | None, end: date | None) -> dict[str, dict[str, int]]:
    """Per state: taxable and exempt sales, tax collected, tax refunded, count (SQL sums of cents)."""
    T = TaxTransaction
    conds = []
    if state:
        conds.append(T.state == state)
    if start:
        conds.append(T.date >= start)
    if end:
        conds.append(T.date <= end)
    is_order = T.kind == "order"
    sign = case((is_order, 1), else_=-1)
    stmt = (
        select(
            T.state,
            func.sum(case((T.exempt.is_(False), sign * T.amount_cents), else_=0)),
            func.sum(case((T.exempt.is_(True), sign * T.amount_cents), else_=0)),
            func.sum(case((is_order, T.tax_cents), else_=0)),
            func.sum(case((is_order, 0), else_=T.tax_cents)),
            func.count(),
        )
        .where(*conds)
        .group_by(T.state)
    )
    out: dict[str, dict[str, int]] = {}
    for st, taxable, exempt, collected, refunded, n in s.execute(stmt).all():
        out[st] = {
            "taxable": int(taxable or 0),
            "exempt": int(exempt or 0),
            "collected": int(collected or 0),
            "refunded": int(refunded or 0),
            "count": int(n or 0),
        }
    return out


def _filing_out(s: Session, f: TaxFiling, live: int | None = None) -> FilingOut:
    if live is None:
        v = _liability_cents(s, f.state, f.period_start, f.period_end).get(f.state)
        live = (v["collected"] - v["refunded"]) if v else 0
    # The approved figure is what is filed, and it stays shown while the filing waits to be approved
    # again (dirty, rejected): live_liability tells the figure now (docs/tax.md).
    shown = f.liability_cents if f.liability_cents is not None else live
    return FilingOut(
        id=f.id,
        state=f.state,
        period_start=f.period_start,
        period_end=f.period_end,
        frequency=f.frequency,  # type: ignore[arg-type]
        status=f.status,  # type: ignore[arg-type]
        liability=money(shown),
        live_liability=money(live),
        approved_at=f.approved_at,
        filed_at=f.filed_at,
        allowed_actions=[a for a in states.FILING.actions_from(f.status) if a in states.PEOPLE_ACTIONS],
        created_at=f.created_at,
    )


def _nexus(s: Session, year: int) -> list[NexusRow]:
    T = TaxTransaction
    sign = case((T.kind == "order", 1), else_=-1)
    got = {
        st: (int(sales or 0), int(n or 0))
        for st, sales, n in s.execute(
            select(T.state, func.sum(sign * T.amount_cents), func.sum(case((T.kind == "order", 1), else_=0)))
            .where(T.date >= date(year, 1, 1), T.date <= date(year, 12, 31))
            .group_by(T.state)
        ).all()
    }
    out = []
    for row in nexus_table()["states"]:
        sales, n = got.get(row["state"], (0, 0))
        limit = to_cents(Decimal(row["threshold_sales"])) if row["threshold_sales"] else None
        count = row["threshold_transactions"]
        by_sales = sales / limit if limit else 0.0
        by_count = n / count if count else 0.0
        if not row["sales_tax"]:
            reached, progress = False, 0.0
        elif row["rule"] == "and":
            reached, progress = sales >= limit and n >= count, min(by_sales, by_count)  # type: ignore[operator]
        else:
            reached = (limit is not None and sales >= limit) or (count is not None and n >= count)
            progress = max(by_sales, by_count)
        out.append(
            NexusRow(
                state=row["state"],
                name=row["name"],
                sales_tax=row["sales_tax"],
                threshold_sales=row["threshold_sales"],
                threshold_transactions=count,
                rule=row["rule"],
                sales=money(sales),
                transactions=n,
                progress=round(progress, 4),
                reached=bool(reached),
                period=str(year),
            )
        )
    return out


def _cert_status(c: TaxCertificate, today: date) -> str:
    if c.status == "active" and c.expiration_date is not None and c.expiration_date < today:
        return "expired"
    return c.status


def _cert_out(c: TaxCertificate, today: date) -> CertificateOut:
    return CertificateOut(
        id=c.id,
        customer_name=c.customer_name,
        customer_email=c.customer_email,
        customer_id=c.customer_id,
        state=c.state,
        exemption_number=c.exemption_number,
        reason=c.reason,
        exempt_percentage=c.exempt_percentage,
        signed_date=c.signed_date,
        expiration_date=c.expiration_date,
        status=_cert_status(c, today),  # type: ignore[arg-type]
        has_file=c.file_sha256 is not None,
        created_at=c.created_at,
    )


def _expiry_check(ctx: Ctx, s: Session) -> tuple[int, int]:
    """certificate.expiring once per certificate within 30 days of its expiry; expired ones marked."""
    today = ctx.now().date()
    soon = today + timedelta(days=EXPIRY_NOTICE_DAYS)
    C = TaxCertificate
    expiring = expired = 0
    for c in s.execute(
        select(C).where(C.status == "active", C.expiration_date.is_not(None), C.expiration_date <= soon)
    ).scalars():
        assert c.expiration_date is not None
        if c.expiration_date < today:
            c.status = "expired"
            expired += 1
        elif c.expiring_sent_at is None:
            c.expiring_sent_at = ctx.now()
            emit(
                ctx,
                "certificate.expiring",
                {
                    "certificate_id": c.id,
                    "customer_name": c.customer_name,
                    "state": c.state,
                    "expiration_date": c.expiration_date.isoformat(),
                    "days_left": (c.expiration_date - today).days,
                },
            )
            expiring += 1
    return expiring, expired

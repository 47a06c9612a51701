"""Tax: filings."""

from __future__ import annotations

from sqlalchemy import String, and_, cast, or_, select, update
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.tax import TaxFiling, TaxTransaction
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.events import emit
from services.core.pagination import Page, paginate
from services.core.roles import MANAGERS, STAFF
from services.tax import states
from services.tax.lookups import _filing_out, _liability_cents, money, period_of
from services.tax.schemas import (
    FilingAction,
    FilingIn,
    FilingOut,
    FilingQuery,
)

record_kind("tax.filing", get="tax.filings.get", label="state")


def _find_filing(s: Session, id: str) -> TaxFiling:
    f = s.get(TaxFiling, id)
    if f is None:
        raise NotFound(f"no filing {id}", {"id": id})
    return f


@use_case(
    "tax.filings.list",
    "GET /filings",
    tx="read",
    roles=STAFF,
    record="tax.filing",
    summary="filings per state and period with their status and liability",
)
def list_filings(ctx: Ctx, query: FilingQuery) -> Page[FilingOut]:
    stmt = select(TaxFiling)
    if query.status:
        stmt = stmt.where(TaxFiling.status == query.status)
    if query.state:
        stmt = stmt.where(TaxFiling.state == query.state.upper())
    if query.search and query.search.strip():
        # A filing is known by its state ("CA") and its period ("2026-03").
        term = query.search.strip()
        stmt = stmt.where(
            or_(TaxFiling.state == term.upper(), cast(TaxFiling.period_start, String).startswith(term, autoescape=True))
        )
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "created_at": TaxFiling.created_at,
                "period_start": TaxFiling.period_start,
                "state": TaxFiling.state,
                "status": TaxFiling.status,
            },
        )
        return Page([_filing_out(s, f) for f in page.items], page.total, page.spec)


@use_case(
    "tax.filings.get",
    "GET /filings/{id}",
    tx="read",
    roles=STAFF,
    record="tax.filing",
    summary="one filing",
)
def get_filing(ctx: Ctx, id: str) -> FilingOut:
    with ctx.read() as s:
        return _filing_out(s, _find_filing(s, id))


@use_case(
    "tax.filings.create",
    "POST /filings",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="New filing {state}",
    record="tax.filing",
    summary="open a filing for a state and period (monthly, quarterly or annual)",
)
def create_filing(ctx: Ctx, body: FilingIn) -> FilingOut:
    start, end = period_of(body.period_start, body.frequency)
    if start != body.period_start:
        raise ValidationFailed(
            f"a {body.frequency} period starts on {start.isoformat()}",
            {"fields": [{"field": "period_start", "message": f"use {start.isoformat()}", "type": "period"}]},
        )
    with ctx.write() as s:
        overlap = s.execute(
            select(TaxFiling.id).where(
                TaxFiling.state == body.state, TaxFiling.period_start <= end, TaxFiling.period_end >= start
            )
        ).first()
        if overlap:
            raise Conflict("a filing already covers that period", {"filing_id": overlap[0], "reason": "overlap"})
        f = TaxFiling(
            id=new_id(),
            state=body.state,
            period_start=start,
            period_end=end,
            frequency=body.frequency,
            status="upcoming" if end >= ctx.now().date() else "ready",
            created_at=ctx.now(),
            updated_at=ctx.now(),
        )
        s.add(f)
        s.flush()
        return _filing_out(s, f)


@use_case(
    "tax.filings.act",
    "POST /filings/{id}",
    tx="write",
    roles=MANAGERS,
    says="{action} filing",
    record="tax.filing",
    summary="approve, file, accept or reject a filing (filing locks the period's transactions)",
)
def act_on_filing(ctx: Ctx, id: str, body: FilingAction) -> FilingOut:
    with ctx.write() as s:
        f = _find_filing(s, id)
        f.status = states.FILING.check(f.status, body.action)
        now = ctx.now()
        T = TaxTransaction
        in_period = and_(T.state == f.state, T.date >= f.period_start, T.date <= f.period_end)
        if body.action == "approve":
            v = _liability_cents(s, f.state, f.period_start, f.period_end).get(f.state)
            f.liability_cents = (v["collected"] - v["refunded"]) if v else 0
            f.approved_at = now
        elif body.action == "file":
            f.filed_at = now
            s.execute(update(T).where(in_period).values(locked=True))
        elif body.action == "reject":
            s.execute(update(T).where(in_period).values(locked=False))
        if body.action in ("accept", "reject"):
            f.decided_at = now
        f.note = body.note or f.note
        f.updated_at = now
        s.flush()
        event = {"approve": "filing.approved", "file": "filing.filed", "accept": "filing.accepted"}.get(
            body.action, "filing.rejected"
        )
        emit(
            ctx,
            event,
            {
                "filing_id": f.id,
                "state": f.state,
                "period_start": f.period_start.isoformat(),
                "liability": money(f.liability_cents),
            },
        )
        return _filing_out(s, f)

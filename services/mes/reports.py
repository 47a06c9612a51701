"""Mes: reports."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.mes import MesMachine
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.pagination import ListQuery, Page, page_spec
from services.core.roles import STAFF
from services.mes import oee, sums
from services.mes.lookups import _shifts, _totals, tenant_tz
from services.mes.reasons import planned_reasons
from services.mes.schemas import (
    OeeMachineOut,
    OeeOut,
    OeeShiftOut,
    Window,
    WindowQuery,
)

MAX_WINDOW = timedelta(days=400)


def window(ctx: Ctx, q: Window) -> tuple[datetime, datetime]:
    now = ctx.now()
    lo = oee.parse_bound(q.from_, end=False) or datetime.combine(now.date(), datetime.min.time(), UTC)
    hi = oee.parse_bound(q.to, end=True) or (lo + timedelta(days=1) if q.from_ is not None else now)
    if hi <= lo:
        raise ValidationFailed("'to' must be after 'from'", {"from": lo.isoformat(), "to": hi.isoformat()})
    if hi - lo > MAX_WINDOW:
        raise ValidationFailed("the window is at most 400 days", {"days": (hi - lo).days})
    return lo, hi


def _machines(s: Session, q: Window) -> list[MesMachine]:
    stmt = select(MesMachine).order_by(MesMachine.code)
    if q.machine_id:
        stmt = stmt.where(MesMachine.id == q.machine_id)
    if q.line:
        stmt = stmt.where(MesMachine.line == q.line)
    return list(s.execute(stmt).scalars())


def _page(rows: list[Any], query: ListQuery) -> Page[Any]:
    """A computed list, paged like every list (in the order it was computed)."""
    spec = page_spec(query, sortable=[], default_sort=None)
    return Page(rows[spec.offset : spec.offset + spec.limit], len(rows), spec)


@use_case("mes.oee.overall", "GET /oee", tx="read", roles=STAFF, summary="OEE of all (or some) machines")
def oee_overall(ctx: Ctx, query: Window) -> OeeOut:
    lo, hi = window(ctx, query)
    with ctx.read() as s:
        total = oee.Totals()
        for t in _totals(s, ctx, _machines(s, query), lo, hi).values():
            total.add(t)
        return OeeOut(**total.figures())


@use_case("mes.oee.by_machine", "GET /oee/by-machine", tx="read", roles=STAFF)
def oee_by_machine(ctx: Ctx, query: WindowQuery) -> Page[OeeMachineOut]:
    lo, hi = window(ctx, query)
    with ctx.read() as s:
        machines = _machines(s, query)
        totals = _totals(s, ctx, machines, lo, hi)
        rows = [OeeMachineOut(machine_id=m.id, code=m.code, name=m.name, **totals[m.id].figures()) for m in machines]
        return _page(rows, query)


@use_case("mes.oee.by_shift", "GET /oee/by-shift", tx="read", roles=STAFF, summary="OEE per shift over the window")
def oee_by_shift(ctx: Ctx, query: WindowQuery) -> Page[OeeShiftOut]:
    lo, hi = window(ctx, query)
    out: list[OeeShiftOut] = []
    with ctx.read() as s:
        machines = _machines(s, query)
        tz = tenant_tz(s, ctx)
        shifts = _shifts(s)
        groups = [oee.shift_windows(sh.start, sh.end, sh.days, lo, hi, tz) for sh in shifts]
        got = sums.window_sums(s, ctx.tenant_id, [m.id for m in machines], groups, ctx.now(), planned_reasons(s, ctx))
        for g, (sh, windows) in enumerate(zip(shifts, groups, strict=True)):
            total = oee.Totals()
            for m in machines:
                total.add(sums.totals(got.get((g, m.id)), windows, m.ideal_cycle_seconds))
            out.append(OeeShiftOut(shift_id=sh.id, name=sh.name, **total.figures()))
    return _page(out, query)

"""OEE's sums computed by the database: seconds per status and part counts inside shift windows.

A month of minute events is millions of rows; reading them into Python costs seconds. The
windows (a shift's occurrences over the asked period, from ``oee.shift_windows``: a few per day)
go to the database as a ``VALUES`` list, and for each (window, machine) pair correlated sums over
index ranges add up, with the window arithmetic in SQL:

* the overlap of each ``running`` or ``offline`` period with the window (``least(end, window
  end) - greatest(start, window start)``). A machine's periods never overlap (a late event splits
  the period it falls in), so the periods touching a window are those starting inside it (an
  index range) plus at most one starting before it: the machine's last period before the
  window's start (one index seek, a second small query). Rows outside every window are not read.
* the good and all parts counted inside the window (``window start <= at < window end``).

Pairs rather than one ``GROUP BY``: a grouped query sorts every row first, which was most of
the time at a month of minute events; the pairs' sums need no sort at all. The rows per window are
added up per group (a shift, or the merged planned time) here.

Seconds are summed as whole milliseconds (SQLite's date arithmetic is to the millisecond; the
events' times are to the second), so the sums are exact on both backends.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, func, select, text
from sqlalchemy.orm import Session

from local_db.base import UTCDateTime
from local_db.models.mes import MesMachine, MesStatusPeriod
from services.mes import hours, oee


@dataclass
class Sums:
    """One machine in one window group: seconds per status, parts counted."""

    seconds: dict[str, float] = field(default_factory=dict)
    good: int = 0
    total: int = 0


def _sql(dialect: str) -> tuple[str, str, str]:
    """``least``, ``greatest`` and the milliseconds from ``a`` to ``b`` in the dialect."""
    if dialect == "sqlite":
        return "min", "max", "round((julianday({b}) - julianday({a})) * 86400000.0)"
    return "least", "greatest", "(extract(epoch from ({b}) - ({a})) * 1000)"


# Two sums travel in one integer (``a + b * PACK``): each is at most a window's milliseconds, and a
# window is cut to a day at most (8.64e7 ms < 2**31), so one index scan gives both, exactly.
PACK = 2**31
DAY = timedelta(days=1)


def _pieces(windows: Sequence[oee.Window]) -> list[oee.Window]:
    out: list[oee.Window] = []
    for a, b in windows:
        while b - a > DAY:
            out.append((a, a + DAY))
            a += DAY
        out.append((a, b))
    return out


def _windows(groups: Sequence[Sequence[oee.Window]]) -> tuple[str, list[Any], dict[str, Any]]:
    rows: list[str] = []
    params: dict[str, Any] = {}
    binds: list[Any] = []
    for g, windows in enumerate(groups):
        for a, b in _pieces(windows):
            n = len(rows)
            rows.append(f"({g}, :ws{n}, :we{n})")
            params[f"ws{n}"], params[f"we{n}"] = a, b
            binds += [bindparam(f"ws{n}", type_=UTCDateTime()), bindparam(f"we{n}", type_=UTCDateTime())]
    return "w(g, ws, we) AS (VALUES " + ", ".join(rows) + ")", binds, params


def window_sums(
    s: Session,
    tenant_id: str,
    machine_ids: Sequence[str],
    groups: Sequence[Sequence[oee.Window]],
    now: datetime,
    planned_reasons: Sequence[str] = (),
) -> dict[tuple[int, str], Sums]:
    """Per (group index, machine id): seconds by status and counts inside the group's windows.

    Each group's windows must not overlap one another (a shift's occurrences, or merged shifts).
    An open period (no end yet) lasts until ``now``. Machines whose hours are summed
    (services/mes/hours.py) read whole hours from those and the rest from their periods.
    """
    out: dict[tuple[int, str], Sums] = {}
    if not machine_ids or not any(groups):
        return out
    done = hours.built(s, list(machine_ids))
    _raw(s, tenant_id, [m for m in machine_ids if m not in done], groups, now, planned_reasons, out)
    _by_hours(s, tenant_id, [m for m in machine_ids if m in done], groups, now, planned_reasons, out)
    _recorded(s, machine_ids, groups, now, out)
    return out


def _raw(
    s: Session,
    tenant_id: str,
    machine_ids: Sequence[str],
    groups: Sequence[Sequence[oee.Window]],
    now: datetime,
    planned_reasons: Sequence[str],
    out: dict[tuple[int, str], Sums],
) -> None:
    """Add each (group, machine)'s running, offline and planned-stop seconds and counts inside the
    group's windows, read from the periods and counts."""
    if not machine_ids or not any(groups):
        return
    conn = s.connection()
    least, greatest, ms = _sql(conn.dialect.name)
    cte, binds, params = _windows(groups)
    params.update(tenant=tenant_id, ids=list(machine_ids), now=now, planned=list(planned_reasons) or [""])
    binds += [
        bindparam("ids", expanding=True),
        bindparam("now", type_=UTCDateTime()),
        bindparam("planned", expanding=True),
    ]
    # Per (window, machine) pair, correlated sums over index ranges: no GROUP BY, so no sort of
    # millions of rows first. Only running and offline time enter OEE.
    end = "coalesce(p.ended_at, :now)"
    # A machine's configured planned start clips its windows (history before it is not planned).
    start = f"{greatest}(w.ws, coalesce(m.planned_from, w.ws))"
    overlap = ms.format(a=f"{greatest}(p.started_at, {start})", b=f"{least}({end}, w.we)")
    inside = "p.tenant_id = :tenant AND p.machine_id = m.id AND p.started_at >= w.ws AND p.started_at < w.we"
    # The window's own bounds keep the index range; a configured planned start narrows it after.
    counted = (
        "c.tenant_id = :tenant AND c.machine_id = m.id AND c.at >= w.ws AND c.at < w.we"
        " AND (m.planned_from IS NULL OR c.at >= m.planned_from)"
    )
    planned_stop = "p.status NOT IN ('running', 'offline') AND p.reason IN :planned"

    # One scan of the periods gives running and offline (packed) and the planned stops, one scan
    # of the counts the good and all parts (packed): two index ranges per (window, machine).
    clipped = f"CAST({greatest}({overlap}, 0) AS {'INTEGER' if conn.dialect.name == 'sqlite' else 'BIGINT'})"
    # A period wholly inside the window (most of them: the window cuts at most its last one, and the
    # one running into it is the straddle query's) counts its stored length: no date arithmetic on
    # the row, which was most of the time at a month of minute periods. Rows without a stored
    # length (written before the column) take the arithmetic.
    ms_int = (
        "CASE WHEN p.ms IS NOT NULL AND p.ended_at <= w.we"
        " AND (m.planned_from IS NULL OR p.started_at >= m.planned_from)"
        f" THEN p.ms ELSE {clipped} END"
    )
    # One scan of a (window, machine) pair's periods gives both figures, joined as text ("a,b"): a
    # scalar subquery answers one value, and a second scan of the same index range cost a third.
    packed = (
        f"(SELECT CAST(coalesce(sum({ms_int} * CASE p.status WHEN 'running' THEN 1 WHEN 'offline' THEN {PACK}"
        f" ELSE 0 END), 0) AS TEXT) || ',' || CAST(coalesce(sum(CASE WHEN {planned_stop} THEN {ms_int} ELSE 0 END),"
        f" 0) AS TEXT) FROM mes_status_periods p WHERE {inside})"
    )
    main = text(
        f"WITH {cte} SELECT w.g, m.id, {packed},"
        f" (SELECT coalesce(sum(c.good + (c.good + c.scrap) * {PACK}), 0) FROM mes_counts c WHERE {counted})"
        " FROM w CROSS JOIN mes_machines m WHERE m.tenant_id = :tenant AND m.id IN :ids"
    ).bindparams(*binds)
    for g, mid, both, parts in conn.execute(main, params):  # a row per window: added up
        sums = out.setdefault((int(g), mid), Sums())
        run_off, stop_ms = (int(x) for x in str(both).split(","))
        off_ms, run_ms = divmod(run_off, PACK)
        total, good = divmod(int(parts), PACK)
        for key, v in (("running", run_ms), ("offline", off_ms), ("planned_stop", int(stop_ms))):
            sums.seconds[key] = sums.seconds.get(key, 0.0) + v / 1000.0
        sums.good += good
        sums.total += total
    # The period running into each window from before it: a machine's last one before the start.
    straddle = text(
        f"WITH {cte} SELECT w.g, m.id, p.status, CASE WHEN {planned_stop} THEN 1 ELSE 0 END, {overlap}"
        " FROM w CROSS JOIN mes_machines m JOIN mes_status_periods p ON p.id = ("
        "  SELECT q.id FROM mes_status_periods q WHERE q.tenant_id = :tenant AND q.machine_id = m.id"
        "  AND q.started_at < w.ws ORDER BY q.started_at DESC LIMIT 1)"
        " WHERE m.tenant_id = :tenant AND m.id IN :ids"
    ).bindparams(*binds)
    for g, mid, status, is_planned_stop, msecs in conn.execute(straddle, params):
        if msecs is not None and msecs > 0:
            sec = out.setdefault((int(g), mid), Sums()).seconds
            for name in (str(status), "planned_stop" if is_planned_stop else ""):
                if name in ("running", "offline", "planned_stop"):
                    sec[name] = sec.get(name, 0.0) + float(msecs) / 1000.0


def _split(groups: Sequence[Sequence[oee.Window]]) -> tuple[list[list[oee.Window]], list[list[oee.Window]]]:
    """Each group's windows as their whole hours and the edges around them (under an hour each)."""
    edges: list[list[oee.Window]] = []
    whole: list[list[oee.Window]] = []
    for windows in groups:
        e: list[oee.Window] = []
        h: list[oee.Window] = []
        for a, b in windows:
            ca, fb = hours.ceil_h(a), hours.floor_h(b)
            if ca >= fb:
                e.append((a, b))
                continue
            if a < ca:
                e.append((a, ca))
            h.append((ca, fb))
            if fb < b:
                e.append((fb, b))
        edges.append(e)
        whole.append(h)
    return edges, whole


def _in(spans: Sequence[oee.Window], starts: Sequence[datetime], hour: datetime) -> bool:
    k = bisect_right(starts, hour) - 1
    return k >= 0 and hour < spans[k][1]


def _by_hours(
    s: Session,
    tenant_id: str,
    machine_ids: Sequence[str],
    groups: Sequence[Sequence[oee.Window]],
    now: datetime,
    planned_reasons: Sequence[str],
    out: dict[tuple[int, str], Sums],
) -> None:
    """Like ``_raw`` for machines whose hours are summed: the windows' whole hours from
    ``mes_hour_sums`` (closed periods and counts), the open period's part of them from the period,
    and the edges from the periods and counts as ``_raw`` reads them. A machine's planned start
    inside a whole hour makes that hour an edge of its own (``_raw`` clips it to the start)."""
    if not machine_ids:
        return
    edges, whole = _split(groups)
    _raw(s, tenant_id, machine_ids, edges, now, planned_reasons, out)
    starts = [[a for a, _ in spans] for spans in whole]
    if not any(whole):
        return
    # The first whole hour each machine plans (its planned start, up to the next hour).
    first: dict[str, datetime] = {}
    for mid, planned_from in s.execute(
        select(MesMachine.id, MesMachine.planned_from).where(MesMachine.id.in_(list(machine_ids)))
    ):
        if planned_from is None:
            continue
        first[mid] = hours.ceil_h(planned_from)
        hp = hours.floor_h(planned_from)
        part = [
            [(hp, hp + hours.HOUR)] if _in(whole[g], starts[g], hp) and hp < planned_from else []
            for g in range(len(groups))
        ]
        if hp < planned_from and any(part):
            _raw(s, tenant_id, [mid], part, now, planned_reasons, out)
    planned = set(planned_reasons)
    _hour_rows(s, tenant_id, machine_ids, whole, first, planned, out)
    # The open period (not in the hours until it closes), up to now.
    P = MesStatusPeriod
    for mid, status, reason, began in s.execute(
        select(P.machine_id, P.status, P.reason, P.started_at).where(
            P.machine_id.in_(list(machine_ids)), P.ended_at.is_(None)
        )
    ):
        key: str | None = {"running": "running", "offline": "offline"}.get(status)
        if key is None and reason in planned:
            key = "planned_stop"
        if key is None:
            continue
        since = max(began, first.get(mid, began))
        for g, spans in enumerate(whole):
            us = sum(max((min(b, now) - max(a, since)) // hours.US, 0) for a, b in spans)
            if us > 0:
                sec = out.setdefault((g, mid), Sums()).seconds
                sec[key] = sec.get(key, 0.0) + round(us / 1000) / 1000.0


def _hour_rows(
    s: Session,
    tenant_id: str,
    machine_ids: Sequence[str],
    whole: Sequence[Sequence[oee.Window]],
    first: dict[str, datetime],
    planned: set[str],
    out: dict[tuple[int, str], Sums],
) -> None:
    """Add the hour sums inside each group's whole hours (from a machine's first planned hour on),
    summed by the database per (group, machine): a month of 50 machines is 36,000 hour rows, and
    reading them one by one into Python (times parsed, stops decoded) cost half of the whole."""
    cte, binds, params = _windows(whole)
    params.update(tenant=tenant_id, ids=list(machine_ids))
    binds.append(bindparam("ids", expanding=True))
    join = ""
    if first:
        rows = []
        for n, (mid, at) in enumerate(first.items()):
            rows.append(f"(:fm{n}, :fh{n})")
            params[f"fm{n}"], params[f"fh{n}"] = mid, at
            binds.append(bindparam(f"fh{n}", type_=UTCDateTime()))
        cte += ", f(mid, fh) AS (VALUES " + ", ".join(rows) + ")"
        join = " LEFT JOIN f ON f.mid = h.machine_id"
    where = " WHERE h.tenant_id = :tenant AND h.machine_id IN :ids AND h.hour >= w.ws AND h.hour < w.we" + (
        " AND (f.fh IS NULL OR h.hour >= f.fh)" if first else ""
    )
    source = f" FROM w JOIN mes_hour_sums h ON 1 = 1{join}{where}"
    summed = text(
        f"WITH {cte} SELECT w.g, h.machine_id, sum(h.running_ms), sum(h.offline_ms), sum(h.good), sum(h.total)"
        f"{source} GROUP BY w.g, h.machine_id"
    ).bindparams(*binds)
    for g, mid, run_ms, off_ms, good, total in s.connection().execute(summed, params):
        sums = out.setdefault((int(g), mid), Sums())
        for name, v in (("running", run_ms), ("offline", off_ms)):
            if v:
                sums.seconds[name] = sums.seconds.get(name, 0.0) + int(v) / 1000.0
        sums.good += int(good or 0)
        sums.total += int(total or 0)
    if not planned:
        return
    # Planned stops: only the hours whose stops name a planned reason are read and decoded (the
    # text holds each reason as JSON writes it; a match in another place is dropped when decoded).
    likes = []
    for n, reason in enumerate(sorted(planned)):
        params[f"r{n}"] = "%" + json.dumps(reason).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        likes.append(f"CAST(h.stops AS TEXT) LIKE :r{n} ESCAPE '\\'")
    stops = text(f"WITH {cte} SELECT w.g, h.machine_id, h.stops{source} AND ({' OR '.join(likes)})").bindparams(*binds)
    for g, mid, raw in s.connection().execute(stops, params):
        got = json.loads(raw) if isinstance(raw, str) else (raw or {})
        ms = sum(int(v) for k, v in got.items() if k in planned)
        if ms:
            sec = out.setdefault((int(g), mid), Sums()).seconds
            sec["planned_stop"] = sec.get("planned_stop", 0.0) + ms / 1000.0


def _recorded(
    s: Session,
    machine_ids: Sequence[str],
    groups: Sequence[Sequence[oee.Window]],
    now: datetime,
    out: dict[tuple[int, str], Sums],
) -> None:
    # Recorded time: a machine's periods follow each other without a gap from its first one to now
    # (a late event splits a period, an older one ends where the history began), so the recorded
    # time in the windows is their overlap with [first period (or planned_from), now): no rows read.
    first = (
        select(func.min(MesStatusPeriod.started_at))
        .where(MesStatusPeriod.machine_id == MesMachine.id)
        .correlate(MesMachine)
        .scalar_subquery()
    )
    for row in s.execute(
        select(MesMachine.id, MesMachine.planned_from, first).where(MesMachine.id.in_(list(machine_ids)))
    ):
        mid, planned_from, began = str(row[0]), row[1], row[2]
        if began is None:
            continue
        since: datetime = began if planned_from is None or planned_from < began else planned_from
        for g, windows in enumerate(groups):
            spans = [(a if a > since else since, b if b < now else now) for a, b in windows]
            recorded = oee.length([(a, b) for a, b in spans if a < b])
            if recorded:
                sec = out.setdefault((g, mid), Sums()).seconds
                sec["recorded"] = recorded


def totals(sums: Sums | None, windows: Sequence[oee.Window], ideal_cycle: float) -> oee.Totals:
    """A machine's OEE inputs from its sums: planned time is the recorded time less ``offline`` and
    the planned stops; the windows' time nothing recorded is ``unrecorded`` (never a stop)."""
    sums = sums or Sums()
    sec = sums.seconds
    recorded, offline, planned_stop = sec.get("recorded", 0.0), sec.get("offline", 0.0), sec.get("planned_stop", 0.0)
    planned = recorded - offline - planned_stop
    run = sec.get("running", 0.0)
    return oee.Totals(
        max(planned, 0.0),
        run,
        ideal_cycle * sums.total,
        sums.total,
        sums.good,
        offline=offline,
        planned_stop=planned_stop,
        unrecorded=max(oee.length(windows) - recorded, 0.0),
    )

"""OEE as DOMAIN.md §1 defines it, from times and counts summed over a window.

* Planned time: the time the machine's history records inside the window's overlap with the
  tenant's shifts (the whole window when there are none), minus the time ``offline`` and the stops
  with a ``planned`` reason (a break). Time with nothing recorded (before the machine existed or
  its planned start, ahead of now) is ``unrecorded``: its own bucket, never a stop.
* Run time: the time in ``running``. Ideal time: ideal cycle time x parts counted.
* Availability = run / planned, Performance = ideal / run, Quality = good / total,
  OEE = A x P x Q (= good x ideal cycle / planned, up to the rounding of the factors: each is given
  to 0.001 and OEE is the product of the given factors, as the standard's worked examples are).
* Aggregation (machines, shifts, days) sums planned, run and ideal seconds and the counts, then
  computes the fractions again: percentages are never averaged.

Performance is not capped at 1: a figure over 1 says the ideal cycle time is set too slow.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any

Window = tuple[datetime, datetime]
DIGITS = 3  # fractions to 0.001, i.e. percentages to one decimal


@dataclass
class Totals:
    planned: float = 0.0
    run: float = 0.0
    ideal: float = 0.0
    total: int = 0
    good: int = 0
    # The window's time that is not planned production time, by why (reported, never "down").
    offline: float = 0.0
    planned_stop: float = 0.0
    unrecorded: float = 0.0

    def add(self, other: Totals) -> Totals:
        self.planned += other.planned
        self.run += other.run
        self.ideal += other.ideal
        self.total += other.total
        self.good += other.good
        self.offline += other.offline
        self.planned_stop += other.planned_stop
        self.unrecorded += other.unrecorded
        return self

    def figures(self) -> dict[str, Any]:
        a = self.run / self.planned if self.planned > 0 else 0.0
        p = self.ideal / self.run if self.run > 0 else 0.0
        q = self.good / self.total if self.total > 0 else 0.0
        # Each factor to a tenth of a percent, OEE the product of those: the standard's worked
        # figures (DOMAIN.md: 87.5 % x 95.2 % x 95 % = 79.1 %), not 79.2 % from unrounded factors.
        a, p, q = round(a, DIGITS), round(p, DIGITS), round(q, DIGITS)
        return {
            "availability": a,
            "performance": p,
            "quality": q,
            "oee": round(a * p * q, DIGITS),
            "planned_seconds": round(self.planned, 3),
            "run_seconds": round(self.run, 3),
            "total_count": self.total,
            "good_count": self.good,
            "ideal_seconds": round(self.ideal, 3),
            "unplanned_stop_seconds": round(max(self.planned - self.run, 0.0), 3),
            "planned_stop_seconds": round(self.planned_stop, 3),
            "offline_seconds": round(self.offline, 3),
            "unrecorded_seconds": round(self.unrecorded, 3),
        }


def compute(planned: float, run: float, ideal_cycle: float, total: int, good: int) -> dict[str, Any]:
    """One machine's figures from the four inputs of the standard (seconds and parts)."""
    return Totals(planned, run, ideal_cycle * total, total, good).figures()


def parse_bound(value: datetime | date | None, *, end: bool) -> datetime | None:
    """A timestamp as given (naive = UTC); a date is its whole UTC day (``to`` a date: its end)."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    start = datetime.combine(value, time(0), UTC)
    return start + timedelta(days=1) if end else start


def _hhmm(s: str) -> time:
    h, m = s.split(":")
    return time(int(h), int(m))


def shift_windows(
    start_hhmm: str, end_hhmm: str, days: Iterable[int], lo: datetime, hi: datetime, tz: tzinfo = UTC
) -> list[Window]:
    """The shift's occurrences overlapping ``[lo, hi)``, clipped to it, in order.

    A shift whose end is not after its start runs past midnight; it belongs to the day it starts.
    """
    wanted = set(days)
    s_t, e_t = _hhmm(start_hhmm), _hhmm(end_hhmm)
    out: list[Window] = []
    day = lo.astimezone(tz).date() - timedelta(days=1)
    last = hi.astimezone(tz).date()
    while day <= last:
        if day.isoweekday() in wanted:
            ws = datetime.combine(day, s_t, tz).astimezone(UTC)
            end_day = day if e_t > s_t else day + timedelta(days=1)
            we = datetime.combine(end_day, e_t, tz).astimezone(UTC)
            a, b = max(ws, lo), min(we, hi)
            if a < b:
                out.append((a, b))
        day += timedelta(days=1)
    return out


def shift_occurrence(start_hhmm: str, end_hhmm: str, day: date, tz: tzinfo = UTC) -> Window:
    """The shift of one day (its start that day, its end that day or the next)."""
    s_t, e_t = _hhmm(start_hhmm), _hhmm(end_hhmm)
    ws = datetime.combine(day, s_t, tz).astimezone(UTC)
    we = datetime.combine(day if e_t > s_t else day + timedelta(days=1), e_t, tz).astimezone(UTC)
    return ws, we


def merge(windows: Iterable[Window]) -> list[Window]:
    """The union of windows, sorted and non-overlapping."""
    out: list[Window] = []
    for a, b in sorted(windows):
        if out and a <= out[-1][1]:
            if b > out[-1][1]:
                out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def naive(windows: Iterable[Window]) -> list[Window]:
    """Windows as naive UTC times, to compare with times read raw from the database."""
    return [(a.astimezone(UTC).replace(tzinfo=None), b.astimezone(UTC).replace(tzinfo=None)) for a, b in windows]


def length(windows: Sequence[Window]) -> float:
    return sum((b - a).total_seconds() for a, b in windows)


def overlap_by_status(periods: Sequence[tuple[datetime, datetime, str]], windows: Sequence[Window]) -> dict[str, float]:
    """Seconds of each status inside the windows; both lists sorted, windows non-overlapping.

    One sweep over both lists (O(periods + windows)), which keeps a month of minute events fast.
    """
    out: dict[str, float] = {}
    i = 0
    n = len(windows)
    for ps, pe, status in periods:
        while i < n and windows[i][1] <= ps:
            i += 1
        j = i
        while j < n and windows[j][0] < pe:
            a, b = max(ps, windows[j][0]), min(pe, windows[j][1])
            if a < b:
                out[status] = out.get(status, 0.0) + (b - a).total_seconds()
            j += 1
    return out


def inside(at: datetime, windows: Sequence[Window], starts: Sequence[datetime] | None = None) -> bool:
    """Whether ``at`` falls in one of the sorted, non-overlapping windows."""
    keys = starts if starts is not None else [w[0] for w in windows]
    k = bisect_right(keys, at) - 1
    return k >= 0 and at < windows[k][1]


def machine_totals(
    periods: Sequence[tuple[datetime, datetime, str]],
    counts: Sequence[tuple[datetime, int, int]],
    windows: Sequence[Window],
    ideal_cycle: float,
) -> Totals:
    """One machine over the (merged) planned windows: its periods and counts sorted by time.

    Planned time is the recorded time less ``offline``: time with no period (before the machine's
    history, or ahead of it) is unrecorded, its own bucket, never a stop.
    """
    by_status = overlap_by_status(periods, windows)
    recorded = sum(by_status.values())
    offline = by_status.get("offline", 0.0)
    planned = recorded - offline
    starts = [w[0] for w in windows]
    good = total = 0
    for at, g, sc in counts:
        if inside(at, windows, starts):
            good += g
            total += g + sc
    return Totals(
        max(planned, 0.0),
        by_status.get("running", 0.0),
        ideal_cycle * total,
        total,
        good,
        offline=offline,
        unrecorded=max(length(windows) - recorded, 0.0),
    )

"""SLA due times: business minutes counted inside the helpdesk's business hours."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from services.support.schemas import BusinessHours


def add_business_minutes(start: datetime, minutes: int, hours: BusinessHours) -> datetime:
    """``start`` plus ``minutes`` of working time (calendar time when business hours are off)."""
    if not hours.enabled or not hours.days:
        return start + timedelta(minutes=minutes)
    tz, open_t, close_t = _window(hours.timezone, hours.start, hours.end)
    if close_t <= open_t:
        return start + timedelta(minutes=minutes)
    cur = start.astimezone(tz)
    left = timedelta(minutes=minutes)
    # At most a few hundred iterations: one per working day spanned.
    for _ in range(3700):
        day_open = datetime.combine(cur.date(), open_t, tz)
        day_close = datetime.combine(cur.date(), close_t, tz)
        if cur.weekday() in hours.days and cur < day_close:
            begin = max(cur, day_open)
            if begin + left <= day_close:
                return (begin + left).astimezone(UTC)
            left -= day_close - begin
        cur = datetime.combine(cur.date() + timedelta(days=1), time(0, 0), tz)
    return (start + timedelta(minutes=minutes)).astimezone(UTC)


@lru_cache(maxsize=64)
def _window(timezone: str, start: str, end: str) -> tuple[ZoneInfo, time, time]:
    # Read once per policy: every ticket made (a push makes many) computes two due times.
    return ZoneInfo(timezone), time.fromisoformat(start), time.fromisoformat(end)

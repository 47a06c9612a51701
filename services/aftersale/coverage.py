"""Coverage end dates: a purchase date plus whole months, clamped to the month's end
(31 Jan + 1 month = 28 or 29 Feb; 29 Feb + 12 months = 28 Feb)."""

from __future__ import annotations

import calendar
from datetime import date


def add_months(d: date, months: int) -> date:
    index = d.year * 12 + (d.month - 1) + months
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return date(year, month + 1, min(d.day, last))

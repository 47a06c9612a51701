"""Dashboard figures computed from the records themselves: the rows Records lists, counted by day.

A dashboard widget names an Analytics metric (``events.order.shipped``). Where the same facts are
records people can open (shipped orders, tickets, QR scans), the figure is read from those rows,
not from the metric's counters: counters start at the module's install, miss what a sync pulled in
or what the demo seeded, and so once told 615 shipped orders against 30 in Records. Trade-ins
accepted are counted by their ``accepted_at`` and valued by the declared value Records shows. Each figure
keeps its rows per day, so a click on a bar opens Records on exactly those rows.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from pydantic import BaseModel

from services.core.commands import execute
from services.core.context import Ctx
from services.core.files import FileResult
from views.records.words import QT_TRANSLATE_NOOP


@dataclass
class Counted:
    """A figure over a date range: its rows by local day (what a bar or point stands for)."""

    rows: dict[dt.date, list[BaseModel]] = field(default_factory=dict)

    def add(self, day: dt.date, row: BaseModel) -> None:
        self.rows.setdefault(day, []).append(row)

    def count(self, day: dt.date) -> int:
        return len(self.rows.get(day, []))

    @property
    def total(self) -> int:
        return sum(len(r) for r in self.rows.values())

    def worth(self, value: Callable[[BaseModel], float | None]) -> float:
        """The rows' value summed (what a card shows beside the count), from the same rows."""
        return round(float(sum(value(r) or 0.0 for rows in self.rows.values() for r in rows)), 2)


@dataclass(frozen=True)
class Figure:
    metric: str  # the Analytics metric a widget names for it
    records: str  # the Records list its rows are in ("fulfillment:/orders")
    what: str  # "orders shipped", for a caption
    read: Callable[[Ctx, dt.date, dt.date], Iterator[tuple[dt.datetime, BaseModel]]]
    # A row's money value, where the rows have one Records shows (a trade-in's declared value).
    value: Callable[[BaseModel], float | None] | None = None


def local_day(at: dt.datetime) -> dt.date:
    """The day a person sees the record on (Records shows local times)."""
    return (at.astimezone() if at.tzinfo else at.replace(tzinfo=dt.UTC).astimezone()).date()


def _paged(ctx: Ctx, op: str, query: dict[str, object]) -> Iterator[BaseModel]:
    offset = 0
    while True:
        page = execute(ctx, op, query={**query, "offset": offset, "limit": 100})
        yield from page.items
        offset += len(page.items)
        if not page.items or offset >= page.total:
            return


def _shipped(ctx: Ctx, start: dt.date, end: dt.date) -> Iterator[tuple[dt.datetime, BaseModel]]:
    for o in _paged(ctx, "fulfillment.orders.list", {"status": "shipped"}):
        at = getattr(o, "shipped_at", None)
        if isinstance(at, dt.datetime):
            yield at, o


def _tickets(ctx: Ctx, start: dt.date, end: dt.date) -> Iterator[tuple[dt.datetime, BaseModel]]:
    for t in _paged(ctx, "support.tickets.list", {}):
        at = getattr(t, "created_at", None)
        if isinstance(at, dt.datetime):
            yield at, t


def _scans(ctx: Ctx, start: dt.date, end: dt.date) -> Iterator[tuple[dt.datetime, BaseModel]]:
    """Each scan by a person as the QR code it was of (Records lists codes with their scan counts)."""
    codes = {str(getattr(c, "id", "")): c for c in _paged(ctx, "qr.codes.list", {})}
    pad = dt.timedelta(days=1)  # the export's days are UTC ones; a local day may reach past them
    got: FileResult = execute(
        ctx, "qr.analytics.export", query={"format": "json", "from": str(start - pad), "to": str(end + pad)}
    )
    for scan in json.loads(got.content or b"[]"):
        if scan.get("bot"):
            continue  # Records counts a code's scans without the bots' (its own column)
        code = codes.get(str(scan.get("code_id")))
        if code is not None:
            yield dt.datetime.fromisoformat(str(scan["at"]).replace("Z", "+00:00")), code


def _accepted(ctx: Ctx, start: dt.date, end: dt.date) -> Iterator[tuple[dt.datetime, BaseModel]]:
    """Trade-ins by the time their offer was accepted (``accepted_at``), as Records lists them."""
    for sub in _paged(ctx, "upgrade.admin.submissions.list", {}):
        at = getattr(sub, "accepted_at", None)
        if isinstance(at, dt.datetime):
            yield at, sub


def _declared_value(row: BaseModel) -> float | None:
    v = getattr(row, "declared_value", None)
    return float(v) if v is not None else None


FIGURES: dict[str, Figure] = {
    f.metric: f
    for f in (
        Figure("events.order.shipped", "fulfillment:/orders", QT_TRANSLATE_NOOP("figures", "orders shipped"), _shipped),
        Figure(
            "events.ticket.created",
            "support:/api/tenants/{tenant}/support/tickets",
            QT_TRANSLATE_NOOP("figures", "tickets opened"),
            _tickets,
        ),
        Figure("events.qr.scanned", "qr:/qr", QT_TRANSLATE_NOOP("figures", "QR scans"), _scans),
        Figure(
            "events.tradein.approved",
            "upgrade:/admin/submissions",
            QT_TRANSLATE_NOOP("figures", "trade-ins accepted"),
            _accepted,
            _declared_value,
        ),
    )
}


def count(ctx: Ctx, figure: Figure, start: dt.date, end: dt.date) -> Counted:
    """The figure's rows from ``start`` to ``end`` (local days, both included)."""
    out = Counted()
    for at, row in figure.read(ctx, start, end):
        day = local_day(at)
        if start <= day <= end:
            out.add(day, row)
    return out

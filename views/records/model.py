"""A lazy table over any declared list: pages of 100 fetched as the view scrolls, off the UI thread."""

from __future__ import annotations

import datetime as dt
import re
import types
import typing
from collections.abc import Callable
from decimal import Decimal, InvalidOperation

from pydantic import BaseModel
from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QApplication,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionProgressBar,
    QStyleOptionViewItem,
)

from services.core.commands import execute
from services.core.pagination import Page
from services.core.records import Resource
from views.base import StationSession
from views.i18n import counted, fmt_date, fmt_number, fmt_time
from views.records.words import readable, t, value_word

PAGE = 100
MAX_COLUMNS = 8
Index = QModelIndex | QPersistentModelIndex
_SCALARS = (str, int, float, bool, dt.datetime, dt.date)


def _scalar(tp: object) -> bool:
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        return all(_scalar(a) for a in typing.get_args(tp) if a is not type(None))
    if origin is typing.Literal:
        return True
    return tp in _SCALARS or (isinstance(tp, type) and tp.__module__ == "decimal")


def columns_of(model: type[BaseModel] | None) -> list[str]:
    """The fields a list shows: the scalar ones people read (ids are for links, not for reading)."""
    if model is None:
        return []
    names = [n for n, f in model.model_fields.items() if _scalar(f.annotation) and not _machine(n)]
    return names[:MAX_COLUMNS]


def _machine(name: str) -> bool:
    return name == "id" or name.endswith(("_id", "_hash"))


def text_of(value: object, name: str = "") -> str:
    """A value as the person reads it: dates in the locale's form, a state in their words (``name``:
    the field, which says whether a text is a state)."""
    if value is None or value == []:
        return "—"  # nothing (an empty photo list too): said as such, not a blank beside the label
    if isinstance(value, bool):
        return QCoreApplication.translate("records", "yes") if value else QCoreApplication.translate("records", "no")
    if isinstance(value, dt.datetime):
        return fmt_date(value.astimezone() if value.tzinfo else value, time=True)
    if isinstance(value, dt.date):
        return fmt_date(value)
    if isinstance(value, list):
        if value and all(isinstance(v, str) and _UUID.fullmatch(v) for v in value):
            # Ids of other records (a trade-in's photos): how many, never the raw ids.
            return counted("records", "%n linked", len(value))
        return ", ".join(text_of(v, name) for v in value)
    if isinstance(value, float | Decimal):
        return fmt_number(value, _places(value))
    raw = str(getattr(value, "value", value))
    if is_state(name):
        return value_word(raw)
    if _MONEY_TEXT.fullmatch(raw) and is_money(name):
        # The API writes amounts as decimal strings ("89.99"): the locale's mark and grouping.
        try:
            return fmt_number(Decimal(raw), _places(Decimal(raw)))
        except InvalidOperation:
            return raw
    return raw


def when_in_list(value: dt.datetime) -> str:
    """A moment in a list cell, as mail clients say it: today's by its time, another day's by its
    date (the whole moment is in the cell's tooltip and the panel). Date and time together cut the
    list's dates to "11/25/26 …" at 1280x800, and the states beside them."""
    local = value.astimezone() if value.tzinfo else value
    today = dt.datetime.now(local.tzinfo).date()
    return fmt_time(local) if local.date() == today else fmt_date(local.date())


_MONEY_TEXT = re.compile(r"-?\d+\.\d+")
_MONEY_WORDS = ("total", "amount", "price", "cost", "value", "subtotal", "balance", "tax", "credit", "offer")


def is_money(name: str) -> bool:
    """A field holding an amount (its decimal string is shown in the locale's form)."""
    return any(name == w or name.endswith("_" + w) or name.startswith(w + "_") for w in _MONEY_WORDS)


def _places(value: float | Decimal) -> int:
    """As many decimals as the value carries (a Decimal's own scale; a float at most 4, at least 1)."""
    if isinstance(value, Decimal):
        exp = value.as_tuple().exponent
        return max(0, -exp) if isinstance(exp, int) else 2
    text = repr(value).split(".")[1] if "." in repr(value) and "e" not in repr(value) else "0"
    return min(4, max(1, len(text.rstrip("0"))))


def is_state(name: str) -> bool:
    """A field holding a record's state (its values are the declared states' words)."""
    return name in ("status", "state") or name.endswith(("_status", "_state"))


def plain_of(value: object) -> str:
    """A value as data (CSV, tooltips): ISO dates, the stored state, no locale."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, list):
        return ", ".join(plain_of(v) for v in value)
    return str(getattr(value, "value", value))


def two_lines(title: str) -> str:
    """A header broken at the space nearest its middle ("Diagnosed\nat"): half as wide."""
    spaces = [i for i, ch in enumerate(title) if ch == " "]
    if not spaces:
        return title
    cut = min(spaces, key=lambda i: abs(len(title) - 1 - 2 * i))
    return f"{title[:cut]}\n{title[cut + 1 :]}"


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)


class ProgressDelegate(QStyledItemDelegate):
    """A ``progress`` column (percent) drawn as a bar: long work shows how far it got."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        value = index.data(Qt.ItemDataRole.UserRole + 1)
        if not isinstance(value, int):
            super().paint(painter, option, index)
            return
        bar = QStyleOptionProgressBar()
        bar.rect = option.rect.adjusted(4, 6, -4, -6)  # type: ignore[attr-defined]
        bar.minimum, bar.maximum, bar.progress = 0, 100, value
        bar.text, bar.textVisible = f"{value} %", True
        QApplication.style().drawControl(QStyle.ControlElement.CE_ProgressBar, bar, painter)


class RecordsModel(QAbstractTableModel):
    """Rows of one resource's list; ``query`` holds the filters, search and sort."""

    loaded = Signal(int, int)  # rows loaded, total
    failed = Signal(object)  # the service error of a page

    def __init__(self, session: StationSession, resource: Resource, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.resource = resource
        self.columns = columns_of(resource.item_model)
        self.rows: list[BaseModel] = []
        self.total = 0
        self.query: dict[str, object] = {}
        self._busy = False
        self._generation = 0  # answers of a list replaced meanwhile are dropped
        self.pinned = False  # showing rows given to it (a dashboard's bar), not pages of the list
        self.wrapped: set[int] = set()  # columns whose header reads on two lines

    # -- Qt model ------------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's names
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        value = getattr(row, self.columns[index.column()], None)
        if role == Qt.ItemDataRole.DisplayRole:
            if isinstance(value, dt.datetime):
                return when_in_list(value)
            return text_of(value, self.columns[index.column()])
        if role == Qt.ItemDataRole.ToolTipRole:  # the value as stored: an ISO date, the state's own word
            shown, plain = text_of(value, self.columns[index.column()]), plain_of(value)
            return shown if shown == plain or not plain else f"{shown}\n{plain}"
        if role == Qt.ItemDataRole.UserRole:
            return row
        if role == Qt.ItemDataRole.UserRole + 1 and self.columns[index.column()] == "progress":
            return value
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            title = t(readable(self.columns[section]))
            return two_lines(title) if section in self.wrapped else title
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return t(readable(self.columns[section]))
        return None

    def wrap(self, sections: set[int]) -> None:
        """Headers said on two lines (``views.records.columns``: too narrow a view for one)."""
        if sections != self.wrapped:
            self.wrapped = set(sections)
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, max(0, len(self.columns) - 1))

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008, N802
        return not parent.isValid() and not self._busy and len(self.rows) < self.total

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008, N802
        if self.canFetchMore(parent):
            self._fetch(len(self.rows))

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        name = self.columns[column]
        self.query["sort"] = ("-" if order == Qt.SortOrder.DescendingOrder else "") + name
        self.reload()

    # -- loading -------------------------------------------------------------------------------

    def reload(self) -> None:
        """Start again from the first page (filters, search or sort changed, or the data did)."""
        self._generation += 1
        self._busy = False
        self.pinned = False
        self._fetch(0, reset=True)

    def pin(self, rows: list[BaseModel]) -> None:
        """Show exactly these rows (those behind a dashboard's bar); a filter or a change reloads."""
        self._generation += 1  # a page still on its way is dropped
        self._busy = False
        self.beginResetModel()
        self.rows = list(rows)
        self.total = len(self.rows)
        self.pinned = True
        self.endResetModel()

    def record_at(self, row: int) -> BaseModel:
        return self.rows[row]

    def fetch_page(self, offset: int, limit: int = PAGE) -> Page[BaseModel]:
        """One page, on the calling thread (CSV export walks the list with it)."""
        q = {k: v for k, v in self.query.items() if v not in (None, "")}
        q.update(offset=offset, limit=limit)
        result: Page[BaseModel] = execute(self.session.ctx(), self.resource.listing, query=q)
        return result

    def _fetch(self, offset: int, *, reset: bool = False) -> None:
        self._busy = True
        generation = self._generation

        def done(page: Page[BaseModel]) -> None:
            if generation != self._generation:
                return
            self._busy = False
            if reset:
                self.beginResetModel()
                self.rows = list(page.items)
                self.total = page.total
                self.endResetModel()
            else:
                self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows) + len(page.items) - 1)
                self.rows.extend(page.items)
                self.total = page.total
                self.endInsertRows()
            self.loaded.emit(len(self.rows), self.total)

        def failed(error: BaseException) -> None:
            if generation == self._generation:
                self._busy = False
                self.failed.emit(error)

        fetch: Callable[[], Page[BaseModel]] = lambda: self.fetch_page(offset)  # noqa: E731
        self.session.ops.run(fetch, on_success=done, on_failure=failed)

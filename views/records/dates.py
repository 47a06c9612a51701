"""A date field worked by keyboard: typed in the locale's format, Up/Down a day, Page Up/Down a
month, F4 or Alt+Down opens a calendar (arrows move, Enter picks, Esc closes), Delete empties an
optional one; the form gets ISO 8601 (a date and time in UTC).

Qt's QDateEdit was used first: it opens its calendar only with the mouse and types section by
section (typing a whole date over it gives a mix of old and new parts), so this is a line edit
that reads the whole text with QLocale and a calendar of its own.
"""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QDate, QDateTime, QEvent, QLocale, QObject, QPoint, Qt, QTime, QTimeZone, Signal
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import QCalendarWidget, QFrame, QLineEdit, QStyle, QVBoxLayout, QWidget


def _locale() -> QLocale:
    """The station's locale; the "C" locale (no LANG) types dates as English (US) does."""
    loc = QLocale()
    return (
        QLocale(QLocale.Language.English, QLocale.Country.UnitedStates) if loc.language() == QLocale.Language.C else loc
    )


def date_format(with_time: bool, loc: QLocale | None = None) -> str:
    """The locale's short date form with the year in four digits (``M/d/yyyy``, ``dd.MM.yyyy``)."""
    loc = loc or _locale()
    fmt = loc.dateFormat(QLocale.FormatType.ShortFormat)
    if "yyyy" not in fmt:
        fmt = fmt.replace("yy", "yyyy")  # "3/4/26" is ambiguous in a form that may hold 1926
    return f"{fmt} HH:mm" if with_time else fmt


class DateInput(QLineEdit):
    """A date, or a date and time in the station's time zone (sent in UTC); an optional one may
    stay empty. Text that is not a date is sent as typed: the service names the field."""

    dateChanged = Signal()  # noqa: N815 (Qt's naming, as QDateEdit's): a date picked, stepped or cleared

    def __init__(self, with_time: bool, optional: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.with_time = with_time
        self.optional = optional
        self.loc = _locale()
        self.fmt = date_format(with_time, self.loc)
        self.setPlaceholderText("—" if optional else self.fmt)
        self.setToolTip(
            self.tr("Type a date as {value}; Up/Down: a day, Page Up/Down: a month, F4 or Alt+Down: calendar").format(
                value=self.fmt
            )
        )
        self.calendar_action = QAction(self.style().standardIcon(QStyle.StandardPixmap.SP_ArrowDown), "", self)
        self.calendar_action.setToolTip(self.tr("Calendar (F4)"))
        self.calendar_action.triggered.connect(self.show_calendar)
        self.addAction(self.calendar_action, QLineEdit.ActionPosition.TrailingPosition)
        self._popup = QFrame(self, Qt.WindowType.Popup)
        self._popup.setFrameShape(QFrame.Shape.StyledPanel)
        self._cal = QCalendarWidget(self._popup)
        self._cal.setGridVisible(True)
        lay = QVBoxLayout(self._popup)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self._cal)
        self._cal.activated.connect(self._picked)  # Enter or a double click on a day
        self._cal.clicked.connect(self._picked)
        self._cal.installEventFilter(self)
        self.editingFinished.connect(self._tidy)
        if not optional:
            self.set_date(QDate.currentDate(), QTime.currentTime())

    # --- what Qt's date edit offered the form and the tests -------------------------------------
    def calendarPopup(self) -> bool:  # noqa: N802 (QDateEdit's name)
        return True

    def calendarWidget(self) -> QCalendarWidget:  # noqa: N802 (QDateEdit's name)
        return self._cal

    # --- the value ---------------------------------------------------------------------------------
    def date_time(self) -> QDateTime | None:
        """The text read in the locale's form (or ISO, as pasted); None when empty or not a date."""
        text = self.text().strip()
        if not text:
            return None
        # The form as shown, then without its leading zeros (Qt's "dd" wants two digits; people type 5.3.).
        loose = self.fmt.replace("dd", "d").replace("MM", "M").replace("HH", "H")
        if self.with_time:
            for fmt in (self.fmt, loose):
                got = self.loc.toDateTime(text, fmt)
                if got.isValid():
                    return got
            got = QDateTime.fromString(text, Qt.DateFormat.ISODate)
            return got if got.isValid() else None
        for fmt in (self.fmt, loose):
            day = self.loc.toDate(text, fmt)
            if day.isValid():
                return QDateTime(day, QTime(0, 0))
        day = QDate.fromString(text, Qt.DateFormat.ISODate)
        return QDateTime(day, QTime(0, 0)) if day.isValid() else None

    def date(self) -> QDate | None:
        got = self.date_time()
        return got.date() if got is not None else None

    def set_date(self, day: QDate | None, time: QTime | None = None) -> None:
        if day is None:
            self.clear()
        elif self.with_time:
            shown = QDateTime(day, time if time is not None else QTime(0, 0))
            self.setText(self.loc.toString(shown, self.fmt))
        else:
            self.setText(self.loc.toString(day, self.fmt))
        self.dateChanged.emit()

    def set_value(self, value: object) -> None:
        if isinstance(value, str):
            try:
                value = (
                    dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
                    if self.with_time
                    else dt.date.fromisoformat(value[:10])
                )
            except ValueError:
                return
        if isinstance(value, dt.datetime):
            local = value.astimezone() if value.tzinfo else value
            self.set_date(QDate(local.year, local.month, local.day), QTime(local.hour, local.minute))
        elif isinstance(value, dt.date):
            self.set_date(QDate(value.year, value.month, value.day))

    def value(self) -> str | None:
        """ISO 8601 (``2026-01-15``, ``2026-01-15T08:30:00Z``); None when empty; the text itself when
        it is not a date, for the service to refuse under this field."""
        if not self.text().strip():
            return None
        got = self.date_time()
        if got is None:
            return self.text().strip()
        if not self.with_time:
            return got.date().toString("yyyy-MM-dd")
        return got.toTimeZone(QTimeZone.utc()).toString("yyyy-MM-ddTHH:mm:ssZ")

    def _tidy(self) -> None:
        """A typed date is shown again in the full form (``3/5/26`` → ``3/5/2026``)."""
        got = self.date_time()
        if got is not None:
            self.set_date(got.date(), got.time())

    # --- keys ----------------------------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        key, mods = event.key(), event.modifiers()
        alt = bool(mods & Qt.KeyboardModifier.AltModifier)
        if key == Qt.Key.Key_F4 or (alt and key == Qt.Key.Key_Down):
            self.show_calendar()
        elif key in (Qt.Key.Key_Up, Qt.Key.Key_Down) and not alt:
            self._step(days=1 if key == Qt.Key.Key_Up else -1)
        elif key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            self._step(months=1 if key == Qt.Key.Key_PageUp else -1)
        elif key == Qt.Key.Key_Delete and self.optional and (self.hasSelectedText() or not self.text()):
            self.set_date(None)
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def _step(self, days: int = 0, months: int = 0) -> None:
        got = self.date_time()
        if got is None:  # empty or half typed: the steps start from today
            got = QDateTime(QDate.currentDate(), QTime(0, 0))
        self.set_date(got.date().addDays(days).addMonths(months), got.time())

    # --- the calendar --------------------------------------------------------------------------------
    def show_calendar(self) -> None:
        """Opened on the field's date, or today when empty; the arrows move, Enter picks."""
        self._cal.setSelectedDate(self.date() or QDate.currentDate())
        self._popup.adjustSize()
        self._popup.move(self.mapToGlobal(QPoint(0, self.height())))
        self._popup.show()
        self._cal.setFocus(Qt.FocusReason.PopupFocusReason)

    def _picked(self, day: QDate) -> None:
        got = self.date_time()
        self._popup.hide()
        self.set_date(day, got.time() if got is not None else QTime(0, 0))
        self.setFocus(Qt.FocusReason.PopupFocusReason)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        escape = isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Escape
        if watched is self._cal and event.type() == QEvent.Type.KeyPress and escape:
            self._popup.hide()
            self.setFocus(Qt.FocusReason.PopupFocusReason)
            return True
        return super().eventFilter(watched, event)

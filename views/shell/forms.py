"""Small form helpers: a field with its error line, and mapping a service error onto fields."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QFrame, QLabel, QLineEdit, QListWidget, QScrollArea, QVBoxLayout, QWidget

from views.i18n import QT_TRANSLATE_NOOP
from views.shell.theme import set_role


class FieldError(QLabel):
    """The error line under one input; hidden while empty."""

    def __init__(self, for_widget: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.for_widget = for_widget
        self.setWordWrap(True)
        set_role(self, "field-error")
        self.setAccessibleName(f"{for_widget.accessibleName()} error")
        self.hide()
        if isinstance(for_widget, QLineEdit):
            # Typing a new value retires the verdict on the old one (it is checked again on submit).
            # A slot of this object, not a lambda: the connection goes when this line is deleted
            # (a list's filter inputs outlive the form that made them).
            for_widget.textEdited.connect(self._edited)

    def _edited(self, _text: str) -> None:
        if self.isVisible():
            self.clear()

    def show_error(self, message: str) -> None:
        self.setText(message)
        self.setVisible(bool(message))
        self.for_widget.setProperty("invalid", bool(message))
        style = self.for_widget.style()
        style.unpolish(self.for_widget)
        style.polish(self.for_widget)

    def clear(self) -> None:
        self.show_error("")


def with_error(widget: QWidget) -> tuple[QWidget, FieldError]:
    """The widget stacked over its error line (for a QFormLayout row)."""
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.setSpacing(2)
    lay.addWidget(widget)
    err = FieldError(widget)
    lay.addWidget(err)
    # The row's label has the box as its buddy: its Alt+letter (and the dialog's first focus) must
    # reach the field. Without this Alt+E in "Invite user" went nowhere (the walk of issue 32).
    box.setFocusProxy(widget)
    box.setFocusPolicy(widget.focusPolicy())  # QLabel moves the focus only to a buddy that takes it
    return box, err


def buddied(text: str, widget: QWidget) -> QLabel:
    """A form row's label whose Alt+letter reaches ``widget``: for a row whose field is a layout of
    several widgets (two colours, a logo and its buttons), where QFormLayout finds no buddy."""
    label = QLabel(text)
    label.setBuddy(widget)
    return label


def scrolling(inner: QWidget) -> QScrollArea:
    """``inner`` in a frameless area that scrolls up and down, in the window's colour: a short
    window scrolls a panel rather than squeezing its fields and buttons below their height."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(inner)
    # setWidget turns the widget's own fill on: a grey panel otherwise.
    area.viewport().setAutoFillBackground(False)
    inner.setAutoFillBackground(False)
    return area


def wrapping(lst: QListWidget) -> QListWidget:
    """A list in a narrow column: long lines wrap, never behind a sideways scroll bar."""
    lst.setWordWrap(True)
    lst.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return lst


# Pydantic's wording is for developers; these read better next to a field.
_HUMAN = {
    "missing": QT_TRANSLATE_NOOP("FieldErrors", "Required."),
    "string_too_short": QT_TRANSLATE_NOOP("FieldErrors", "Required."),
    "too_short": QT_TRANSLATE_NOOP("FieldErrors", "Choose at least one."),
}
# The services' own field messages (services/core/schemas.py), for the translators; shown through
# the context FieldErrors, and as the service words them where no translation is known.
_SERVICE_WORDS = (
    QT_TRANSLATE_NOOP("FieldErrors", "not a valid e-mail address"),
    QT_TRANSLATE_NOOP("FieldErrors", "must not be blank"),
)


def field_messages(error: BaseException) -> dict[str, str]:
    """``{"field": "message"}`` from a VALIDATION_ERROR's details (pydantic field errors)."""
    details: object = getattr(error, "details", None) or {}
    out: dict[str, str] = {}
    for f in details.get("fields", []) if isinstance(details, dict) else []:
        name = str(f.get("field", "")).split(".")[0]
        msg = _HUMAN.get(str(f.get("type", "")), str(f.get("message", "")))
        # pydantic prefixes custom messages with "Value error, "; people do not need that.
        out.setdefault(name, QCoreApplication.translate("FieldErrors", msg.removeprefix("Value error, ")))
    return out

"""A record's actions: the form a command's body is filled in, and which actions a record's state
offers (one button per state action its use case performs, greyed out where the state forbids it)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QScrollArea, QVBoxLayout, QWidget

from services.core.commands import Operation
from services.core.declaring import body_fields
from services.core.errors import ValidationFailed
from views.ops import error_message
from views.records.forms import ModelForm, label_of
from views.shell.theme import set_role


class ActionDialog(QDialog):
    """A form for a command's body; stays open with the service's errors on the fields."""

    def __init__(
        self,
        title: str,
        form: ModelForm,
        run: Callable[[dict[str, object], ActionDialog], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.form = form
        self.run = run
        self.message = QLabel("")
        self.message.setWordWrap(True)
        set_role(self.message, "message-error")
        self.message.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.submit)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(form)
        lay.addWidget(scroll)
        lay.addWidget(self.message)
        lay.addWidget(buttons)
        self.resize(560, min(720, 160 + 64 * max(1, len(form.fields))))

    def submit(self) -> None:
        self.run(self.form.value(), self)

    def failed(self, error: BaseException) -> None:
        rest = self.form.show_errors(error) if isinstance(error, ValidationFailed) else {}
        text = error_message(error)
        if rest:
            text += " " + " ".join(f"{label_of(k)}: {v}" for k, v in rest.items())
        self.message.setText(text)
        self.message.show()


# Record actions whose availability the record states (``allowed_actions``) though their use case is
# not linked to its transitions (``use_case(..., moves=...)``): read from the path's last word.
_VERBS = ("ship", "receive", "inspect", "reject", "submit")


def possible(op: Operation, action: str | None, allowed: set[str]) -> bool:
    """Whether the record's state (its ``allowed_actions``) allows running ``op`` (as ``action``)."""
    if op.moves is not None:
        return bool(allowed & ({action} if action is not None else set(op.moves.actions)))
    verb = op.path.rsplit("/", 1)[-1]
    return verb not in _VERBS or verb in allowed


def asks(op: Operation, action: str | None) -> bool:
    """A form comes first: the body has fields a person fills (besides the action it names)."""
    if op.body is None:
        return False
    if action is None or op.moves is None or op.moves.field is None:
        return True
    return any(f != op.moves.field for f in body_fields(op.body))

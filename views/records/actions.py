"""A record's actions: the form a command's body is filled in, and which actions a record's state
offers (one button per state action its use case performs, greyed out where the state forbids it)."""

from __future__ import annotations

import re
import typing
from collections.abc import Callable

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QScrollArea, QVBoxLayout, QWidget

from services.core.commands import Operation
from services.core.declaring import body_fields
from services.core.errors import ValidationFailed
from services.core.files import FileResult
from services.core.records import IRREVERSIBLE, irreversible, state_actions, title_of
from views.ops import error_message
from views.records.forms import ModelForm, label_of
from views.records.words import singular
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
    if action is not None:  # a body's action choice (``{action} filing``): the record lists those it allows
        return action in allowed
    verb = op.path.rsplit("/", 1)[-1]
    return verb not in _VERBS or verb in allowed


_PLACEHOLDER = re.compile(r"{(\w+)}")


def action_field(op: Operation) -> str | None:
    """The body field that names the action a person picks: the declared state moves' field, or the
    placeholder of ``says`` ("{action} filing") when the body offers a fixed choice for it."""
    if op.moves is not None and op.moves.field is not None:
        return op.moves.field
    m = _PLACEHOLDER.search(op.says or "")
    if m is None or op.body is None or m.group(1) not in getattr(op.body, "model_fields", {}):
        return None
    return m.group(1) if _literal(op.body.model_fields[m.group(1)].annotation) else None


def _literal(tp: object) -> tuple[str, ...]:
    if typing.get_origin(tp) is typing.Literal:
        return tuple(str(a) for a in typing.get_args(tp))
    for arg in typing.get_args(tp):  # Literal[...] | None
        if found := _literal(arg):
            return found
    return ()


def choices(op: Operation) -> tuple[str, ...]:
    """The actions a person picks among for ``op``, each a button of its own: the declared state
    moves, else the fixed choice of the body field its ``says`` names (approve, file, accept…)."""
    if found := state_actions(op):
        return found
    name = action_field(op)
    return _literal(op.body.model_fields[name].annotation) if name and op.body is not None else ()


# Declarations that say what happened ("QR code deleted", the words of its history) rather than what
# a button does: the verb moved to the front, as a person asks for it ("Delete QR code").
_DONE = {
    "deleted": "delete",
    "changed": "change",
    "moved": "move",
    "shipped": "ship",
    "received": "receive",
    "revoked": "revoke",
    "authorised": "authorise",
    "signed": "sign",
    "created": "create",
    "sent": "send",
}
_CUT = re.compile(r" \(|: | once ")


def button_title(op: Operation, action: str | None = None) -> str:
    """What a record's button reads: the action named from the declared moves ("Ship transfer"), a
    request, never a raw ``{placeholder}`` nor the past tense of a history line."""
    if action is not None and op.moves is not None:
        words = f"{action.replace('_', ' ')} {op.moves.machine.record.replace('_', ' ')}"
    elif action is not None:
        words = title_of(op, action)
    elif op.response is FileResult or not op.says:
        # A file or a call declared without words: its summary, up to its first aside.
        words = _CUT.split(op.summary or title_of(op), maxsplit=1)[0]
    else:
        words = title_of(op)
        first, _, rest = words.partition(" ")
        head, _, last = words.rpartition(" ")
        if first.lower() in _DONE:  # "Signed in person"
            words = f"{_DONE[first.lower()]} {rest}"
        elif last.lower() in _DONE and head:  # "QR code deleted", "Return authorised"
            words = f"{_DONE[last.lower()]} {head[:1].lower() + head[1:] if not head[:2].isupper() else head}"
        elif words.startswith("Change to "):  # "Change to category"
            words = "Change " + words[len("Change to ") :]
        elif m := re.fullmatch(r"(\w+) of (.+)", words):  # "Image of product"
            words = f"set {m.group(2)} {m.group(1).lower()}"
        elif words == "Payout":
            words = "pay out"
    words = _one_record(op, " ".join(words.split()))
    return words[:1].upper() + words[1:]


def _one_record(op: Operation, words: str) -> str:
    """An operation on one record names it in the singular: a summary written after the list
    ("delete valuations" on ``DELETE /admin/valuations/{id}``) reads "delete valuation"."""
    m = re.search(r"/([a-z_]+)/\{[^{}]+\}$", op.path)
    plural = m.group(1).replace("_", " ") if m else ""
    if plural and singular(plural) != plural and words.lower().endswith(" " + plural):
        return words[: -len(plural)] + singular(plural)
    return words


def plain(text: str) -> str:
    """A summary as a person reads it (a tooltip): the API's ``{status}`` notation without braces."""
    return re.sub(r"{([^{}]*)}", lambda m: m.group(1) or "an empty form", text)


def final(op: Operation, action: str | None) -> bool:
    """Whether the action cannot be taken back (asked first): the declared fact of its move, or its
    name (a body's choice: reject, fail, decline...)."""
    if op.moves is not None or action is None:
        return irreversible(op, action)
    return bool(IRREVERSIBLE.search(action)) or action in ("fail", "file")


def asks(op: Operation, action: str | None) -> bool:
    """A form comes first: the body has fields a person fills (besides the action it names)."""
    if op.body is None:
        return False
    field = action_field(op)
    if action is None or field is None:
        return True
    return any(f != field for f in body_fields(op.body))


def needs_note(op: Operation, linked: bool) -> str:
    """What a station's person reads on an action that reaches an outside service."""
    what = " and ".join(op.needs)
    if linked:
        return f"Needs {what}: made on the platform, online (not possible while the platform does not answer)"
    return f"Needs {what}, which only the platform reaches: link this station to a platform to do it"

"""How Records names other records: pickers of names and codes in its forms, links named as people
know the record (the id in a tooltip and behind "Copy id"), never a raw id on screen."""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable

from pydantic import BaseModel
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QFormLayout, QLabel, QPushButton, QWidget
from shiboken6 import isValid

from services.core.commands import execute
from services.core.pagination import Page
from services.core.records import Resource, may, page_item
from views.base import StationSession
from views.i18n import counted
from views.ops import error_message
from views.records.forms import label_of
from views.records.inputs import Option, Refs, option_of
from views.records.model import _machine, columns_of, is_state, plain_of, text_of
from views.records.words import singular, t

# (module, field) -> the list whose rows define the field's values (rows carry it and ``<x>_name``).
NAMED_BY: dict[tuple[str, str], str] = {("upgrade", "product_id"): "upgrade:/admin/valuations"}


def _named_by(row: object, field: str) -> Option:
    """A row offered for the value of its ``field`` (``product_id``), named by ``product_name``."""
    value = str(getattr(row, field, "") or "")
    name = str(getattr(row, field.removesuffix("_id") + "_name", "") or "")
    return " · ".join(p for p in (name, value) if p), value, value


class References:
    """The records workspace's part that reads and names references (a mixin: it uses the
    workspace's ``session``, ``resources`` and ``current``)."""

    session: StationSession
    resources: list[Resource]
    current: Resource | None
    _options: dict[str, list[Option]]

    open_record: Callable[..., None]
    detail_form: QFormLayout
    _id_of: Callable[[object], str]

    def refs(self) -> Refs:
        """How the open list's forms pick other records: by name or code, never by id."""
        return Refs(self._ref_target, self._ref_load)

    def _ref_target(self, field: str) -> str | None:
        """The list a field refers to: ``parent_id`` this one, ``location_id`` / ``from_location_id``
        the module's locations, ``category_ids`` its categories; None for a plain text field."""
        res = self.current
        m = re.fullmatch(r"(?:(?:from|to)_)?(\w+?)_ids?", field)
        if res is None or m is None:
            return None
        noun = m.group(1).replace("_", " ")
        if noun == "parent":
            return res.key
        same = [r for r in self.resources if r.module == res.module and singular(r.title).lower().endswith(noun)]
        if same:
            return same[0].key
        # No list of that name, but one that defines it: a trade-in's product_id is picked from the
        # valuations (their product_id and product_name), by name or by the SKU typed or scanned.
        # Not in that list's own form, where the value is a new one.
        named = NAMED_BY.get((res.module, field))
        return f"{named}#{field}" if named is not None and named != res.key else None

    def _ref_load(self, key: str, fill: Callable[[list[Option]], None]) -> None:
        if key in self._options:
            fill(self._options[key])
            return
        list_key, _, by = key.partition("#")  # "#product_id": the rows' product_id is the value
        res = next((r for r in self.resources if r.key == list_key), None)
        if res is None:
            fill([])
            return
        ctx = self.session.ctx

        def read() -> list[Option]:
            out: list[Option] = []
            while len(out) < 1000:  # a picker offers the first thousand; a code typed finds any
                page = execute(ctx(), res.listing, query={"offset": len(out), "limit": 100})
                out += [_named_by(r, by) if by else option_of(r) for r in page.items]
                if not page.items or len(out) >= page.total:
                    break
            return sorted(out, key=lambda o: o[0].lower())

        def got(options: list[Option]) -> None:
            self._options[key] = options
            fill(options)

        self.session.ops.run(read, on_success=got, on_failure=lambda _e: fill([]))

    def _add_children(self, res: Resource, record: BaseModel) -> None:
        """Lists under the record (a subscription's deliveries): their latest rows, read off the UI thread."""
        ctx = self.session.ctx()
        rid = self._id_of(record)
        for op, param in res.children:
            if not may(ctx, op):
                continue
            title = label_of(op.path.rsplit("/", 1)[-1])
            box = QLabel(QCoreApplication.translate("records", "{list}: reading…").format(list=title))
            box.setWordWrap(True)
            box.setObjectName(f"children-{op.name}")
            self.detail_form.addRow(title, box)
            columns = columns_of(page_item(op.response))[:4]

            def show(
                page: Page[BaseModel], box: QLabel = box, title: str = title, columns: list[str] = columns
            ) -> None:
                rows = [" · ".join(text_of(getattr(r, c, None)) for c in columns) for r in page.items]
                left = page.total - len(rows)
                more = "\n… " + counted("records", "%Ln more", left) if left > 0 else ""
                box.setText(
                    "\n".join(rows) + more
                    if rows
                    else QCoreApplication.translate("records", "No {list} yet").format(list=title)
                )

            def failed(error: BaseException, box: QLabel = box) -> None:
                box.setText(error_message(error))

            self.session.ops.run(
                self.session.call(op, query={"limit": 10}, **{param: rid}), on_success=show, on_failure=failed
            )

    def _value_widget(self, name: str, value: object) -> QWidget:
        target = self._related(name)
        if target is not None and isinstance(value, str) and value:
            # Named as people know it (read with the pickers' options), the id in the tooltip.
            link = QPushButton("…")
            link.setFlat(True)
            link.setObjectName(f"link-{name}")
            tip = QCoreApplication.translate("records", "Open this {record} (id {id})")  # lupdate reads the literal
            link.setToolTip(in_sentence(tip, "Open this {record} (id {id})", singular(target.title), id=value))
            link.setAccessibleName(label_of(name))
            link.clicked.connect(lambda _=False, v=value, r=target: self.open_record(v, r))
            _copy_menu(link, value)
            opens = open_words(singular(target.title))
            self._ref_load(target.key, functools.partial(_name_link, link, rid=value, unnamed=opens))
            return link
        key = self._ref_target(name) if isinstance(value, list) else None
        if key is not None and isinstance(value, list) and all(isinstance(v, str) for v in value):
            names = QLabel(", ".join("…" for _ in value) or "—")
            names.setWordWrap(True)
            names.setObjectName(f"names-{name}")
            names.setToolTip("ids " + ", ".join(str(v) for v in value))
            self._ref_load(key, functools.partial(_name_label, names, ids=[str(v) for v in value]))
            return names
        if isinstance(value, str) and _UUID.fullmatch(value):
            # An id people do not read: copied, not shown.
            copy = QPushButton(QCoreApplication.translate("records", "Copy id"))
            copy.setFlat(True)
            copy.setObjectName(f"copy-{name}")
            copy.setToolTip(value)
            copy.clicked.connect(lambda _=False, v=value: _to_clipboard(v))
            return copy
        if isinstance(value, list) and value and isinstance(value[0], dict):
            text = rows_text(value)
        elif isinstance(value, dict):
            # A nested record (an offer, the customer) without its ids: they are for links, not reading.
            text = "\n".join(
                f"{label_of(k)}: {text_of(v, k)}" for k, v in value.items() if v not in (None, "") and not _machine(k)
            )
        else:
            text = text_of(value, name)
        if re.fullmatch(r"\S{33,}", text):
            # One long word (a SHA-256, a token) cannot wrap and would widen the panel past its
            # edge, cutting off the buttons: shortened, the whole of it in the tooltip and copied.
            short = QLabel(f"{text[:12]}…{text[-6:]}")
            short.setToolTip(text)
            short.setObjectName(f"long-{name}")
            short.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
            copy_long = QAction(QCoreApplication.translate("records", "Copy"), short)
            copy_long.triggered.connect(lambda: _to_clipboard(text))
            short.addAction(copy_long)
            return short
        lab = QLabel(text)
        lab.setWordWrap(True)
        lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        if (isinstance(value, dt.date) or isinstance(value, str) and is_state(name)) and plain_of(value) != text:
            lab.setToolTip(plain_of(value))  # the stored value: an ISO date, the state's own word
        return lab

    def _related(self, field: str) -> Resource | None:
        key = self._ref_target(field) if field.endswith("_id") else None
        same = next((r for r in self.resources if r.key == key and r.get is not None), None)
        m = re.fullmatch(r"(\w+?)_id", field)
        if same is not None or m is None or self.current is None:
            return same
        wanted = m.group(1).replace("_", " ") + "s"
        return next((r for r in self.resources if r.title.lower() == wanted and r.get is not None), None)


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)


# Where a thing sits on a page and how big it is (a sign field's box): for the layout, not for reading.
_GEOMETRY = {"x", "y", "width", "height", "w", "h", "left", "top", "right", "bottom", "rotation"}


def rows_text(rows: list[dict[str, object]]) -> str:
    """A list of dicts in the panel, one line each, by its person-readable keys with their labels:
    a document's fields read "Type: signature · Page: 1 · Required: yes", not "signature · 1 · 0.12 · 0.7".
    Left out: ids and addresses built of them (a shipment's label_path), nested values and geometry."""
    first = rows[0]
    cols = [
        k
        for k in first
        if not isinstance(first[k], dict | list)
        and not _machine(k)
        and not k.endswith(("_path", "_url"))
        and k not in _GEOMETRY
    ][:5]
    return "\n".join(
        " · ".join(f"{label_of(c)}: {text_of(row.get(c), c)}" for c in cols if row.get(c) not in (None, ""))
        for row in rows
    )


def _to_clipboard(text: str) -> None:
    clip = QApplication.clipboard()
    if clip is not None:
        clip.setText(text)


def _copy_menu(button: QPushButton, rid: str) -> None:
    """A right click on a link offers "Copy id": the id is never the words shown."""
    button.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    copy = QAction(QCoreApplication.translate("records", "Copy id"), button)
    copy.triggered.connect(lambda: _to_clipboard(rid))
    button.addAction(copy)


def _name_of(options: list[Option], rid: str) -> str:
    return next((words for words, oid, _code in options if oid == rid), "")


def open_words(record: str) -> str:
    """A reference's button when its record has no name to show: what it opens ("Open product"),
    never a bare "Open". ``record`` is the list's singular title in English ("Product")."""
    return in_sentence(QCoreApplication.translate("records", "Open {record}"), "Open {record}", record)


def in_sentence(template: str, english: str, record: str, **more: object) -> str:
    """``template`` (the translation of ``english``) with a list's singular title in English
    (``record``: "Product") inside: in English lower case within the sentence ("Open this
    product", "Open QR code"), as a German noun keeps its capital."""
    noun = t(record)
    if template == english and not noun[:2].isupper():
        noun = noun[:1].lower() + noun[1:]
    return template.format(record=noun, **more)


def _name_link(button: QPushButton, options: list[Option], *, rid: str, unnamed: str) -> None:
    if isValid(button):
        button.setText(_name_of(options, rid) or unnamed)


def _name_label(label: QLabel, options: list[Option], *, ids: list[str]) -> None:
    if isValid(label):
        gone = QCoreApplication.translate("records", "(gone)")
        label.setText(", ".join(_name_of(options, i) or gone for i in ids) or "—")

"""The records workspace: every module's records, built from the declarations.

Left, the modules and their record kinds the person may list; in the middle the
list (filters from the list's query schema, search, sort by a column, lazy
paging, CSV export, *New* from the create schema); on the right the record
(fields from the response schema, related records as links, its actions from
its declared commands, offered only when the person may call them, with a
confirmation where they cannot be undone; its files opened in place). Ctrl+K
finds a record in every module.
"""

from __future__ import annotations

import importlib
import mimetypes
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from pydantic import BaseModel
from PySide6.QtCore import QLocale, QModelIndex, Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from services.core.commands import SECRET_FIELDS, Operation, platform_path
from services.core.context import ANY_KIND, MODULES, CommitInfo, module_kind
from services.core.errors import ValidationFailed
from services.core.files import FileResult, Upload
from services.core.pagination import ListQuery
from services.core.records import (
    Resource,
    file_query,
    may,
    resources,
)
from services.core.roles import STAFF
from services.sign.documents import sign_in_person
from services.sign.signers import add_field
from views.base import StationSession, Workspace
from views.ops import error_message
from views.records.actions import (
    ActionDialog,
    action_field,
    asks,
    button_title,
    choices,
    final,
    needs_note,
    plain,
    possible,
)
from views.records.columns import ColumnFitter, fit_tree
from views.records.files import FileViewer, Nothing, file_filter, write_csv
from views.records.flow import FlowLayout
from views.records.forms import EMPTY, ModelForm, label_of
from views.records.inputs import DateInput, Option
from views.records.model import ProgressDelegate, RecordsModel
from views.records.palette import Palette
from views.records.panel import RecordPanel
from views.records.refs import References, _to_clipboard, singular
from views.records.words import module_title, t, value_word
from views.shell.theme import set_role

_LIST_FIELDS = set(ListQuery.model_fields)


# Actions that open their own screen instead of a form built from the body: op name -> "module:function"
# called as function(workspace, session, record_id).
ACTION_SCREENS: dict[Callable[..., object], str] = {
    sign_in_person: "views.sign.pad:open_for_record",
    add_field: "views.sign.place:open_for_record",  # fields placed with the mouse on the pages
}


def action_title(op: Operation, action: str | None = None) -> str:
    """A button's words from the declaration (no body yet): "Start claim", never "{action} claim"."""
    return t(button_title(op, action))


class RecordsWorkspace(Workspace, References):
    name = "records"
    title = "Records"
    modules = frozenset(MODULES) | {"platform"}
    shows = frozenset({ANY_KIND})  # the module of the list shown: on_changed
    roles: ClassVar[frozenset[str]] = STAFF  # kiosk devices keep to their own workspace
    position = 80

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        ctx = session.ctx()
        usable = {m for m in MODULES if session.may_use(m)}
        if session.principal.kind == "user" and session.principal.role in ("owner", "admin"):
            usable.add("platform")
        self.resources = [r for r in resources(usable) if may(ctx, r.listing)]
        self.current: Resource | None = None
        self.model: RecordsModel | None = None
        self.record: BaseModel | None = None
        self.asked: str | None = None
        self._sized = False
        self._options: dict[str, list[Option]] = {}  # a reference picker's choices, read once per change

        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setAccessibleName(self.tr("Modules and records"))
        by_module: dict[str, QTreeWidgetItem] = {}
        for r in self.resources:
            parent_item = by_module.get(r.module)
            if parent_item is None:
                parent_item = QTreeWidgetItem([module_title(r.module)])
                by_module[r.module] = parent_item
                self.tree.addTopLevelItem(parent_item)
            item = QTreeWidgetItem([t(r.title)])
            item.setData(0, Qt.ItemDataRole.UserRole, r.key)
            parent_item.addChild(item)
        self.tree.expandAll()
        tree_width = fit_tree(self.tree)  # its longest label reads whole, in German too
        self.tree.currentItemChanged.connect(self._tree_changed)

        self.heading = QLabel(self.tr("Choose a kind of record"))
        set_role(self.heading, "heading")
        self.count = QLabel("")
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search"))
        self.search.setAccessibleName(self.tr("Search records"))
        self.search.returnPressed.connect(self._apply_filters)
        # The list's filters on a row of their own that wraps: each keeps the width its words need
        # (a ticket list has seven; squeezed beside the search they read "St…", "Pr…").
        self.filter_row = QWidget()
        self.filter_row.setObjectName("filters")
        self.filters = FlowLayout(self.filter_row)
        self.new_button = QPushButton(self.tr("New…"))
        self.new_button.clicked.connect(self.create_record)
        self.export_button = QPushButton(self.tr("Export CSV…"))
        self.export_button.clicked.connect(lambda: self.export_csv())
        self.table = QTableView()
        self.table.setAccessibleName(self.tr("Records"))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSortingEnabled(True)
        self.table.setAlternatingRowColors(True)
        self.table.setTabKeyNavigation(False)  # rows are picked, not cells: Tab moves on (to More)
        self.table.verticalHeader().setVisible(False)
        self.columns_fit = ColumnFitter(self.table)  # as wide as they read, within the view's width
        self.table.activated.connect(self._open_row)
        self.progress_bars = ProgressDelegate(self.table)

        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.count)
        bar = QHBoxLayout()
        bar.addWidget(self.search, 1)
        bar.addWidget(self.new_button)
        bar.addWidget(self.export_button)
        middle = QWidget()
        ml = QVBoxLayout(middle)
        ml.addLayout(top)
        ml.addLayout(bar)
        ml.addWidget(self.filter_row)
        ml.addWidget(self.table, 1)

        self.detail_scroll = RecordPanel()
        panel = self.detail_scroll
        self.detail_title, self.detail_form, self.copy_id = panel.title, panel.form, panel.copy_id
        self.actions_row, self.action_box = panel.actions_row, panel.action_box
        self.copy_id.clicked.connect(lambda: _to_clipboard(self.copy_id.toolTip()))

        split = QSplitter()
        split.addWidget(self.tree)
        split.addWidget(middle)
        split.addWidget(self.detail_scroll)
        split.setStretchFactor(1, 3)
        split.setStretchFactor(2, 2)
        split.setSizes([tree_width, 780, 300])  # at 1280 px the list keeps room for eight columns
        lay = QVBoxLayout(self)
        lay.addWidget(split)

        self.finder = Palette(self)
        QShortcut(QKeySequence("Ctrl+K"), self, self.finder.open)
        top_item = self.tree.topLevelItem(0)
        first = top_item.child(0) if top_item is not None else None
        if first is not None:
            self.tree.setCurrentItem(first)

    # -- choosing a list -----------------------------------------------------------------------

    def resource(self, key: str) -> Resource | None:
        """A resource by its key, or a module's main one (the first that names its record kind)."""
        exact = next((r for r in self.resources if r.key == key), None)
        of_module = sorted((r for r in self.resources if r.module == key), key=lambda r: r.record is None)
        return exact or next(iter(of_module), None)

    def show_resource(self, key: str) -> None:
        """Open a module's (or one resource's) list: ``records:<module>``."""
        res = self.resource(key)
        if res is None:
            return
        it = self.tree.findItems(t(res.title), Qt.MatchFlag.MatchExactly | Qt.MatchFlag.MatchRecursive)
        for item in it:
            if item.data(0, Qt.ItemDataRole.UserRole) == res.key:
                self.tree.setCurrentItem(item)
                return

    def _tree_changed(self, item: QTreeWidgetItem | None) -> None:
        key = item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None
        res = self.resource(key) if key else None
        if res is not None and res is not self.current:
            self._open_resource(res)

    def _open_resource(self, res: Resource) -> None:
        self.current = res
        self._sized = False
        self.model = RecordsModel(self.session, res, self)
        self.model.loaded.connect(self._loaded)
        self.model.failed.connect(self._list_failed)
        self.table.setModel(self.model)
        # A single click (or arrow key) shows that row: the panel never keeps the previous record.
        self.table.selectionModel().currentRowChanged.connect(self._current_row_changed)
        for i in range(len(self.model.columns) + 8):
            self.table.setItemDelegateForColumn(i, None)  # type: ignore[arg-type]
        self.columns_fit.reset()  # the headers read in full before the rows arrive
        if "progress" in self.model.columns:
            self.table.setItemDelegateForColumn(self.model.columns.index("progress"), self.progress_bars)
        self.table.horizontalHeader().setSortIndicatorShown(False)
        self.heading.setText(f"{module_title(res.module)} · {t(res.title)}")
        q = res.listing.query
        self.search.setVisible(q is not None and "search" in q.model_fields)
        self.search.clear()
        self._build_filters(q)
        ctx = self.session.ctx()
        self.new_button.setVisible(may(ctx, res.create))
        self.model.reload()
        self._clear_detail()

    def show_rows(self, key: str, rows: list[BaseModel], caption: str) -> None:
        """Open a list on exactly ``rows`` (a dashboard's bar): the caption says which rows they are."""
        self.show_resource(key)
        if self.model is None or self.current is None or self.current.key != self.resource(key).key:  # type: ignore[union-attr]
            return
        self.model.pin(rows)
        self.columns_fit.fit()
        self.count.setText(caption)
        self._clear_detail()
        if rows:
            self.table.selectRow(0)

    def _build_filters(self, q: type[BaseModel] | None) -> None:
        _empty(self.filters)
        self.filter_inputs: dict[str, QLineEdit | QComboBox | DateInput] = {}
        if q is None:
            return
        form = ModelForm(q)
        for name, f in form.fields.items():
            if name in _LIST_FIELDS:
                continue
            w = f.input
            if isinstance(w, QComboBox):
                if w.findData(None) < 0 and w.itemText(0) != "—":
                    w.insertItem(0, "—", None)
                w.setItemText(
                    0, self.tr("{field}: any").format(field=label_of(name))
                )  # says what it filters while it does not
                w.setCurrentIndex(0)
                w.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
                w.currentIndexChanged.connect(self._apply_filters)
            elif isinstance(w, QLineEdit):  # a DateInput too: picked, stepped or typed and Enter
                w.setPlaceholderText(label_of(name))
                w.setMinimumWidth(max(110, w.fontMetrics().horizontalAdvance(label_of(name)) + 28))
                (w.dateChanged if isinstance(w, DateInput) else w.returnPressed).connect(self._apply_filters)
            else:
                continue
            w.setParent(None)
            w.setToolTip(label_of(name))
            self.filters.addWidget(w)
            self.filter_inputs[name] = w
        form.deleteLater()
        self.filter_row.setVisible(bool(self.filter_inputs))

    def _apply_filters(self) -> None:
        if self.model is None:
            return
        q: dict[str, object] = {"sort": self.model.query.get("sort")}
        if self.search.isVisible() and self.search.text().strip():
            q["search"] = self.search.text().strip()
        for name, w in self.filter_inputs.items():
            if isinstance(w, DateInput):
                value: object = w.value()
            else:
                value = w.currentData() if isinstance(w, QComboBox) else w.text().strip()
            if value is not EMPTY and value not in (None, ""):
                q[name] = value
        self.model.query = q
        self.model.reload()

    def _list_failed(self, error: BaseException) -> None:
        details = getattr(error, "details", None) or {}
        if self.model is not None and isinstance(details, dict) and "allowed" in details and "sort" in details:
            # Not every column sorts: say which do, and keep the list as it was.
            allowed = ", ".join(label_of(a).lower() for a in details["allowed"])
            self.count.setText(self.tr("This list sorts by {columns} only.").format(columns=allowed))
            self.model.query.pop("sort", None)
            self.table.horizontalHeader().setSortIndicatorShown(False)
            return
        self.count.setText(error_message(error))

    def _loaded(self, loaded: int, total: int) -> None:
        shown = self.tr("%Ln records", "", total) if loaded >= total else self.tr("{loaded} of %Ln records", "", total)
        self.count.setText(shown.replace("{loaded}", QLocale().toString(loaded)))
        if loaded and not self._sized:
            self._sized = True  # once per list: a filter or a sort keeps the widths the person sees
            self.columns_fit.fit()
        if self.record is None and self.asked is None and self.model is not None and self.model.rowCount():
            # The first record shows at once, as in a mail client; arrows and Enter move on.
            self.table.selectRow(0)
            self._open_row(self.model.index(0, 0))
        self._mark_row()

    def on_changed(self, change: CommitInfo) -> None:
        """A record of this list's module changed: the list and the open record are read again."""
        self._options.clear()
        if self.current is None or not change.touches(frozenset({module_kind(self.current.module)})):
            return
        if self.model is not None:
            self.model.reload()
        if self.record is not None:
            self.open_record(self._id_of(self.record))

    # -- one record ----------------------------------------------------------------------------

    def _current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self._open_row(current)

    def _open_row(self, index: QModelIndex) -> None:
        if self.model is not None:
            self.open_record(self._id_of(self.model.record_at(index.row())))

    @staticmethod
    def _id_of(record: object) -> str:
        return str(getattr(record, "id", "") or getattr(record, "key_id", ""))

    def open_record(self, record_id: str, res: Resource | None = None) -> None:
        res = res or self.current
        if res is None:
            return
        if res is not self.current:
            self.show_resource(res.key)
        if self.record is None or self._id_of(self.record) != record_id:
            self._clear_detail()  # no action of the previous record stays on screen meanwhile
            self.detail_title.setText(self.tr("Loading…"))
        self.asked = record_id  # the latest record asked for wins over answers still on their way
        if res.get is None:
            row = next((r for r in (self.model.rows if self.model else []) if self._id_of(r) == record_id), None)
            if row is not None:
                self._show_record(row)
            return
        param = res.id_param(res.get) or "id"

        def show(record: BaseModel) -> None:
            if self.asked == record_id and self.current is res:
                self._show_record(record)

        self.session.ops.run(self.session.call(res.get, **{param: record_id}), on_success=show, parent=self.table)

    def _clear_detail(self) -> None:
        self.record = None
        self.asked = None
        self.detail_title.setText(self.tr("Select a record"))
        self.copy_id.hide()
        while self.detail_form.rowCount():
            self.detail_form.removeRow(0)
        _empty(self.action_box)

    def _show_record(self, record: BaseModel) -> None:
        res = self.current
        if res is None:
            return
        self._clear_detail()
        self.record = record
        values = record.model_dump()
        label = next((values[k] for k in _LABELS if values.get(k)), None)
        self.detail_title.setText(f"{t(singular(res.title))} {label or ''}".strip())
        rid = self._id_of(record)
        self.detail_title.setToolTip(f"id {rid}" if rid else "")
        self.copy_id.setVisible(bool(rid))
        self.copy_id.setToolTip(rid)
        for name, value in values.items():
            if name in ("id", "key_id", "allowed_actions") or name.endswith("_hash"):
                continue  # the id: in the title's tooltip and behind "Copy id"; the actions: buttons
            if name.endswith("_id") and f"{name[:-3]}_name" in values and self._related(name) is None:
                continue  # "category_name" says it; an id beside it tells a person nothing
            self.detail_form.addRow(label_of(name), self._value_widget(name, value))
        self._add_actions(res, record)
        self._add_children(res, record)
        self._mark_row()

    def _mark_row(self) -> None:
        """The open record's row is the list's current one. Opened by Ctrl+K, no row was: Tab into
        the list then made the first row current and opened it instead (seen in the walk)."""
        if self.model is None or self.record is None:
            return
        rid = self._id_of(self.record)
        row = next((i for i, r in enumerate(self.model.rows) if self._id_of(r) == rid), None)
        if row is None or self.table.currentIndex().row() == row:
            return
        sel = self.table.selectionModel()
        was = sel.blockSignals(True)  # it is open already: no second read of it
        self.table.selectRow(row)
        sel.blockSignals(was)
        # Scrolled to once the new rows are laid out (at once, the list stayed at its top).
        QTimer.singleShot(0, lambda: self.table.scrollTo(self.table.currentIndex()))
        self.table.viewport().update()

    def _add_actions(self, res: Resource, record: BaseModel) -> None:  # buttons in a row under the title
        ctx = self.session.ctx()
        rid = self._id_of(record)
        ops: list[Operation] = []
        if may(ctx, res.update):
            ops.append(res.update)  # type: ignore[arg-type]
        ops += [a for a in res.actions if may(ctx, a)]
        ops += [f for f in res.files if may(ctx, f)]
        if may(ctx, res.delete):
            ops.append(res.delete)  # type: ignore[arg-type]
        stated = getattr(record, "allowed_actions", None)  # the record says what its state allows
        allowed = set(stated or [])
        prev: QWidget = self.copy_id  # Tab goes on from "Copy id" to these, not up to the filters first
        for op in ops:
            # One button per state action where the body names it (start, close, cancel a claim).
            for action in choices(op) or (None,):
                dots = "…" if asks(op, action) else ""
                title = self.tr("Edit…") if op is res.update else action_title(op, action) + dots
                # A title wider than the panel is shortened (whole in the accessible name): it pushed
                # the panel's content past its edge and cut "Copy id" off (seen at 1280x800).
                b = QPushButton(self.fontMetrics().elidedText(title, Qt.TextElideMode.ElideRight, 290))
                b.setAccessibleName(title)
                b.setObjectName(f"action-{op.name}")
                b.setProperty("state_action", action)
                b.setToolTip(plain(op.summary))
                if stated is not None and op in res.actions and not possible(op, action, allowed):
                    b.setEnabled(False)
                    now = value_word(str(getattr(record, "status", "")))
                    b.setToolTip(self.tr("Not possible while it is {status}").format(status=now))
                if op.needs and ctx.runtime.is_station:
                    # Said before the person acts: made on the platform, online, or not at all here.
                    b.setToolTip(needs_note(op, bool(self.session.platform_url)))
                    b.setEnabled(b.isEnabled() and bool(self.session.platform_url))
                b.clicked.connect(lambda _=False, o=op, a=action: self.run_action(o, rid, action=a))
                self.action_box.addWidget(b)
                QWidget.setTabOrder(prev, b)
                prev = b

    def run_action(
        self, op: Operation, record_id: str, body: dict[str, object] | None = None, *, action: str | None = None
    ) -> None:
        """Run a command on the open record: a form first when it takes a body; a question first
        when it cannot be undone. ``action``: the state action picked (it fills the body's field
        that names it)."""
        res = self.current
        if res is None:
            return
        if op.handler in ACTION_SCREENS:  # an action with its own screen rather than a form
            module, _, fn = ACTION_SCREENS[op.handler].partition(":")
            getattr(importlib.import_module(module), fn)(self, self.session, record_id)
            return
        param = res.id_param(op) or "id"
        params: dict[str, str] = {param: record_id}
        if op.response is FileResult or op in res.files:
            self.session.ops.run(
                self.session.call(op, query=file_query(op), **params),
                on_success=lambda f: FileViewer(f, self, station=self.session).show(),
                parent=self.table,
            )
            return
        field = action_field(op)
        named: dict[str, object] = {}
        if action is not None and field is not None:
            named = {field: op.moves.value_of(action) if op.moves is not None else action}
        if named and body is None and not asks(op, action):
            body = named  # the body is the action alone
        if op.body is not None and body is None:
            form = ModelForm(op.body, refs=self.refs())
            if op is res.update and self.record is not None:
                form.set_values(self.record.model_dump(mode="json") if isinstance(self.record, BaseModel) else {})
            elif named:
                form.set_values(named)
            dialog = ActionDialog(
                action_title(op, action) if op is not res.update else self.tr("Edit"),
                form,
                lambda value, dlg: self._confirm_submit(op, params, value, dlg, action),
                self,
            )
            dialog.open()
            return
        if (body is None or body == named) and not self._confirm(op, action):
            return
        self._submit(op, params, body, None, action)

    def _confirm_submit(
        self,
        op: Operation,
        params: dict[str, str],
        body: dict[str, object] | None,
        dialog: ActionDialog,
        action: str | None,
    ) -> None:
        if action is None or self._confirm(op, action):
            self._submit(op, params, body, dialog, action)

    def _confirm(self, op: Operation, action: str | None) -> bool:
        """Asks first where the move cannot be taken back (a state action's form asks when sent)."""
        if not final(op, action):
            return True
        title = action_title(op, action)
        answer = QMessageBox.question(self, title, self.tr("{action}? This cannot be undone.").format(action=title))
        return answer == QMessageBox.StandardButton.Yes

    def _submit(
        self,
        op: Operation,
        params: dict[str, str],
        body: dict[str, object] | None,
        dialog: ActionDialog | None,
        action: str | None = None,
    ) -> None:
        def done(result: object) -> None:
            if dialog is not None:
                dialog.accept()
            self.session.notify(True, self.tr("{action}: done").format(action=action_title(op, action)))

        def failed(error: BaseException) -> None:
            if dialog is not None:
                dialog.failed(error)
            else:
                self.session.notify(False, error_message(error))
                self.count.setText(error_message(error))

        self.call(op, params, body, done, failed)

    def call(
        self,
        op: Operation,
        params: dict[str, str],
        body: dict[str, object] | None,
        on_success: Callable[[object], None],
        on_failure: Callable[[BaseException], None],
    ) -> None:
        """Run a command: here (the station's database, queued for sync), or on the platform, online,
        when its declaration says it makes or carries a secret and this station has a platform."""
        s = self.session

        def done(result: object) -> None:
            on_success(result)
            self._show_once(result)

        secret = body is not None and any(body.get(f) not in (None, "") for f in SECRET_FIELDS)
        # A use case that reaches an outside service (op.needs) is made where that service is reached.
        if not ((op.online or secret or op.needs) and s.platform_url):  # a password reset carries a secret too
            s.ops.run(s.call(op, body=body, **params), on_success=done, on_failure=on_failure)
            return
        from services.core import platform_client

        path = platform_path(s.ctx(), op, {k: str(v) for k, v in params.items()})
        token = s.platform_token() if s.platform_token else None
        model = op.response if isinstance(op.response, type) and issubclass(op.response, BaseModel) else None

        def parsed(data: object) -> None:
            done(model.model_validate(data) if model is not None and data is not None else data)

        s.ops.run_async(
            lambda: platform_client.call(s.platform_url, token, op.method, path, json=body),
            on_success=parsed,
            on_failure=on_failure,
        )

    def _show_once(self, result: object) -> None:
        """A value shown once (a new API key): said now, in a box it can be copied from."""
        fields = [f for f in getattr(result, "secret_fields", ()) if getattr(result, f, None)]
        if not fields:
            return
        box = QMessageBox(
            QMessageBox.Icon.Information,
            self.tr("Shown once"),
            self.tr("Copy it now: it is not shown again.")
            + "\n\n"
            + "\n".join(f"{label_of(f)}: {getattr(result, f)}" for f in fields),
            parent=self,
        )
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.setObjectName("shown-once")
        box.open()

    def create_record(self, upload_path: str | None = None) -> None:
        """*New…*: the create form; where the API creates from a file (a PDF to sign, a rate table,
        a kept mail), the file is chosen first and the form holds the fields sent beside it."""
        res = self.current
        op = res.create if res is not None else None
        if res is None or op is None or (op.body is None and not op.upload):
            return
        one = t(singular(res.title))
        one = one.lower() if one == singular(res.title) else one  # German nouns keep their capital
        if op.upload:
            if upload_path is None:
                upload_path, _ = QFileDialog.getOpenFileName(
                    self, self.tr("New {record}: choose the file").format(record=one), "", file_filter(op)
                )
            if not upload_path:
                return
            self._create_from_file(op, one, Path(upload_path))
            return
        assert op.body is not None
        form = ModelForm(op.body, refs=self.refs())

        def submit(value: dict[str, object], dlg: ActionDialog) -> None:
            self.call(op, {}, value, lambda made: self._created(dlg, one, made), dlg.failed)

        ActionDialog(self.tr("New {record}").format(record=one), form, submit, self).open()

    def _created(self, dlg: ActionDialog, one: str, result: object) -> None:
        dlg.accept()
        self.session.notify(True, self.tr("{record} created").format(record=one))
        if made := getattr(result, "id", None):
            self.open_record(str(made))

    def _create_from_file(self, op: Operation, one: str, path: Path) -> None:
        """The file and the fields beside it (the query model), made here and queued for sync."""
        form = ModelForm(op.query, refs=self.refs()) if op.query is not None else ModelForm(Nothing)
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"

        def submit(value: dict[str, object], dlg: ActionDialog) -> None:
            try:
                data = path.read_bytes()
            except OSError as e:
                why = self.tr("Cannot read {file}: {reason}. Choose the file again.")
                dlg.failed(ValidationFailed(why.format(file=path.name, reason=e.strerror), {}))
                return
            upload = Upload(filename=path.name, content_type=kind, content=data)
            query = {k: v for k, v in value.items() if v is not None}
            run = self.session.call(op, upload=upload, query=query)
            self.session.ops.run(run, on_success=lambda made: self._created(dlg, one, made), on_failure=dlg.failed)

        ActionDialog(self.tr("New {record} from {file}").format(record=one, file=path.name), form, submit, self).open()

    # -- export --------------------------------------------------------------------------------

    def export_csv(self, path: str | None = None) -> None:
        """Every row of the list as it is filtered, written off the UI thread."""
        model = self.model
        if model is None:
            return
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self, self.tr("Export CSV"), f"{model.resource.title.lower()}.csv", "CSV (*.csv)"
            )
            if not path:
                return
        done = path
        self.session.ops.run(
            lambda: write_csv(model, Path(done)),
            on_success=lambda n: self.session.notify(
                True, self.tr("Exported %Ln rows to {file}", "", n).replace("{file}", done)
            ),
            parent=self.export_button,
        )


def _empty(layout: QHBoxLayout | QGridLayout | FlowLayout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        w = item.widget() if item is not None else None
        if w is not None:
            # Gone at once, and no longer a child (a search for the new buttons never finds an
            # old one); deleted when the event loop next turns.
            w.hide()
            w.setParent(None)  # type: ignore[call-overload]
            w.deleteLater()


_LABELS = ("order_number", "number", "serial_number", "name", "email", "sku", "title")


WORKSPACE = RecordsWorkspace

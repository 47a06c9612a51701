"""The audit log in the admin workspace: who changed the tenant's access and settings, when, what and
from where, newest first, filtered by kind and actor.

Read from the platform (``GET /api/tenants/{tenant}/audit``, as the signed-in person) when the station
has one: the platform's log holds every station's and the web's changes. Without a platform, the
station's own log (the same use case, on this station's database).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from datetime import datetime
from urllib.parse import urlencode

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from services.core.audit import KINDS, AuditOut, AuditQuery, list_audit
from views.admin.widgets import Status, cell, rows, sentence, table
from views.base import StationSession
from views.ops import Newest, error_message
from views.shell.theme import set_role

# The kinds people filter by: the named ones and the settings and connections of any module.
FILTER_KINDS = sorted({*KINDS.values(), "settings.changed", "connection.changed"})
LIMIT = 100  # the newest entries; a filter narrows it down


def _changes(changes: dict[str, object]) -> str:
    """The request body as sent (secrets already masked as *** by the log), on one line."""
    return json.dumps(changes, ensure_ascii=False, sort_keys=True, separators=(", ", ": "), default=str)


def _when(at: datetime) -> str:
    return at.astimezone().strftime("%Y-%m-%d %H:%M:%S")


class AuditPanel(QWidget):
    def __init__(self, session: StationSession) -> None:
        super().__init__()
        self.session = session
        self.entries: list[AuditOut] = []
        self.lists = Newest()
        lay = QVBoxLayout(self)
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.where.setAccessibleName(self.tr("Where the audit log is read"))
        set_role(self.where, "subtitle")
        lay.addWidget(self.where)

        bar = QHBoxLayout()
        self.kind = QComboBox()
        self.kind.setAccessibleName(self.tr("Kind of change"))
        self.kind.addItem(self.tr("All kinds"), "")
        for k in FILTER_KINDS:
            self.kind.addItem(k, k)
        self.kind.currentIndexChanged.connect(self.load)
        self.actor = QLineEdit()
        self.actor.setAccessibleName(self.tr("Actor"))
        self.actor.setPlaceholderText(self.tr("Who: an e-mail or an id"))
        self.actor.setClearButtonEnabled(True)
        self.actor.returnPressed.connect(self.load)
        self.filter_button = QPushButton(self.tr("&Filter"))
        self.filter_button.clicked.connect(self.load)
        kind_label = QLabel(self.tr("K&ind"))
        kind_label.setBuddy(self.kind)
        actor_label = QLabel(self.tr("&Who"))
        actor_label.setBuddy(self.actor)
        bar.addWidget(kind_label)
        bar.addWidget(self.kind)
        bar.addWidget(actor_label)
        bar.addWidget(self.actor, 1)
        bar.addWidget(self.filter_button)
        lay.addLayout(bar)

        self.table = table(
            [self.tr("When"), self.tr("Who"), self.tr("What"), self.tr("Record"), self.tr("Changes"), self.tr("From")],
            self.tr("Audit log"),
        )
        lay.addWidget(self.table, 1)
        self.status = Status(self.tr("Audit log result"))
        lay.addWidget(self.status)

    @property
    def on_platform(self) -> bool:
        return bool(self.session.platform_url)

    def _filters(self) -> dict[str, str]:
        out = {"limit": str(LIMIT)}
        if kind := self.kind.currentData():
            out["kind"] = str(kind)
        if actor := self.actor.text().strip():
            out["actor"] = actor
        return out

    def _platform(self, query: dict[str, str]) -> Callable[[], Coroutine[object, None, object]]:
        from services.core import platform_client

        s = self.session
        url, token = s.platform_url, s.platform_token() if s.platform_token else None
        path = f"/api/tenants/{s.tenant.slug}/audit?{urlencode(query)}"
        return lambda: platform_client.call(url, token, "GET", path)

    def load(self) -> None:
        self.status.say("")
        query = self._filters()
        asked = self.lists.ask()  # the filters set last win over a late answer
        if self.on_platform:
            where = self.tr(
                "The platform's audit log ({url}): every station's and the web's changes, "
                "newest first (the {limit} newest that match)."
            )
            self.where.setText(where.format(url=self.session.platform_url, limit=LIMIT))
            self.session.ops.run_async(
                self._platform(query),
                on_success=asked.only(lambda data: self._show([AuditOut.model_validate(e) for e in rows(data)])),
                on_failure=lambda exc: self.status.say(sentence(error_message(exc))),
                parent=self.table,
            )
            return
        where = self.tr(
            "This station's own audit log: it works without a platform now (offline, or no platform URL in "
            "Settings). Newest first, the {limit} newest that match."
        )
        self.where.setText(where.format(limit=LIMIT))
        self.session.ops.run(
            self.session.call(list_audit, query=AuditQuery.model_validate(query)),
            on_success=asked.only(lambda page: self._show(list(page.items))),
            parent=self.table,
        )

    def _show(self, entries: list[AuditOut]) -> None:
        self.entries = entries
        self.table.setRowCount(len(entries))
        for row, e in enumerate(entries):
            who = e.actor.email or e.actor.id
            if e.actor.kind != "user":
                who = f"{who} ({e.actor.kind.replace('_', ' ')})"
            cells = (_when(e.at), who, e.kind, e.record_id or "—", _changes(e.changes), e.ip or "—")
            for col, text in enumerate(cells):
                self.table.setItem(row, col, cell(text, e.id))
        if not entries:
            self.status.say(
                self.tr("No audit entries match.") if len(self._filters()) > 1 else self.tr("No audit entries yet."),
                "info",
            )

"""Admin: the tenant's webhook endpoints (subscriptions) as the platform has them, with the ones
endpoint health disabled (since when and why), and a button that turns one on again."""

from __future__ import annotations

from collections.abc import Callable, Coroutine

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from services.events.schemas import SubscriptionOut
from views.admin.widgets import Status, cell, rows, sentence, table, when
from views.base import StationSession
from views.ops import error_message
from views.records.words import QT_TRANSLATE_NOOP
from views.shell.theme import set_role

OFFLINE = QT_TRANSLATE_NOOP(
    "WebhooksPanel",
    "Webhook endpoints live on the platform, which delivers the events: connect this station to a "
    "platform (Settings) to see them.",
)


def state_of(sub: SubscriptionOut) -> str:
    if sub.active:
        return "active"
    return "disabled" if sub.disabled_at is not None else "inactive"


class WebhooksPanel(QWidget):
    def __init__(self, session: StationSession) -> None:
        super().__init__()
        self.session = session
        self.subs: list[SubscriptionOut] = []
        lay = QVBoxLayout(self)
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.where.setAccessibleName(self.tr("Where webhook endpoints live"))
        set_role(self.where, "subtitle")
        lay.addWidget(self.where)
        self.table = table(
            [self.tr("Endpoint"), self.tr("Event types"), self.tr("State"), self.tr("Disabled since"), self.tr("Why")],
            self.tr("Webhook endpoints"),
        )
        lay.addWidget(self.table, 1)
        row = QHBoxLayout()
        self.status = Status(self.tr("Webhook endpoint result"))
        row.addWidget(self.status, 1)
        self.activate = QPushButton(self.tr("&Activate selected endpoint"))
        self.activate.clicked.connect(self.activate_selected)
        row.addWidget(self.activate)
        lay.addLayout(row)

    def _platform(self, method: str, path: str) -> Callable[[], Coroutine[object, None, object]]:
        """The events module's route on the platform, as the signed-in person."""
        from services.core import platform_client

        s = self.session
        url, token = s.platform_url, s.platform_token() if s.platform_token else None
        full = f"/{s.tenant.slug}/events/api/subscriptions{path}"
        return lambda: platform_client.call(url, token, method, full)

    def load(self) -> None:
        if not self.session.platform_url:
            self.where.setText(self.tr(OFFLINE))
            self._show([])
            return
        where = self.tr(
            "Endpoints on the platform ({url}). One whose every delivery failed for "
            "the tenant's set time (5 days by default) is disabled; fix it, then activate it again."
        )
        self.where.setText(where.format(url=self.session.platform_url))
        self.session.ops.run_async(
            self._platform("GET", "?limit=100&sort=-created_at"),
            on_success=lambda data: self._show([SubscriptionOut.model_validate(x) for x in rows(data)]),
            on_failure=lambda exc: self.status.say(sentence(error_message(exc))),
            parent=self.table,
        )

    def _show(self, subs: list[SubscriptionOut]) -> None:
        self.subs = subs
        self.table.setRowCount(len(subs))
        for r, sub in enumerate(subs):
            cells = (
                sub.webhook_url.split("?", 1)[0],  # a token in the query stays off the screen
                ", ".join(sub.event_types),
                state_of(sub),
                when(sub.disabled_at),
                sub.disabled_reason or "",
            )
            for col, text in enumerate(cells):
                self.table.setItem(r, col, cell(text, sub.id))

    def activate_selected(self) -> None:
        r = self.table.currentRow()
        if r < 0 or r >= len(self.subs):
            self.status.say(self.tr("Select an endpoint in the list first."))
            return
        sub = self.subs[r]
        if sub.active:
            self.status.say(self.tr("That endpoint is active already."))
            return
        self.session.ops.run_async(
            self._platform("POST", f"/{sub.id}/activate"),
            on_success=lambda _data: self._activated(sub),
            on_failure=lambda exc: self.status.say(sentence(error_message(exc))),
            parent=self.activate,
        )

    def _activated(self, sub: SubscriptionOut) -> None:
        url = sub.webhook_url.split("?", 1)[0]
        self.status.say(self.tr("Endpoint {url} is active again.").format(url=url), "ok")
        self.load()

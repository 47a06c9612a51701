"""Admin: the scheduler's jobs (periodic and delayed) with their last run, result and error.

On a station linked to a platform the platform's list is read (online: that is where the server's
jobs run); otherwise this station's own (what a station runs alone)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from services.core.scheduler import ScheduledJobOut, ScheduledJobsOut, list_scheduled
from views.admin.widgets import Status, cell, sentence, table, when
from views.base import StationSession
from views.ops import error_message
from views.shell.theme import set_role


def _every(seconds: int | None) -> str:
    if seconds is None:
        return QCoreApplication.translate("admin", "once")
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds % size == 0:
            return f"{seconds // size} {unit}"
    return f"{seconds} s"


class SchedulerPanel(QWidget):
    def __init__(self, session: StationSession) -> None:
        super().__init__()
        self.session = session
        self.jobs: list[ScheduledJobOut] = []
        lay = QVBoxLayout(self)
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.where.setAccessibleName(self.tr("Whose scheduled jobs"))
        set_role(self.where, "subtitle")
        lay.addWidget(self.where)
        self.table = table(
            [
                self.tr("Job"),
                self.tr("Every"),
                self.tr("Status"),
                self.tr("Last run"),
                self.tr("Last result"),
                self.tr("Next run"),
                self.tr("Error"),
            ],
            self.tr("Scheduled jobs"),
        )
        lay.addWidget(self.table, 1)
        self.status = Status(self.tr("Scheduled jobs result"))
        lay.addWidget(self.status)

    def load(self) -> None:
        s = self.session
        if s.platform_url:
            from services.core import platform_client

            url, token = s.platform_url, s.platform_token() if s.platform_token else None
            where = self.tr("The platform's jobs ({url}): each runs once across its processes.")
            self.where.setText(where.format(url=s.platform_url))
            path = f"/api/tenants/{s.tenant.slug}/scheduler/jobs"
            self.session.ops.run_async(
                lambda: platform_client.call(url, token, "GET", path),
                on_success=lambda data: self._show(ScheduledJobsOut.model_validate(data).items),
                on_failure=lambda exc: self.status.say(sentence(error_message(exc))),
                parent=self.table,
            )
            return
        self.where.setText(self.tr("This station's own jobs (no platform is linked)."))
        self.session.ops.run(
            self.session.call(list_scheduled), on_success=lambda out: self._show(out.items), parent=self.table
        )

    def _show(self, jobs: list[ScheduledJobOut]) -> None:
        self.jobs = jobs
        self.table.setRowCount(len(jobs))
        for r, j in enumerate(jobs):
            last = self.tr("running") if j.running else (j.last_status or self.tr("not run yet"))
            cells = (
                j.name,
                _every(j.every_seconds),
                j.status,
                when(j.last_finished_at),
                last,
                when(j.next_run_at),
                j.last_error or "",
            )
            for col, text in enumerate(cells):
                self.table.setItem(r, col, cell(text, j.id))

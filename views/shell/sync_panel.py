"""The Sync panel: the state of this station's sync, registration, and the sync issues to decide.

It displays the sync controller (views.shell.sync_controller), as the
status-bar indicator does, so both always say the same thing. Imports Qt and
the shell's small modules only; the sync service layer is imported where it
is used.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from services.core.roles import MANAGERS
from services.sync.words import (  # noqa: F401 - the words, re-exported for the panel's callers
    clock_text,
    describe,
    difference_text,
    elide,
    issues_text,
    more_text,
    plural,
    record_label,
    status_text,
    waiting_text,
    why_text,
)
from views.ops import error_message
from views.shell.sync_controller import SyncController
from views.shell.theme import pill_css, set_role

if TYPE_CHECKING:
    from services.sync.engine import SyncStatus
    from services.sync.station import Issue
    from views.credentials import CredentialStore
    from views.shell.prefs import StationPrefs
    from views.shell.theme import Feedback


class PanelHost(Protocol):
    """What the panel needs of the window around it (the shell); the sync itself is the controller's."""

    credentials: CredentialStore
    prefs: StationPrefs
    feedback_player: Feedback

    @property
    def theme_name(self) -> str: ...

    def notify(self, ok: bool | None, message: str = "") -> None: ...


WAITING_SHOWN = 20
CHOICE_LABELS = {"keep_theirs": "Keep theirs", "retry": "Retry", "discard": "Discard"}
CHOICE_TIPS = {
    "keep_theirs": "Drop the change made here and show the platform's version",
    "retry": "Send the change again, at the end of the queue",
    "discard": "Drop the change made here; the platform's version is shown",
}
CHOICE_DONE = {
    "keep_theirs": "Kept the platform's version; the change made here was dropped.",
    "retry": "The change is sent again at the end of the queue.",
    "discard": "The change made here was dropped.",
}


def register_error_text(error: BaseException, url: str) -> str:
    """The platform's refusal of a registration, as a person can act on it."""
    status = getattr(error, "status", None)
    message = str(getattr(error, "message", "") or error_message(error))
    if getattr(error, "kind", "") == "offline":
        return QCoreApplication.translate(
            "sync_panel", "The platform at {url} does not answer; try again when it is reachable."
        ).format(url=url)
    if status == 401:
        return QCoreApplication.translate(
            "sync_panel",
            "The platform did not accept your sign-in (it may have expired). Sign out, then sign in again.",
        )
    if status == 409:
        return QCoreApplication.translate(
            "sync_panel", "The platform refused: {message}. An owner can revoke the old registration on the platform."
        ).format(message=message)
    return QCoreApplication.translate("sync_panel", "The platform refused: {message}.").format(message=message)


# --- widgets ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Loaded:
    """One read of the panel's data (worker thread)."""

    link: LinkInfo | None
    issues: list[Issue]
    labels: list[str | None]
    waiting: list[str]  # the changes waiting to be sent, in words (the first WAITING_SHOWN)
    pending: int


@dataclass(frozen=True)
class LinkInfo:
    """The link as the panel shows it (never the secret)."""

    platform_url: str
    station_id: str
    last_sync_at: datetime | None
    last_error: str | None


class IssueCard(QFrame):
    """One refused change: what it was, why, and a button for each of its choices."""

    def __init__(
        self,
        issue: Issue,
        on_choice: Callable[[IssueCard, str], None],
        label: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.issue = issue
        what = describe(issue, label)
        self.setObjectName("card")
        self.setAccessibleName(f"Sync issue: {what}")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(16, 12, 16, 12)
        lay.setSpacing(6)
        self.title = QLabel(what)
        set_role(self.title, "section")
        self.title.setIndent(0)  # a styled margin would otherwise indent it
        kind = "Conflict" if issue.status == "conflict" else "Refused"
        self.meta = QLabel(
            self.tr("{kind} · made {value} · change #{issue.seq}").format(
                kind=kind, value=clock_text(issue.created_at), issue=issue
            )
        )
        set_role(self.meta, "subtitle")
        self.why = QLabel(why_text(issue))
        self.why.setWordWrap(True)
        self.why.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error = QLabel()
        self.error.setWordWrap(True)
        set_role(self.error, "field-error")
        self.error.hide()
        row = QHBoxLayout()
        row.setSpacing(8)
        self.buttons: dict[str, QPushButton] = {}
        for choice in issue.choices:
            b = QPushButton(CHOICE_LABELS[choice])
            b.setObjectName(f"issue-{choice}")
            b.setToolTip(CHOICE_TIPS[choice])
            b.setAccessibleName(f"{CHOICE_LABELS[choice]}: {what}")
            b.setProperty("danger", choice == "discard")
            b.clicked.connect(lambda _c=False, c=choice: on_choice(self, c))
            self.buttons[choice] = b
            row.addWidget(b)
        row.addStretch(1)
        for w in (self.title, self.meta, self.why, self.error):
            lay.addWidget(w)
        lay.addLayout(row)

    def set_busy(self, busy: bool) -> None:
        for b in self.buttons.values():
            b.setEnabled(not busy)

    def show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.setVisible(bool(message))


class SyncPanel(QDialog):
    """State, last sync, waiting changes, platform and station; Sync now; Register; the sync issues."""

    def __init__(self, sync: SyncController, host: PanelHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.sync = sync
        self.host = host
        self.link: LinkInfo | None = None
        self.loaded = False  # the link and the issues were read at least once
        self.issues: list[Issue] = []
        self.cards: list[IssueCard] = []
        self._generation = 0
        self._loading = False
        self._dirty = False
        self._sticky = False  # a registration message stays until the next action
        self.setWindowTitle(self.tr("Sync"))
        self.setObjectName("sync-panel")
        self.setAccessibleName("Sync")
        self.setMinimumSize(760, 600)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(24, 20, 24, 20)
        lay.setSpacing(12)
        head = QHBoxLayout()
        title = QLabel(self.tr("Sync"))
        set_role(title, "title")
        self.state_pill = QLabel()
        self.state_pill.setObjectName("sync-state")
        self.state_pill.setAccessibleName("Sync state")
        self.state_pill.setWordWrap(True)
        head.addWidget(title)
        head.addSpacing(16)
        head.addWidget(self.state_pill, 1)
        lay.addLayout(head)

        form = QFormLayout()
        form.setHorizontalSpacing(16)
        form.setVerticalSpacing(6)
        self.last_sync = QLabel()
        self.pending = QLabel()
        self.platform = QLabel()
        self.station = QLabel()
        for label, w in (
            (self.tr("Last sync"), self.last_sync),
            (self.tr("Waiting to send"), self.pending),
            ("Platform", self.platform),
            (self.tr("Station id"), self.station),
        ):
            w.setAccessibleName(label)
            w.setWordWrap(True)
            w.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            form.addRow(f"{label}:", w)
        lay.addLayout(form)
        self.waiting_list = QLabel()
        self.waiting_list.setObjectName("sync-waiting")
        self.waiting_list.setAccessibleName("Changes waiting to be sent")
        self.waiting_list.setWordWrap(True)
        self.waiting_list.setIndent(16)
        self.waiting_list.hide()
        lay.addWidget(self.waiting_list)

        self.progress = QProgressBar()
        self.progress.setAccessibleName("Sync progress")
        self.progress.setFormat("%v of %m")
        self.progress.hide()
        lay.addWidget(self.progress)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setAccessibleName("Sync message")
        self.message.hide()
        lay.addWidget(self.message)
        # A difference the last sync found and repaired, by table: a defect to report, said as such.
        self.difference = QLabel()
        self.difference.setObjectName("sync-difference")
        self.difference.setAccessibleName("Difference from the platform")
        self.difference.setWordWrap(True)
        self.difference.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        set_role(self.difference, "message-warning")
        self.difference.hide()
        lay.addWidget(self.difference)

        buttons = QHBoxLayout()
        self.sync_now_button = QPushButton(self.tr("&Sync now"))
        self.sync_now_button.setProperty("primary", True)
        self.sync_now_button.clicked.connect(self.sync_now)
        self.register_button = QPushButton(self.tr("&Register this station"))
        self.register_button.setProperty("primary", True)
        self.register_button.clicked.connect(self.register)
        self.register_button.hide()
        self.resync_button = QPushButton(self.tr("&Download everything again"))
        self.resync_button.setToolTip(
            self.tr("Pull every record of this tenant from the platform again; the records stay usable meanwhile")
        )
        self.resync_button.clicked.connect(self.resync)
        self.close_button = QPushButton(self.tr("&Close"))
        self.close_button.clicked.connect(self.reject)
        buttons.addWidget(self.sync_now_button)
        buttons.addWidget(self.register_button)
        buttons.addWidget(self.resync_button)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        lay.addLayout(buttons)
        self.note = QLabel()
        self.note.setWordWrap(True)
        set_role(self.note, "subtitle")
        self.note.hide()
        lay.addWidget(self.note)

        self.issues_title = QLabel(self.tr("Sync issues"))
        set_role(self.issues_title, "section")
        self.issues_title.setIndent(0)
        lay.addWidget(self.issues_title)
        self.issues_hint = QLabel()
        self.issues_hint.setWordWrap(True)
        set_role(self.issues_hint, "subtitle")
        lay.addWidget(self.issues_hint)
        self.issue_box = QWidget()
        self.issue_box.setObjectName("sync-issue-list")
        self.issue_layout = QVBoxLayout(self.issue_box)
        self.issue_layout.setContentsMargins(0, 0, 0, 0)
        self.issue_layout.setSpacing(10)
        self.issue_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.issue_box)
        scroll.setAccessibleName("Sync issues")
        scroll.setObjectName("sync-issue-scroll")
        scroll.viewport().setObjectName("sync-issue-viewport")
        # The cards on the dialog's own background (only these three; the cards keep theirs).
        scroll.setStyleSheet("#sync-issue-scroll, #sync-issue-viewport, #sync-issue-list { background: transparent; }")
        lay.addWidget(scroll, 1)

        sync.changed.connect(self.update_from_shell)
        self.update_from_shell()

    # --- reading -----------------------------------------------------------------------------
    def refresh(self) -> None:
        """Read the link, the issues and what waits (off the UI thread); a newer read wins."""
        session = self.sync.session
        if session is None:
            return
        if self._loading:
            self._dirty = True
            return
        self._loading, self._dirty = True, False
        self._generation += 1
        gen = self._generation
        rt, tenant_id = session.runtime, session.tenant.id

        def work() -> Loaded:
            from services.sync import station as st

            link = st.link_for(rt, tenant_id)
            info = (
                None
                if link is None
                else LinkInfo(link.platform_url, link.station_id, link.last_sync_at, link.last_error)
            )
            ctx = session.ctx()
            found = st.issues(ctx)
            waiting = st.waiting_changes(ctx, WAITING_SHOWN)
            return Loaded(
                info,
                found,
                [record_label(ctx, i) for i in found],
                [describe(w, record_label(ctx, w)) for w in waiting],
                st.pending_count(rt, tenant_id),
            )

        def done(result: Loaded) -> None:
            self._loading = False
            if gen == self._generation:
                self._loaded(result)
            if self._dirty:
                self.refresh()

        def failed(exc: BaseException) -> None:
            self._loading = False
            self._say("error", self.tr("Reading the sync state failed: {value}").format(value=error_message(exc)))

        self.sync.ops.run(work, on_success=done, on_failure=failed, parent=self)

    def _loaded(self, loaded: Loaded) -> None:
        self.link, self.issues, self.loaded = loaded.link, loaded.issues, True
        for card in self.cards:
            self.issue_layout.removeWidget(card)
            card.deleteLater()
        self.cards = []
        for issue, label in zip(loaded.issues, loaded.labels, strict=True):
            card = IssueCard(issue, self._choose, label, self.issue_box)
            self.issue_layout.insertWidget(self.issue_layout.count() - 1, card)
            self.cards.append(card)
        more = loaded.pending - len(loaded.waiting)
        lines = loaded.waiting + ([more_text(more)] if more > 0 else [])
        self.waiting_list.setText("\n".join(lines))
        self.waiting_list.setVisible(bool(lines))
        self.sync.set_issue_count(len(loaded.issues))  # the status bar says the same number
        self.update_from_shell()

    # --- showing -------------------------------------------------------------------------------
    def update_from_shell(self) -> None:
        sync = self.sync
        status = sync.status
        self.state_pill.setText(sync.summary)
        self.state_pill.setStyleSheet(pill_css(sync.tone, self.host.theme_name, selector="QLabel#sync-state"))
        self.pending.setText(waiting_text(sync.waiting).capitalize())
        last = (
            status.last_sync_at if status and status.last_sync_at else (self.link.last_sync_at if self.link else None)
        )
        self.last_sync.setText(clock_text(last))
        session = sync.session
        self.station.setText(session.runtime.station_id if session else "")
        if self.link is not None:
            self.platform.setText(self.link.platform_url)
        elif self.loaded:
            self.platform.setText(
                self.tr("not registered (platform URL in Settings: {value})").format(value=sync.platform_url or "none")
            )
        syncing = status is not None and status.state == "syncing"
        self.progress.setVisible(syncing)
        if syncing and status is not None and status.to_pull > 0:
            self.progress.setRange(0, status.to_pull)
            self.progress.setValue(min(status.pulled, status.to_pull))
        elif syncing:
            self.progress.setRange(0, 0)  # pushing or asking: no count to show
        self._show_message(status)
        said = difference_text(status.difference, status.difference_at) if status is not None else ""
        self.difference.setText(said)
        self.difference.setVisible(bool(said))
        self._show_actions()
        n = sync.issue_count
        self.issues_title.setText(self.tr("Sync issues ({n})").format(n=n) if n else self.tr("Sync issues"))
        sent = sync.sent_ever or (self.link is not None and self.link.last_sync_at is not None)
        if self.issues:
            hint = self.tr("The platform refused these changes made on this station. Choose for each what happens.")
        elif sent:
            hint = self.tr("No sync issues: the platform accepted every change sent from this station.")
        else:
            hint = self.tr("No sync issues. Nothing has reached the platform from this station yet.")
        self.issues_hint.setText(hint)
        # The engine found issues (or resolved ones) that the list does not show yet.
        if self.isVisible() and self.loaded and n != len(self.issues):
            self.refresh()

    def _show_message(self, status: SyncStatus | None) -> None:
        if self._sticky:
            return
        if status is not None and status.state in ("error", "offline") and status.message:
            self._say("error" if status.state == "error" else "warning", status.message[0].upper() + status.message[1:])
            return
        reason = self.sync.offline_reason()
        if reason and not (self.loaded and self.link is None):
            self._say("warning", reason)
        else:
            self.message.hide()

    def _show_actions(self) -> None:
        sync = self.sync
        session = sync.session
        unlinked = self.loaded and self.link is None
        manager = session is not None and (session.principal.role or "") in MANAGERS
        self.sync_now_button.setEnabled(sync.engine is not None and not unlinked)
        resyncing = sync.status is not None and sync.status.resyncing
        self.resync_button.setVisible(not unlinked)
        self.resync_button.setEnabled(sync.engine is not None and not unlinked and not resyncing)
        self.register_button.setVisible(unlinked and manager and not sync.offline)
        if unlinked and not manager:
            self.note.setText(self.tr("An owner or admin registers this station with the platform."))
            self.note.show()
        elif unlinked and manager and not self._sticky:
            self.note.setText(
                self.tr("Registering signs this station up with {value} as {value2}; then it syncs on its own.").format(
                    value=sync.platform_url or "the platform (set its URL in Settings)",
                    value2=session.principal.email if session else "",
                )
            )
            self.note.show()
        else:
            self.note.hide()

    def _say(self, kind: str, text: str) -> None:
        set_role(self.message, f"message-{kind}")
        self.message.setText(text)
        self.message.show()

    # --- acting --------------------------------------------------------------------------------------
    def sync_now(self) -> None:
        self._sticky = False
        self.sync.wake()
        self.refresh()

    def resync(self) -> None:
        """Download every record again (the person asked); the progress bar and the state say how far."""
        self._sticky = False
        self.resync_button.setEnabled(False)

        def done(_status: object) -> None:
            self.host.notify(True, self.tr("Every record was downloaded from the platform again."))
            self.sync.ops.did_change.emit("sync.pulled")
            self.refresh()

        def failed(exc: BaseException) -> None:
            self._say("error", self.tr("Downloading everything again failed: {value}").format(value=error_message(exc)))
            self.update_from_shell()

        if not self.sync.resync(done, failed, parent=self.resync_button):
            self._say("error", self.tr("This station does not sync now (sign in, and register it with the platform)."))

    def register(self) -> None:
        """Register with the platform as the signed-in owner/admin (their stored platform token)."""
        sync, host = self.sync, self.host
        session = sync.session
        if session is None:
            return
        url = sync.platform_url
        self._sticky = True
        if not url:
            self._say("error", self.tr("Set the platform URL in Settings first."))
            return
        email = session.principal.email or ""
        token = host.credentials.get(f"platform-token:{email}")
        if not token:
            self._say(
                "error",
                self.tr(
                    "There is no platform sign-in for you on this station: the platform did not answer when you "
                    "signed in. Sign out, then sign in again while the platform answers."
                ),
            )
            return
        from services.sync.client import link_station

        rt, tenant = session.runtime, session.tenant
        name = str(host.prefs.get("station_name") or rt.station_id)
        self.register_button.setEnabled(False)
        self._say("info", self.tr("Registering with {url}…").format(url=url))

        def saved(_none: None) -> None:
            self.register_button.setEnabled(True)
            self._say("ok", self.tr("Registered with {url}. This station syncs now.").format(url=url))
            host.notify(True, self.tr("This station is registered with the platform."))
            sync.wake()
            self.refresh()

        def failed(exc: BaseException) -> None:
            self.register_button.setEnabled(True)
            self._say("error", register_error_text(exc, url))
            host.feedback_player.play(False)

        sync.ops.run_async(
            lambda: link_station(rt, tenant.id, url, tenant.slug, name, token=token),
            on_success=saved,
            on_failure=failed,
            parent=self.register_button,
        )

    def _choose(self, card: IssueCard, choice: str) -> None:
        """Resolve one issue off the UI thread; after keep theirs / discard, take the platform's records."""
        sync = self.sync
        issue = card.issue
        card.set_busy(True)
        card.show_error("")

        def finished(fetched: bool) -> None:
            later = "" if fetched else self.tr(" The platform's version is shown after the next sync.")
            self.host.notify(True, CHOICE_DONE[choice] + later)
            sync.ops.did_change.emit(issue.command)  # the workspace that shows this record reloads it
            sync.wake()
            self.refresh()

        def failed(exc: BaseException) -> None:
            card.set_busy(False)
            card.show_error(error_message(exc))
            self.refresh()  # e.g. decided meanwhile in another window: the list shows what is left

        sync.resolve(issue.id, choice, finished, failed, parent=card.buttons[choice])  # type: ignore[arg-type]

"""Shop floor: a machine operator's kiosk beside the line, scanner first, read at arm's length.

Every machine is a large tile coloured by its state (the word is on it too, never colour alone).
Scan a machine's code (on its plate) or touch its tile to choose it. With a machine chosen:

* F1 starts its planned run (or resumes a paused one), F2 pauses it, F3 completes it;
* a scan of a part's barcode counts one good part (``5*`` then a scan: five); ``SCRAP`` (a command
  barcode) or F6 counts one scrap, F5 one good part; the large buttons do the same;
* F7 (or the machine stopping) asks for the stop reason, in large buttons;
* F8 acknowledges the machine's oldest unacknowledged alarm.

Locking after idle time and the admin PIN are the shell's kiosk rules, as for the warehouse; the
scanner input is the shared ``views.shell.scan_input``. Service calls go through the op runner.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import ClassVar

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from services.core.context import CommitInfo
from services.core.errors import ServiceError
from services.core.pagination import Page
from services.core.roles import STAFF
from services.mes.alarms import acknowledge_alarm, active_alarms
from services.mes.machines import list_machines, machine_status, update_machine
from services.mes.runs import list_runs, update_run
from services.mes.schemas import (
    STOP_REASONS,
    AlarmOut,
    AlarmQuery,
    LiveStatusOut,
    MachineOut,
    MachineQuery,
    MachineUpdate,
    RunOut,
    RunQuery,
    RunUpdate,
)
from views.base import StationSession, Workspace
from views.i18n import QT_TRANSLATE_NOOP, fmt_number
from views.ops import error_message
from views.records.words import value_word
from views.shell.forms import scrolling, wrapping
from views.shell.scan_input import ScanInput

# Tile colours by state (background, text): running green, idle amber, setup blue, down red, offline grey.
STATE_COLOURS: dict[str, tuple[str, str]] = {
    "running": ("#2e7d32", "#ffffff"),
    "idle": ("#f9a825", "#1b1b1b"),
    "setup": ("#1565c0", "#ffffff"),
    "down": ("#c62828", "#ffffff"),
    "offline": ("#616161", "#ffffff"),
}
# The stop reasons in the operator's words (lupdate reads these; services.mes.schemas keeps the values).
REASON_WORDS = (
    QT_TRANSLATE_NOOP("StopReason", "breakdown"),
    QT_TRANSLATE_NOOP("StopReason", "changeover"),
    QT_TRANSLATE_NOOP("StopReason", "material shortage"),
    QT_TRANSLATE_NOOP("StopReason", "waiting for operator"),
    QT_TRANSLATE_NOOP("StopReason", "quality check"),
    QT_TRANSLATE_NOOP("StopReason", "planned maintenance"),
    QT_TRANSLATE_NOOP("StopReason", "cleaning"),
    QT_TRANSLATE_NOOP("StopReason", "tooling"),
    QT_TRANSLATE_NOOP("StopReason", "blocked downstream"),
    QT_TRANSLATE_NOOP("StopReason", "break"),
    QT_TRANSLATE_NOOP("StopReason", "other"),
)


def reason_word(reason: str) -> str:
    """A stop reason as the operator reads it ("Materialmangel"); the data keeps the value."""
    return QCoreApplication.translate("StopReason", reason)


TONES = {"ok": ("#e8f5e9", "#1b5e20"), "error": ("#ffebee", "#b71c1c"), "info": ("#e3f2fd", "#0d47a1")}
STYLE = """
#workspace-shopfloor { font-size: 16pt; }
#scanInput { font-size: 24pt; padding: 8px; border: 3px solid #1565c0; border-radius: 8px; min-height: 56px; }
#banner { font-size: 20pt; font-weight: bold; padding: 12px; border-radius: 8px; }
QPushButton#tile { font-size: 16pt; font-weight: bold; border-radius: 10px; padding: 10px; min-height: 130px; min-width: 200px; text-align: left; }
QPushButton#tile[chosen="true"] { border: 6px solid #0d47a1; }
#machineTitle { font-size: 20pt; font-weight: bold; }
#runLine, #countLine { font-size: 16pt; }
QPushButton.big { font-size: 15pt; font-weight: bold; min-height: 54px; min-width: 110px; border-radius: 8px; }
QListWidget#alarms { font-size: 15pt; }
"""
SCRAP_CODES = frozenset({"SCRAP", "CMD-SCRAP"})
GOOD_CODES = frozenset({"GOOD", "CMD-GOOD"})


class ReasonDialog(QDialog):
    """The stop reasons as large buttons; the chosen one is ``reason`` (None: closed)."""

    def __init__(self, machine: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Why did {machine} stop?").format(machine=machine))
        self.setObjectName("reason-dialog")
        self.reason: str | None = None
        lay = QVBoxLayout(self)
        head = QLabel(self.tr("Why did {machine} stop?").format(machine=machine))
        head.setStyleSheet("font-size: 20pt; font-weight: bold;")
        lay.addWidget(head)
        grid = QGridLayout()
        self.buttons: list[QPushButton] = []
        self.by_key: dict[str, QPushButton] = {}
        for n, reason in enumerate(STOP_REASONS):
            mark = str(n + 1) if n < 9 else chr(ord("a") + n - 9)
            said = reason_word(reason)
            b = QPushButton(f"&{mark} {said[:1].upper()}{said[1:]}")
            self.by_key[mark] = b
            b.setObjectName(f"reason-{reason.replace(' ', '-')}")
            b.setStyleSheet("font-size: 17pt; min-height: 60px; min-width: 240px;")
            b.clicked.connect(lambda _=False, r=reason: self.choose(r))
            # Two columns: three of these at 17 pt are wider than the two thirds of a 1280 px
            # screen a dialog gets, and the long ones were cut ("Planned maintenanc").
            grid.addWidget(b, n // 2, n % 2)
            self.buttons.append(b)
        lay.addLayout(grid)
        # Its full size, fonts of the style sheet included: show() alone caps a dialog at two thirds
        # of the screen, and the buttons were squeezed below their text.
        self.ensurePolished()
        self.resize(self.sizeHint())

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        # The underlined digit alone picks (a kiosk keypad has no Alt); Qt's mnemonic needs Alt+8.
        b = (
            self.by_key.get(event.text().lower())
            if not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            else None
        )
        if b is not None:
            b.click()
            return
        super().keyPressEvent(event)

    def choose(self, reason: str) -> None:
        self.reason = reason
        self.accept()


class ShopFloorWorkspace(Workspace):
    name = "shopfloor"
    title = QT_TRANSLATE_NOOP("Workspaces", "Shop floor")
    modules = frozenset({"mes"})
    shows = frozenset({"mes.*"})
    roles = STAFF
    position = 25  # after the warehouse and stock count, before the helpdesk
    SCREENSHOT_SCANS: ClassVar[tuple[str, ...]] = ("CNC-01",)

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setObjectName("workspace-shopfloor")
        self.setStyleSheet(STYLE)
        self.machines: list[MachineOut] = []
        self.by_code: dict[str, MachineOut] = {}
        self.alarmed: set[str] = set()  # machines with an alarm on the active list
        self.chosen: str | None = None  # machine id
        self.live: LiveStatusOut | None = None  # the chosen machine's live status
        self.planned: list[RunOut] = []
        self.multiplier = 1
        self.tiles: dict[str, QPushButton] = {}
        self._laid_columns = 0
        self._tile_width = 230  # the widest tile with its gap, measured when the tiles are made
        self.reason_dialog: ReasonDialog | None = None
        self._build()
        self.refresh()

    # --- layout ---------------------------------------------------------------------------

    def _big(self, text: str, name: str, slot: Callable[[], object]) -> QPushButton:
        b = QPushButton(text)
        b.setObjectName(name)
        b.setProperty("class", "big")
        b.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the scanner keeps the focus
        b.clicked.connect(slot)
        return b

    def _build(self) -> None:
        lay = QVBoxLayout(self)
        self.scan_input = ScanInput()
        self.scan_input.suffix = str(self.session.prefs.get("scanner_suffix", "enter"))
        self.scan_input.setPlaceholderText(self.tr("Scan a machine, then parts"))
        self.scan_input.setToolTip(self.tr("5* then a scan counts five parts; SCRAP counts a scrap part"))
        self.scan_input.scanned.connect(self.handle_scan)
        self.scan_input.hotkey.connect(self.handle_hotkey)
        self.scan_input.quantity.connect(self.set_multiplier)
        lay.addWidget(self.scan_input)
        self.banner = QLabel(self.tr("Scan a machine or touch its tile."))
        self.banner.setObjectName("banner")
        self.banner.setWordWrap(True)
        lay.addWidget(self.banner)
        body = QHBoxLayout()
        self.grid_host = QWidget()
        self.grid = QGridLayout(self.grid_host)
        self.grid.setSpacing(12)
        scroller = QScrollArea()
        scroller.setWidgetResizable(True)
        scroller.setWidget(self.grid_host)
        body.addWidget(scroller, 5)
        panel = QVBoxLayout()
        self.machine_title = QLabel(self.tr("No machine chosen"))
        self.machine_title.setObjectName("machineTitle")
        self.machine_title.setWordWrap(True)
        self.run_line = QLabel("")
        self.run_line.setObjectName("runLine")
        self.run_line.setWordWrap(True)
        self.count_line = QLabel("")
        self.count_line.setObjectName("countLine")
        for w in (self.machine_title, self.run_line, self.count_line):
            panel.addWidget(w)
        runs = QHBoxLayout()
        self.start_btn = self._big(self.tr("F1 Start"), "start", self.start)
        self.pause_btn = self._big(self.tr("F2 Pause"), "pause", self.pause)
        self.complete_btn = self._big(self.tr("F3 Done"), "complete", self.complete)
        for b in (self.start_btn, self.pause_btn, self.complete_btn):
            runs.addWidget(b)
        panel.addLayout(runs)
        counts = QHBoxLayout()
        self.good_btn = self._big(self.tr("F5 Good +1"), "good", lambda: self.count(good=1))
        self.scrap_btn = self._big(self.tr("F6 Scrap +1"), "scrap", lambda: self.count(scrap=1))
        # Greyed out when there is no run to count on: in their colours they looked ready (seen in the walk).
        for b, colour in ((self.good_btn, "#2e7d32"), (self.scrap_btn, "#c62828")):
            b.setStyleSheet(
                f"QPushButton {{ background: {colour}; color: white; }}"
                " QPushButton:disabled { background: #e0e0e0; color: #9e9e9e; }"
            )
        counts.addWidget(self.good_btn)
        counts.addWidget(self.scrap_btn)
        panel.addLayout(counts)
        stops = QHBoxLayout()
        self.reason_btn = self._big(self.tr("F7 Why stopped"), "stop-reason", self.ask_reason)
        self.ack_btn = self._big(self.tr("F8 Acknowledge"), "acknowledge", self.acknowledge)
        stops.addWidget(self.reason_btn)
        stops.addWidget(self.ack_btn)
        panel.addLayout(stops)
        alarms_head = QLabel(self.tr("Alarms"))
        alarms_head.setStyleSheet("font-weight: bold;")
        panel.addWidget(alarms_head)
        self.alarms = QListWidget()
        self.alarms.setObjectName("alarms")
        self.alarms.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.alarms.setMinimumHeight(90)
        wrapping(self.alarms)  # a long alarm text wraps, read at arm's length
        panel.addWidget(self.alarms, 1)
        side = QWidget()
        side.setLayout(panel)
        # A short screen scrolls the panel rather than squeezing its large buttons together.
        body.addWidget(scrolling(side), 4)
        lay.addLayout(body, 1)
        self._enable()

    def focus_primary(self) -> None:
        self.scan_input.setFocus()

    def on_changed(self, change: CommitInfo) -> None:
        self.refresh()

    # --- loading --------------------------------------------------------------------------

    def refresh(self) -> None:
        run, call = self.session.ops.run, self.session.call
        run(call(list_machines, query=MachineQuery(limit=100)), on_success=self.show_machines, parent=self)
        run(call(active_alarms, query=AlarmQuery(limit=100)), on_success=self._got_alarms, parent=self)
        if self.chosen:
            self.load_machine(self.chosen)

    def _got_alarms(self, page: Page[AlarmOut]) -> None:
        self.alarmed = {a.machine_id for a in page.items}
        self.show_machines(None)

    def show_machines(self, page: Page[MachineOut] | None) -> None:
        if page is not None:
            self.machines = list(page.items)
            self.by_code = {m.code.upper(): m for m in self.machines}
        for tile in self.tiles.values():
            self.grid.removeWidget(tile)
            tile.deleteLater()
        self.tiles = {}
        made = []
        for m in self.machines:
            tile = QPushButton(self.tile_text(m))
            tile.setObjectName("tile")
            tile.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            bg, fg = STATE_COLOURS.get(m.status, STATE_COLOURS["offline"])
            tile.setStyleSheet(f"background: {bg}; color: {fg};")
            tile.setProperty("chosen", m.id == self.chosen)
            tile.setAccessibleName(f"{m.code} {m.status}")
            tile.clicked.connect(lambda _=False, mid=m.id: self.choose(mid))
            self.tiles[m.id] = tile
            tile.setParent(self.grid_host)  # styled as in the grid (its large type) before measuring
            tile.ensurePolished()
            made.append(tile)
        # Columns from the widest tile's own text, so no tile is cut at the grid's edge.
        self._tile_width = max((t.sizeHint().width() for t in made), default=200) + self.grid.spacing()
        cols = self._columns()
        for n, tile in enumerate(made):
            self.grid.addWidget(tile, n // cols, n % cols)
        self._laid_columns = cols

    def _columns(self) -> int:
        """As many tile columns as fit the grid's width."""
        host = self.grid_host.parentWidget() or self.grid_host
        return max(1, host.width() // max(self._tile_width, 1))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        cols = self._columns()
        if self.tiles and cols != self._laid_columns:
            self.show_machines(None)

    def tile_text(self, m: MachineOut) -> str:
        # On lines of 16 characters, two at most: one line cut it ("waiting for ope…"), and a long
        # line would widen every tile of the grid (columns are sized from the widest).
        reason = "\n".join(textwrap.wrap(reason_word(m.reason or ""), 16, max_lines=2, placeholder=" …"))
        # The machine's state in words (State: "in Betrieb"); the value stays the data.
        state = value_word(m.status).upper() + (f"\n{reason}" if m.reason and m.status != "running" else "")
        alarm = "\n⚠ " + self.tr("ALARM") if m.id in self.alarmed else ""
        return f"{m.code}\n{m.name}\n{state}{alarm}"

    def choose(self, machine_id: str) -> None:
        self.chosen = machine_id
        for mid, tile in self.tiles.items():
            tile.setProperty("chosen", mid == machine_id)
            tile.style().unpolish(tile)
            tile.style().polish(tile)
        self.load_machine(machine_id)
        self.scan_input.setFocus()

    def load_machine(self, machine_id: str) -> None:
        run, call = self.session.ops.run, self.session.call
        run(call(machine_status, id=machine_id), on_success=self.show_live, parent=self)
        run(
            call(list_runs, query=RunQuery(machine_id=machine_id, status="planned", sort="created_at")),
            on_success=self._got_planned,
            parent=self,
        )

    def _got_planned(self, page: Page[RunOut]) -> None:
        self.planned = list(page.items)
        self._enable()

    def show_live(self, live: LiveStatusOut) -> None:
        if live.machine.id != self.chosen:
            return
        self.live = live
        m = live.machine
        self.machine_title.setText(f"{m.code} · {m.name} · {value_word(live.status).upper()}")
        r = live.current_run
        if r is not None:
            planned = self.tr(" of {n}").format(n=fmt_number(r.planned_quantity)) if r.planned_quantity else ""
            self.run_line.setText(
                self.tr("Run: {r.product} ({status}) · {good}{planned} good, {scrap} scrap").format(
                    r=r, status=value_word(r.status), good=fmt_number(r.good_count), planned=planned,
                    scrap=fmt_number(r.scrap_count),
                )
            )  # fmt: skip
        else:
            self.run_line.setText(self.tr("No run in progress."))
        self.count_line.setText(
            self.tr("Today: {value} good, {value2} scrap · OEE {value3} %").format(
                value=fmt_number(live.today["good"]),
                value2=fmt_number(live.today["scrap"]),
                value3=fmt_number(float(live.oee.oee) * 100, 1),
            )
        )
        self.alarms.clear()
        for a in live.alarms:
            mark = (
                ""
                if a.state.endswith("_acknowledged") and a.state.startswith("active")
                else self.tr(" (not acknowledged)")
            )
            if a.state == "cleared_unacknowledged":
                mark = self.tr(" (cleared, not acknowledged)")
            self.alarms.addItem(f"{a.severity.upper()} {a.code}: {a.message}{mark}")
        self._enable()

    def _enable(self) -> None:
        live = self.live if self.chosen else None
        run = live.current_run if live else None
        self.start_btn.setEnabled(
            bool(live) and ((run is not None and run.status == "paused") or (run is None and bool(self.planned)))
        )
        self.pause_btn.setEnabled(run is not None and run.status == "running")
        self.complete_btn.setEnabled(run is not None)
        self.good_btn.setEnabled(run is not None)
        self.scrap_btn.setEnabled(run is not None)
        self.reason_btn.setEnabled(bool(live))
        self.ack_btn.setEnabled(live is not None and any(a.acknowledged_at is None for a in live.alarms))

    # --- feedback -------------------------------------------------------------------------

    def say(self, message: str, tone: str = "info") -> None:
        bg, fg = TONES.get(tone, TONES["info"])
        self.banner.setText(message)
        self.banner.setStyleSheet(f"background: {bg}; color: {fg};")
        if self.session.feedback is not None and tone in ("ok", "error"):
            self.session.feedback(tone == "ok", message)

    def failed(self, exc: BaseException) -> None:
        self.say(
            error_message(exc) if isinstance(exc, ServiceError) else self.tr("Not done: {exc}").format(exc=exc), "error"
        )

    # --- input ----------------------------------------------------------------------------

    def set_multiplier(self, n: int) -> None:
        self.multiplier = max(1, n)
        self.say(self.tr("Next scan counts {multiplier}.").format(multiplier=self.multiplier), "info")

    def handle_hotkey(self, key: int) -> None:
        actions = {
            Qt.Key.Key_F1: self.start,
            Qt.Key.Key_F2: self.pause,
            Qt.Key.Key_F3: self.complete,
            Qt.Key.Key_F5: lambda: self.count(good=1),
            Qt.Key.Key_F6: lambda: self.count(scrap=1),
            Qt.Key.Key_F7: self.ask_reason,
            Qt.Key.Key_F8: self.acknowledge,
        }
        act = actions.get(Qt.Key(key))
        if act is not None:
            act()

    def handle_scan(self, code: str, source: str = "scanner") -> None:
        code = code.strip()
        m = self.by_code.get(code.upper())
        if m is not None:
            self.choose(m.id)
            self.say(self.tr("{m.code} chosen: {status}.").format(m=m, status=value_word(m.status)), "ok")
            return
        if code.upper() in SCRAP_CODES:
            self.count(scrap=1)
        elif code.upper() in GOOD_CODES:
            self.count(good=1)
        else:
            self.count(good=1, part=code)

    # --- actions --------------------------------------------------------------------------

    def _need_run(self) -> RunOut | None:
        run = self.live.current_run if (self.chosen and self.live) else None
        if run is None:
            self.say(self.tr("Choose a machine with a run first (scan the machine's code)."), "error")
        return run

    def _put_run(self, run_id: str, body: RunUpdate, done: str) -> None:
        def ok(r: RunOut) -> None:
            self.say(done.format(r=r), "ok")
            self.refresh()

        self.session.ops.run(
            self.session.call(update_run, id=run_id, body=body),
            on_success=ok,
            on_failure=self.failed,
            parent=self,
        )

    def start(self) -> None:
        if not self.chosen or self.live is None:
            self.say(self.tr("Choose a machine first."), "error")
            return
        run = self.live.current_run
        if run is not None and run.status == "paused":
            self._put_run(run.id, RunUpdate(status="running"), self.tr("Resumed {r.product}."))
        elif run is None and self.planned:
            self._put_run(self.planned[0].id, RunUpdate(status="running"), self.tr("Started {r.product}."))
        else:
            self.say(
                self.tr("No planned run for this machine.")
                if run is None
                else self.tr("{run.product} is running.").format(run=run),
                "error",
            )

    def pause(self) -> None:
        run = self._need_run()
        if run is not None:
            self._put_run(run.id, RunUpdate(status="paused"), self.tr("Paused {r.product}: pick the stop reason (F7)."))

    def complete(self) -> None:
        run = self._need_run()
        if run is not None:
            self._put_run(
                run.id,
                RunUpdate(status="completed"),
                self.tr("Completed {r.product}: {r.good_count} good, {r.scrap_count} scrap."),
            )

    def count(self, good: int = 0, scrap: int = 0, part: str | None = None) -> None:
        run = self._need_run()
        if run is None:
            return
        n, self.multiplier = self.multiplier, 1
        body = RunUpdate(good=good * n, scrap=scrap * n)
        what = self.tr("%n good counted", "", n) if good else self.tr("%n scrap counted", "", n)
        scanned = f" ({part})".replace("{", "{{").replace("}", "}}") if part else ""  # a scan is text, not a format
        # "{r.…}" is filled in when the run's answer comes (_put_run): the braces are kept here.
        self._put_run(
            run.id,
            body,
            self.tr("{what}{scanned}: {{r.good_count}} good, {{r.scrap_count}} scrap.").format(
                what=what, scanned=scanned
            ),
        )

    def ask_reason(self) -> None:
        if not self.chosen or self.live is None:
            self.say(self.tr("Choose a machine first."), "error")
            return
        dlg = ReasonDialog(self.live.machine.code, self)
        self.reason_dialog = dlg
        dlg.finished.connect(lambda _r: self.set_reason(dlg.reason))
        dlg.open()

    def set_reason(self, reason: str | None) -> None:
        self.reason_dialog = None
        if reason is None or self.chosen is None or self.live is None:
            self.scan_input.setFocus()
            return
        # A running machine stops for this reason (down); a stopped one keeps its state and gets the reason.
        status = "down" if self.live.status == "running" else self.live.status
        body = MachineUpdate(status=status, reason=reason)

        def ok(m: MachineOut) -> None:
            self.say(f"{m.code}: {value_word(m.status)}, {reason_word(reason)}.", "ok")
            self.refresh()

        self.session.ops.run(
            self.session.call(update_machine, id=self.chosen, body=body),
            on_success=ok,
            on_failure=self.failed,
            parent=self,
        )
        self.scan_input.setFocus()

    def acknowledge(self) -> None:
        alarms = [a for a in (self.live.alarms if self.live else []) if a.acknowledged_at is None]
        if not self.chosen or not alarms:
            self.say(self.tr("No alarm waits for acknowledgement here."), "error")
            return
        oldest = min(alarms, key=lambda a: a.raised_at)

        def ok(a: AlarmOut) -> None:
            self.say(self.tr("Alarm {a.code} acknowledged.").format(a=a), "ok")
            self.refresh()

        self.session.ops.run(
            self.session.call(acknowledge_alarm, id=oldest.id),
            on_success=ok,
            on_failure=self.failed,
            parent=self,
        )


WORKSPACE = ShopFloorWorkspace

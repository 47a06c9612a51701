"""Stock count: warehouse staff count a shelf with a keyboard-wedge scanner, at arm's length.

Scan a location (its code, e.g. ``MAIN``): its stock opens with the book
quantities. Scan items: each scan counts one; the quantity key ``*`` counts
many (type ``12*`` then scan the item: twelve). Every line shows book, counted
and the difference, coloured, before anything is posted; F5 posts the counted
lines (``POST stock {"counted"}``), Esc drops the count. Transfers go by scanning
too: with a location open, scanning a transfer's slip code (``TR-5F570155``) or id asks to ship
a draft transfer leaving this location or to receive one in transit arriving here; F6 ships the
one selected in the list, F7 receives it. Every one of these cannot be undone, so each asks
first (``views.warehouse.confirm.ask_first``, as the warehouse screen asks): No by default, Esc
keeps, the same key pressed again or the same code scanned again says yes and is logged. Every
call runs on the station's database through the op runner, so it works offline.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from services.core.context import CommitInfo
from services.core.errors import ServiceError
from services.core.pagination import Page
from services.inventory.items import list_items
from services.inventory.locations import list_locations
from services.inventory.schemas import (
    ItemOut,
    ItemQuery,
    LocationOut,
    LocationQuery,
    StockAdjust,
    StockQuery,
    StockResult,
    StockRow,
    TransferOut,
    TransferQuery,
    TransferStatusIn,
)
from services.inventory.stock_levels import adjust_stock, list_stock
from services.inventory.transfers import list_transfers, update_transfer
from views.base import StationSession, Workspace, shown_title
from views.i18n import QT_TRANSLATE_NOOP
from views.ops import Newest
from views.shell.forms import wrapping
from views.shell.scan_input import ScanInput
from views.stockcount.slip import print_slip, slip_code
from views.warehouse.confirm import ask_first
from views.warehouse.lines import GREEN, RED, WHITE, YELLOW
from views.warehouse.workspace import TONES


def _transfer_keys(transfer_id: str) -> set[str]:
    """What a scan of a transfer may read: the full id, its slip code, the start of its id, or the
    line as the list shows it ("transfer 5f570155" was "Unknown barcode")."""
    short = transfer_id[:8].lower()
    return {transfer_id.lower(), slip_code(transfer_id).lower(), short, f"transfer {short}"}


STYLE = """
#workspace-stockcount { font-size: 16pt; }
#scanInput { font-size: 30pt; padding: 10px; border: 3px solid #1565c0; border-radius: 8px; }
#banner { font-size: 22pt; font-weight: bold; padding: 14px; border-radius: 8px; }
#locationTitle { font-size: 24pt; font-weight: bold; }
#multiplier { font-size: 20pt; font-weight: bold; color: #0d47a1; }
QTableWidget#count { font-size: 18pt; }
"""
# Marked for lupdate, translated where the table is made (the module is imported before the translator).
COLUMNS = [
    QT_TRANSLATE_NOOP("StockCountWorkspace", "Item"),
    QT_TRANSLATE_NOOP("StockCountWorkspace", "SKU"),
    QT_TRANSLATE_NOOP("StockCountWorkspace", "Barcode"),
    QT_TRANSLATE_NOOP("StockCountWorkspace", "Book"),
    QT_TRANSLATE_NOOP("StockCountWorkspace", "Counted"),
    QT_TRANSLATE_NOOP("StockCountWorkspace", "Difference"),
]


class CountLine:
    """One item of the count: the book quantity (when the location holds it) and what was scanned."""

    def __init__(self, sku: str, name: str, barcode: str | None, book: int, on_book: bool = True) -> None:
        self.sku, self.name, self.barcode, self.book, self.on_book = sku, name, barcode, book, on_book
        self.counted: int | None = None

    @property
    def difference(self) -> int | None:
        return None if self.counted is None else self.counted - self.book


class StockCountWorkspace(Workspace):
    name = "stockcount"
    title = QT_TRANSLATE_NOOP("Workspaces", "Stock count")
    modules = frozenset({"inventory"})
    shows = frozenset({"inventory.*", "fulfillment.order"})  # a shipment moves the book
    position = 15
    landing = {"warehouse-device": 2, "operator": 4}
    # What ``python -m app screenshot --workspace stockcount`` scans: a count of MAIN in progress.
    SCREENSHOT_SCANS = ("MAIN", "58*", "2000000000039", "2000000000039", "18*", "CAP-NVY", "36*", "2000000000091")

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setStyleSheet(STYLE)
        self.locations: dict[str, LocationOut] = {}  # code (upper case) -> location
        self.items: dict[str, ItemOut] = {}  # barcode and SKU (upper case) -> item
        self.location: LocationOut | None = None
        self.openings = Newest()  # the location asked for last: its answer is the one shown
        self.lines: dict[str, CountLine] = {}  # by SKU, in scan/book order
        self.transfers: list[TransferOut] = []
        self.slips: list[Path] = []  # transfer slips saved this shift
        self.multiplier = 1
        self._build()
        self.say(self.tr("Scan a location to start counting"), "info")
        self.load_reference()

    # --- layout ------------------------------------------------------------------------------

    def _build(self) -> None:
        root = QVBoxLayout(self)
        heading = QLabel(shown_title(type(self)))
        heading.setStyleSheet("font-size: 20pt; font-weight: bold;")
        root.addWidget(heading)
        body = QHBoxLayout()
        root.addLayout(body, 1)

        mid = QVBoxLayout()
        self.scan_input = ScanInput()
        self.scan_input.suffix = str(self.session.prefs.get("scanner_suffix", "enter"))
        self.scan_input.setPlaceholderText(self.tr("Scan a location, then its items"))  # 12*: the hint row
        self.scan_input.scanned.connect(self.handle_scan)
        self.scan_input.hotkey.connect(self.handle_hotkey)
        # The scan input reads "12*" itself (as in the warehouse): the quantity of the next scan.
        self.scan_input.quantity.connect(lambda n: self.handle_scan(f"{n}*", "scanner"))
        mid.addWidget(self.scan_input)
        self.banner = QLabel()
        self.banner.setObjectName("banner")
        self.banner.setWordWrap(True)
        mid.addWidget(self.banner)
        top = QHBoxLayout()
        self.location_title = QLabel(self.tr("No location open"))
        self.location_title.setObjectName("locationTitle")
        self.multiplier_label = QLabel("")
        self.multiplier_label.setObjectName("multiplier")
        top.addWidget(self.location_title, 1)
        top.addWidget(self.multiplier_label)
        mid.addLayout(top)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("count")
        self.table.setHorizontalHeaderLabels([self.tr(c) for c in COLUMNS])
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(44)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        mid.addWidget(self.table, 1)
        self.summary = QLabel("")
        self.summary.setStyleSheet("font-size: 18pt;")
        mid.addWidget(self.summary)
        mid.addWidget(
            QLabel(
                self.tr(
                    "12* quantity key · F5 post the count · F6 ship · F7 receive · F8 slip of the selected transfer"
                    " · Esc drop the count"
                )
            )
        )
        body.addLayout(mid, 7)

        right = QVBoxLayout()
        right.addWidget(QLabel(self.tr("Transfers here")))
        self.transfer_list = QListWidget()
        self.transfer_list.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.transfer_list.setStyleSheet("font-size: 14pt;")
        wrapping(self.transfer_list)
        right.addWidget(self.transfer_list, 2)
        right.addWidget(QLabel(self.tr("Scans this shift")))
        self.history = wrapping(QListWidget())
        self.history.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        right.addWidget(self.history, 3)
        body.addLayout(right, 3)

    # --- shell hooks ---------------------------------------------------------------------------

    def focus_primary(self) -> None:
        self.scan_input.setFocus()

    def on_changed(self, change: CommitInfo) -> None:
        if self.location is not None and not any(ln.counted is not None for ln in self.lines.values()):
            self.open_location(self.location, quiet=True)  # the book moved (a ship, a sync): show it

    def load_reference(self) -> None:
        """Locations and items known here, so a scan is told apart without a round trip."""

        def got_locations(page: Page[LocationOut]) -> None:
            self.locations = {loc.code.upper(): loc for loc in page.items}

        def got_items(page: Page[ItemOut]) -> None:
            for it in page.items:
                self.items[it.sku.upper()] = it
                if it.barcode:
                    self.items[it.barcode.upper()] = it

        call = self.session.call
        self.session.ops.run(call(list_locations, query=LocationQuery(limit=100)), on_success=got_locations)
        self.session.ops.run(call(list_items, query=ItemQuery(limit=100)), on_success=got_items)

    # --- feedback ------------------------------------------------------------------------------

    def say(self, message: str, tone: str = "info") -> None:
        bg, fg = TONES[tone]
        self.banner.setText(message)
        self.banner.setProperty("tone", tone)
        self.banner.setStyleSheet(f"background: {bg}; color: {fg};")
        self.scan_input.setStyleSheet(f"border-color: {'#d32f2f' if tone == 'error' else '#1565c0'};")
        self.session.notify(tone != "error", message)

    def _log(self, code: str, source: str, result: str) -> None:
        # Where the code came from, in the person's words (German showed "[key]" in the walk of issue 32).
        words = {"scanner": self.tr("scanner"), "keyboard": self.tr("keyboard"), "key": self.tr("key")}
        words |= {"location": self.tr("location"), "post": self.tr("posting")}
        shown = words.get(source, source)
        self.history.insertItem(0, f"{time.strftime('%H:%M:%S')}  {code}  [{shown}]  {result}")

    def _failed(self, code: str, source: str) -> Callable[[BaseException], None]:
        def fail(exc: BaseException) -> None:
            msg = exc.message if isinstance(exc, ServiceError) else self.tr("Something went wrong; it was logged.")
            self._log(code, source, f"✗ {msg}")
            self.say(msg, "error")
            self.focus_primary()

        return fail

    # --- scans -----------------------------------------------------------------------------------

    def handle_hotkey(self, key: int) -> None:
        if key == Qt.Key.Key_F5:
            self.post_count()
        elif key == Qt.Key.Key_F6:
            self.move_selected("in_transit")
        elif key == Qt.Key.Key_F7:
            self.move_selected("completed")
        elif key == Qt.Key.Key_F8:
            self.print_slip()
        elif key == Qt.Key.Key_Escape:
            self.drop_count()

    def handle_scan(self, code: str, source: str = "scanner") -> None:
        code = code.strip()
        if code.endswith("*") and code[:-1].isdigit():
            n = int(code[:-1])
            if not 1 <= n <= 100_000:
                self.say(self.tr("A quantity from 1 to 100000, not {n}").format(n=n), "error")
                return
            self.multiplier = n
            self.multiplier_label.setText(f"× {n}")
            self._log(code, source, self.tr("next scan counts {n}").format(n=n))
            self.say(self.tr("Quantity {n}: scan the item").format(n=n), "info")
            return
        loc = self.locations.get(code.upper())
        if loc is not None:
            self._log(code, source, self.tr("location {loc.code}").format(loc=loc))
            self.open_location(loc)
            return
        transfer = next((t for t in self.transfers if code.lower() in _transfer_keys(t.id)), None)
        if transfer is not None:
            self._select_transfer(transfer.id)
            self._ask_move(transfer, "in_transit" if transfer.status == "draft" else "completed", code, source)
            return
        if self.location is None:
            self._log(code, source, self.tr("✗ no location open"))
            self.say(self.tr("{code} is not a location: scan a location first").format(code=code), "error")
            return
        item = self.items.get(code.upper())
        if item is not None:
            self.count(item, code, source)
            return

        def looked_up(page: Page[ItemOut]) -> None:
            if not page.items:
                self._log(code, source, self.tr("✗ unknown"))
                self.say(self.tr("Unknown barcode {code}").format(code=code), "error")
                return
            it = page.items[0]
            self.items[it.sku.upper()] = it
            if it.barcode:
                self.items[it.barcode.upper()] = it
            self.count(it, code, source)

        query = self.session.request(ItemQuery, {"code": code}, self._failed(code, source))
        if query is not None:
            self.session.ops.run(
                self.session.call(list_items, query=query), on_success=looked_up, on_failure=self._failed(code, source)
            )

    def open_location(self, loc: LocationOut, quiet: bool = False) -> None:
        # The last location asked for wins: after a transfer moved, this location is read again,
        # and that answer arriving after the next location's scan took the screen back to it (the
        # slip scanned there was then "unknown").
        asked = self.openings.ask()

        def got(page: Page[StockRow]) -> None:
            self.location = loc
            self.lines = {r.sku: CountLine(r.sku, r.name or r.sku, r.barcode, r.quantity) for r in page.items}
            self.multiplier = 1
            self.multiplier_label.setText("")
            self.location_title.setText(
                self.tr("{loc.code} · {loc.name} · %n items on the book", "", page.total).format(loc=loc)
            )
            self.show_lines()
            if not quiet:
                self.say(self.tr("Counting {loc.code}: scan each item").format(loc=loc), "ok")
            self.load_transfers()

        self.session.ops.run(
            self.session.call(list_stock, query=StockQuery(location_id=loc.id, limit=100)),
            on_success=asked.only(got),
            on_failure=self._failed(loc.code, "location"),
        )

    def count(self, item: ItemOut, code: str, source: str) -> None:
        line = self.lines.get(item.sku)
        if line is None:  # on the shelf but not on the book
            line = self.lines[item.sku] = CountLine(item.sku, item.name or item.sku, item.barcode, 0, on_book=False)
        n, self.multiplier = self.multiplier, 1
        self.multiplier_label.setText("")
        line.counted = (line.counted or 0) + n
        self.show_lines()
        diff = line.difference or 0
        self._log(code, source, f"✓ {line.name} +{n} = {line.counted}")
        self.say(
            self.tr("✓ {line.name}: {line.counted} counted, book {line.book} ({diff:+d})").format(line=line, diff=diff),
            "ok",
        )

    # --- posting ----------------------------------------------------------------------------------

    def counted_lines(self) -> list[CountLine]:
        return [ln for ln in self.lines.values() if ln.counted is not None]

    def ask(self, name: str, title: str, text: str, again: list[str], key: str, go: Callable[[], None]) -> None:
        """Asks before what cannot be undone; ``go`` on yes, the history says "kept" on no."""

        def answered(yes: bool) -> None:
            if yes:
                go()
                return
            self._log(key, "key", self.tr("kept: nothing changed"))
            self.say(self.tr("Nothing changed"), "info")

        # The key that asked, pressed again, is logged as a key, not as a scan (the walk of issue 32
        # read "F5 [scanner] confirmed by pressing it again").
        log = lambda code, result: self._log(code, "key" if code == key else "scanner", result)  # noqa: E731
        self.asking = ask_first(self, name, title, text, again, log, answered, keys=(key,))

    def post_count(self) -> None:
        todo = self.counted_lines()
        if self.location is None or not todo:
            self.say(self.tr("Nothing counted yet: scan a location, then its items"), "error")
            return
        loc = self.location
        differ = sum(1 for ln in todo if ln.difference)
        self.ask(
            "post-count",
            self.tr("Post this count?"),
            self.tr(
                "Post the count of {loc.code}: %n items, {differ} differ from the book?\nThe book is set to what was counted: this cannot be undone. (F5 again, or scanning {loc.code}, says yes.)",
                "",
                len(todo),
            ).format(loc=loc, differ=differ),
            [loc.code],
            "F5",
            lambda: self._post(loc, todo),
        )

    def _post(self, loc: LocationOut, todo: list[CountLine]) -> None:
        posted: list[StockResult] = []

        def post(i: int) -> None:
            if i == len(todo):
                changed = sum(1 for r in posted if r.delta)
                self._log("F5", "key", self.tr("posted %n lines at {loc.code}", "", len(posted)).format(loc=loc))
                self.open_location(loc, quiet=True)
                self.say(
                    self.tr("✓ Count of {loc.code} posted: %n items, {changed} adjusted", "", len(posted)).format(
                        loc=loc, changed=changed
                    ),
                    "done",
                )
                return
            ln = todo[i]
            body = StockAdjust(
                sku=ln.sku,
                location_id=loc.id,
                counted=ln.counted,
                reason=f"count at {loc.code}",  # stored with the stock move: not translated
            )

            def done(result: StockResult) -> None:
                posted.append(result)
                post(i + 1)  # one line after the other: each is its own adjustment

            self.session.ops.run(
                self.session.call(adjust_stock, body=body),
                on_success=done,
                on_failure=self._failed(ln.sku, "post"),
            )

        post(0)

    def drop_count(self) -> None:
        self.lines = {k: v for k, v in self.lines.items() if v.on_book}
        for ln in self.lines.values():
            ln.counted = None
        self.multiplier = 1
        self.multiplier_label.setText("")
        self.show_lines()
        self.say(self.tr("Count dropped: nothing was posted"), "info")

    # --- transfers ----------------------------------------------------------------------------------

    def load_transfers(self) -> None:
        loc = self.location
        if loc is None:
            return

        def got(page: Page[TransferOut]) -> None:
            if self.location is not loc:
                return  # another location opened meanwhile: its own list is on its way
            # Ship what leaves from here as a draft; receive what arrives here in transit.
            self.transfers = [
                t
                for t in page.items
                if (t.status == "draft" and t.from_location_id == loc.id)
                or (t.status == "in_transit" and t.to_location_id == loc.id)
            ]
            self.transfer_list.clear()
            names = {x.id: x.code for x in self.locations.values()}
            for t in self.transfers:
                what = ", ".join(f"{ln.quantity}× {ln.sku}" for ln in t.lines)
                verb = (
                    self.tr("ship to {value}").format(value=names.get(t.to_location_id, "?"))
                    if t.status == "draft"
                    else self.tr("receive from {value}").format(value=names.get(t.from_location_id, "?"))
                )
                # The start of the id, as sync issues name records; the full id is the barcode to scan.
                row = QListWidgetItem(f"{verb}: {what}\n{slip_code(t.id)}")
                row.setToolTip(t.id)
                row.setData(Qt.ItemDataRole.UserRole, t.id)
                self.transfer_list.addItem(row)
            if self.transfers:
                self.transfer_list.setCurrentRow(0)

        query = TransferQuery(location_id=loc.id, status="draft,in_transit", limit=100)
        self.session.ops.run(self.session.call(list_transfers, query=query), on_success=got)

    def move_selected(self, status: str) -> None:
        item = self.transfer_list.currentItem()
        tid = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        transfer = next((t for t in self.transfers if t.id == tid), None)
        if transfer is None:
            self.say(self.tr("No transfer selected: open a location with transfers"), "error")
            return
        self._ask_move(transfer, status, "F6" if status == "in_transit" else "F7", "key")

    def print_slip(self) -> None:
        """F8: the selected transfer's slip, its number as a barcode, on the station's label printer
        (Settings → Printing) or saved as a PDF of its label format."""
        item = self.transfer_list.currentItem()
        tid = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        transfer = next((t for t in self.transfers if t.id == tid), None)
        if transfer is None:
            self.say(self.tr("No transfer selected: open a location with transfers"), "error")
            return
        names = {x.id: x.code for x in self.locations.values()}
        try:
            done = print_slip(self.session.runtime.data_dir, transfer, names, self.session.prefs)
        except OSError as exc:
            self.say(self.tr("Could not save the slip: {exc.strerror}").format(exc=exc), "error")
            return
        if done.file is None:
            self._log("F8", "key", self.tr("slip {value} printed").format(value=slip_code(transfer.id)))
            self.say(
                self.tr("Slip {value} printed on {target}: send it with the goods").format(
                    value=slip_code(transfer.id), target=done.where
                ),
                "ok",
            )
            return
        self.slips.append(done.file)
        self._log("F8", "key", self.tr("slip {value} saved").format(value=slip_code(transfer.id)))
        self.say(
            self.tr("Slip {value} saved to {target}: print it and send it with the goods").format(
                value=slip_code(transfer.id), target=done.file
            ),
            "ok",
        )

    def _select_transfer(self, tid: str) -> None:
        for row in range(self.transfer_list.count()):
            if self.transfer_list.item(row).data(Qt.ItemDataRole.UserRole) == tid:
                self.transfer_list.setCurrentRow(row)

    def _ask_move(self, transfer: TransferOut, status: str, code: str, source: str) -> None:
        """Shipping (F6) or receiving (F7, or the slip scanned) asks first: stock leaves this
        location for good, or arrives for good. The slip's code or the key again says yes."""
        names = {x.id: x.code for x in self.locations.values()}
        what = ", ".join(f"{ln.quantity}× {ln.sku}" for ln in transfer.lines)
        slip = slip_code(transfer.id)
        shipping = status == "in_transit"
        again = [slip, transfer.id] + ([code] if source != "key" else [])
        key = "F6" if shipping else "F7"
        title = self.tr("Ship this transfer?") if shipping else self.tr("Receive this transfer?")
        text = (
            self.tr("Ship {value} to {value2}: {what}?\nThe stock leaves this location now. (Scanning the slip again says yes.)")
            if shipping
            else self.tr("Receive {value} from {value2}: {what}?\nThe stock arrives here now. (Scanning the slip again says yes.)")
        ).format(value=slip, value2=names.get(transfer.to_location_id if shipping else transfer.from_location_id, "?"), what=what)  # fmt: skip

        def answered(yes: bool) -> None:
            if yes:
                self.move_transfer(transfer, status, code, source)
            else:
                self._log(code, source, self.tr("kept {value}").format(value=slip))
                self.focus_primary()

        log = lambda c, result: self._log(c, "scanner", result)  # noqa: E731
        box = ask_first(self, "ship-transfer" if shipping else "receive-transfer", title, text, again, log, answered, keys=(key,))  # fmt: skip
        self.asking = self.ship_box = box

    def move_transfer(self, transfer: TransferOut, status: str, code: str, source: str) -> None:
        def moved(t: TransferOut) -> None:
            verb = "shipped" if t.status == "in_transit" else "received"
            self._log(code, source, self.tr("✓ transfer {verb}").format(verb=verb))
            self.say(f"✓ Transfer {verb}: " + ", ".join(f"{ln.quantity}× {ln.sku}" for ln in t.lines), "done")
            if self.location is not None:
                self.open_location(self.location, quiet=True)

        self.session.ops.run(
            self.session.call(
                update_transfer, id=transfer.id, body=TransferStatusIn.model_validate({"status": status})
            ),
            on_success=moved,
            on_failure=self._failed(code, source),
        )

    # --- showing the count ----------------------------------------------------------------------------

    def show_lines(self) -> None:
        lines = list(self.lines.values())
        self.table.setRowCount(len(lines))
        for r, ln in enumerate(lines):
            diff = ln.difference
            colour = WHITE if diff is None else GREEN if diff == 0 else YELLOW if diff > 0 else RED
            cells = [
                ln.name,
                ln.sku,
                ln.barcode or "",
                str(ln.book),
                "" if ln.counted is None else str(ln.counted),
                "" if diff is None else f"{diff:+d}",
            ]
            for c, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                cell.setBackground(QBrush(colour))
                cell.setData(Qt.ItemDataRole.UserRole, ln.sku)
                self.table.setItem(r, c, cell)
        counted = self.counted_lines()
        differ = [ln for ln in counted if ln.difference]
        # Through tr like every visible text (it was an f-string: English in German), a count in its form.
        summary = self.tr("{counted} of %n items counted · {differ} differ from the book", "", len(lines))
        self.summary.setText(
            summary.format(counted=len(counted), differ=len(differ))
            + (self.tr(" · F5 posts the count") if counted else "")
        )

    def row_of(self, sku: str) -> int:
        for r in range(self.table.rowCount()):
            cell = self.table.item(r, 0)
            if cell is not None and cell.data(Qt.ItemDataRole.UserRole) == sku:
                return r
        return -1

    def row_colour(self, row: int) -> QColor:
        cell = self.table.item(row, 0)
        return cell.background().color() if cell is not None else QColor()


WORKSPACE = StockCountWorkspace

"""The desktop in German: no English left on screen, no German text cut at 1280×800.

The app's own loader (``views.i18n.install``) puts German in place; each screen of ``WORKSPACES``
is opened in a real signed-in shell and every visible text is read (labels, buttons, tabs, menus,
toolbar actions, table headers, placeholders, tooltips, combo items, group titles). A text fails
when it is an English string of the code (a literal, or a filled-in template) that no ``.ts``
gives a German for. To check another workspace, add its name to ``WORKSPACES``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QLocale, QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QTableView,
    QTabWidget,
    QTreeView,
    QWidget,
)
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from services.core.demo import demo_id
from tests.views.clipping import clipped_after_layout
from tests.views.test_shell import make_shell, sign_in
from views import i18n
from views.i18n.ts import entries
from views.shell.window import ShellWindow

# The workspaces checked in German (the shell's own pages are always checked).
WORKSPACES = [
    "warehouse",
    "inspection",
    "helpdesk",
    "stockcount",
    "shopfloor",
    "dashboards",
    "admin",
    "review",
    "qrdesign",
]
# What puts a workspace in its busiest state (an order open, a trade-in on the bench, a ticket tab).
BUSY: dict[str, Callable[[Any], object]] = {
    "warehouse": lambda ws: ws.next_order(),
    "inspection": lambda ws: (ws.scan_input.setText("KIT-DEMO000008"), ws.scan_input.returnPressed.emit()),
    "helpdesk": lambda ws: ws.open_ticket(demo_id("support-ticket", "1")),
}
SIZE = (1280, 800)
VIEWS = Path(i18n.__file__).resolve().parents[1]


def _plain(text: str) -> str:
    """The words as read: no mnemonic ampersand, no HTML tags, no surrounding space."""
    text = re.sub(r"<[^>]+>", " ", text).replace("&&", "\0").replace("&", "").replace("\0", "&")
    return re.sub(r"\s+", " ", text).strip()


def _template_regex(template: str) -> re.Pattern[str] | None:
    """A template's filled-in form as a regex ({name} and %n match anything); None without words."""
    parts = re.split(r"\{[^{}]*\}|%n", _plain(template))
    if len(parts) < 2 or sum(len(re.sub(r"[^A-Za-z]", "", p)) for p in parts) < 6:
        return None
    return re.compile(".+?".join(re.escape(p) for p in parts), re.S)


class Catalogue:
    """The English of the code and the German of the .ts files."""

    def __init__(self) -> None:
        self.german: set[str] = set()
        untranslated_templates: list[str] = []
        for ts in sorted((VIEWS / "i18n" / "de").glob("*.ts")):
            for e in entries(ts):
                forms = e.translation if isinstance(e.translation, list) else [e.translation or ""]
                self.german.update(_plain(f) for f in forms if f)
                if e.translation is None:
                    untranslated_templates.append(e.source)
        self.english: set[str] = set()
        templates: list[str] = list(untranslated_templates)
        for py in sorted(VIEWS.rglob("*.py")):
            if "i18n" in py.parts:
                continue
            for node in ast.walk(ast.parse(py.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    if re.search(r"[A-Za-z]{3,}", node.value):
                        self.english.add(_plain(node.value))
                        templates.append(node.value)
                elif isinstance(node, ast.JoinedStr):
                    templates.append("".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values))
        self.english -= self.german  # the same word in both languages ("Status", "SKU") is German too
        self.patterns = [p for t in templates if (p := _template_regex(t)) is not None]
        self.german_patterns = [p for t in self.german if (p := _template_regex(t)) is not None]

    def english_left(self, text: str) -> bool:
        plain = _plain(text)
        if not plain or plain in self.german or not re.search(r"[A-Za-z]{3,}", plain):
            return False
        if re.fullmatch(r"https?://\S+|[\w.+-]+@[\w.-]+", plain):
            return False  # an address reads the same in every language
        if plain in self.english:
            return True
        if any(p.fullmatch(plain) for p in self.german_patterns):
            return False
        return any(p.fullmatch(plain) for p in self.patterns)


def visible_texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) for every text a person can read in the visible widgets under ``root``."""
    for w in [root, *root.findChildren(QWidget)]:
        if not w.isVisible():
            continue
        where = f"{type(w).__name__}({w.objectName() or w.accessibleName()})"
        if w.toolTip():
            yield f"{where} tooltip", w.toolTip()
        if isinstance(w, (QLabel, QAbstractButton)):
            yield where, w.text()
        elif isinstance(w, QLineEdit):
            yield f"{where} placeholder", w.placeholderText()
        elif isinstance(w, QGroupBox):
            yield where, w.title()
        elif isinstance(w, QComboBox):
            yield from ((f"{where} item", w.itemText(i)) for i in range(w.count()))
        elif isinstance(w, QTabWidget):
            yield from ((f"{where} tab", w.tabText(i)) for i in range(w.count()))
        elif isinstance(w, (QTableView, QTreeView)) and w.model() is not None:
            m = w.model()
            for col in range(m.columnCount(QModelIndex())):
                yield f"{where} header", str(m.headerData(col, Qt.Orientation.Horizontal) or "")
        for a in w.actions():
            yield f"{where} action", a.text()
            if a.menu() is not None:
                yield from ((f"{where} menu", x.text()) for x in a.menu().actions())  # type: ignore[union-attr]


@pytest.fixture
def in_german(qapp: QApplication) -> Iterator[None]:
    before = QLocale()
    assert i18n.install(qapp, "de") == "de"
    yield
    i18n.install(qapp, "en")
    QLocale.setDefault(before)


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return Catalogue()


def _settle(qtbot: QtBot, w: ShellWindow) -> None:
    qtbot.waitUntil(lambda: w.ops.active == 0, timeout=30_000)
    QApplication.processEvents()


def _check(w: QWidget, screen: str, cat: Catalogue, found: list[str]) -> None:
    found += [f"{screen}: {where}: {text!r}" for where, text in visible_texts(w) if cat.english_left(text)]


def test_every_screen_reads_german(
    qtbot: QtBot, station: Runtime, tmp_path: Path, in_german: None, catalogue: Catalogue
) -> None:
    w = make_shell(qtbot, station, tmp_path / "prefs")
    w.resize(*SIZE)
    _settle(qtbot, w)
    english: list[str] = []
    cut = [f"sign-in: {p}" for p in clipped_after_layout(w)]
    _check(w, "sign-in", catalogue, english)
    assert w.signin.button.text() == "Anmelden"  # the loader did put German in place
    w.open_settings()
    dlg = w.settings_dialog
    qtbot.waitUntil(dlg.isVisible)
    _check(dlg, "settings", catalogue, english)
    cut += [f"settings: {p}" for p in clipped_after_layout(dlg)]
    dlg.reject()
    sign_in(qtbot, w, "owner@demo.test")
    for name in WORKSPACES:
        w.show_workspace(name)
        _settle(qtbot, w)
        _check(w, name, catalogue, english)
        cut += [f"{name}: {p}" for p in clipped_after_layout(w)]
        if name in BUSY:
            BUSY[name](w.workspaces[name])
            _settle(qtbot, w)
            _check(w, f"{name} (busy)", catalogue, english)
            cut += [f"{name} (busy): {p}" for p in clipped_after_layout(w)]
    assert english == [], "\n".join(english)
    assert cut == [], "\n".join(cut)
    w.ops.wait()


def test_the_checks_find_english_and_cut_text(qtbot: QtBot, catalogue: Catalogue) -> None:
    """An English literal, a filled-in English template and a cut German label are found;
    German and values (numbers, codes) pass."""
    from PySide6.QtWidgets import QPushButton, QVBoxLayout

    root = QWidget()
    qtbot.addWidget(root)
    lay = QVBoxLayout(root)
    shown: list[tuple[str, Callable[[], QWidget]]] = [
        ("Scans this shift", lambda: QLabel("Scans this shift")),  # a literal of the code
        ("Quantity 5: scan the item", lambda: QLabel("Quantity 5: scan the item")),  # a template filled in
        ("", lambda: QLabel("Scans dieser Schicht")),
        ("", lambda: QLabel("ORD-1042 · 12")),
    ]
    for _text, make in shown:
        lay.addWidget(make())
    cut = QPushButton("Stationseinstellungen")
    lay.addWidget(cut)
    root.show()
    cut.setFixedWidth(40)
    english = [t for _w, t in visible_texts(root) if catalogue.english_left(t)]
    assert english == [t for t, _m in shown if t]
    assert any("Stationseinstellungen" in p for p in clipped_after_layout(root))


def test_the_sign_in_hint_and_field_names_are_german(qtbot: QtBot) -> None:
    """Seen in the German walk: the e-mail field's hint stayed "name@company.com", and a screen
    reader named the fields "E-mail" and "Password" in English."""
    from tests.views.german import german
    from views.shell.signin import SignInPage

    with german("shell"):
        page = SignInPage()
        qtbot.addWidget(page)
    assert page.email.placeholderText() == "name@firma.de"
    assert (page.email.accessibleName(), page.password.accessibleName()) == ("E-Mail", "Passwort")

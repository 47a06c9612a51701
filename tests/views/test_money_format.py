"""Money and numbers in the locale's format wherever a person reads them: the review queue's receipt
totals, the inspection bench's values, and a check over views/ that no code builds a currency or a
fixed-decimal number by hand (so ``$89.99`` cannot come back on a German desktop)."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, Qt
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from tests.views.german import german, german_locale
from tests.views.workspaces import settle, workspace_factory
from views.i18n import fmt_money
from views.inspection.workspace import InspectionWorkspace
from views.review.workspace import ReviewWorkspace

VIEWS = Path(__file__).resolve().parents[2] / "views"

# What writing money or a decimal number by hand looks like in a string or an f-string.
HAND_BUILT = {
    "a currency symbol before a value": re.compile(r"(?<!\w)[$€£]\{"),
    "a currency symbol after a value": re.compile(r"\}[ \u00a0]?[€£]|\}[ \u00a0]\$"),
    "fixed decimals in a format spec (use fmt_number)": re.compile(r"\{[^{}]*:[^{}]*\.\d+[fF]\}"),
    "printf decimals (use fmt_number)": re.compile(r"%[-+ 0#,]*\d*\.\d+[fF]"),
    "a currency code beside a value (use fmt_money)": re.compile(r"\}\s*\{[^{}]*\bcur(?:rency)?\}"),
}
# (file, the string's start) -> why it is not money
NOT_MONEY = {("views/shell/prefs.py", "f'pbkdf2_sha256$"): "a PIN hash's $-separated fields"}


def hand_built(root: Path = VIEWS) -> list[str]:
    """Every string or f-string under ``root`` that writes money or decimals by hand, as ``file:line: why``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                text = ast.unparse(node)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            else:
                continue
            if any(rel == f and text.startswith(start) for f, start in NOT_MONEY):
                continue
            found += [f"{rel}:{node.lineno}: {why}: {text[:60]!r}" for why, rx in HAND_BUILT.items() if rx.search(text)]
    return found


def test_no_hand_built_money_or_decimals_in_views() -> None:
    assert hand_built() == []


@pytest.mark.parametrize(
    "source",
    [
        'f"{dealer} · ${it.total}"',
        '"Total ${total}"',
        'f"{_money(v)} {s.currency}"',
        '"Offer of {r.amount:.2f} sent"',
        '"{value} €"',
        '"%.2f" % total',
        '"{value} {cur}"',
    ],
)
def test_the_check_finds_hand_built_money(source: str, tmp_path: Path) -> None:
    (tmp_path / "views").mkdir()
    (tmp_path / "views" / "bad.py").write_text(f"x = {source}\n")
    assert len(hand_built(tmp_path / "views")) == 1


@pytest.fixture
def in_german() -> Iterator[None]:
    with german_locale():
        yield


@pytest.fixture
def make_review(runtime: Runtime, qtbot: QtBot) -> Iterator[Callable[..., ReviewWorkspace]]:
    yield from workspace_factory(runtime, qtbot, ReviewWorkspace, "owner@demo.test", (1280, 800))


def test_receipt_totals_in_english_and_german(
    make_review: Callable[..., ReviewWorkspace], qtbot: QtBot, in_german: None
) -> None:
    QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    ws = make_review()
    lines = [ws.receipts.item(i).text() for i in range(ws.receipts.count())]
    assert any(line.endswith("Eastgate Counter · $89.99") for line in lines), lines
    QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
    with german("review"):
        ws = make_review()
        lines = [ws.receipts.item(i).text() for i in range(ws.receipts.count())]
        # The demo's receipt of 89.99 dollars as a German reads it; never "$89.99".
        assert any(line.endswith("Eastgate Counter · 89,99\u00a0$") for line in lines), lines
        assert any(line.endswith("ToolTown · 3.100,00\u00a0$") for line in lines), lines
        assert not any("$8" in line or "$3" in line for line in lines)
        row = next(i for i, line in enumerate(lines) if "Eastgate" in line)
        ws.receipts.setCurrentRow(row)
        settle(qtbot, ws)
        assert "Summe 89,99\u00a0$" in ws.numbers.text()


@pytest.fixture
def make_bench(station: Runtime, qtbot: QtBot) -> Iterator[Callable[..., InspectionWorkspace]]:
    yield from workspace_factory(station, qtbot, InspectionWorkspace, "operator@demo.test", (1280, 800))


def test_inspection_values_in_german(
    make_bench: Callable[..., InspectionWorkspace], qtbot: QtBot, in_german: None
) -> None:
    with german("inspection", "records"):  # records: the states' words (State)
        ws = make_bench()
        qtbot.keyClicks(ws.scan_input, "KIT-DEMO000008")
        qtbot.keyClick(ws.scan_input, Qt.Key.Key_Return)
        settle(qtbot, ws)
        qtbot.waitUntil(lambda: ws.sub is not None, timeout=30_000)
        assert ws.declared.text().endswith("\n" + fmt_money(300, "USD")) and fmt_money(300, "USD") == "300,00\u00a0$"
        assert "USD" not in ws.declared.text() and "300.00" not in ws.declared.text()
        # The words around the values are German too: the declared grade, the items still to check.
        assert ws.declared.text().startswith("Angegeben: ") and "excellent" not in ws.declared.text()
        assert ws.preview.text().startswith("Zu prüfen: lässt sich einschalten, Display"), ws.preview.text()
        assert ws.offer_amount.suffix() == "\u00a0$" and ws.offer_amount.prefix() == ""  # "300,00 $" in the box
        assert ws.offer_days.suffix() == " Tage"
        qtbot.waitUntil(lambda: ws.photos.count() == 2, timeout=30_000)
        assert [ws.photos.item(i).text() for i in range(2)] == ["Kunde", "Kunde"]
        assert "(received)" not in ws.banner.text() and "Status: received" not in ws.subtitle.text()

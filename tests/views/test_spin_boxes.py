"""Spin boxes show whole under the desktop's themes: each at least as large as its size hint where it
is placed and its up/down buttons inside it, at 1280x800 in English and German. The inspection
bench's battery box was placed 3 px below its height, its arrows clipped to two empty slivers: the
theme's min-height became the box's minimum, which a scrolling panel gives its widgets."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import nullcontext
from pathlib import Path

import pytest
from PySide6.QtWidgets import QAbstractSpinBox, QStyle, QStyleOptionSpinBox, QWidget
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from tests.views.german import german
from tests.views.workspaces import app_theme, settle, workspace_factory
from views.inspection.workspace import InspectionWorkspace
from views.review.workspace import ReviewWorkspace
from views.shell.prefs import StationPrefs
from views.shell.settings_dialog import SettingsDialog

BUTTONS = (QStyle.SubControl.SC_SpinBoxUp, QStyle.SubControl.SC_SpinBoxDown)


def unfit(root: QWidget) -> list[str]:
    """Every visible spin box under ``root`` placed smaller than its size hint or whose buttons it cuts."""
    bad = []
    for box in root.findChildren(QAbstractSpinBox):  # type: ignore[type-var]
        if not box.isVisibleTo(root):
            continue
        name = box.accessibleName() or type(box).__name__
        hint, size = box.sizeHint(), box.size()
        if size.width() < hint.width() or size.height() < hint.height():
            bad.append(f"{name}: placed {size.toTuple()}, needs {hint.toTuple()}")
        opt = QStyleOptionSpinBox()
        box.initStyleOption(opt)  # type: ignore[attr-defined]
        for part in BUTTONS:
            r = box.style().subControlRect(QStyle.ComplexControl.CC_SpinBox, opt, part, box)
            if r.width() < 16 or r.height() < 12 or not box.rect().contains(r):
                bad.append(f"{name}: {part.name} at {r.getRect()} in {box.rect().getRect()}")
    return bad


@pytest.fixture
def theme(request: pytest.FixtureRequest) -> Iterator[str]:
    with app_theme(getattr(request, "param", "light")) as name:
        yield name


@pytest.fixture
def make_bench(theme: str, station: Runtime, qtbot: QtBot) -> Iterator[Callable[..., InspectionWorkspace]]:
    yield from workspace_factory(station, qtbot, InspectionWorkspace, "operator@demo.test", (1280, 800))


@pytest.mark.parametrize(
    ("lang", "theme"), [("en", "light"), ("de", "light"), ("en", "dark"), ("de", "kiosk")], indirect=["theme"]
)
def test_inspection_spin_boxes_fit(
    make_bench: Callable[..., InspectionWorkspace], qtbot: QtBot, lang: str, theme: str
) -> None:
    with german("inspection") if lang == "de" else nullcontext():
        ws = make_bench()
        ws.scan_input.setText("KIT-DEMO000008")
        ws._scan()
        settle(qtbot, ws)
        qtbot.waitUntil(lambda: ws.sub is not None and ws.battery.isVisibleTo(ws), timeout=30_000)
        assert unfit(ws) == []
        # The buttons step the value (they are drawn where the style says they are).
        ws.battery.setValue(80)
        ws.battery.stepUp()
        assert ws.battery.value() == 81


def test_review_points_box_fits(theme: str, runtime: Runtime, qtbot: QtBot) -> None:
    for make in workspace_factory(runtime, qtbot, ReviewWorkspace, "owner@demo.test", (1280, 800)):
        ws = make()
        assert ws.points.isVisibleTo(ws) and unfit(ws) == []


def test_settings_spin_box_fits(theme: str, qtbot: QtBot, tmp_path: Path) -> None:
    with german("shell"):
        dlg = SettingsDialog(StationPrefs(tmp_path))
        qtbot.addWidget(dlg)
        dlg.show()
        qtbot.waitExposed(dlg)
        assert dlg.idle.isVisibleTo(dlg) and unfit(dlg) == []

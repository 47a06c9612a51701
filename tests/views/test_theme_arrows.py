"""The theme draws the combo and spin box arrows itself: with only the frame styled, Qt drew the
native arrows clipped (a dark corner at the drop-down, nothing visible on a spin box's buttons);
the walk of issue 32 saw it in Settings, the inspection bench and every combo box."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QComboBox, QSpinBox, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from views.shell.theme import theme_css

ARROW = {"light": QColor("#6b7280"), "dark": QColor("#9ca3af")}


def _near(c: QColor, want: QColor) -> bool:
    return abs(c.red() - want.red()) + abs(c.green() - want.green()) + abs(c.blue() - want.blue()) < 60


def _arrow_pixels(image: QImage, want: QColor, top: int, bottom: int) -> int:
    """Pixels of the arrow's colour in the right 24 px of the rows top..bottom."""
    w = image.width()
    return sum(
        1 for x in range(w - 24, w) for y in range(top, bottom) if _near(image.pixelColor(x, y), want)
    )  # fmt: skip


@pytest.mark.parametrize("theme", ["light", "dark", "kiosk"])
def test_the_arrows_are_drawn_whole(qtbot: QtBot, theme: str) -> None:
    assert "%ICONS%" not in theme_css(theme) and "chevron-down" in theme_css(theme)
    holder = QWidget()
    holder.setStyleSheet(theme_css(theme))  # on a widget, not the app: other tests keep their style
    combo, spin = QComboBox(), QSpinBox()
    combo.addItems(["Enter", "Tab"])
    spin.setRange(1, 60)
    spin.setValue(30)  # at a limit the theme leaves that arrow out
    layout = QVBoxLayout(holder)
    layout.addWidget(combo)
    layout.addWidget(spin)
    holder.resize(300, 160)
    qtbot.addWidget(holder)
    holder.show()
    qtbot.waitExposed(holder)
    want = ARROW["dark" if theme == "dark" else "light"]
    c = combo.grab().toImage()
    assert _arrow_pixels(c, want, 0, c.height()) >= 6
    s = spin.grab().toImage()
    assert _arrow_pixels(s, want, 0, s.height() // 2) >= 4  # up
    assert _arrow_pixels(s, want, s.height() // 2, s.height()) >= 4  # down

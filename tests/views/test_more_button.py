"""The toolbar's "More": its menu arrow lies inside the button, right of the text and centred on it.
Qt's default put it in the bottom-right corner of the padding, below the text and outside the
rounded hover (the newcomer walk of issue 32 saw it hang off the button)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMenu, QToolBar, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from views.shell.switch_keys import MoreButton
from views.shell.theme import icon, theme_css


@pytest.mark.parametrize("theme", ["light", "dark", "kiosk"])
def test_the_more_menu_arrow_lies_inside_the_button(qtbot: QtBot, theme: str) -> None:
    holder = QWidget()
    holder.setStyleSheet(theme_css(theme))  # on a widget, not the app: other tests keep their style
    qtbot.addWidget(holder)
    bar = QToolBar()
    bar.setObjectName("switcher")
    QVBoxLayout(holder).addWidget(bar)
    menu = QMenu(holder)
    menu.addAction("Reports")
    shown, bare = MoreButton("More", menu), MoreButton("More", menu)
    bare.setStyleSheet("QToolButton::menu-indicator { image: none; width: 0px; height: 0px; }")
    for b in (shown, bare):
        b.setIcon(icon("more"))
        bar.addWidget(b)
    holder.show()
    qtbot.waitExposed(holder)
    bare.setFixedSize(shown.size())
    # The arrow is what differs between the button drawn with it and without it.
    a, b = shown.grab().toImage(), bare.grab().toImage()
    assert a.size() == b.size()
    w, h = a.width(), a.height()
    arrow = [(x, y) for x in range(w) for y in range(h) if a.pixelColor(x, y) != b.pixelColor(x, y)]
    assert arrow, "no menu arrow drawn"
    xs, ys = [x for x, _ in arrow], [y for _, y in arrow]
    # Inside the button, clear of its rounded edges, level with the text rather than below it.
    assert 2 <= min(xs) <= max(xs) <= w - 3 and 2 <= min(ys) <= max(ys) <= h - 3, (xs, ys, w, h)
    assert abs((min(ys) + max(ys)) / 2 - (h - 1) / 2) <= 3, (min(ys), max(ys), h)
    assert min(xs) >= w // 2  # right of the text, not over it

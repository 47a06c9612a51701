"""Keys to every workspace, and the toolbar's "More" by keyboard.

Ctrl+1 … Ctrl+9 open the first nine workspaces in switcher order, Ctrl+0 the tenth, and Ctrl+0
again each one after it in turn (an owner has eleven: Records was the tenth or eleventh and had no
key). One rule a person learns once, shown in each workspace's tooltip and in the More menu.
The "More" button is a Tab stop (a toolbar's buttons are not), and Enter, Space or Down opens its
menu, whose arrows and Enter then pick a workspace.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QMenu, QToolButton, QWidget

FIRST = 9  # Ctrl+1 … Ctrl+9
REST = "Ctrl+0"  # the tenth, and pressed again the ones after it


def keys_of(position: int) -> str:
    """The keys that open the workspace at ``position`` (1-based) from any workspace before the
    tenth, as QKeySequence text: "Ctrl+3", "Ctrl+0", "Ctrl+0, Ctrl+0"."""
    if position <= FIRST:
        return f"Ctrl+{position}"
    return ", ".join([REST] * (position - FIRST))


def shown_keys(position: int) -> str:
    """``keys_of`` as the platform writes keys ("Strg+0" in German)."""
    return QKeySequence(keys_of(position)).toString(QKeySequence.SequenceFormat.NativeText)


def tooltip(title: str, position: int) -> str:
    return QCoreApplication.translate("ShellWindow", "{title} ({keys})").format(title=title, keys=shown_keys(position))


def next_of_rest(names: list[str], current: str | None) -> str | None:
    """Where Ctrl+0 goes: the tenth workspace, or from the tenth on the next one (round again)."""
    rest = names[FIRST:]
    if not rest:
        return None
    if current in rest:
        return rest[(rest.index(current) + 1) % len(rest)]
    return rest[0]


class MoreButton(QToolButton):
    """The toolbar's "More": a Tab stop whose menu opens on Enter, Space or Down."""

    def __init__(self, text: str, menu: QMenu, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setText(text)
        self.setMenu(menu)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # a toolbar's buttons are no Tab stop: this one is

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space, Qt.Key.Key_Down):
            self.showMenu()  # the menu's arrows and Enter pick a workspace; Esc comes back here
            return
        super().keyPressEvent(event)

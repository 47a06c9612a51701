"""Keys to every workspace, and the toolbar's "More" by keyboard.

Ctrl+1 … Ctrl+9 open the first nine workspaces in switcher order, Ctrl+0 the tenth, and Ctrl+0
again each one after it in turn (an owner has eleven: Records was the tenth or eleventh and had no
key). One rule a person learns once, shown in each workspace's tooltip and in the More menu.
The "More" button is a Tab stop (a toolbar's buttons are not), and Enter, Space or Down opens its
menu, whose arrows and Enter then pick a workspace. ``fit_toolbar`` decides which workspaces wait
in "More" on a narrow window (moved here from window.py, which is kept under 700 lines).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QMenu, QToolButton, QWidget

if TYPE_CHECKING:
    from views.shell.window import ShellWindow

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
        self.setObjectName("more-button")  # the theme places its menu arrow (resources/themes/*.qss)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space, Qt.Key.Key_Down):
            self.showMenu()  # the menu's arrows and Enter pick a workspace; Esc comes back here
            return
        super().keyPressEvent(event)


def fit_toolbar(w: ShellWindow) -> None:
    """A narrow window: first the tools (Sync, Settings, Lock, Sign out) show their icons only;
    if that is still too wide, the last workspaces other than the open one move to the "More"
    menu. Workspaces always show their names, in the same order. No workspace button or tool
    falls off the toolbar."""
    if not hasattr(w, "_more_action"):
        return
    # Every workspace back on the toolbar in the switcher's order (not appended: out of place).
    for a in w._overflow:
        w.more_menu.removeAction(a)
    for a in w.workspace_actions.values():
        w.switcher.removeAction(a)
        w.switcher.insertAction(w._more_action, a)
    w._overflow.clear()
    w._more_action.setVisible(False)
    wide, icons = Qt.ToolButtonStyle.ToolButtonTextBesideIcon, Qt.ToolButtonStyle.ToolButtonIconOnly
    tools = [b for a in w._tool_actions if isinstance(b := w.switcher.widgetForAction(a), QToolButton)]

    def buttons() -> list[QToolButton]:
        return [
            b
            for a in w.switcher.actions()
            if a.isVisible()
            and a not in w._tool_actions
            and isinstance(b := w.switcher.widgetForAction(a), QToolButton)
        ]

    def fits() -> bool:
        shown = tools + buttons()
        return sum(b.sizeHint().width() for b in shown) + 16 * len(shown) + 40 <= w.width()

    # Workspaces keep their names: too many for the width go to the "More" menu (named there),
    # never to a row of unlabelled icons; only the tools (Sync, Settings, Lock, Sign out) shrink.
    for b in buttons():
        b.setToolButtonStyle(wide)
    for shrunk in ([], tools):
        for b in tools:
            b.setToolButtonStyle(icons if b in shrunk else wide)
        if fits():
            return
    w._more_action.setVisible(True)
    movable = [a for a in w.workspace_actions.values() if a.isVisible() and not a.isChecked()]
    for a in reversed(movable):
        w.switcher.removeAction(a)
        w._overflow.insert(0, a)
        if fits():
            break
    w.more_menu.addActions(w._overflow)

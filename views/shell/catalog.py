"""Which workspaces a person gets, where they land, and the stand-in for one that fails to open.

Nothing here names a workspace: they are found (views.workspaces), ordered by their ``position``,
and say themselves who lands on them (``landing``).
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout

from views.base import StationSession, Workspace, shown_title
from views.shell.theme import icon, set_role
from views.workspaces import all_workspaces


class PlaceholderWorkspace(Workspace):
    """Shown in place of a workspace that failed to open (the shell keeps working)."""

    def __init__(self, session: StationSession, parent: object = None) -> None:
        super().__init__(session)
        lay = QVBoxLayout(self)
        lay.addStretch(1)
        pic = QLabel()
        pic.setPixmap(icon("placeholder").pixmap(QSize(64, 64)))
        lay.addWidget(pic, alignment=Qt.AlignmentFlag.AlignHCenter)
        title = QLabel(self.tr("{title} workspace").format(title=shown_title(type(self))))
        set_role(title, "title")
        lay.addWidget(title, alignment=Qt.AlignmentFlag.AlignHCenter)
        note = QLabel(
            self.tr(
                "The {value} workspace could not be opened on this station.\nThe problem was logged; the other workspaces work as usual."
            ).format(value=shown_title(type(self)))
        )
        note.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        set_role(note, "subtitle")
        lay.addWidget(note, alignment=Qt.AlignmentFlag.AlignHCenter)
        lay.addStretch(2)


def placeholder(name: str) -> type[Workspace]:
    """A stand-in carrying workspace ``name``'s title, access and place."""
    real = all_workspaces()[name]
    facts = {k: getattr(real, k) for k in ("name", "title", "modules", "roles", "position", "landing")}
    return type(f"Placeholder{name.title()}Workspace", (PlaceholderWorkspace,), {**facts, "is_placeholder": True})


def workspaces_for(session: StationSession) -> dict[str, type[Workspace]]:
    """The workspaces this person may use, in the switcher's order."""
    return {name: cls for name, cls in all_workspaces().items() if cls.available_to(session)}


def landing(role: str | None, available: list[str], last: str | None) -> str | None:
    """Where a person lands: the workspace they last used if they still may, else the one
    that claims their role with the lowest rank, else the first."""
    if last in available:
        return last
    found = all_workspaces()
    claims = [
        (found[n].landing[role], i) for i, n in enumerate(available) if role and n in found and role in found[n].landing
    ]
    if claims:
        return available[min(claims)[1]]
    return available[0] if available else None

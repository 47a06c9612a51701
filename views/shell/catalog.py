"""Which workspaces a person gets, where they land, and placeholders for workspaces not built yet."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout

from services.core.context import MODULES
from views.base import StationSession, Workspace
from views.shell.theme import icon, set_role
from views.workspaces import ORDER, all_workspaces

STAFF = frozenset({"owner", "admin", "operator"})

# Title, modules and roles of each known workspace, used when its package is
# missing (a placeholder is shown) - the real WORKSPACE class decides otherwise.
KNOWN: dict[str, tuple[str, frozenset[str], frozenset[str]]] = {
    "warehouse": ("Warehouse", frozenset({"fulfillment"}), STAFF | {"warehouse-device"}),
    "inspection": ("Inspection", frozenset({"upgrade"}), STAFF),
    "helpdesk": ("Helpdesk", frozenset({"support"}), STAFF),
    "admin": ("Admin", frozenset(MODULES), frozenset({"owner", "admin"})),
}
# Where a person lands (unless they last used another workspace they may still use).
LANDING_BY_ROLE: dict[str, tuple[str, ...]] = {
    "owner": ("admin",),
    "admin": ("admin",),
    "warehouse-device": ("warehouse",),
    "operator": ("inspection", "helpdesk", "warehouse"),
}


class PlaceholderWorkspace(Workspace):
    """Shown for a workspace whose package does not exist yet."""

    def __init__(self, session: StationSession, parent: object = None) -> None:
        super().__init__(session)
        lay = QVBoxLayout(self)
        lay.addStretch(1)
        pic = QLabel()
        pic.setPixmap(icon("placeholder").pixmap(QSize(64, 64)))
        lay.addWidget(pic, alignment=Qt.AlignmentFlag.AlignHCenter)
        title = QLabel(f"{self.title} workspace")
        set_role(title, "title")
        lay.addWidget(title, alignment=Qt.AlignmentFlag.AlignHCenter)
        note = QLabel(
            f"The {self.title.lower()} workspace is not part of this build yet.\n"
            "Its package views/" + self.name + "/ will appear here once it is installed."
        )
        note.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        set_role(note, "subtitle")
        lay.addWidget(note, alignment=Qt.AlignmentFlag.AlignHCenter)
        lay.addStretch(2)


def placeholder(name: str) -> type[Workspace]:
    title, modules, roles = KNOWN[name]
    return type(
        f"Placeholder{title}Workspace",
        (PlaceholderWorkspace,),
        {"name": name, "title": title, "modules": modules, "roles": roles, "is_placeholder": True},
    )


def workspaces_for(session: StationSession) -> dict[str, type[Workspace]]:
    """The workspaces this person may use, in the switcher's order (placeholders for missing packages)."""
    real = all_workspaces()
    out: dict[str, type[Workspace]] = {}
    for name in ORDER:
        cls = real.get(name) or placeholder(name)
        if cls.available_to(session):
            out[name] = cls
    return out


def landing(role: str | None, available: list[str], last: str | None) -> str | None:
    if last in available:
        return last
    for name in LANDING_BY_ROLE.get(role or "", ()):
        if name in available:
            return name
    return available[0] if available else None

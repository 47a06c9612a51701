"""Workspaces are found, not listed: every package ``views/<name>/`` whose ``workspace.py``
defines ``WORKSPACE`` (a ``views.base.Workspace`` subclass) is one, placed by its ``position``.
Adding a workspace adds a package; the shell, the screenshot command and ``make screenshots``
pick it up from here.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from views.base import StationSession, Workspace


def titles() -> tuple[str, ...]:
    """The titles of the workspaces in the switcher, marked for lupdate (common.ts; context
    "Workspaces", read by views.base.shown_title): a class attribute is made before any translator
    is installed. A function, so that listing the packages does not load Qt."""
    from views.i18n import QT_TRANSLATE_NOOP

    return (
        QT_TRANSLATE_NOOP("Workspaces", "Admin"),
        QT_TRANSLATE_NOOP("Workspaces", "Dashboards"),
        QT_TRANSLATE_NOOP("Workspaces", "Helpdesk"),
        QT_TRANSLATE_NOOP("Workspaces", "Knowledge base"),
        QT_TRANSLATE_NOOP("Workspaces", "QR designer"),
        QT_TRANSLATE_NOOP("Workspaces", "Records"),
        QT_TRANSLATE_NOOP("Workspaces", "Review queue"),
        QT_TRANSLATE_NOOP("Workspaces", "Shop floor"),
        QT_TRANSLATE_NOOP("Workspaces", "Stock count"),
        QT_TRANSLATE_NOOP("Workspaces", "Trade-in inspection"),
        QT_TRANSLATE_NOOP("Workspaces", "Warehouse scanning"),
    )


def workspace_packages() -> list[str]:
    """Names of the ``views/<name>/`` packages that hold a ``workspace.py``.

    Found on disk without importing them, so the command line can offer the names
    without loading Qt.
    """
    import views

    found = {p.parent.name for base in views.__path__ for p in Path(base).glob("*/workspace.py")}
    return sorted(n for n in found if n.isidentifier())


def all_workspaces() -> dict[str, type[Workspace]]:
    """Every workspace class by name, in switcher order (``position``, then name)."""
    found: dict[str, type[Workspace]] = {}
    for name in workspace_packages():
        cls = getattr(importlib.import_module(f"views.{name}.workspace"), "WORKSPACE", None)
        if cls is not None:
            found[name] = cls
    return dict(sorted(found.items(), key=lambda kv: (kv[1].position, kv[0])))


def available(session: StationSession) -> dict[str, type[Workspace]]:
    return {n: w for n, w in all_workspaces().items() if w.available_to(session)}


if __name__ == "__main__":  # `make screenshots` loops over these names
    print(" ".join(workspace_packages()))

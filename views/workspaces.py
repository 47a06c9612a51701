"""Registry of workspaces: each ``views/<name>/workspace.py`` defines ``WORKSPACE``
(a ``views.base.Workspace`` subclass). The shell offers those the person may use.
"""

from __future__ import annotations

import importlib
import importlib.util

from views.base import StationSession, Workspace

ORDER = ("warehouse", "inspection", "helpdesk", "admin", "stockcount")


def all_workspaces() -> dict[str, type[Workspace]]:
    found: dict[str, type[Workspace]] = {}
    for name in ORDER:
        try:
            if importlib.util.find_spec(f"views.{name}.workspace") is None:
                continue
        except ModuleNotFoundError:  # the package views/<name>/ itself is missing
            continue
        mod = importlib.import_module(f"views.{name}.workspace")
        found[name] = mod.WORKSPACE
    return found


def available(session: StationSession) -> dict[str, type[Workspace]]:
    return {n: w for n, w in all_workspaces().items() if w.available_to(session)}

"""The import contract of the modules (docs/ARCHITECTURE.md), run by make lint and tests/test_layering.py.

A module (a package under services/ whose __init__ declares ``MODULE = Module(...)``) imports only
``services.core``, the platform's parts that are not modules (services.sync), itself, and the
modules its manifest names in ``depends``; of those, only their ``__init__`` or a file their
manifest names in ``public``. Imports inside functions count too (grimp reads them all).

    .venv/bin/python scripts/check_module_imports.py      # exit 1 and one line per broken import
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent


def violations(package: str, manifests: Mapping[str, object]) -> list[str]:
    """Every import of ``package``'s modules that their manifests do not allow, as ``file:line: why``.

    ``manifests`` maps a module's name to its manifest (``depends`` and ``public`` are read).
    """
    graph = grimp.build_graph(package)
    found: list[str] = []
    for importer in sorted(graph.modules):
        parts = importer.split(".")
        if len(parts) < 2 or parts[1] not in manifests:
            continue
        own = manifests[parts[1]]
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            target = imported.split(".")
            if target[0] != package or len(target) < 2 or target[1] in (parts[1], "core"):
                continue
            other = target[1]
            if other not in manifests:
                continue  # a platform part that is not a module (services.sync)
            why = None
            if other not in getattr(own, "depends", ()):
                why = f"{parts[1]} imports {other}, which its manifest does not name in depends"
            elif len(target) > 2 and target[2] not in getattr(manifests[other], "public", ()):
                why = f"{imported} is not public ({other}'s manifest names {getattr(manifests[other], 'public', ())})"
            if why:
                lines = [str(d["line_number"]) for d in graph.get_import_details(importer=importer, imported=imported)]
                found += [f"{importer}:{line}: {why}" for line in lines or ["?"]]
    return found


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from app.wiring import load_modules

    manifests = {m.name: m for m in load_modules()}
    broken = violations("services", manifests)
    for line in broken:
        print(line)
    print(f"module imports: {len(manifests)} modules, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())

"""A module of the platform is one unit: ``services/<m>/__init__.py`` declares it with ``Module``.

The manifest says what the rest of the platform needs to know of a module: its name, the
modules it may import (``depends``, checked by ``scripts/check_module_imports.py`` in make
lint), the files others may import besides its ``__init__`` (``public``), the event types and
record kinds it owns, its demo seeders, the work the job worker does for it on each round
(``periodic``), its reactions to events (``reactions``) and how its customer accounts' tokens
are checked (``customer_auth``).

The composition root (``app.wiring.load_modules``) imports every package that declares one,
checks the manifest against what the package registered, and installs its periodic work and
customer authenticator, and subscribes its reactions. ``MODULES`` (services.core.context) is derived from the manifests
without importing the packages: core needs the list at import time, before any module
(which imports core) can be imported, so ``module_names`` reads the manifests' source.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from local_db import Database
    from services.core.context import Ctx, Principal, Runtime, TenantInfo
    from services.core.events import EmittedEvent

    Seeder = Callable[[Ctx], None]
    Reaction = Callable[[Ctx, EmittedEvent], None]
    Tick = Callable[[Runtime], None]
    CustomerAuth = Callable[[Database, str, TenantInfo, str, datetime], Principal]
else:  # the callables are only typed, never inspected: core must not import context here
    Seeder = Reaction = Tick = CustomerAuth = Callable[..., Any]

SERVICES = Path(__file__).resolve().parent.parent
# Where a module sorts among the others when its manifest gives no position (after the sixteen).
DEFAULT_POSITION = 1000


@dataclass(frozen=True)
class Module:
    """One module's manifest (``MODULE = Module(...)`` in ``services/<name>/__init__.py``)."""

    name: str
    # The modules this one imports (only their __init__ or a file they name in ``public``).
    depends: tuple[str, ...] = ()
    # Files of this package other modules may import, besides its __init__ ("codes" is services.<m>.codes).
    public: tuple[str, ...] = ()
    # Event types it emits (registered with ``register_event_type(..., module=name)``).
    events: tuple[str, ...] = ()
    # Its reactions to events (its own or other modules'): (event type, handler), run by ``emit`` in the
    # emitting unit of work (services.core.events.subscribe). The way to react to another module.
    reactions: tuple[tuple[str, Reaction], ...] = ()
    # Record kinds it declares (``record_kind("<name>.<kind>", ...)``).
    records: tuple[str, ...] = ()
    # Its demo content (``@demo_seeder`` functions of its demo.py), in the order they run.
    seeders: tuple[Seeder, ...] = ()
    # Work the job worker does on each round (a scheduler: due sends); quick when nothing is due.
    periodic: tuple[Tick, ...] = ()
    # How its customer accounts' bearer tokens are checked (modules with customers of their own).
    customer_auth: CustomerAuth | None = None
    # Its place in the list of modules (the spec's order: tenants' module lists, the admin workspace).
    position: int = DEFAULT_POSITION
    # What a person reads for it (menus, the admin's module list); a literal, read without importing.
    title: str = ""

    def __post_init__(self) -> None:
        if self.name in self.depends:
            raise ValueError(f"module {self.name} cannot depend on itself")


class ManifestError(Exception):
    """A package's manifest is missing, unreadable or disagrees with what the package registered."""


@functools.cache  # names and titles both read it at start: each file parsed once
def _literal_manifest(init: Path) -> tuple[str, int, str] | None:
    """(name, position, title) of the ``MODULE = Module(...)`` in ``init``, or None when it declares none."""
    tree = ast.parse(init.read_text(), str(init))
    for node in tree.body:
        if not (
            isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "MODULE" for t in node.targets)
        ):
            continue
        call = node.value
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "Module"):
            raise ManifestError(f"{init}: MODULE must be a Module(...) call")
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        try:
            name = ast.literal_eval(keywords["name"])
            position = ast.literal_eval(keywords["position"]) if "position" in keywords else DEFAULT_POSITION
            title = ast.literal_eval(keywords["title"]) if "title" in keywords else name.capitalize()
        except (KeyError, ValueError) as exc:
            raise ManifestError(
                f"{init}: Module(name=..., position=..., title=...) must be written as literals"
            ) from exc
        if name != init.parent.name:
            raise ManifestError(f"{init}: the module's name {name!r} is not its package's")
        return name, position, title
    return None


def module_names(services: Path = SERVICES) -> tuple[str, ...]:
    """The names of the packages under services/ that declare a module, by position then name."""
    found = []
    for init in sorted(services.glob("*/__init__.py")):
        manifest = _literal_manifest(init)
        if manifest is not None:
            found.append((manifest[1], manifest[0]))
    return tuple(name for _, name in sorted(found))


def module_titles(services: Path = SERVICES) -> dict[str, str]:
    """Each module's title (its manifest's ``title``), by name."""
    found = {}
    for init in sorted(services.glob("*/__init__.py")):
        manifest = _literal_manifest(init)
        if manifest is not None:
            found[manifest[0]] = manifest[2]
    return found

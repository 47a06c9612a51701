"""Composition root of the service layer for the server and for a station."""

from __future__ import annotations

from pathlib import Path

import local_db.models  # noqa: F401 - every table registered before migrations run
import services.core.jobs  # noqa: F401 - declares the jobs' routes
import services.core.mail  # noqa: F401 - declares the kept mail's routes
import services.core.sandbox  # noqa: F401 - declares the sandbox reset
import services.core.scheduler  # noqa: F401 - declares the scheduled jobs' routes
import services.core.service  # noqa: F401 - declares the platform operations
import services.core.station  # noqa: F401 - declares the station operations (outbox status)
from app.events_worker import delivery_config
from app.paths import secure_data_dir
from app.settings import Settings
from local_db import Database
from services.analytics.counting import install_event_counter
from services.core.auth import CUSTOMER_AUTHENTICATORS
from services.core.clock import Clock, SystemClock
from services.core.commands import RECORDS
from services.core.connections import ConnectionsConfig
from services.core.context import MODULES, Runtime
from services.core.demo import SEEDERS
from services.core.events import EVENT_TYPES, subscribe
from services.core.jobs import TICKS
from services.core.mail import MailConfig
from services.core.modules import ManifestError, Module
from services.events.fanout import install_platform
from services.sds.pubchem import PubChem, PubChemConfig
from services.support.challenge import TURNSTILE_URL, ChallengeConfig
from services.sync.bulk import resume_search
from services.sync.changelog import install_change_log


def load_modules() -> tuple[Module, ...]:
    """Import every ``services/<package>`` and read the modules' manifests (``MODULE = Module(...)``).

    A package's ``__init__`` imports the files that declare its use cases. The front doors mount
    whatever is registered, so a new module adds files, not lines here. Each manifest is checked
    against what its package registered (a wrong one fails at start-up), then its periodic work
    and customer authenticator are installed, its reactions subscribed. Packages without a manifest (services.sync) are
    parts of the platform: their ``service`` and ``demo`` files are loaded here.
    """
    import importlib
    import pkgutil

    import services

    manifests = {}
    for info in pkgutil.iter_modules(services.__path__):
        if not info.ispkg:
            continue
        package = importlib.import_module(f"services.{info.name}")
        manifest = getattr(package, "MODULE", None)
        if isinstance(manifest, Module):
            manifests[manifest.name] = manifest
            continue
        for part in ("service", "demo"):  # a platform package may leave these to be loaded here
            if importlib.util.find_spec(f"services.{info.name}.{part}") is not None:
                importlib.import_module(f"services.{info.name}.{part}")
    if tuple(manifests) != tuple(sorted(MODULES)):
        raise ManifestError(f"modules declared {sorted(manifests)}, listed {sorted(MODULES)}")
    ordered = tuple(manifests[name] for name in MODULES)
    for manifest in ordered:
        install_module(manifest)
    return ordered


def install_module(module: Module) -> None:
    """Check ``module``'s manifest against the registries and install what it declares (idempotent)."""
    events = {
        e.name for e in EVENT_TYPES.values() if e.module == module.name and e.origin.startswith(("services.", "app."))
    }
    records = {r for r in RECORDS if r.split(".")[0] == module.name}
    seeders = [f for f in SEEDERS if f.__module__.split(".")[:2] == ["services", module.name]]
    for what, declared, registered in (
        ("event types", set(module.events), events),
        ("record kinds", set(module.records), records),
    ):
        if declared != registered:
            raise ManifestError(
                f"{module.name}'s manifest lists {what} {sorted(declared)}, it registers {sorted(registered)}"
            )
    if list(module.seeders) != seeders:
        raise ManifestError(f"{module.name}'s manifest lists seeders {module.seeders}, it registers {seeders}")
    unknown = set(module.depends) - set(MODULES)
    if unknown:
        raise ManifestError(f"{module.name} depends on {sorted(unknown)}, which are not modules")
    TICKS.extend(tick for tick in module.periodic if tick not in TICKS)
    for event_type, handler in module.reactions:
        subscribe(event_type, handler)
    if module.customer_auth is not None:
        CUSTOMER_AUTHENTICATORS[module.name] = module.customer_auth


def platform_runtime(settings: Settings, clock: Clock | None = None, *, migrate: bool = True) -> Runtime:
    """``migrate=False``: the schema is already current (a worker of ``serve --workers``; the parent migrated)."""
    load_modules()
    secure_data_dir(settings.data_dir)
    db = Database(settings.resolved_database_url(), migrate=migrate)
    rt = Runtime(
        db=db,
        secret_key=settings.resolved_secret_key(),
        data_dir=settings.data_dir,
        clock=clock or SystemClock(),
        kind="platform",
        upload_limit=settings.upload_limit,
    )
    # Bot-challenge verifier of public ticket creation.
    rt.provide(
        ChallengeConfig(
            kind=settings.challenge or ("demo" if settings.demo else None),
            secret=settings.challenge_secret or "",
            url=settings.challenge_url or TURNSTILE_URL,
        )
    )
    rt.provide(MailConfig(smtp_url=settings.smtp_url, sender=settings.mail_from))
    rt.provide(ConnectionsConfig(allow_private=settings.connections_allow_private))
    rt.provide(PubChem(PubChemConfig(enabled=settings.pubchem_enabled, base_url=settings.pubchem_url)))
    # Webhook fan-out on every emit (platform only; stations leave delivery to the platform).
    install_platform(rt, delivery_config(settings))
    # Every event also counted as the metric events.<type>, in the event's transaction.
    install_event_counter(rt)
    # The change log the stations' pull reads (services.sync.changelog).
    install_change_log(rt)
    return rt


def station_runtime(data_dir: Path, station_id: str, clock: Clock | None = None) -> Runtime:
    """The embedded service layer of a desktop station, on its own SQLite file."""
    load_modules()
    settings = Settings(data_dir=data_dir)
    secure_data_dir(data_dir)
    db = Database(settings.resolved_database_url())
    secret = settings.resolved_secret_key()
    rt = Runtime(
        db=db,
        secret_key=secret,
        data_dir=data_dir,
        clock=clock or SystemClock(),
        kind="station",
        station_id=station_id,
        station_key=secret.encode(),
    )
    resume_search(rt)  # a full pull cut short (a crash) left its search indexes set aside
    return rt

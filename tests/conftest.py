"""Shared fixtures: a migrated database per test, the demo runtime, a real uvicorn server."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from api.http_protocol import EnvelopeH11Protocol  # noqa: E402
from app.settings import Settings  # noqa: E402
from app.wiring import load_modules, platform_runtime, station_runtime  # noqa: E402
from services.core.context import Runtime  # noqa: E402
from services.core.demo import DEMO_PASSWORD, seed_demo  # noqa: E402

load_modules()


def _patient_wait_until() -> None:
    """pytest-qt's ``waitUntil`` gives up after 5 s unless told otherwise. A view's answer is a
    thread-pool call plus a queued signal, and on a busy 2-core CI machine that took longer (the full
    run's helpdesk failure had a 5 s wait). Every wait is for a condition that does come, and returns
    the moment it holds: the default is 30 s, as the tests that name a timeout give."""
    from pytestqt.qtbot import QtBot

    plain = QtBot.waitUntil

    def wait_until(self: QtBot, callback: Any, *, timeout: int = 30_000) -> None:
        plain(self, callback, timeout=timeout)

    QtBot.waitUntil = wait_until  # type: ignore[method-assign]


_patient_wait_until()

_TEMPLATE: dict[str, Path] = {}
TEST_SECRET = "test-secret-key-0123456789abcdef"


def _demo_template(tmp_factory: pytest.TempPathFactory) -> Path:
    """Migrate and seed once per test run; tests get a copy of the file.

    Under pytest-xdist the workers share one template: the first to ask builds it under a lock
    in the run's common temporary directory, the others wait for it (seeding is CPU-bound, and
    three workers seeding at once on two cores cost the run half a minute)."""
    if "demo" not in _TEMPLATE:
        run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
        if run is None:
            d = tmp_factory.mktemp("demo-template")
            _seed_template(d)
        else:
            import fcntl

            d = tmp_factory.getbasetemp().parent / f"demo-template-{run[:16]}"
            d.mkdir(exist_ok=True)
            with (d / "build.lock").open("w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if not (d / "ready").exists():
                    _seed_template(d)
                    (d / "ready").touch()
        _TEMPLATE["demo"] = d / "data.db"
    return _TEMPLATE["demo"]


def _seed_template(d: Path) -> None:
    rt = platform_runtime(Settings(data_dir=d, secret_key=TEST_SECRET))
    seed_demo(rt)
    rt.db.dispose()


def _copy_db(src: Path, dst_dir: Path) -> None:
    import sqlite3

    dst_dir.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(src) as a, sqlite3.connect(dst_dir / "data.db") as b:
        a.backup(b)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # No scheduler thread: a periodic sweep at start-up would race the tests' own triggers.
    return Settings(data_dir=tmp_path / "data", secret_key=TEST_SECRET, demo=True, scheduler=False)


# PLATFORM_TEST_BACKEND=postgres (with PLATFORM_TEST_POSTGRES_URL): the platform runtime
# and the servers of the tests run on PostgreSQL, each test on its own copy of a seeded
# template database (make test runs the server tests this way when a server is available).
PG_URL = os.environ.get("PLATFORM_TEST_POSTGRES_URL")
ON_POSTGRES = os.environ.get("PLATFORM_TEST_BACKEND") == "postgres" and bool(PG_URL)


def _pg_admin() -> Any:
    from sqlalchemy import create_engine

    assert PG_URL
    return create_engine(PG_URL, isolation_level="AUTOCOMMIT")


def _pg_url(name: str) -> str:
    assert PG_URL
    return PG_URL.rsplit("/", 1)[0] + "/" + name


# One template per test process: parallel workers (and parallel runs) must not drop each other's.
_PG_TEMPLATE = f"platform_tpl_{os.getpid()}"


def _drop_pg_template() -> None:
    admin = _pg_admin()
    with admin.connect() as c:
        c.exec_driver_sql(f"DROP DATABASE IF EXISTS {_PG_TEMPLATE} WITH (FORCE)")
    admin.dispose()


def _pg_template(tmp_factory: pytest.TempPathFactory) -> str:
    if "pg" not in _TEMPLATE:
        import atexit

        admin = _pg_admin()
        with admin.connect() as c:
            c.exec_driver_sql(f"DROP DATABASE IF EXISTS {_PG_TEMPLATE} WITH (FORCE)")
            c.exec_driver_sql(f"CREATE DATABASE {_PG_TEMPLATE}")
        admin.dispose()
        atexit.register(_drop_pg_template)
        d = tmp_factory.mktemp("pg-template")
        rt = platform_runtime(Settings(data_dir=d, secret_key=TEST_SECRET, database_url=_pg_url(_PG_TEMPLATE)))
        seed_demo(rt)
        rt.db.dispose()
        _TEMPLATE["pg"] = d
    return _PG_TEMPLATE


@contextmanager
def empty_pg_database(prefix: str = "t") -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database of the caller's own, dropped after.

    Never the server's shared database: tests on other workers run beside this one, and
    recreating a schema there deadlocks with them (CI met it)."""
    import uuid

    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = _pg_admin()
    with admin.connect() as c:
        c.exec_driver_sql(f"CREATE DATABASE {name}")
    try:
        yield _pg_url(name)
    finally:
        with admin.connect() as c:
            c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.dispose()


def new_pg_database(tmp_factory: pytest.TempPathFactory) -> str:
    """A new PostgreSQL database copied from the seeded template; answers its name."""
    import uuid

    template = _pg_template(tmp_factory)
    name = f"t_{uuid.uuid4().hex[:16]}"
    admin = _pg_admin()
    with admin.connect() as c:
        c.exec_driver_sql(f"CREATE DATABASE {name} TEMPLATE {template}")
    admin.dispose()
    return name


@pytest.fixture
def runtime(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runtime]:
    """A platform runtime with the demo data set: a fresh SQLite file (or PostgreSQL database)."""
    name = None
    if ON_POSTGRES:
        name = new_pg_database(tmp_path_factory)
        settings.database_url = _pg_url(name)
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    else:
        _copy_db(_demo_template(tmp_path_factory), settings.data_dir)
    rt = platform_runtime(settings)
    yield rt
    rt.db.dispose()
    if name is not None:
        admin = _pg_admin()
        with admin.connect() as c:
            c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.dispose()


@pytest.fixture
def station(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runtime]:
    """A station runtime (outbox on) with the demo data set."""
    d = tmp_path / "station"
    _copy_db(_demo_template(tmp_path_factory), d)
    # The station's key is the one the template was sealed with (as on a seeded station).
    (d / "secret.key").write_text(TEST_SECRET)
    rt = station_runtime(d, "station-test")
    yield rt
    rt.db.dispose()


class _QuickServer(uvicorn.Server):
    """uvicorn looks at ``should_exit`` every 0.1 s; a test server stops hundreds of times a run,
    so it looks every 0.01 s (the Date header is still refreshed on its ticks)."""

    async def main_loop(self) -> None:
        counter = 0
        while not await self.on_tick(counter):
            counter = (counter + 1) % 864000
            await asyncio.sleep(0.01)


class LiveServer:
    def __init__(self, app: Any, rt: Runtime) -> None:
        self.app, self.runtime = app, rt
        self.server = _QuickServer(
            uvicorn.Config(
                app,
                host="127.0.0.1",
                port=0,
                log_level="warning",
                access_log=False,
                lifespan="on",
                http=EnvelopeH11Protocol,
            )  # the server's own protocol: malformed requests answered in the envelope
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> str:
        self.thread.start()
        # Generous: on a busy 2-core machine the lifespan (migrations, demo) can take long; the
        # limit only matters when the server really cannot start.
        deadline = time.monotonic() + 90
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("server did not start")
            time.sleep(0.01)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self.url

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def start_server(settings: Settings, rt: Runtime | None = None, *, seed: bool = True, **overrides: Any) -> LiveServer:
    from app.server import build_app

    for k, v in overrides.items():
        setattr(settings, k, v)
    app, built_rt = build_app(settings, seed=seed)
    srv = LiveServer(app, built_rt)
    srv.start()
    return srv


@pytest.fixture
def server(settings: Settings, runtime: Runtime) -> Iterator[LiveServer]:
    """A real uvicorn server on 127.0.0.1 over the demo database (rate limits off)."""
    runtime.db.dispose()
    settings.rate_limits = "off"
    # The runtime's database is a copy of the seeded template: seeding it again at start-up
    # (every seeder checking its rows) was a third of each test server's start.
    srv = start_server(settings, seed=False)
    yield srv
    srv.stop()
    srv.runtime.db.dispose()


@pytest.fixture
def client(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=60) as c:
        yield c


def login(client: httpx.Client, email: str, password: str = DEMO_PASSWORD) -> str:
    r = client.post("/api/auth/login", json={"email": email, "password": password})
    assert r.status_code == 200, r.text
    return str(r.json()["data"]["token"])


def auth_headers(client: httpx.Client, email: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {login(client, email)}"}


def dump_database(rt: Runtime) -> str:
    """Every row of every table as text (SQLite or PostgreSQL): to prove a secret is stored nowhere."""
    from sqlalchemy import MetaData

    meta = MetaData()
    meta.reflect(rt.db.engine)
    out: list[str] = []
    with rt.db.engine.connect() as c:
        for table in meta.sorted_tables:
            out.extend(repr(tuple(row)) for row in c.execute(table.select()))
    return "\n".join(out)


# A real HTTPS webhook receiver (trustme certificates), shared by the events tests.
@pytest.fixture(scope="session")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from tests.api.events.receiver import make_certs

    return make_certs(tmp_path_factory.mktemp("certs"))


@pytest.fixture(scope="session")
def _receiver(certs: Any) -> Iterator[Any]:
    from tests.api.events.receiver import Receiver

    rec = Receiver(certs).start()
    yield rec
    rec.stop()


@pytest.fixture
def receiver(_receiver: Any) -> Any:
    _receiver.reset()
    return _receiver

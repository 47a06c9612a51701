"""Sync fixtures: a real platform server process and real station databases.

``platform`` starts ``python -m app serve --demo`` on a free port in its own
process (so a test can kill -9 it and start it again on the same data);
``make_station`` gives a station data dir seeded with the demo data and
registered with that platform for the ``demo`` tenant.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.server import free_port
from app.wiring import station_runtime
from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Runtime, TenantInfo
from services.core.demo import DEMO_PASSWORD, demo_id
from services.sync import station as st
from services.sync.engine import SyncEngine, SyncStatus
from tests.conftest import TEST_SECRET, _copy_db, _demo_template

ROOT = Path(__file__).resolve().parents[2]


class PlatformProcess:
    """``python -m app serve`` in a child process on a fixed port and data dir."""

    def __init__(self, data_dir: Path, port: int | None = None, **env: str) -> None:
        self.data_dir, self.port = data_dir, port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "PLATFORM_SECRET_KEY": TEST_SECRET, "PLATFORM_RATE_LIMITS": "A", **env}
        self.proc: subprocess.Popen[str] | None = None

    def start(self, timeout: float = 120) -> PlatformProcess:
        cmd = [
            sys.executable,
            "-m",
            "app",
            "serve",
            "--demo",
            "--port",
            str(self.port),
            "--data-dir",
            str(self.data_dir),
        ]
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if "listening on" in line:
                return self
            if not line and self.proc.poll() is not None:
                break
        raise RuntimeError(f"platform server did not start (exit {self.proc.poll()})")

    def kill(self) -> None:
        """kill -9: no shutdown, no flush, like a pulled power cord."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def platform(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlatformProcess]:
    d = tmp_path / "platform"
    _copy_db(_demo_template(tmp_path_factory), d)  # seeded already: the server starts at once
    p = PlatformProcess(d).start()
    yield p
    p.stop()


def owner_token(url: str, email: str = "owner@demo.test") -> str:
    r = httpx.post(f"{url}/api/auth/login", json={"email": email, "password": DEMO_PASSWORD}, timeout=10)
    r.raise_for_status()
    return str(r.json()["data"]["token"])


def take_first_leases(rt: Runtime, tenant_id: str) -> None:
    """The leases a registration takes (services.sync.client.link_station), on a thread of its own:
    the calling thread may have the app's asyncio loop."""
    from concurrent.futures import ThreadPoolExecutor

    from services.sync.client import SyncError, take_leases

    def go() -> None:
        # The platform does not answer (a test of an offline station): no block.
        with contextlib.suppress(SyncError):
            asyncio.run(take_leases(rt, tenant_id))

    with ThreadPoolExecutor(1) as pool:
        pool.submit(go).result(timeout=30)


def register(url: str, station_id: str, slug: str = "demo", email: str = "owner@demo.test") -> str:
    r = httpx.post(f"{url}/api/tenants/{slug}/sync/stations", json={"stationId": station_id, "name": station_id},
                   headers={"Authorization": f"Bearer {owner_token(url, email)}"}, timeout=10)  # fmt: skip
    assert r.status_code == 201, r.text
    return str(r.json()["data"]["secret"])


class Station:
    """A station data dir with the demo data, linked to a platform for ``demo``."""

    def __init__(self, data_dir: Path, station_id: str) -> None:
        self.data_dir, self.station_id = data_dir, station_id
        self.rt: Runtime = station_runtime(data_dir, station_id)
        self.tenant: TenantInfo = auth.load_tenant(self.rt.db, "demo")

    def link(self, url: str, secret: str | None = None) -> None:
        """As a registration does: the link, then the first blocks of numbers (where the platform answers)."""
        st.save_link(self.rt, self.tenant.id, url, self.station_id, secret or register(url, self.station_id))
        take_first_leases(self.rt, self.tenant.id)

    def ctx(self, email: str = "admin@demo.test") -> Ctx:
        return Ctx(self.rt, self.tenant, auth.user_principal(self.rt.db, demo_id("user", email), self.tenant))

    def do(self, op: str, email: str = "admin@demo.test", **kwargs: Any) -> Any:
        return execute(self.ctx(email), op, **kwargs)

    def engine(self, **kw: Any) -> SyncEngine:
        return SyncEngine(self.rt, self.tenant.id, **kw)

    def sync(self, **kw: Any) -> SyncStatus:
        async def go() -> SyncStatus:
            e = self.engine(**kw)
            try:
                return await e.sync_once()
            finally:
                await e.stop()

        return asyncio.run(go())

    def outbox(self) -> dict[str, int]:
        from sqlalchemy import func, select

        from local_db.models import OutboxEntry

        with self.rt.db.reading(self.tenant.id) as s:
            rows = s.execute(select(OutboxEntry.status, func.count()).group_by(OutboxEntry.status)).all()
        return {k: int(v) for k, v in rows}

    def close(self) -> None:
        self.rt.db.dispose()


def new_station_dir(base: Path, name: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = base / name
    _copy_db(_demo_template(tmp_path_factory), d)
    (d / "secret.key").write_text(f"{TEST_SECRET}-{name}")  # each station its own key
    (d / "station-id").write_text(name)
    return d


@pytest.fixture
def make_station(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    made: list[Station] = []

    def make(name: str, platform: PlatformProcess | None = None) -> Station:
        s = Station(new_station_dir(tmp_path, name, tmp_path_factory), name)
        if platform is not None:
            s.link(platform.url)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()

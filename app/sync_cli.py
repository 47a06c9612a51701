"""``python -m app register-station`` and ``python -m app sync``: a station's sync without the desktop.

The desktop runs the same engine on its Qt loop; these commands serve
headless stations, scripts and the crash tests.
"""

from __future__ import annotations

import asyncio
import getpass
import os
import signal
import sys
from pathlib import Path

from app.station import open_station, station_id


def register(data_dir: Path, platform_url: str, slug: str, email: str, name: str | None) -> int:
    from services.core import auth, platform_client
    from services.sync.client import SyncError, link_station

    password = os.environ.get("PLATFORM_PASSWORD") or getpass.getpass(f"Password of {email} on the platform: ")
    rt = open_station(data_dir)
    try:
        tenant = auth.load_tenant(rt.db, slug)
    except Exception as exc:  # noqa: BLE001 - one line for the person
        print(f"register-station: tenant {slug!r} is not on this station: {exc}", file=sys.stderr)
        return 2

    async def go() -> None:
        signed = await platform_client.sign_in(platform_url, email, password)
        if signed.token is None:
            raise SyncError("refused", f"the platform refused these credentials (HTTP {signed.status})", retry=False)
        await link_station(rt, tenant.id, platform_url, slug, name or rt.station_id, token=signed.token)

    try:
        asyncio.run(go())
    except SyncError as exc:
        print(f"register-station: {exc.message}", file=sys.stderr)
        return 1
    print(f"station {rt.station_id} registered with {platform_url} for {slug}")
    rt.db.dispose()
    return 0


def run_sync(data_dir: Path, once: bool, interval: float) -> int:
    from services.sync import station as st
    from services.sync.client import SyncError
    from services.sync.engine import SyncEngine

    station_id(data_dir)
    rt = open_station(data_dir)
    linked = st.links(rt)
    if not linked:
        print("sync: this station is not registered with a platform (python -m app register-station)", file=sys.stderr)
        return 2

    async def go() -> int:
        engines = [SyncEngine(rt, link.tenant_id, interval=interval) for link in linked]
        if once:
            failed = 0
            for link, engine in zip(linked, engines, strict=True):
                try:
                    s = await engine.sync_once()
                    print(f"{link.slug}: {s.state}, {s.pending} waiting, {s.issues} issues", flush=True)
                except SyncError as exc:
                    failed += 1
                    print(f"{link.slug}: {exc.kind}: {exc.message}", file=sys.stderr, flush=True)
                finally:
                    await engine.stop()
            return 1 if failed else 0
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        for e in engines:
            e.start()
        await stop.wait()
        for e in engines:
            await e.stop()
        return 0

    try:
        return asyncio.run(go())
    finally:
        rt.db.dispose()

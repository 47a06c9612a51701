"""``python -m app register-station --restore``: a lost station made again from the platform alone.

A new (or empty) data dir takes the lost station's id, the station is registered again under it (its
old registration revoked first: a secret is shown once, and the lost one is gone with the disk), its
outbox numbering goes on after the last change the platform applied from it, and one sync pulls every
record of the tenant back. The changes the lost station had not sent are not on the platform, so they
are lost (docs/operations.md says so).
"""

from __future__ import annotations

import asyncio
import getpass
import os
import sys
from pathlib import Path
from typing import Any

import httpx


class RestoreError(Exception):
    """Why the station cannot be restored, in words for the person at the terminal."""


def _refused(what: str, r: httpx.Response) -> RestoreError:
    try:
        why = str(r.json().get("error") or "")
    except (ValueError, AttributeError):
        why = ""
    return RestoreError(f"{what}: the platform answered HTTP {r.status_code}" + (f" ({why})" if why else ""))


async def _register_again(url: str, slug: str, email: str, password: str, sid: str, name: str) -> dict[str, Any]:
    """Sign in, revoke the lost registration, register the same station id again; answers the
    tenant (id, slug, name, modules), the new secret and the platform's last sequence number."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        try:
            r = await http.post("/api/auth/login", json={"email": email, "password": password})
        except httpx.HTTPError as exc:
            raise RestoreError(f"the platform cannot be reached ({type(exc).__name__})") from exc
        if r.status_code != 200:
            raise _refused("signing in failed", r)
        me = r.json()["data"]
        tenant = next((t for t in me["tenants"] if t["slug"] == slug), None)
        if tenant is None:
            raise RestoreError(f"{email} is not a member of tenant {slug!r} on the platform")
        h = {"Authorization": f"Bearer {me['token']}"}
        base = f"/api/tenants/{slug}/sync/stations"
        gone = await http.delete(f"{base}/{sid}", headers=h)
        if gone.status_code == 404:
            raise RestoreError(
                f"station {sid!r} is not registered with the platform for {slug} "
                "(the platform's Sync stations list names them); register a new station without --restore"
            )
        if gone.status_code != 200:
            raise _refused("revoking the lost registration failed", gone)
        made = await http.post(base, json={"stationId": sid, "name": name}, headers=h)
        if made.status_code != 201:
            raise _refused("registering the station again failed", made)
        return {"tenant": tenant, **made.json()["data"]}


def restore_station(data_dir: Path, url: str, slug: str, email: str, sid: str, name: str | None) -> int:
    from sqlalchemy import insert

    from app.station import open_station
    from local_db.models import Counter, Tenant
    from services.sync import station as st
    from services.sync.client import SyncError, take_leases
    from services.sync.engine import SyncEngine
    from services.sync.words import status_text

    if data_dir.exists() and any(data_dir.iterdir()):
        print(f"register-station: {data_dir} is not empty; --restore takes a new or empty data dir", file=sys.stderr)
        return 1
    password = os.environ.get("PLATFORM_PASSWORD") or getpass.getpass(f"Password of {email} on the platform: ")
    try:
        answer = asyncio.run(_register_again(url, slug, email, password, sid, name or sid))
    except RestoreError as exc:
        print(f"register-station: {exc}", file=sys.stderr)
        return 1
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "station-id").write_text(sid)
    rt = open_station(data_dir)
    try:
        t = answer["tenant"]
        with rt.db.transaction(None) as s:
            # The tenant's row, enough to link; the pull below brings the platform's whole row.
            s.execute(insert(Tenant).values(id=t["id"], slug=t["slug"], name=t["name"], modules=t["modules"]))
            # The next change made here takes the number after the last one the platform applied from
            # this station: lower numbers would be answered as repeats of the lost station's changes.
            s.execute(insert(Counter).values(scope=t["id"], name="outbox", value=int(answer["lastSeq"])))
        st.save_link(rt, t["id"], url, sid, answer["secret"])

        async def pull() -> str:
            await take_leases(rt, t["id"])
            engine = SyncEngine(rt, t["id"])
            try:
                return status_text(await engine.sync_once())[0]
            finally:
                await engine.stop()

        try:
            state = asyncio.run(pull())
        except SyncError as exc:
            print(f"register-station: registered again, but the first sync failed: {exc.message}", file=sys.stderr)
            print("run `python -m app sync --data-dir DIR --once` to pull the records", file=sys.stderr)
            return 1
        print(f"station {sid} restored from {url} for {slug}: {state}")
        print("changes this station had made and not yet sent to the platform are not there, and are lost")
        return 0
    finally:
        rt.db.dispose()

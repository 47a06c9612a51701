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
from typing import Any

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


NOT_REGISTERED = "sync: this station is not registered with a platform (python -m app register-station)"
# How a choice is typed on the command line, and back.
CLI_CHOICES = {"retry": "retry", "discard": "discard", "keep-theirs": "keep_theirs"}


def _ctx(rt: Any, link: Any) -> Any:
    """The station acting for its operator on the command line (every module: it only decides sync issues)."""
    from services.core import auth
    from services.core.context import SYSTEM, Ctx

    return Ctx(rt, auth.load_tenant(rt.db, link.slug), SYSTEM)


def issue_lines(ctx: Any) -> list[str]:
    """Each sync issue in words: what it was, why, and the commands that decide it."""
    from services.sync import station as st
    from services.sync.words import describe, record_label, why_text

    out = []
    for issue in st.issues(ctx):
        short = issue.id[:8]
        kind = "conflict" if issue.status == "conflict" else "refused"
        out.append(f"  issue {short} ({kind}): {describe(issue, record_label(ctx, issue))}")
        out += [f"    {line}" for line in why_text(issue).splitlines()]
        choices = ", ".join(f"sync {c} {short}" for c, v in CLI_CHOICES.items() if v in issue.choices)
        out.append(f"    Choose: {choices}")
    return out


def _report(rt: Any, link: Any, state: str) -> None:
    from services.sync import station as st
    from services.sync.words import issues_text

    n = st.issue_count(rt, link.tenant_id)
    print(f"{link.slug}: {state}" + (f" · {issues_text(n)}" if n else ""), flush=True)
    for line in issue_lines(_ctx(rt, link)):
        print(line, flush=True)


def run_sync(
    data_dir: Path, once: bool, interval: float, resync: bool = False, *, batch: int = 200, max_backoff: float = 60.0
) -> int:
    """Run the engine until stopped, one round (``once``), or a full re-download a person asked
    for (``resync``: every record pulled again from the beginning, with progress; nothing cleared)."""
    from services.sync import station as st
    from services.sync.client import SyncError
    from services.sync.engine import Backoff, SyncEngine, SyncStatus
    from services.sync.words import difference_text, offline_text, status_text

    station_id(data_dir)
    rt = open_station(data_dir)
    linked = st.links(rt)
    if not linked:
        print(NOT_REGISTERED, file=sys.stderr)
        return 2

    shown: dict[str, str] = {}

    def progress(slug: str) -> Any:
        def say(s: SyncStatus) -> None:
            if s.resyncing and s.to_pull and (line := f"{slug}: {status_text(s)[0]}") != shown.get(slug):
                shown[slug] = line
                print(line, flush=True)

        return say

    async def go() -> int:
        engines = [
            SyncEngine(
                rt,
                link.tenant_id,
                interval=interval,
                batch=batch,
                backoff=Backoff(cap=max_backoff),
                on_status=progress(link.slug) if resync else None,
            )
            for link in linked
        ]
        if once or resync:
            failed = 0
            for link, engine in zip(linked, engines, strict=True):
                try:
                    s = await (engine.resync() if resync else engine.sync_once())
                    state = status_text(s)[0]
                    if s.difference:
                        state += f"\n  {difference_text(s.difference, s.difference_at)}"
                except SyncError as exc:
                    failed += 1
                    waiting = await asyncio.to_thread(st.pending_count, rt, link.tenant_id)
                    words = offline_text(waiting) if exc.kind == "offline" else f"Sync error: {exc.message}"
                    state = f"{words} ({exc.message})" if exc.kind == "offline" else words
                finally:
                    await engine.stop()
                await asyncio.to_thread(_report, rt, link, state)
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


def list_issues(data_dir: Path) -> int:
    """``sync issues``: each tenant's waiting count and sync issues, without syncing."""
    from services.sync import station as st
    from services.sync.words import clock_text, waiting_text

    rt = open_station(data_dir)
    try:
        linked = st.links(rt)
        if not linked:
            print(NOT_REGISTERED, file=sys.stderr)
            return 2
        for link in linked:
            waiting = waiting_text(st.pending_count(rt, link.tenant_id))
            last = link.last_sync_at
            state = f"last synced {clock_text(last)} · {waiting}" if last else f"never synced · {waiting}"
            _report(rt, link, state)
        return 0
    finally:
        rt.db.dispose()


def decide(data_dir: Path, action: str, issue_id: str) -> int:
    """``sync retry|discard|keep-theirs ID``: a person's decision on one sync issue (ID: its first characters)."""
    from services.core.errors import ServiceError
    from services.sync import station as st
    from services.sync.engine import SyncEngine
    from services.sync.words import describe

    choice = CLI_CHOICES[action]
    rt = open_station(data_dir)
    try:
        found = [(link, i) for link in st.links(rt) for i in st.issues(_ctx(rt, link)) if i.id.startswith(issue_id)]
        if len(found) != 1:
            why = "no sync issue starts with" if not found else "more than one sync issue starts with"
            print(f"sync {action}: {why} {issue_id!r}; `sync issues` lists them", file=sys.stderr)
            return 1
        link, issue = found[0]
        if choice not in issue.choices:
            allowed = ", ".join(c for c, v in CLI_CHOICES.items() if v in issue.choices)
            print(f"sync {action}: not a choice for this issue (choose: {allowed})", file=sys.stderr)
            return 1

        async def go() -> bool:
            engine = SyncEngine(rt, link.tenant_id)
            try:
                return await engine.resolve(_ctx(rt, link), issue.id, choice)  # type: ignore[arg-type]
            finally:
                await engine.stop()

        try:
            fetched = asyncio.run(go())
        except ServiceError as exc:
            print(f"sync {action}: {exc.message}", file=sys.stderr)
            return 1
        what = describe(issue)
        done = {
            "retry": f"{what}: sent again at the end of the queue (next sync).",
            "discard": f"{what}: the change made here was dropped.",
            "keep_theirs": f"{what}: kept the platform's version; the change made here was dropped.",
        }[choice]
        print(done)
        if not fetched:
            print(
                "The platform's version could not be taken now (offline, or changes wait to be sent); "
                "it shows here once the record changes there."
            )
        return 0
    finally:
        rt.db.dispose()

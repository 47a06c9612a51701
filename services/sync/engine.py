"""The station's sync engine: one per linked tenant, on the asyncio loop (qasync in the desktop).

A round: check the platform's clock, push the outbox in order in batches,
pull the platform's changes since the cursor page by page, and compare record
counts when caught up. Rounds run when a local change is committed (``wake``),
on a timer, and after a failure with exponential back-off and full jitter.
Database work runs in worker threads, never on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

from services.core.context import Ctx, Runtime
from services.sync import bulk
from services.sync import station as st
from services.sync.client import PlatformClient, SyncError
from services.sync.protocol import CLOCK_TOLERANCE
from services.sync.schemas import Change, EntryAnswer, PullOut

log = logging.getLogger("services.sync")
# Records asked for by id in one request (the route's ids are at most 4,000 characters).
ROWS_PER_REQUEST = 100

State = Literal["unlinked", "offline", "syncing", "error", "idle"]


@dataclass(frozen=True)
class SyncStatus:
    state: State
    pending: int = 0
    issues: int = 0
    last_sync_at: datetime | None = None
    message: str = ""
    # Pull progress of the current round: records received, and an estimate of the total.
    pulled: int = 0
    to_pull: int = 0
    # The last difference from the platform a check found (and repaired), by table: (records
    # fetched, records removed), and when. Kept (a defect to report) until a full re-download.
    difference: dict[str, tuple[int, int]] = field(default_factory=dict)
    difference_at: datetime | None = None
    resyncing: bool = False  # a full re-download a person asked for is running


@dataclass
class Backoff:
    """Exponential back-off with full jitter (AWS architecture blog), capped."""

    base: float = 1.0
    cap: float = 60.0
    failures: int = 0

    def next_delay(self) -> float:
        self.failures += 1
        return random.uniform(self.base / 2, min(self.cap, self.base * 2**self.failures))

    def reset(self) -> None:
        self.failures = 0


class SyncEngine:
    def __init__(
        self,
        rt: Runtime,
        tenant_id: str,
        *,
        on_status: Callable[[SyncStatus], None] | None = None,
        interval: float = 15.0,
        batch: int = 200,
        page: int = 1000,
        backoff: Backoff | None = None,
        client_factory: Callable[[st.Link], PlatformClient] = PlatformClient,
    ) -> None:
        self.rt, self.tenant_id = rt, tenant_id
        self.on_status = on_status
        self.interval, self.batch, self.page = interval, batch, page
        self.backoff = backoff or Backoff()
        self.client_factory = client_factory
        self.status = SyncStatus("offline")
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._client: PlatformClient | None = None
        self._round = asyncio.Lock()
        self._files_sent: set[str] = set()

    # --- status -------------------------------------------------------------------------------

    def _set(self, **changes: object) -> None:
        self.status = replace(self.status, **changes)  # type: ignore[arg-type]
        if self.on_status is not None:
            try:
                self.on_status(self.status)
            except Exception:  # noqa: BLE001 - a listener's failure must not stop sync
                log.exception("sync status listener failed")

    async def _counts(self) -> None:
        pending, issues = await asyncio.to_thread(self._local_counts)
        self._set(pending=pending, issues=issues)

    def _local_counts(self) -> tuple[int, int]:
        return st.pending_count(self.rt, self.tenant_id), st.issue_count(self.rt, self.tenant_id)

    # --- running -----------------------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._stopping = False
            self._task = asyncio.ensure_future(self.run())

    async def stop(self) -> None:
        if self._task is not None:
            self._stopping = True  # a cancel swallowed by a library still ends the loop
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def wake(self) -> None:
        """A local change was committed: sync soon (thread-safe through the loop)."""
        self._wake.set()

    async def run(self) -> None:
        while not self._stopping:
            delay = self.interval
            self._wake.clear()  # a wake during the round below starts the next one at once
            try:
                await self.sync_once()
                self.backoff.reset()
            except SyncError as exc:
                delay = self.backoff.next_delay() if exc.retry else max(self.interval, 60.0)
                state: State = "offline" if exc.kind == "offline" else "error"
                self._set(state=state, message=exc.message)
                log.info("sync %s: %s (next try in %.1f s)", exc.kind, exc.message, delay)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - an unexpected failure: say so, back off, go on
                log.exception("sync round failed")
                delay = self.backoff.next_delay()
                self._set(state="error", message=f"sync failed: {type(exc).__name__}")
            try:
                await self._counts()
            except Exception:  # noqa: BLE001 - the status line can wait for the next round
                log.exception("reading the outbox counts failed")
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for loses a cancel that arrives as
            # the wake is set (a commit at sign-out), and stop() then waits for ever.
            try:
                async with asyncio.timeout(delay):
                    await self._wake.wait()
                await asyncio.sleep(0.05)  # let a burst of scans land in one batch
            except TimeoutError:
                pass

    # --- one round ---------------------------------------------------------------------------------

    async def sync_once(self) -> SyncStatus:
        async with self._round:
            return await self._round_locked()

    async def _round_locked(self) -> SyncStatus:
        link = await asyncio.to_thread(st.link_for, self.rt, self.tenant_id)
        if link is None:
            await self._counts()
            self._set(state="unlinked", message="this station is not registered with a platform for this tenant")
            return self.status
        if self._client is None or self._client.link != link:
            if self._client is not None:
                await self._client.aclose()
            self._client = self.client_factory(link)
            self._client.clock = self.rt.clock
        client = self._client
        self._set(state="syncing", message="", pulled=0, to_pull=0)
        try:
            if link.secret.startswith("pk_"):
                await self._push_fallback(link, client)
            else:
                await self._check_clock(client)
                await self._push(link, client)
                await self._renew_leases(client)
                await self._pull(link, client)
        except SyncError as exc:
            await asyncio.to_thread(st.note_sync, self.rt, self.tenant_id, ok=False, error=exc.message)
            self._set(state="offline" if exc.kind == "offline" else "error", message=exc.message)
            raise
        await asyncio.to_thread(st.note_sync, self.rt, self.tenant_id, ok=True)
        await self._counts()
        self._set(state="idle", last_sync_at=self.rt.clock.now(), message="")
        return self.status

    async def _check_clock(self, client: PlatformClient) -> None:
        remote = await client.status()
        skew = (self.rt.clock.now() - remote.serverTime).total_seconds()
        if abs(skew) > CLOCK_TOLERANCE:
            raise SyncError(
                "clock",
                f"this station's clock is {abs(skew) / 60:.0f} min {'ahead of' if skew > 0 else 'behind'} the "
                "platform's; sync waits until the clock is right",
                retry=True,
            )

    async def _push(self, link: st.Link, client: PlatformClient) -> None:
        while True:
            batch = await asyncio.to_thread(st.next_batch, self.rt, link, self.batch)
            if not batch.entries:
                return
            await self._send_files(link, client, batch.entries)
            out = await client.push(batch.entries)
            try:
                outcome = await asyncio.to_thread(st.record_answers, self.rt, self.tenant_id, batch, out.answers)
            except st.SequenceLost as exc:
                raise SyncError("refused", str(exc), retry=False) from exc
            if outcome.sent:
                self.backoff.reset()  # changes are getting through: a later failure starts short again
            await self._counts()
            if outcome.retry:
                raise SyncError("server", "the platform could not apply a change; it is sent again later", retry=True)

    async def _send_files(self, link: st.Link, client: PlatformClient, entries: list[dict[str, Any]]) -> None:
        """Uploads' bytes go first (content-addressed, so sending one twice is harmless)."""
        for e in entries:
            f = e.get("file")
            if f and not e["void"] and f["sha256"] not in self._files_sent:
                content = await asyncio.to_thread(st.file_bytes, self.rt, link.tenant_id, f["sha256"])
                await client.put_file(f["sha256"], content, f["content_type"])
                self._files_sent.add(f["sha256"])

    async def _renew_leases(self, client: PlatformClient) -> None:
        for counter in await asyncio.to_thread(st.leases_to_renew, self.rt, self.tenant_id):
            block = await client.lease(counter)
            await asyncio.to_thread(st.apply_lease, self.rt, self.tenant_id, counter, block.start, block.end)

    async def _push_fallback(self, link: st.Link, client: PlatformClient) -> None:
        """Plain spec calls, one by one, each with its Idempotency-Key. Such a platform gives
        records it creates its own ids: later calls naming them are rewritten to those."""
        ids = await asyncio.to_thread(st.id_map, self.rt, self.tenant_id)
        while True:
            batch = await asyncio.to_thread(st.next_batch, self.rt, link, self.batch)
            if not batch.entries:
                return
            for entry in batch.entries:
                seq = int(entry["seq"])
                if entry["void"]:
                    answer = EntryAnswer(seq=seq, status="void")
                else:
                    sent = _rewrite(entry, ids)
                    if entry.get("file"):
                        content = await asyncio.to_thread(
                            st.file_bytes, self.rt, link.tenant_id, entry["file"]["sha256"]
                        )
                        sent = {**sent, "content": content}
                    answer = await client.replay(sent)
                    made, theirs = batch.made.get(seq), answer.result
                    if (
                        answer.status == "applied"
                        and made
                        and isinstance(theirs, dict)
                        and theirs.get("id") not in (None, made)
                    ):
                        ids[made] = str(theirs["id"])
                        answer = EntryAnswer(seq=seq, status="applied", result={"platform_id": ids[made]})
                one = st.Batch([entry], batch.voided)
                outcome = await asyncio.to_thread(st.record_answers, self.rt, self.tenant_id, one, [answer])
                if outcome.retry:
                    raise SyncError(
                        "server", "the platform could not apply a change; it is sent again later", retry=True
                    )
            await self._counts()

    async def _pull(self, link: st.Link, client: PlatformClient, *, checked: bool = False) -> None:
        cursor = (await asyncio.to_thread(st.link_for, self.rt, self.tenant_id) or link).cursor
        pulled = 0
        suspended = False
        ahead: asyncio.Task[PullOut] | None = None
        try:
            while True:
                page = await (ahead or client.pull(cursor, self.page))
                # The next page is asked for while this one is written: the platform reads and the
                # station writes at the same time (a long pull takes the longer of the two, not both).
                ahead = asyncio.ensure_future(client.pull(page.cursor, self.page)) if page.more else None
                if not suspended and not cursor and page.more and page.remaining >= bulk.SUSPEND_FROM:
                    suspended = bool(await asyncio.to_thread(bulk.suspend_search, self.rt))
                applied = await asyncio.to_thread(st.apply_changes, self.rt, self.tenant_id, page.changes, page.cursor)
                if not applied:
                    # A change was made here meanwhile: send it first, then pull this page again.
                    await _drop(ahead)
                    ahead = None
                    await self._push(link, client)
                    continue
                pulled += len(page.changes)
                cursor = page.cursor
                self._set(pulled=pulled, to_pull=pulled + page.remaining)
                if not page.more:
                    break
        finally:
            await _drop(ahead)
            if suspended:
                await asyncio.to_thread(bulk.resume_search, self.rt)
        if not checked:
            await self._check_counts(link, client, cursor)

    async def _check_counts(self, link: st.Link, client: PlatformClient, cursor: str) -> None:
        """Caught up with nothing waiting: the station must hold what the platform holds. A
        difference is a defect: it is narrowed to the tables and records that differ, those are
        fetched or removed (nothing else is touched), and it is logged and shown with the tables."""
        if await asyncio.to_thread(self._local_counts) != (0, 0):
            return  # waiting changes and open sync issues explain a difference until they are settled
        remote = await client.counts()
        if remote.cursor != cursor:
            return  # the platform moved on meanwhile; the next round compares
        if remote.digests:
            mine = await asyncio.to_thread(st.local_digests, self.rt, self.tenant_id)
            tables = [t for t, d in remote.digests.items() if mine.get(t) != d]
        else:  # a platform that sends counts only
            counted = await asyncio.to_thread(st.local_counts, self.rt, self.tenant_id)
            tables = [t for t, n in remote.counts.items() if counted.get(t, 0) != n]
        difference: dict[str, tuple[int, int]] = {}
        for table in tables:
            theirs = await client.ids(table)
            mine_ids = await asyncio.to_thread(st.local_ids, self.rt, self.tenant_id, table)
            missing, extra = sorted(theirs - mine_ids), sorted(mine_ids - theirs)
            fetched: list[Change] = []
            for i in range(0, len(missing), ROWS_PER_REQUEST):
                fetched += (await client.rows(missing[i : i + ROWS_PER_REQUEST], table=table)).changes
            if not await asyncio.to_thread(st.repair, self.rt, self.tenant_id, table, fetched, extra):
                return  # a change was made here meanwhile: the next round compares again
            if missing or extra:
                difference[table] = (len(missing), len(extra))
        if difference:
            said = ", ".join(f"{t} ({m} fetched, {x} removed)" for t, (m, x) in difference.items())
            log.warning("sync: records differ from the platform's after a sync: %s; repaired those records", said)
            self._set(difference=difference, difference_at=self.rt.clock.now())

    async def resync(self) -> SyncStatus:
        """A person's full re-download: the changes waiting here go first, then every record of the
        platform is pulled again from the beginning (with progress), and records the platform no
        longer holds are removed. Nothing is cleared first: the records stay usable throughout."""
        link = await asyncio.to_thread(st.link_for, self.rt, self.tenant_id)
        if link is None or link.secret.startswith("pk_"):
            raise SyncError("refused", "this station is not registered with a platform that serves sync", retry=False)
        async with self._round:  # no other round moves the cursor between the restart and the pull
            self._set(resyncing=True, difference={}, difference_at=None)
            try:
                await asyncio.to_thread(st.restart_pull, self.rt, self.tenant_id)
                return await self._round_locked()
            finally:
                self._set(resyncing=False)

    async def resolve(self, ctx: Ctx, entry_id: str, choice: st.Choice) -> bool:
        """A person's decision on a sync issue, then the platform's version of what it touched;
        no round runs in between (it would count the dropped change's records as missing there).
        False when the platform's records could not be taken now (offline, changes waiting)."""
        async with self._round:
            ids = await asyncio.to_thread(st.resolve_issue, ctx, entry_id, choice)
            if choice == "retry" or not ids:
                return True
            try:
                return await self._fetch_rows(ids)
            except SyncError:
                return False

    async def fetch_rows(self, ids: list[str]) -> bool:
        """Take the platform's current version of these records (after "keep theirs")."""
        async with self._round:
            return await self._fetch_rows(ids)

    async def _fetch_rows(self, ids: list[str]) -> bool:
        link = await asyncio.to_thread(st.link_for, self.rt, self.tenant_id)
        if link is None or not ids or link.secret.startswith("pk_"):
            return False
        if self._client is None:
            self._client = self.client_factory(link)
        page = await self._client.rows(ids)
        return await asyncio.to_thread(st.take_theirs, self.rt, self.tenant_id, ids, page.changes)


def _rewrite(entry: dict[str, Any], ids: dict[str, str]) -> dict[str, Any]:
    """The entry with station-made ids replaced by the platform's (path segments and body values)."""
    if not ids:
        return {**entry, "path": st.without_base(str(entry["path"]))}

    def swap(v: Any) -> Any:
        if isinstance(v, str):
            return ids.get(v, v)
        if isinstance(v, list):
            return [swap(x) for x in v]
        if isinstance(v, dict):
            return {k: swap(x) for k, x in v.items()}
        return v

    # A spec-only platform knows no delete versions: the delete goes as a plain spec call.
    path = "/".join(ids.get(seg, seg) for seg in st.without_base(str(entry["path"])).split("/"))
    return {**entry, "path": path, "body": swap(entry.get("body"))}


async def _drop(task: asyncio.Task[PullOut] | None) -> None:
    """A page asked for ahead and no longer wanted: cancelled, its outcome (an error too) ignored."""
    if task is not None:
        task.cancel()
        await asyncio.wait({task})  # a cancellation of this caller still reaches it
        if not task.cancelled():
            task.exception()  # retrieved: an error of a page nobody reads is not logged as unhandled

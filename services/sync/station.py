"""The station's side of sync, in its own database (blocking; the engine runs these off the loop).

- the link to the platform per tenant (station id, sealed secret, pull cursor);
- the next batch of outbox entries, checked against the station's own
  signature and signed again with the platform-issued secret;
- the platform's answers, recorded so that a kill never loses or doubles one;
- pulled pages applied in one transaction each, only when no change of the
  tenant waits to be sent (the platform's state would hide it until then);
- sync issues: refused changes waiting for a person's decision.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal
from urllib.parse import parse_qsl, urlencode, urlsplit

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Connection

from local_db import new_id
from local_db.base import table_of
from local_db.models import Counter, Event, OutboxEntry, Tenant
from local_db.models.sync import SyncLink
from services.core.commands import (
    BASE_PARAM,
    LEASE_END,
    LEASED_COUNTERS,
    SIGNED_FIELDS,
    next_counter,
    outbox_row,
    sign_entry,
)
from services.core.context import SYSTEM, Ctx, Runtime
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.sealing import seal, unseal
from services.core.storage import blob_folder
from services.sync import protocol as p
from services.sync.kinds import OUTBOX_KIND, kinds_of_tables
from services.sync.schemas import Change, EntryAnswer
from services.sync.states import ISSUE_STATES, OUTBOX

# A change the platform failed to apply this many times (its answer was
# "retry") is voided and shown as a sync issue, so the queue behind it moves.
MAX_ATTEMPTS = 5
# Under the platform's 1 MiB request limit, with room for the envelope.
MAX_BATCH_BYTES = 768 * 1024
_OUTBOX = table_of(OutboxEntry)
_EVENTS = table_of(Event)


@dataclass(frozen=True)
class Link:
    tenant_id: str
    slug: str
    station_id: str
    platform_url: str
    secret: str
    cursor: str
    last_sync_at: datetime | None
    last_error: str | None


def save_link(rt: Runtime, tenant_id: str, platform_url: str, station_id: str, secret: str) -> None:
    """Keep the platform-issued secret (sealed with the station's key) and start pulling from the beginning."""
    with rt.db.transaction(tenant_id) as s:
        link = s.execute(select(SyncLink)).scalar_one_or_none()
        if link is None:
            link = SyncLink(id=new_id(), tenant_id=tenant_id, cursor="")
            s.add(link)
        if link.platform_url != platform_url:
            link.cursor = ""  # another platform: its cursor means nothing here
        link.station_id, link.platform_url = station_id, platform_url.rstrip("/")
        link.secret_sealed, link.registered_at, link.last_error = seal(rt.secret_key, secret), rt.clock.now(), None


def links(rt: Runtime) -> list[Link]:
    with rt.db.reading(None) as s:
        rows = s.execute(select(SyncLink, Tenant.slug).join(Tenant, Tenant.id == SyncLink.tenant_id)).all()
    return [
        Link(
            l.tenant_id,
            slug,
            l.station_id,
            l.platform_url,
            unseal(rt.secret_key, l.secret_sealed),
            l.cursor,
            l.last_sync_at,
            l.last_error,
        )
        for l, slug in rows  # noqa: E741
    ]


def link_for(rt: Runtime, tenant_id: str) -> Link | None:
    return next((link for link in links(rt) if link.tenant_id == tenant_id), None)


def note_sync(rt: Runtime, tenant_id: str, *, ok: bool, error: str | None = None) -> None:
    with rt.db.transaction(tenant_id) as s:
        values: dict[str, Any] = {"last_error": error}
        if ok:
            values["last_sync_at"] = rt.clock.now()
        s.execute(update(SyncLink).where(SyncLink.tenant_id == tenant_id).values(**values))


# --- push ---------------------------------------------------------------------------------------


@dataclass
class Batch:
    entries: list[dict[str, Any]]  # wire entries (services.sync.schemas.PushEntry)
    voided: dict[int, dict[str, Any]]  # seq -> why it goes void (the issue shown)
    made: dict[int, str] = field(default_factory=dict)  # seq -> id of the record the change made here


def pending_count(rt: Runtime, tenant_id: str) -> int:
    with rt.db.reading(tenant_id) as s:
        n = s.execute(select(func.count()).select_from(OutboxEntry).where(OutboxEntry.status == "pending")).scalar_one()
    return int(n)


def issue_count(rt: Runtime, tenant_id: str) -> int:
    with rt.db.reading(tenant_id) as s:
        n = s.execute(
            select(func.count()).select_from(OutboxEntry).where(OutboxEntry.status.in_(ISSUE_STATES))
        ).scalar_one()
    return int(n)


def next_batch(rt: Runtime, link: Link, limit: int = 250) -> Batch:
    """The oldest waiting changes in order, each checked and signed for the platform."""
    with rt.db.reading(link.tenant_id) as s:
        rows = (
            s.execute(
                select(OutboxEntry)
                .where(OutboxEntry.status == "pending")
                .order_by(OutboxEntry.station_seq)
                .limit(limit)
            )
            .scalars()
            .all()
        )
    batch = Batch([], {})
    size = 0
    key = link.secret.encode()
    for r in rows:
        local = {k: getattr(r, k) for k in SIGNED_FIELDS}
        signed = dict(local, station_id=link.station_id)  # the id the platform knows this station by
        void = False
        if not hmac.compare_digest(sign_entry(rt.station_key or b"", local), r.signature or ""):
            void = True
            batch.voided[r.station_seq] = {
                "code": "TAMPERED",
                "error": "this change was altered in the station's database after it was made; it was not sent",
            }
        elif r.attempts >= MAX_ATTEMPTS:
            void = True
            batch.voided[r.station_seq] = {
                "code": "PLATFORM_FAILED",
                "error": f"the platform failed to apply it {r.attempts} times: {r.last_error}",
            }
        wire = {k: v for k, v in signed.items() if k not in ("station_id", "tenant_id", "station_seq")}
        wire.update(
            seq=r.station_seq, created_at=r.created_at.isoformat(), void=void, signature=sign_entry(key, signed)
        )
        size += len(str(wire))
        if batch.entries and size > MAX_BATCH_BYTES:
            break
        batch.entries.append(wire)
        if r.result_id:
            batch.made[r.station_seq] = r.result_id
    return batch


def file_bytes(rt: Runtime, tenant_id: str, sha256: str) -> bytes:
    return (blob_folder(rt.data_dir, tenant_id) / sha256).read_bytes()


def id_map(rt: Runtime, tenant_id: str) -> dict[str, str]:
    """Records made here that a platform without sync routes gave other ids: station id -> platform id."""
    with rt.db.reading(tenant_id) as s:
        rows = s.execute(
            select(OutboxEntry.result_id, OutboxEntry.answer).where(
                OutboxEntry.status == "sent", OutboxEntry.result_id.is_not(None), OutboxEntry.answer.is_not(None)
            )
        ).all()
    return {rid: str(a["platform_id"]) for rid, a in rows if isinstance(a, dict) and a.get("platform_id")}


@dataclass
class Outcome:
    sent: int = 0
    issues: int = 0
    retry: bool = False
    gap: int | None = None  # the sequence number the platform expects


def record_answers(rt: Runtime, tenant_id: str, batch: Batch, answers: Iterable[EntryAnswer]) -> Outcome:
    """Write the platform's answers to the outbox in one transaction."""
    out = Outcome()
    now = rt.clock.now()
    made = {int(e["seq"]): list(e.get("ids") or []) for e in batch.entries}
    with rt.db.transaction(tenant_id) as s:
        conn = s.connection()
        for a in answers:
            where = (
                (_OUTBOX.c.tenant_id == tenant_id) & (_OUTBOX.c.station_seq == a.seq) & (_OUTBOX.c.status == "pending")
            )
            # A duplicate was answered before (that answer was lost): record the first outcome.
            status: str = (a.first or "applied") if a.status == "duplicate" else a.status
            if status in ("applied", "duplicate"):
                mapped = a.result.get("platform_id") if isinstance(a.result, dict) else None
                answer = {"platform_id": mapped} if mapped else None
                conn.execute(update(_OUTBOX).where(where).values(status="sent", sent_at=now, answer=answer))
                # The station's events of this change were emitted again by the platform's
                # replay under the same ids (the id plan): they have reached it.
                if made.get(a.seq):
                    conn.execute(update(_EVENTS).where(_EVENTS.c.id.in_(made[a.seq])).values(synced_at=now))
                out.sent += 1
            elif status == "void":
                why = batch.voided.get(a.seq) or a.error or {"code": "VOID", "error": "not applied"}
                conn.execute(update(_OUTBOX).where(where).values(status="rejected", sent_at=now, answer=why))
                out.issues += 1
            elif status in ISSUE_STATES:
                conn.execute(update(_OUTBOX).where(where).values(status=status, sent_at=now, answer=a.error))
                out.issues += 1
            elif status == "retry":
                conn.execute(
                    update(_OUTBOX)
                    .where(where)
                    .values(attempts=_OUTBOX.c.attempts + 1, last_error=str((a.error or {}).get("error")))
                )
                out.retry = True
            elif status == "gap":
                out.gap = a.expected
    rt.announce(tenant_id, frozenset({OUTBOX_KIND}), origin="local")  # "changes waiting", sync issues
    if out.gap is not None:
        requeue_from(rt, tenant_id, out.gap)
    return out


class SequenceLost(Exception):
    """The platform lacks changes this station no longer sends (it had set them aside)."""


def requeue_from(rt: Runtime, tenant_id: str, seq: int) -> None:
    """The platform lacks changes from ``seq`` on (its database was restored, or it is a new one):
    send the ones it had applied again. Ones a person set aside cannot be sent as they were:
    that is said, not looped on."""
    with rt.db.transaction(tenant_id) as s:
        s.execute(
            update(OutboxEntry)
            .where(OutboxEntry.station_seq >= seq, OutboxEntry.status == "sent")
            .values(status="pending", attempts=0)
        )
        first = s.execute(
            select(func.min(OutboxEntry.station_seq)).where(OutboxEntry.status == "pending")
        ).scalar_one_or_none()
    rt.announce(tenant_id, frozenset({OUTBOX_KIND}), origin="local")
    if first is not None and first > seq:
        raise SequenceLost(
            f"the platform has no record of this station's changes {seq} to {first - 1}, which were set aside "
            "here; register the station again to start a new sequence"
        )


# --- number leases -----------------------------------------------------------------------------


def leases_to_renew(rt: Runtime, tenant_id: str) -> list[str]:
    """Leased counters with no block yet or less than a quarter of one left."""
    out = []
    with rt.db.reading(None) as s:
        for name, block in LEASED_COUNTERS.items():
            rows = dict(
                s.execute(
                    select(Counter.name, Counter.value).where(
                        Counter.scope == tenant_id, Counter.name.in_([name, name + LEASE_END])
                    )
                ).all()
            )
            end = rows.get(name + LEASE_END)
            if end is None or end - rows.get(name, 0) < block // 4:
                out.append(name)
    return out


def apply_lease(rt: Runtime, tenant_id: str, counter: str, start: int, end: int) -> None:
    """Count from the new block on (what is left of the old one is never used: values are never reused)."""
    table = table_of(Counter)
    with rt.db.transaction(None) as s:
        current = s.execute(
            select(Counter.value).where(Counter.scope == tenant_id, Counter.name == counter)
        ).scalar_one_or_none()
        if current is not None and current >= start:
            return  # an older answer arriving late: the block is behind us
        p.upsert(
            s.connection(),
            table,
            [
                {"scope": tenant_id, "name": counter, "value": start - 1},
                {"scope": tenant_id, "name": counter + LEASE_END, "value": end},
            ],
            ["scope", "name"],
        )


# --- pull ---------------------------------------------------------------------------------------


def apply_changes(rt: Runtime, tenant_id: str, changes: list[Change], cursor: str | None) -> bool:
    """Apply one page of platform changes (and move the cursor) in one transaction.

    Refused (False) while a change of this tenant waits to be sent: the
    platform's rows would hide it until it arrives there, so push first.
    Foreign keys are not checked here: a page may hold a child before the
    parent that a later page brings; the platform already checked them.
    """
    tables = p.synced_tables()
    for ch in changes:
        if ch.table not in tables:
            raise ValidationFailed(f"the platform sent rows of an unknown table {ch.table!r}")
        if ch.row is not None and not ch.deleted:
            owner = ch.row.get("id") if ch.table == "tenants" else ch.row.get("tenant_id", tenant_id)
            if ch.table != "users" and owner != tenant_id:
                raise ValidationFailed("the platform sent a record of another tenant", {"table": ch.table, "id": ch.id})
    order = list(tables)
    ups: dict[str, list[dict[str, Any]]] = {}
    dels: dict[str, list[str]] = {}
    for ch in changes:
        if ch.deleted or ch.row is None:
            dels.setdefault(ch.table, []).append(ch.id)
        else:
            ups.setdefault(ch.table, []).append(ch.row)
    with _cache_writer(rt, tenant_id) as conn:
        if conn is None:
            return False
        for name in order:
            if name in ups:
                p.upsert_pulled(conn, tables[name], ups[name])
        for name in reversed(order):
            if name in dels and name not in ("tenants", "users"):
                t = tables[name]
                conn.execute(delete(t).where(t.c.id.in_(dels[name]), t.c.tenant_id == tenant_id))
        if cursor is not None:
            conn.execute(update(SyncLink).where(SyncLink.tenant_id == tenant_id).values(cursor=cursor))
    # Open views that show what was pulled read again (the pull is a commit like a use case's).
    rt.announce(tenant_id, kinds_of_tables({*ups, *dels}), origin="pull", ids=frozenset(ch.id for ch in changes))
    return True


@contextmanager
def _cache_writer(rt: Runtime, tenant_id: str) -> Iterator[Connection | None]:
    """A write transaction on the station's cached records, without foreign-key checks.

    None when a change of this tenant waits to be sent (checked inside the
    transaction, so no change can slip in between).
    """
    with rt.db.engine.connect() as conn:
        sqlite = rt.db.is_sqlite
        if sqlite:  # only outside a transaction, so straight to the driver before BEGIN
            conn.connection.dbapi_connection.execute("PRAGMA foreign_keys=OFF")  # type: ignore[union-attr]
        try:
            with conn.execution_options(sqlite_begin="IMMEDIATE").begin():
                waiting = conn.execute(
                    select(func.count())
                    .select_from(_OUTBOX)
                    .where(_OUTBOX.c.tenant_id == tenant_id, _OUTBOX.c.status == "pending")
                ).scalar_one()
                yield None if waiting else conn
        finally:
            if sqlite:
                conn.connection.dbapi_connection.execute("PRAGMA foreign_keys=ON")  # type: ignore[union-attr]


def _tenant_ctx(rt: Runtime, tenant_id: str) -> Ctx:
    from services.core import auth

    with rt.db.reading(None) as s:
        t = s.get(Tenant, tenant_id)
        if t is None:
            raise NotFound("tenant not found")
        info = auth.tenant_info(t)
    return Ctx(rt, info, SYSTEM)


def local_counts(rt: Runtime, tenant_id: str) -> dict[str, int]:
    from services.sync.pull import table_counts

    return table_counts(_tenant_ctx(rt, tenant_id))


def local_digests(rt: Runtime, tenant_id: str) -> dict[str, str]:
    """Per synced table, the digest of this station's record ids (as the platform's ``/counts``)."""
    from services.sync.pull import table_digests

    return table_digests(_tenant_ctx(rt, tenant_id))


def local_ids(rt: Runtime, tenant_id: str, table: str) -> set[str]:
    from services.sync.pull import table_ids

    with rt.db.reading(None) as s:
        return set(table_ids(s.connection(), table, tenant_id))


def repair(rt: Runtime, tenant_id: str, table: str, fetched: list[Change], extra: list[str]) -> bool:
    """Take the platform's rows this station lacked and remove the ones only it held, in one
    transaction, nothing else touched. False while a change of the tenant waits to be sent
    (it may be what makes the difference)."""
    if any(c.table != table for c in fetched):
        raise ValidationFailed("the platform sent rows of another table than asked", {"table": table})
    gone = [Change(table=table, id=i, deleted=True) for i in extra]
    return apply_changes(rt, tenant_id, fetched + gone, None)


def restart_pull(rt: Runtime, tenant_id: str) -> None:
    """A person asked for a full re-download: the next pull starts at the beginning. Nothing is
    cleared: every record stays readable while the platform's rows replace it one page at a time."""
    with rt.db.transaction(tenant_id) as s:
        s.execute(update(SyncLink).where(SyncLink.tenant_id == tenant_id).values(cursor=""))


def clear_tenant_rows(rt: Runtime, tenant_id: str) -> None:
    """Drop this tenant's cached records and start pulling from the beginning.

    Never called by the sync itself (a station never clears records while a person works): only
    by a measurement of an empty station's pull (``tests/bench/bench_sync.py``)."""
    tables = p.synced_tables()
    with _cache_writer(rt, tenant_id) as conn:
        if conn is None:
            return
        for name, t in reversed(list(tables.items())):
            if "tenant_id" in t.c and name != "memberships":
                conn.execute(delete(t).where(t.c.tenant_id == tenant_id))
        conn.execute(update(SyncLink).where(SyncLink.tenant_id == tenant_id).values(cursor=""))
    rt.announce(tenant_id, kinds_of_tables(tables), origin="pull")


# --- sync issues --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Issue:
    id: str
    seq: int
    command: str
    method: str
    path: str
    status: str  # conflict, rejected
    code: str
    message: str
    details: dict[str, Any]
    created_at: datetime

    @property
    def choices(self) -> tuple[str, ...]:
        """keep_theirs (a conflict) and discard (a refusal) both drop this change and show the
        platform's version; retry sends it again at the end of the queue."""
        if self.status == "conflict":
            return ("keep_theirs", "retry")
        if self.code == "TAMPERED":
            return ("discard",)
        return ("retry", "discard")


def issues(ctx: Ctx) -> list[Issue]:
    with ctx.read() as s:
        rows = (
            s.execute(select(OutboxEntry).where(OutboxEntry.status.in_(ISSUE_STATES)).order_by(OutboxEntry.station_seq))
            .scalars()
            .all()
        )
    out = []
    for r in rows:
        a = r.answer or {}
        out.append(
            Issue(
                r.id,
                r.station_seq,
                r.command,
                r.method,
                r.path,
                r.status,
                str(a.get("code", "")),
                str(a.get("error", "")),
                dict(a.get("details") or {}),
                r.created_at,
            )
        )
    return out


def waiting_changes(ctx: Ctx, limit: int = 20) -> list[Issue]:
    """The first changes waiting to be sent, oldest first (shaped as issues, to be said in the same words)."""
    with ctx.read() as s:
        rows = (
            s.execute(
                select(OutboxEntry)
                .where(OutboxEntry.status == "pending")
                .order_by(OutboxEntry.station_seq)
                .limit(limit)
            )
            .scalars()
            .all()
        )
    out = []
    for r in rows:
        body = r.body if isinstance(r.body, dict) else {}
        action = body.get("operation") or body.get("action")  # an order's operation: "Ship order SO-1021"
        details: dict[str, Any] = {"action": str(action)} if action else {}
        if body.get("internal"):
            details["internal"] = True  # an internal note, said as such
        out.append(Issue(r.id, r.station_seq, r.command, r.method, r.path, r.status, "", "", details, r.created_at))
    return out


Choice = Literal["keep_theirs", "retry", "discard"]


def resolve_issue(ctx: Ctx, entry_id: str, choice: Choice) -> list[str]:
    """A person's decision on a refused change; answers the record ids to fetch again (keep theirs)."""
    fetch = _resolve_issue(ctx, entry_id, choice)
    ctx.runtime.announce(ctx.tenant_id, frozenset({OUTBOX_KIND}), origin="local")  # the issue count
    return fetch


def _resolve_issue(ctx: Ctx, entry_id: str, choice: Choice) -> list[str]:
    rt = ctx.runtime
    with rt.db.transaction(ctx.tenant_id) as s:
        e = s.execute(select(OutboxEntry).where(OutboxEntry.id == entry_id)).scalar_one_or_none()
        if e is None:
            raise NotFound("sync issue not found")
        if e.status not in ISSUE_STATES:
            raise Conflict("this change is no longer a sync issue", {"status": e.status})
        issue = Issue(
            e.id,
            e.station_seq,
            e.command,
            e.method,
            e.path,
            e.status,
            str((e.answer or {}).get("code", "")),
            "",
            {},
            e.created_at,
        )
        if choice not in issue.choices:
            raise ValidationFailed(f"{choice} is not a choice for this issue", {"choices": list(issue.choices)})
        e.status = OUTBOX.check(e.status, choice, "person")
        if choice == "retry":
            # Sent again at the end of the queue, under a new number and signature.
            # The same writer as the change itself (services.core.commands.outbox_row): the file it carried too.
            seq = next_counter(s.connection(), e.tenant_id, "outbox")
            copy = outbox_row(
                rt,
                e.tenant_id,
                seq,
                command=e.command,
                method=e.method,
                # A delete sent again is the person's "delete anyway": without the version it named.
                path=without_base(e.path),
                body=e.body,
                file=e.file,
                idempotency_key=None,
                actor_id=e.actor_id,
                ids=e.ids,
                result_id=e.result_id,
                created_at=rt.clock.now(),
            )
            s.connection().execute(_OUTBOX.insert(), copy)
            return []
        return record_ids(e.path, e.ids or [])


def take_theirs(rt: Runtime, tenant_id: str, wanted: list[str], changes: list[Change]) -> bool:
    """Apply the platform's version of ``wanted`` records; the ones it does not have were made
    only by the dropped change here, so they go. False while other changes wait to be sent."""
    known = {c.id for c in changes}
    gone = [i for i in wanted if i not in known]
    extra = [
        Change(table=name, id=i, deleted=True)
        for i in gone
        for name, t in p.synced_tables().items()
        if "tenant_id" in t.c
    ]
    return apply_changes(rt, tenant_id, changes + extra, None)


def without_base(path: str) -> str:
    """The path without the version a delete named (``?_base=``), its other query kept."""
    parts = urlsplit(path)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != BASE_PARAM]
    return parts.path + ("?" + urlencode(query) if query else "")


def record_ids(path: str, ids: list[str]) -> list[str]:
    """The records a change touched: identifiers in its path and the ones it made."""
    parts = [seg for seg in urlsplit(path).path.split("/") if len(seg) == 36 and seg.count("-") == 4]
    return list(dict.fromkeys(parts + list(ids)))

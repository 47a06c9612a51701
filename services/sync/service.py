"""The platform's side of sync: registered stations, the push of signed
changes, the pull of the change log.

A push applies its entries in order, in chunks of up to 50: one transaction
per chunk, a savepoint per entry. An entry's change, its receipt and the
station's new sequence number commit together: a kill at any point leaves all
of them or none (the open chunk is sent again), and a repeat is answered from
the receipt.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from pydantic import BaseModel
from sqlalchemy import bindparam, func, insert, select, tuple_, update
from sqlalchemy.exc import IntegrityError

from local_db.base import table_of
from local_db.models import IdempotencyRecord, Membership
from local_db.models.sync import SyncChange, SyncReceipt, SyncStation
from services.core import auth
from services.core.commands import (
    LEASED_COUNTERS,
    REGISTRY,
    Operation,
    entry_signing_payload,
    execute,
    next_counter,
    use_case,
)
from services.core.context import CommitInfo, Ctx, Principal
from services.core.errors import Conflict, NotFound, ServiceError, TenantInactive, Unauthorized, ValidationFailed
from services.core.files import Upload
from services.core.logsafe import bare_traceback
from services.core.pagination import ListQuery, Page, paginate
from services.core.roles import ANYONE, MANAGERS
from services.core.sealing import seal, unseal
from services.core.signing import sign
from services.core.storage import keep_blob, read_blob
from services.sync import protocol as p
from services.sync.changelog import defer_changes, next_entry, write_deferred
from services.sync.schemas import (
    Change,
    CountsOut,
    EntryAnswer,
    FileStored,
    LeaseIn,
    LeaseOut,
    PullOut,
    PullQuery,
    PushEntry,
    PushIn,
    PushOut,
    RowsQuery,
    StationCreate,
    StationCreated,
    StationOut,
    SyncStatusOut,
)

log = logging.getLogger("services.sync")

# --- stations -------------------------------------------------------------------------------


def _out(st: SyncStation) -> StationOut:
    return StationOut(
        id=st.id,
        stationId=st.station_id,
        name=st.name,
        createdAt=st.created_at,
        revokedAt=st.revoked_at,
        lastSeq=st.last_seq,
        lastSeenAt=st.last_seen_at,
    )


@use_case(
    "sync.stations.register",
    "POST /api/tenants/{tenant}/sync/stations",
    tx="write",
    online=True,
    roles=MANAGERS,
    status=201,
    module="platform",
    summary="register a station (its secret is shown once)",
)
def register_station(ctx: Ctx, body: StationCreate) -> StationCreated:
    """Register (or re-register a revoked) station; its secret is answered this once."""
    secret = "sst_" + secrets.token_urlsafe(32)
    with ctx.write() as s:
        st = s.execute(select(SyncStation).where(SyncStation.station_id == body.station_id)).scalar_one_or_none()
        if st is not None and st.revoked_at is None:
            raise Conflict(
                "this station is already registered; revoke it first to issue a new secret",
                {"station": _out(st).model_dump(mode="json")},
            )
        if st is None:
            st = SyncStation(station_id=body.station_id, tenant_id=ctx.tenant_id, last_seq=0)
            s.add(st)
        # A re-registered station keeps its sequence: its outbox goes on where it was.
        st.name, st.secret_sealed, st.revoked_at = body.name, seal(ctx.runtime.secret_key, secret), None
        st.created_by, st.created_at = ctx.principal.user_id, ctx.now()
        s.flush()
        return StationCreated(**_out(st).model_dump(), secret=secret)


@use_case(
    "sync.stations.list",
    "GET /api/tenants/{tenant}/sync/stations",
    tx="read",
    roles=MANAGERS,
    module="platform",
    summary="list registered stations",
)
def list_stations(ctx: Ctx, query: ListQuery) -> Page[StationOut]:
    cols = {"created_at": SyncStation.created_at, "name": SyncStation.name, "station_id": SyncStation.station_id}
    with ctx.read() as s:
        page = paginate(s, select(SyncStation), query, columns=cols)
    return page.map(_out)


@use_case(
    "sync.stations.revoke",
    "DELETE /api/tenants/{tenant}/sync/stations/{station_id}",
    tx="write",
    roles=MANAGERS,
    module="platform",
    summary="revoke a station",
)
def revoke_station(ctx: Ctx, station_id: str) -> StationOut:
    with ctx.write() as s:
        st = s.execute(select(SyncStation).where(SyncStation.station_id == station_id)).scalar_one_or_none()
        if st is None:
            raise NotFound("station not found")
        if st.revoked_at is None:
            st.revoked_at = ctx.now()
        return _out(st)


# --- who is calling -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Caller:
    pk: str
    station_id: str
    name: str
    secret: str


def authenticate(ctx: Ctx, headers: dict[str, str | None], purpose: str) -> Caller:
    """The registered station that signed this request, or Unauthorized saying why."""
    if ctx.tenant is None:
        raise NotFound("tenant not found")
    if ctx.tenant.status != "active":
        raise TenantInactive(f"tenant {ctx.tenant.slug} is {ctx.tenant.status}")
    sid, ts, sig = (headers.get(h) or "" for h in p.HEADERS)
    if not (sid and ts and sig):
        raise Unauthorized("a station signs its sync requests (X-Station-Id, X-Station-Timestamp, X-Station-Signature)")
    now = ctx.now()
    try:
        skew = float(ts) - now.timestamp()
    except ValueError:
        skew = math.nan
    if not math.isfinite(skew):  # "inf" and "nan" parse as floats but are no time
        raise Unauthorized("X-Station-Timestamp is Unix seconds", {"reason": "bad_timestamp"})
    if abs(skew) > p.CLOCK_TOLERANCE:
        raise Unauthorized(
            f"the station's clock is {abs(skew) / 60:.0f} min {'ahead of' if skew > 0 else 'behind'} the platform's; "
            "fix the station's clock to sync",
            {"reason": "clock_skew", "skewSeconds": round(skew), "serverTime": now.isoformat()},
        )
    with ctx.read() as s:
        st = s.execute(select(SyncStation).where(SyncStation.station_id == sid)).scalar_one_or_none()
    if st is None:
        raise Unauthorized("this station is not registered for this tenant", {"reason": "unknown_station"})
    if st.revoked_at is not None:
        raise Unauthorized("this station's registration was revoked", {"reason": "revoked_station"})
    secret = unseal(ctx.runtime.secret_key, st.secret_sealed)
    want = p.request_signature(secret, ts, ctx.tenant.slug, sid, purpose)
    if not hmac.compare_digest(want, sig):
        raise Unauthorized("the request's signature does not match", {"reason": "bad_signature"})
    return Caller(st.id, st.station_id, st.name, secret)


# --- push -----------------------------------------------------------------------------------


@cache
def _routes() -> dict[tuple[str, int], list[tuple[re.Pattern[str], Operation]]]:
    """Every write a station may replay, by (method, number of "/" in its path): a parameter
    stands for one path segment, so only routes of that shape can match."""
    out: dict[tuple[str, int], list[tuple[re.Pattern[str], Operation]]] = {}
    for op in REGISTRY.values():
        # Not replayed: station registration itself, and API keys (a key made on a station would
        # get another value here; keys are made on the platform, where they are used).
        if (
            not op.write
            or op.auth != "tenant"
            or op.name.startswith(("sync.", "platform.api_keys.", "platform.sandbox."))
        ):
            continue
        full = op.path if op.path.startswith("/api/") else f"/{{tenant}}/{op.module}/api{op.path}"
        pattern = re.sub(r"\\{(\w+)\\}", r"(?P<\1>[^/]+)", re.escape(full))
        out.setdefault((op.method, full.count("/")), []).append((re.compile(f"^{pattern}$"), op))
    return out


@lru_cache(maxsize=1024)
def _resolve_bare(method: str, bare: str) -> tuple[Operation, str, tuple[tuple[str, str], ...]] | None:
    # A batch repeats the same few paths (every ticket made is POST .../support/tickets): kept.
    for rx, op in _routes().get((method, bare.count("/")), ()):
        if hit := rx.match(bare):
            params = dict(hit.groupdict())
            return op, params.pop("tenant"), tuple(params.items())
    return None


def resolve(method: str, path: str) -> tuple[Operation, str, dict[str, str]]:
    bare = urlsplit(path).path
    found = _resolve_bare(method, bare)
    if found is None:
        raise NotFound(f"no station change is replayed as {method} {bare}")
    op, slug, params = found
    return op, slug, dict(params)


def _entry_dict(ctx: Ctx, caller: Caller, e: PushEntry) -> dict[str, Any]:
    return {
        "station_id": caller.station_id,
        "tenant_id": ctx.tenant_id,
        "station_seq": e.seq,
        "command": e.command,
        "method": e.method,
        "path": e.path,
        "body": e.body,
        "idempotency_key": e.idempotency_key,
        "actor_id": e.actor_id,
        "created_at": e.created_at,
        "ids": e.ids,
        "file": e.file.model_dump() if e.file else None,
    }


def _jsonable(result: Any) -> Any:
    if isinstance(result, BaseModel):
        return result.model_dump(mode="json", exclude=set(getattr(result, "secret_fields", ())))
    return result if isinstance(result, dict | list | str | int | float | None) else None


# A push commits its entries in chunks: one transaction (and one lock on the
# station's row) per chunk, a savepoint per entry. A kill loses at most the
# open chunk, which the station sends again; other writers wait at most one chunk.
CHUNK_ENTRIES = 50
ID_TAKEN = "the change's new records collide with records the platform already holds (their ids are in use)"
CHUNK_SECONDS = 0.25


class _Applier:
    """Applies one push's entries for one station, in order."""

    def __init__(self, ctx: Ctx, caller: Caller) -> None:
        self.ctx, self.caller = ctx, caller
        self.key = caller.secret.encode()
        self.principals: dict[str, Principal] = {}  # the batch's authors, read once each
        # The open chunk's state: the station's sequence, the receipts to write, the keys known unused.
        self.last = 0
        self.receipts: dict[int, dict[str, Any]] = {}
        self.fresh_keys: set[str] = set()
        self.checked: dict[int, tuple[str, bool]] = {}

    def verify(self, entries: list[PushEntry]) -> None:
        """Every entry's hash (its receipt's) and whether its signature matches, for the whole
        batch before any transaction opens: one canonical encoding per entry serves both."""
        for e in entries:
            payload = entry_signing_payload(_entry_dict(self.ctx, self.caller, e))
            digest = p.entry_hash(payload + (b"void" if e.void else b""))
            self.checked[id(e)] = (digest, hmac.compare_digest(sign(self.key, payload), e.signature))

    def author(self, e: PushEntry) -> tuple[Operation, Principal, dict[str, str]]:
        """The operation an entry repeats, its path parameters, and its author's principal here."""
        ctx = self.ctx
        op, slug, params = resolve(e.method, e.path)
        assert ctx.tenant is not None
        if slug != ctx.tenant.slug:
            raise ValidationFailed("this change belongs to another tenant", {"path": e.path})
        if not e.actor_id:
            raise ValidationFailed("a station change names the person who made it (actor_id)")
        # The author's role and modules as the platform knows them now (a removed person's change is refused).
        if e.actor_id not in self.principals:
            self.principals[e.actor_id] = auth.user_principal(ctx.db, e.actor_id, ctx.tenant)
        return op, self.principals[e.actor_id], params

    def chunk(self, entries: list[PushEntry]) -> list[EntryAnswer]:
        """Apply entries until the chunk is full, one fails for the platform's reasons, or a gap.

        The bookkeeping is written once per chunk, set-based: the receipts in one statement, the
        station's sequence in one update, the change log under one usn; the idempotency keys the
        chunk's entries carry are looked up in one query."""
        ctx, rt = self.ctx, self.ctx.runtime
        answers: list[EntryAnswer] = []
        events: list[tuple[str, str]] = []
        commands: list[str] = []
        after: list[Callable[[], None]] = []
        started = time.monotonic()
        pk = self.caller.pk
        with ctx.db.transaction(ctx.tenant_id) as s:
            # Core statements built once, the tenant named (the session scopes ORM statements only).
            conn = s.connection()
            self.last = conn.execute(_LOCK_STATION, {"pk": pk}).scalar_one()
            self.receipts = {}
            keys = [e.idempotency_key for e in entries[:CHUNK_ENTRIES] if e.idempotency_key]
            used = set(conn.execute(_USED_KEYS, {"t": ctx.tenant_id, "keys": keys}).scalars())
            self.fresh_keys = set(keys) - used
            defer_changes(s)
            for e in entries:
                if len(answers) >= CHUNK_ENTRIES or time.monotonic() - started > CHUNK_SECONDS:
                    break
                a, done = self.one(s, pk, e)
                answers.append(a)
                if done is not None:
                    events += done.events
                    commands += done.commands
                    after += done.after
                if a.status in ("gap", "retry"):
                    break
            write_deferred(s)
            if self.receipts:
                conn.execute(_INSERT_RECEIPT, list(self.receipts.values()))
            conn.execute(_SET_STATION, {"pk": pk, "last": self.last, "seen": ctx.now()})
        if events or commands or after:
            rt.committed(CommitInfo(ctx.tenant_id, events, commands, after=after))
        return answers

    def one(self, s: Any, station_pk: str, e: PushEntry) -> tuple[EntryAnswer, CommitInfo | None]:
        ctx = self.ctx
        digest, signed_ok = self.checked[id(e)]
        if e.seq <= self.last:
            pending = self.receipts.get(e.seq)
            r = (
                SyncReceipt(entry_hash=pending["entry_hash"], status=pending["status"], answer=pending["answer"])
                if pending is not None
                else s.get(SyncReceipt, (station_pk, e.seq))
            )
            if r is not None and r.entry_hash == digest:
                ans = dict(r.answer or {})
                return EntryAnswer(
                    seq=e.seq, status="duplicate", first=r.status, result=ans.get("result"), error=ans.get("error")
                ), None
            return EntryAnswer(
                seq=e.seq,
                status="rejected",
                error={
                    "code": "SEQUENCE_REUSED",
                    "error": f"change number {e.seq} was already used for another change",
                },
            ), None
        if e.seq != self.last + 1:
            return EntryAnswer(seq=e.seq, status="gap", expected=self.last + 1), None
        done: CommitInfo | None = None
        if not signed_ok:
            answer = EntryAnswer(
                seq=e.seq,
                status="rejected",
                error={"code": "SIGNATURE_INVALID", "error": "the change's signature does not match its content"},
            )
        elif e.void:
            answer = EntryAnswer(seq=e.seq, status="void")
        else:
            answer, done = self.run(s, e)
            if answer.status == "retry":
                return answer, None  # not consumed: sent again later
        self.last = e.seq
        self.receipts[e.seq] = {
            "station_pk": station_pk,
            "seq": e.seq,
            "entry_hash": digest,
            "status": answer.status,
            "tenant_id": ctx.tenant_id,
            "created_at": ctx.now(),
            "answer": {"result": answer.result, "error": answer.error},
        }
        return answer, done

    def run(self, s: Any, e: PushEntry) -> tuple[EntryAnswer, CommitInfo | None]:
        ctx = self.ctx
        try:
            op, principal, params = self.author(e)
        except ServiceError as exc:
            return EntryAnswer(seq=e.seq, status="rejected", error=exc.to_body()), None
        actor = Ctx(ctx.runtime, ctx.tenant, principal, ctx.ip, replay_ids=e.ids)
        query = dict(parse_qsl(urlsplit(e.path).query))
        upload = None
        if e.file is not None:
            try:
                content = read_blob(ctx, e.file.sha256)
            except FileNotFoundError:
                return EntryAnswer(
                    seq=e.seq,
                    status="rejected",
                    error={"code": "FILE_MISSING", "error": "the change's file was not sent first"},
                ), None
            upload = Upload(e.file.filename, e.file.content_type, content)
        savepoint = s.begin_nested()
        with actor.joined(s) as uow:
            uow.fresh_keys = self.fresh_keys
            try:
                path_params: dict[str, Any] = params
                result = execute(
                    actor, op, body=e.body, query=query, upload=upload, idempotency_key=e.idempotency_key, **path_params
                )
            except ServiceError as exc:
                savepoint.rollback()
                next_entry(s, keep=False)
                status = "conflict" if exc.status == 409 else "rejected"
                return EntryAnswer(seq=e.seq, status=status, error=exc.to_body()), None
            except IntegrityError:
                # The change's records collide with existing ones: its planned ids are taken (here or
                # in another tenant) or a unique value is. Refused for good, with one answer whatever
                # collided, so a push cannot probe which ids exist elsewhere. Nothing to log.
                savepoint.rollback()
                next_entry(s, keep=False)
                return EntryAnswer(seq=e.seq, status="rejected", error=ValidationFailed(ID_TAKEN).to_body()), None
            except Exception as exc:  # noqa: BLE001 - the platform failed (not the change): the station sends it again
                savepoint.rollback()
                next_entry(s, keep=False)
                log.error("applying station change %s failed\n%s", e.seq, bare_traceback(exc))
                return EntryAnswer(
                    seq=e.seq, status="retry", error={"code": "INTERNAL_ERROR", "error": type(exc).__name__}
                ), None
            savepoint.commit()
            next_entry(s, keep=True)
            done = CommitInfo(ctx.tenant_id, uow.events, uow.commands, after=uow.after)
            return EntryAnswer(seq=e.seq, status="applied", result=_jsonable(result)), done


_INSERT_RECEIPT = insert(table_of(SyncReceipt))
_ST = table_of(SyncStation)
_IDEM = table_of(IdempotencyRecord)
# The station's row stays locked until the chunk commits (PostgreSQL; SQLite's writer lock covers it).
_LOCK_STATION = select(_ST.c.last_seq).where(_ST.c.id == bindparam("pk")).with_for_update()
_SET_STATION = (
    update(_ST).where(_ST.c.id == bindparam("pk")).values(last_seq=bindparam("last"), last_seen_at=bindparam("seen"))
)
_USED_KEYS = select(_IDEM.c.key).where(
    _IDEM.c.tenant_id == bindparam("t"), _IDEM.c.key.in_(bindparam("keys", expanding=True))
)


@use_case(
    "sync.push",
    "POST /api/tenants/{tenant}/sync/push",
    tx="own",
    auth="platform",
    roles=ANYONE,
    module="platform",
    limit="sync",
    headers=p.HEADERS,
    summary="apply a batch of signed station changes in order",
)
def push(ctx: Ctx, body: PushIn, headers: dict[str, str | None]) -> PushOut:
    caller = authenticate(ctx, headers, p.push_purpose([e.signature for e in body.entries]))
    applier = _Applier(ctx, caller)
    applier.verify(body.entries)
    answers: list[EntryAnswer] = []
    todo = list(body.entries)
    while todo:
        try:
            got = applier.chunk(todo)
        except Exception as exc:  # noqa: BLE001 - the platform failed (a commit, a lock): the chunk is sent again
            log.error("applying a chunk of station changes failed\n%s", bare_traceback(exc))
            got = [
                EntryAnswer(
                    seq=todo[0].seq, status="retry", error={"code": "INTERNAL_ERROR", "error": type(exc).__name__}
                )
            ]
            # Nothing of the chunk was committed: none of it counts as applied.
            answers += got + [EntryAnswer(seq=e.seq, status="deferred") for e in todo[1:]]
            break
        answers += got
        todo = todo[len(got) :]
        if got and got[-1].status in ("gap", "retry"):
            answers += [EntryAnswer(seq=e.seq, status="deferred") for e in todo]
            break
    with ctx.read() as s:
        last = s.execute(select(SyncStation.last_seq).where(SyncStation.id == caller.pk)).scalar_one()
    return PushOut(answers=answers, lastSeq=last, serverTime=ctx.now())


# --- pull -------------------------------------------------------------------------------------

_CH = table_of(SyncChange)


def _head(ctx: Ctx) -> str:
    with ctx.read() as s:
        row = s.execute(
            select(_CH.c.usn, _CH.c.table_name, _CH.c.row_id)
            .where(_CH.c.tenant_id == ctx.tenant_id)
            .order_by(_CH.c.usn.desc(), _CH.c.table_name.desc(), _CH.c.row_id.desc())
            .limit(1)
        ).first()
    return p.encode_cursor(*row) if row else ""


def _changes(ctx: Ctx, keys: list[tuple[str, str, bool]]) -> list[Change]:
    """The current rows of these (table, id, deleted) records, in the given order."""
    tables = p.synced_tables()
    wanted: dict[str, list[str]] = {}
    for name, rid, deleted in keys:
        if not deleted and name in tables:
            wanted.setdefault(name, []).append(rid)
    found: dict[tuple[str, str], dict[str, Any]] = {}
    with ctx.read() as s:
        conn = s.connection()
        for name, ids in wanted.items():
            t = tables[name]
            stmt = select(t).where(t.c.id.in_(ids))
            if "tenant_id" in t.c:
                stmt = stmt.where(t.c.tenant_id == ctx.tenant_id)
            for row in conn.execute(stmt).mappings():
                found[(name, row["id"])] = p.encode_row(t, row)
    out = []
    for name, rid, deleted in keys:
        data = found.get((name, rid))
        # A record gone since its change was logged is a deletion for the station.
        out.append(Change(table=name, id=rid, deleted=deleted or data is None, row=data))
    return out


@use_case(
    "sync.pull",
    "GET /api/tenants/{tenant}/sync/pull",
    tx="read",
    auth="platform",
    roles=ANYONE,
    module="platform",
    limit="sync",
    headers=p.HEADERS,
    summary="changes since a cursor, in pages",
)
def pull(ctx: Ctx, query: PullQuery, headers: dict[str, str | None]) -> PullOut:
    authenticate(ctx, headers, f"pull:{query.cursor}:{query.limit}")
    try:
        after = p.decode_cursor(query.cursor)
    except ValueError:
        raise ValidationFailed("cursor is not one this platform gave", {"cursor": query.cursor}) from None
    with ctx.read() as s:
        rows = s.execute(
            select(_CH.c.usn, _CH.c.table_name, _CH.c.row_id, _CH.c.deleted)
            .where(_CH.c.tenant_id == ctx.tenant_id, tuple_(_CH.c.usn, _CH.c.table_name, _CH.c.row_id) > after)
            .order_by(_CH.c.usn, _CH.c.table_name, _CH.c.row_id)
            .limit(query.limit + 1)
        ).all()
    more = len(rows) > query.limit
    rows = rows[: query.limit]
    cursor = p.encode_cursor(*rows[-1][:3]) if rows else query.cursor
    changes = _changes(ctx, [(r.table_name, r.row_id, bool(r.deleted)) for r in rows])
    remaining = 0
    if more:
        with ctx.read() as s:
            remaining = s.execute(
                select(func.count())
                .select_from(_CH)
                .where(
                    _CH.c.tenant_id == ctx.tenant_id,
                    tuple_(_CH.c.usn, _CH.c.table_name, _CH.c.row_id) > p.decode_cursor(cursor),
                )
            ).scalar_one()
    return PullOut(changes=changes, cursor=cursor, more=more, serverTime=ctx.now(), remaining=int(remaining))


@use_case(
    "sync.rows",
    "GET /api/tenants/{tenant}/sync/rows",
    tx="read",
    auth="platform",
    roles=ANYONE,
    module="platform",
    limit="sync",
    headers=p.HEADERS,
    summary="the current state of some records",
)
def rows(ctx: Ctx, query: RowsQuery, headers: dict[str, str | None]) -> PullOut:
    """The current state of some records (a station taking the platform's version after a conflict)."""
    authenticate(ctx, headers, f"rows:{query.ids}")
    ids = [i for i in query.ids.split(",") if i][:200]
    with ctx.read() as s:
        found = s.execute(
            select(_CH.c.table_name, _CH.c.row_id, _CH.c.deleted).where(
                _CH.c.tenant_id == ctx.tenant_id, _CH.c.row_id.in_(ids)
            )
        ).all()
    changes = _changes(ctx, [(r.table_name, r.row_id, bool(r.deleted)) for r in found])
    return PullOut(changes=changes, cursor="", more=False, serverTime=ctx.now())


@use_case(
    "sync.counts",
    "GET /api/tenants/{tenant}/sync/counts",
    tx="read",
    auth="platform",
    roles=ANYONE,
    module="platform",
    limit="sync",
    headers=p.HEADERS,
    summary="record counts per synced table",
)
def counts(ctx: Ctx, headers: dict[str, str | None]) -> CountsOut:
    """How many records of each synced table the tenant has (a station compares after a sync)."""
    authenticate(ctx, headers, "counts")
    return CountsOut(counts=table_counts(ctx), cursor=_head(ctx), serverTime=ctx.now())


def table_counts(ctx: Ctx) -> dict[str, int]:
    out: dict[str, int] = {}
    with ctx.read() as s:
        conn = s.connection()
        for name, t in p.synced_tables().items():
            if name == "tenants":
                stmt = select(func.count()).select_from(t).where(t.c.id == ctx.tenant_id)
            elif name == "users":
                stmt = select(func.count(func.distinct(Membership.user_id))).where(
                    Membership.tenant_id == ctx.tenant_id
                )
            else:
                stmt = select(func.count()).select_from(t).where(t.c.tenant_id == ctx.tenant_id)
            out[name] = int(conn.execute(stmt).scalar_one())
    return out


@use_case(
    "sync.status",
    "GET /api/tenants/{tenant}/sync/status",
    tx="read",
    auth="platform",
    roles=ANYONE,
    module="platform",
    limit="sync",
    headers=p.HEADERS,
    summary="the station's registration, sequence and the platform's clock",
)
def status(ctx: Ctx, headers: dict[str, str | None]) -> SyncStatusOut:
    caller = authenticate(ctx, headers, "status")
    with ctx.read() as s:
        last = s.execute(select(SyncStation.last_seq).where(SyncStation.id == caller.pk)).scalar_one()
    return SyncStatusOut(
        serverTime=ctx.now(), stationId=caller.station_id, name=caller.name, lastSeq=last, cursor=_head(ctx)
    )


# --- number leases ---------------------------------------------------------------------------------


@use_case(
    "sync.leases",
    "POST /api/tenants/{tenant}/sync/leases",
    tx="own",
    auth="platform",
    roles=ANYONE,
    module="platform",
    limit="sync",
    headers=p.HEADERS,
    summary="lease a block of numbers (tracking numbers) to a station",
)
def lease(ctx: Ctx, body: LeaseIn, headers: dict[str, str | None]) -> LeaseOut:
    """A block of a counter's values for the calling station (the platform's own numbers skip it)."""
    authenticate(ctx, headers, f"lease:{body.counter}")
    block = LEASED_COUNTERS.get(body.counter)
    if block is None:
        raise ValidationFailed(f"{body.counter} is not a leased counter", {"allowed": sorted(LEASED_COUNTERS)})
    with ctx.db.transaction(ctx.tenant_id) as s:
        end = next_counter(s.connection(), ctx.tenant_id, body.counter, step=block)
    return LeaseOut(counter=body.counter, start=end - block + 1, end=end)


# --- files ---------------------------------------------------------------------------------------


@use_case(
    "sync.files.put",
    "PUT /api/tenants/{tenant}/sync/files/{sha256}",
    tx="own",
    auth="platform",
    roles=ANYONE,
    module="platform",
    limit="sync",
    upload=True,
    headers=p.HEADERS,
    summary="the bytes of a station's upload, sent before the change that names them",
)
def put_file(ctx: Ctx, sha256: str, upload: Upload, headers: dict[str, str | None]) -> FileStored:
    """Keep the bytes of a station's upload under their SHA-256, before the change that names them."""
    authenticate(ctx, headers, f"file:{sha256}")
    if hashlib.sha256(upload.content).hexdigest() != sha256:
        raise ValidationFailed("the file's content does not match its SHA-256", {"sha256": sha256})
    if len(upload.content) > ctx.runtime.upload_limit:
        raise ValidationFailed("file too large", {"limit": ctx.runtime.upload_limit})
    keep_blob(ctx, upload.content)
    return FileStored(sha256=sha256, size=len(upload.content))

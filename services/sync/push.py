"""The platform applying a station's push: signed entries in order, in chunks of up to 50.

One transaction per chunk. An entry's change, its receipt and the station's new sequence
number commit together: a kill at any point leaves all of them or none (the open chunk is
sent again), and a repeat is answered from the receipt.

Entries run without a savepoint of their own (a savepoint and its release were about a sixth
of an entry's cost): almost every entry applies. When one fails, the chunk is rolled back and
applied again with a savepoint around that entry only, so its failure undoes its own writes
and nothing else; a second failure in the same chunk puts every entry of the rest of the push
in a savepoint (a push full of refusals costs at most one chunk more).
"""

from __future__ import annotations

import hmac
import logging
import re
import time
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from pydantic import BaseModel
from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError

from local_db.base import table_of
from local_db.engine import Prepared
from local_db.models import IdempotencyRecord
from local_db.models.sync import SyncChange, SyncReceipt, SyncStation
from services.core import auth
from services.core.commands import BASE_PARAM, REGISTRY, Operation, entry_signing_payload, execute, use_case
from services.core.context import CommitInfo, Ctx, Principal
from services.core.errors import Conflict, NotFound, ServiceError, ValidationFailed
from services.core.events import BATCH_CACHE
from services.core.files import Upload
from services.core.logsafe import bare_traceback
from services.core.roles import ANYONE
from services.core.signing import sign
from services.core.storage import read_blob
from services.sync import protocol as p
from services.sync.changelog import defer_changes, next_entry, write_deferred
from services.sync.registry import Caller, authenticate
from services.sync.schemas import EntryAnswer, PushEntry, PushIn, PushOut

log = logging.getLogger("services.sync")


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
            # Staff replay their own changes: a customer route also open to staff (an after-sale claim's
            # action) is one of them.
            or not (op.auth == "tenant" or (op.auth == "customer" and op.staff_too))
            or op.name.startswith(("sync.", "platform.api_keys.", "platform.sandbox."))
        ):
            continue
        full = op.path if op.path.startswith("/api/") else f"/{{tenant}}/{op.module}/api{op.path}"
        pattern = re.sub(r"\\{(\w+)\\}", r"(?P<\1>[^/]+)", re.escape(full))
        out.setdefault((op.method, full.count("/")), []).append((re.compile(f"^{pattern}$"), op))
    for routes in out.values():
        routes.sort(key=lambda r: r[1].auth != "tenant")  # a path with a staff route replays as it
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


class _Redo(Exception):  # noqa: N818 - not an error: a control-flow signal inside ``chunk``
    """An entry failed outside a savepoint: its chunk is rolled back and applied again."""

    def __init__(self, seq: int) -> None:
        super().__init__(seq)
        self.seq = seq


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
        # Entries run inside a savepoint: the open chunk's that failed without one, or all.
        self.careful: set[int] = set()
        self.all_careful = False
        self.conn: Any = None  # the open chunk's connection

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
        """Apply one chunk; again, rolled back, when an entry failed outside a savepoint."""
        self.careful = set()
        while True:
            try:
                return self._chunk(entries)
            except _Redo as redo:
                if self.careful or self.all_careful:
                    self.all_careful = True  # failures come in runs: no more guessing in this push
                self.careful.add(redo.seq)

    def _chunk(self, entries: list[PushEntry]) -> list[EntryAnswer]:
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
            conn = self.conn = s.connection()
            self.last = conn.execute(_LOCK_STATION, {"pk": pk}).scalar_one()
            self.receipts = {}
            keys = [e.idempotency_key for e in entries[:CHUNK_ENTRIES] if e.idempotency_key]
            used = set(conn.execute(_USED_KEYS, {"t": ctx.tenant_id, "keys": keys}).scalars())
            self.fresh_keys = set(keys) - used
            defer_changes(s)
            s.info[BATCH_CACHE] = {}  # the events' hooks read once per chunk (the webhook subscriptions)
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
                _INSERT_RECEIPT.run_many(conn, list(self.receipts.values()))
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
            s.info.setdefault(BATCH_CACHE, {})
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
        if op.name.startswith("events.subscriptions."):
            # Made on the platform, not on stations; a station that sends one anyway changes what
            # events are delivered to: nothing kept during it, read again after it (``one``).
            s.info.pop(BATCH_CACHE, None)
        actor = Ctx(ctx.runtime, ctx.tenant, principal, ctx.ip, replay_ids=e.ids)
        query = dict(parse_qsl(urlsplit(e.path).query))
        base = query.pop(BASE_PARAM, None)  # a station's delete: the version it deleted
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
        if self.all_careful or e.seq in self.careful:
            return self.run_careful(s, e, op, actor, params, query, base, upload)
        # Without a savepoint: the unit of work takes the chunk's connection as it is.
        with actor.joined(s, self.conn) as uow:
            uow.fresh_keys = self.fresh_keys
            try:
                if op.method == "DELETE" and _already_deleted(s, ctx.tenant_id, op, params, base):
                    next_entry(s, keep=True)
                    return EntryAnswer(seq=e.seq, status="applied", result=None), None
                path_params: dict[str, Any] = params
                result = execute(
                    actor, op, body=e.body, query=query, upload=upload, idempotency_key=e.idempotency_key, **path_params
                )
            except Exception as exc:  # noqa: BLE001 - any failure: again, this entry in a savepoint
                raise _Redo(e.seq) from exc
            next_entry(s, keep=True)
            done = CommitInfo(ctx.tenant_id, uow.events, uow.commands, after=uow.after)
            return EntryAnswer(seq=e.seq, status="applied", result=_jsonable(result)), done

    def run_careful(
        self,
        s: Any,
        e: PushEntry,
        op: Operation,
        actor: Ctx,
        params: dict[str, str],
        query: dict[str, str],
        base: str | None,
        upload: Upload | None,
    ) -> tuple[EntryAnswer, CommitInfo | None]:
        """``run`` inside a savepoint: a failure undoes this entry's writes and nothing else."""
        ctx = self.ctx
        savepoint = s.begin_nested()
        with actor.joined(s) as uow:
            uow.fresh_keys = self.fresh_keys
            try:
                if op.method == "DELETE" and _already_deleted(s, ctx.tenant_id, op, params, base):
                    # Deleted here before (by another station, a person, an earlier try): the
                    # station's delete is done, once.
                    savepoint.commit()
                    next_entry(s, keep=True)
                    return EntryAnswer(seq=e.seq, status="applied", result=None), None
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


def _already_deleted(s: Any, tenant_id: str, op: Operation, params: dict[str, str], base: str | None) -> bool:
    """Whether a station's delete finds its record gone already (True) or as the station last
    saw it (False, apply it). A record changed here since: Conflict, with its current state."""
    named = [params[n] for n in re.findall(r"\{(\w+)\}", op.path) if n in params]
    if not named:
        return False
    conn = s.connection()
    found = p.record_version(conn, tenant_id, named[-1])
    if found is None:
        deleted = conn.execute(
            select(_CH.c.row_id).where(_CH.c.tenant_id == tenant_id, _CH.c.row_id == named[-1], _CH.c.deleted)
        ).first()
        return deleted is not None
    table, version = found
    if base is not None and version != base:
        t = p.synced_tables()[table]
        row = conn.execute(select(t).where(t.c.id == named[-1])).mappings().first()
        details: dict[str, Any] = {"table": table, "id": named[-1], "action": "delete"}
        if row is not None and "status" in t.c:
            details["current_state"] = row["status"]
        raise Conflict(
            "this record was changed on the platform after this station last received it; "
            "keep the platform's version, or delete it anyway (retry)",
            details,
        )
    return False


_CH = table_of(SyncChange)
_INSERT_RECEIPT = Prepared(insert(table_of(SyncReceipt)))
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

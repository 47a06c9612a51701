"""Use cases declared once: HTTP method and path as the spec writes them, the
request schema, the service function and who may call it.

The HTTP front door mounts every declaration as a route; the Qt views call
``execute``; on a station ``execute`` also records each command call in the
outbox as the platform call that repeats it, in the same transaction, and the
sync engine replays it. One declaration, three uses.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, cast, get_args, get_type_hints
from urllib.parse import urlencode

from pydantic import BaseModel, ValidationError
from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.base import IdPlan, id_plan, table_of
from local_db.engine import Prepared
from local_db.models import Counter, OutboxEntry
from local_db.models.sync import SyncLink
from services.core.bodies import check_idempotency_key, validate_body
from services.core.context import Ctx, module_kind
from services.core.declaring import body_fields, carries_state, check_says, default_of
from services.core.errors import Conflict, Forbidden, TenantInactive, Unauthorized, ValidationFailed, validation_details
from services.core.idempotency import remember as _remember
from services.core.idempotency import replay as _replay
from services.core.numbers import check_numbers
from services.core.roles import STAFF
from services.core.signing import sign
from services.core.states import CURRENT_CTX, Moves

F = TypeVar("F", bound=Callable[..., Any])

Auth = Literal["tenant", "public", "customer", "platform", "user"]
# The kind of transaction: a read; a write (one unit of work, recorded in a
# station's outbox, honours Idempotency-Key); or a write that manages its own
# units (sign-in, a sync push applying entries one by one).
Tx = Literal["read", "write", "own"]


@dataclass(frozen=True)
class Operation:
    """One use case reachable from the front doors.

    ``path`` is relative to the module base (``/<tenant>/<module>/api``) for
    module operations, or absolute (starting ``/api/``) for platform ones.
    ``handler(ctx, body=..., query=..., **path_params)`` returns a pydantic
    model, a ``Page``, a ``FileResult`` or ``None``. ``body``, ``query`` and
    ``response`` default to the handler's annotations.
    """

    name: str
    module: str
    method: str
    path: str
    handler: Callable[..., Any]
    tx: Tx = "read"
    body: type[BaseModel] | None = None
    query: type[BaseModel] | None = None
    # The success answer's type (a model, ``Page[Model]``, ``FileResult`` or ``None``).
    response: Any = None
    roles: frozenset[str] = STAFF
    auth: Auth = "tenant"
    # Customer routes also served to staff with the module (DECISIONS: "Who may call a spec path").
    staff_too: bool = False
    status_code: int = 200
    summary: str = ""
    # What a person reads about one call ("Reply on ticket"), completed by the record's label.
    says: str = ""
    # The kind of record the call touches ("support.ticket"); views refresh on it.
    record: str | None = None
    # Rate-limit category override ("auth", "upload", "public_ticket", ...).
    limit: str | None = None
    # Takes a file (raw body or multipart ``file`` part) passed as ``upload=``.
    upload: bool = False
    # Made on the platform, online, never queued in a station's outbox: the change carries or
    # makes a secret (an API key's value, a password, a station's or a subscription's secret).
    online: bool = False
    # Outside services it reaches while it runs ("mail", "the shop", "the tax service", "PubChem"):
    # a station reaches none of them, so there it is refused at once (409 ``needs_service``) and the
    # desktop makes it on the platform, online, instead of queueing a change that fails at sync time.
    needs: tuple[str, ...] = ()
    # Only API keys call it (a versioned public API for integrations): anyone else is 401.
    keys_only: bool = False
    # Sign-in operations: the HTTP door sets this HttpOnly cookie from the
    # result's ``token`` field; sign-out operations clear it.
    cookie: str | None = None
    clears_cookie: str | None = None
    # Request headers the handler needs (inbound webhook signatures), passed
    # as ``headers={lower-case name: value or None}``.
    headers: tuple[str, ...] = ()
    # The body may be left out (``body: Model | None = None``): an empty request body is None.
    body_optional: bool = False
    # The state transitions it performs (``ORDER.moves("ship")``): what a record's state allows.
    moves: Moves | None = None
    # The handler takes the call's session as ``session=``: the unit of work's for a write, a
    # reading one for a read (it does not open ``ctx.write()`` again).
    takes_session: bool = False
    # Its response carries a record's allowed actions (``StatefulOut``): ``execute`` tells it the caller.
    stateful: bool = False

    @property
    def write(self) -> bool:
        """Runs in one unit of work, goes to a station's outbox, honours Idempotency-Key."""
        return self.tx == "write"

    @property
    def changes(self) -> bool:
        """Changes data (views refresh after it)."""
        return self.tx != "read"

    @property
    def path_params(self) -> list[str]:
        return [p for p in _PATH_PARAM.findall(self.path) if p != "tenant"]


_PATH_PARAM = re.compile(r"{(\w+)}")

REGISTRY: dict[str, Operation] = {}

# The default of a handler's ``session`` parameter (``session: Session = SESSION``): ``execute`` always
# hands the call's session in; the default keeps it out of what callers pass (a view's typed call).
SESSION: Session = cast("Session", None)
# The declarations of each service function (a function may serve a staff route and a customer one):
# callers in the same process (the desktop) name a use case by its function, never by a string.
_DECLARED: dict[Callable[..., Any], list[Operation]] = {}


@dataclass(frozen=True)
class RecordKind:
    """How people know a record: the read operation that finds it, the parameter
    names that carry its id in calls, and the field they read (its number)."""

    name: str
    get: str
    keys: tuple[str, ...]
    label: str


RECORDS: dict[str, RecordKind] = {}


def record_kind(name: str, *, get: str, label: str, keys: tuple[str, ...] = ("id",)) -> str:
    RECORDS[name] = RecordKind(name, get, keys, label)
    return name


def use_case(
    name: str,
    route: str,
    *,
    tx: Tx,
    roles: frozenset[str] | None = None,
    auth: Auth = "tenant",
    staff_too: bool = False,
    status: int = 200,
    summary: str = "",
    says: str = "",
    record: str | None = None,
    module: str | None = None,
    limit: str | None = None,
    upload: bool = False,
    online: bool = False,
    needs: tuple[str, ...] = (),
    keys_only: bool = False,
    cookie: str | None = None,
    clears_cookie: str | None = None,
    headers: tuple[str, ...] = (),
    moves: Moves | None = None,
) -> Callable[[F], F]:
    """Declare the decorated service function as a use case.

    ``route`` is ``"METHOD /path"`` as the spec writes it; the request body,
    query and response types come from the function's annotations (``body``,
    ``query`` and the return type); the module is the name's first part.
    ``roles`` and ``record`` default to the ones ``declare_defaults`` gives the
    name's prefix (roles: ``STAFF`` where none is declared). ``moves`` links the
    use case to the transitions it performs. A handler with a ``session``
    parameter receives the call's session.
    """
    method, _, path = route.partition(" ")

    def declare(fn: F) -> F:
        hints = get_type_hints(fn)
        ret = hints.get("return")
        body = _model(hints.get("body"))
        if says:
            check_says(name, says, body, path)
        if moves is not None and moves.field is not None and moves.field not in body_fields(body):
            raise ValueError(f"{name}: moves names the body field {moves.field!r}, which its body lacks")
        op = register(
            Operation(
                name=name,
                module=module or name.split(".", 1)[0],
                method=method,
                path=path,
                handler=fn,
                tx=tx,
                body=body,
                query=_model(hints.get("query")),
                response=None if ret is type(None) else ret,
                roles=roles if roles is not None else (default_of(name, "roles") or STAFF),
                auth=auth,
                staff_too=staff_too,
                status_code=status,
                summary=summary or says or name,
                says=says,
                record=record if record is not None else default_of(name, "record"),
                limit=limit or public_limit(auth, headers),
                upload=upload,
                online=online,
                needs=needs,
                keys_only=keys_only,
                cookie=cookie,
                clears_cookie=clears_cookie,
                headers=headers,
                body_optional=type(None) in get_args(hints.get("body")),
                moves=moves,
                takes_session="session" in inspect.signature(fn).parameters,
                stateful=carries_state(ret),
            )
        )
        if moves is not None:
            moves.machine.link(op)
        return fn

    return declare


def public_limit(auth: str, headers: tuple[str, ...]) -> str | None:
    """The rate-limit category of a public route that names none: no public route goes uncounted
    (DECISIONS: public routes are limited like public events; signed inbound webhooks, which a
    shop sends in bursts, have a wider category of their own)."""
    if auth != "public":
        return None
    return "public_inbound" if "x-webhook-signature" in headers else "public_events"


def _model(tp: Any) -> type[BaseModel] | None:
    """The pydantic model of an annotation (``Model`` or ``Model | None``)."""
    for t in (tp, *get_args(tp)):
        if isinstance(t, type) and issubclass(t, BaseModel):
            return t
    return None


def register(op: Operation) -> Operation:
    if op.name in REGISTRY and REGISTRY[op.name] != op:
        raise ValueError(f"operation {op.name} declared twice")
    REGISTRY[op.name] = op
    declared = _DECLARED.setdefault(op.handler, [])
    if op not in declared:
        declared.append(op)
    return op


def declaration_of(fn: Callable[..., Any]) -> Operation:
    """The use case a service function is declared as. A function declared for staff and for
    customers (upgrade's submissions, photos) answers its staff declaration: in-process callers are
    staff. A function with no declaration, or with several staff ones, is a programming error."""
    declared = _DECLARED.get(fn, [])
    staff = [op for op in declared if op.auth != "customer"] if len(declared) > 1 else declared
    if len(staff) != 1:
        what = "is not declared as a use case" if not declared else "has several staff declarations"
        raise LookupError(f"{getattr(fn, '__qualname__', fn)} {what} (@use_case)")
    return staff[0]


def check_access(ctx: Ctx, op: Operation) -> None:
    """The one permission check: tenant status, module access, role."""
    if op.auth == "user":
        # Any signed-in person, across tenants (e.g. /api/support/my-tickets).
        if ctx.principal.kind != "user":
            raise Forbidden("sign in as a user")
        return
    if op.auth in ("public", "platform"):
        if ctx.tenant is not None and ctx.tenant.status != "active" and op.auth == "public":
            raise TenantInactive(f"tenant {ctx.tenant.slug} is {ctx.tenant.status}")
        return
    if ctx.tenant is None:
        raise Forbidden("no tenant")
    if ctx.tenant.status != "active":
        raise TenantInactive(f"tenant {ctx.tenant.slug} is {ctx.tenant.status}")
    p = ctx.principal
    if p.kind == "system":
        return
    if op.auth == "customer":
        if p.kind == "customer" and p.customer_module == op.module:
            return
        if not op.staff_too or p.kind == "customer":
            raise Forbidden("this route is for the module's customers")
    if p.kind == "customer":
        raise Forbidden("customer accounts cannot use staff routes")
    if op.keys_only and p.kind not in ("api_key", "system"):
        raise Unauthorized("this API takes an API key: Authorization: Bearer pk_... or X-API-Key")
    if op.module == "platform":
        # Tenant settings are for people; API keys are scoped to modules.
        if p.kind != "user":
            raise Forbidden("tenant settings need a signed-in user")
    elif op.module not in ctx.tenant.modules:
        raise Forbidden(f"module {op.module} is not enabled for this tenant")
    elif op.module not in p.modules:
        raise Forbidden(f"no access to module {op.module}")
    if p.kind == "user" and p.role not in op.roles:
        raise Forbidden(f"role {p.role} may not {op.summary or op.name}")


def parse_body(op: Operation, raw: Any) -> BaseModel | None:
    if op.body is None or (raw is None and op.body_optional):
        return None
    return validate_body(op.body, raw)


def parse_query(op: Operation, raw: dict[str, Any] | BaseModel | None) -> BaseModel | None:
    if op.query is None:
        return None
    if isinstance(raw, op.query):
        return raw
    try:
        q = op.query.model_validate(raw or {})
    except ValidationError as exc:
        raise ValidationFailed("query parameters failed validation", validation_details(exc)) from exc
    check_numbers(q, "query parameters")
    return q


def platform_path(ctx: Ctx, op: Operation, params: dict[str, str]) -> str:
    slug = ctx.tenant.slug if ctx.tenant else ""
    rest = op.path.format(tenant=slug, **params)
    return rest if op.path.startswith("/api/") else f"/{slug}/{op.module}/api{rest}"


# Counters whose values must be unique across a tenant's stations (tracking
# numbers printed offline): a linked station takes them from blocks the
# platform leases it (name -> block size).
LEASED_COUNTERS: dict[str, int] = {}
LEASE_END = ":lease-end"


def leased_counter(name: str, block: int) -> str:
    LEASED_COUNTERS[name] = block
    return name


def next_value(ctx: Ctx, scope: str, name: str) -> int:
    """Take the next value of a counter inside the open unit of work (never reused)."""
    # Core statements on the session's connection: this runs on every station
    # write, and the ORM adds nothing for a single counter row.
    conn = ctx.uow.connection()
    value = next_counter(conn, scope, name)
    if ctx.runtime.is_station and name in LEASED_COUNTERS:
        end = conn.execute(_READ_COUNTER, {"s": scope, "n": name + LEASE_END}).scalar_one_or_none()
        # No lease: a station on its own (never linked to a platform) counts by itself; a linked one
        # without a block would risk a number another station printed: it waits for its first block.
        if end is None and conn.execute(_LINKED, {"t": scope}).first() is not None:
            raise Conflict(
                "this station has no numbers from the platform yet; connect to the platform once (Sync now) "
                "before doing this offline",
                {"reason": "lease_missing", "counter": name},
            )
        if end is not None and value > end:
            raise Conflict(
                "this station has used up the numbers the platform gave it; connect to the platform to get more",
                {"reason": "lease_used_up", "counter": name},
            )
    return value


def next_counter(conn: Connection, scope: str, name: str, step: int = 1) -> int:
    """``next_value`` on a connection whose transaction is open (the row stays locked until it ends);
    ``step`` > 1 takes a block and answers its last value."""
    res = _NEXT_VALUE.scalar(conn, {"s": scope, "n": name, "step": step})
    if res is None:
        _NEW_COUNTER.run(conn, {"scope": scope, "name": name, "value": step})
        return step
    return int(res)


# Built once: constructing statements per call costs more than running them.
_COUNTERS = table_of(Counter)
_NEXT_VALUE = Prepared(
    update(_COUNTERS)
    .where(_COUNTERS.c.scope == bindparam("s"), _COUNTERS.c.name == bindparam("n"))
    .values(value=_COUNTERS.c.value + bindparam("step"))
    .returning(_COUNTERS.c.value)
)
_LINKED = select(SyncLink.id).where(SyncLink.tenant_id == bindparam("t"))
_READ_COUNTER = select(_COUNTERS.c.value).where(_COUNTERS.c.scope == bindparam("s"), _COUNTERS.c.name == bindparam("n"))
_NEW_COUNTER = Prepared(insert(_COUNTERS))
_INSERT_OUTBOX = Prepared(insert(table_of(OutboxEntry)))


# Body fields that carry a secret. A station's outbox keeps the platform call
# that repeats a change, in clear: a change that carries one of these is made
# on the platform (online), never queued.
SECRET_FIELDS = frozenset({"password", "secret", "access_token", "api_key", "token", "client_secret"})


_SECRET_FIELDS_OF: dict[type[BaseModel], tuple[str, ...]] = {}


def refuse_secrets_offline(op: Operation, body: BaseModel | None) -> None:
    if body is None:
        return
    # Which secret fields a body class has, once per class: looking a missing name up on a
    # pydantic model raises and catches inside, on every station write.
    names = _SECRET_FIELDS_OF.get(type(body))
    if names is None:
        names = tuple(sorted(f for f in SECRET_FIELDS if hasattr(type(body), f) or f in type(body).model_fields))
        if body.model_config.get("extra") == "allow":
            names = tuple(sorted(SECRET_FIELDS))  # extra fields differ from one body to the next
        _SECRET_FIELDS_OF[type(body)] = names
    carried = [f for f in names if getattr(body, f, None) not in (None, "")]
    if carried:
        raise Conflict(
            "this change carries a password or secret, so it is made on the platform, not queued on a station",
            {"reason": "online_only", "fields": carried, "command": op.name},
        )


def refuse_needs_offline(ctx: Ctx, op: Operation) -> None:
    """A use case that reaches an outside service (``needs``) cannot run on a station: said when the
    person asks (409 ``needs_service``), not when the platform replays a queued change."""
    if op.needs and ctx.runtime.is_station:
        raise Conflict(
            f"this needs {' and '.join(op.needs)}, which only the platform reaches: do it on the platform",
            {"reason": "needs_service", "needs": list(op.needs), "command": op.name},
        )


def refuse_online_only(ctx: Ctx, op: Operation) -> None:
    """A change declared ``online`` (it makes or carries a secret): on a station linked to a platform
    it is made there, online (services.core.platform_client), never here and queued."""
    if not op.online or ctx.tenant is None:
        return
    with ctx.runtime.db.reading(ctx.tenant_id) as s:
        linked = s.connection().execute(_LINKED, {"t": ctx.tenant_id}).first() is not None
    if linked:
        raise Conflict(
            "this is made on the platform, not queued on a station; do it while the platform answers",
            {"reason": "online_only", "command": op.name},
        )


# What an outbox entry's signature covers, in this order (the platform checks the same fields).
SIGNED_FIELDS = (
    "station_id",
    "tenant_id",
    "station_seq",
    "command",
    "method",
    "path",
    "body",
    "idempotency_key",
    "actor_id",
    "created_at",
    "ids",
    "file",
)


def entry_signing_payload(entry: dict[str, Any]) -> bytes:
    """The bytes an outbox entry's HMAC covers (``created_at`` as ISO 8601 text)."""
    fields = {k: entry.get(k) for k in SIGNED_FIELDS}
    created = fields["created_at"]
    if not isinstance(created, str) and created is not None:
        fields["created_at"] = created.isoformat()
    return _SIGNED_JSON.encode(fields).encode()


# Built once: ``json.dumps`` with these options builds an encoder on every call (every station write).
_SIGNED_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sign_entry(key: bytes, entry: dict[str, Any]) -> str:
    return sign(key, entry_signing_payload(entry))


def outbox_row(
    rt: Any,
    tenant_id: str,
    station_seq: int,
    *,
    command: str,
    method: str,
    path: str,
    body: Any,
    file: dict[str, Any] | None,
    idempotency_key: str | None,
    actor_id: str | None,
    ids: list[str] | None,
    result_id: str | None,
    created_at: Any,
) -> dict[str, Any]:
    """The one shape of an outbox row, signed (a change made here, or one a person sends again)."""
    row = {
        "id": new_id(),
        "station_id": rt.station_id,
        "station_seq": station_seq,
        "command": command,
        "method": method,
        "path": path,
        "body": body,
        "file": file,
        "idempotency_key": idempotency_key or new_id(),
        "actor_id": actor_id,
        "ids": ids or [],
        "result_id": result_id,
        "tenant_id": tenant_id,
        "created_at": created_at,
        "status": "pending",
        "attempts": 0,
    }
    # Signed with the station's own key: a row changed in the database is
    # detected before it is sent (the platform checks its own signature).
    row["signature"] = sign_entry(rt.station_key or b"", row)
    return row


# A station's delete names the version of the record it deleted (``?_base=``), so the platform
# refuses it when the record changed there meanwhile. Installed by services.sync.protocol:
# (the unit of work's connection, tenant id, record id) -> the version, or None to delete as is.
DELETE_BASE: list[Callable[[Connection, str, str], str | None]] = []
BASE_PARAM = "_base"


def record_outbox(
    ctx: Ctx,
    op: Operation,
    params: dict[str, str],
    body: BaseModel | None,
    idempotency_key: str | None,
    ids: list[str] | None = None,
    result_id: str | None = None,
    query: BaseModel | None = None,
    upload: Any = None,
    base: str | None = None,
) -> dict[str, Any]:
    payload = body.model_dump(mode="json", exclude_unset=True) if body is not None else None
    path = platform_path(ctx, op, params)
    q = query.model_dump(mode="json", exclude_none=True, exclude_defaults=True) if query is not None else {}
    if base is not None:
        q[BASE_PARAM] = base
    if q:
        path += "?" + urlencode(q, doseq=True)
    file = None
    if upload is not None:
        from services.core.storage import keep_blob  # files: only uploads need them

        digest, _ = keep_blob(ctx, upload.content)
        file = {"sha256": digest, "filename": upload.filename, "content_type": upload.content_type}
    actor = ctx.principal.id if ctx.principal.kind == "user" else None
    seq = next_value(ctx, ctx.tenant_id, "outbox")
    row = outbox_row(
        ctx.runtime,
        ctx.tenant_id,
        seq,
        command=op.name,
        method=op.method,
        path=path,
        body=payload,
        file=file,
        idempotency_key=idempotency_key,
        actor_id=actor,
        ids=ids,
        result_id=result_id,
        created_at=ctx.now(),
    )
    # Core insert on the unit of work's connection: same transaction, less overhead.
    row["seq"] = _INSERT_OUTBOX.lastrowid(ctx.uow.connection(), row)
    ctx.uow.commands.append(op.name)
    return row


def execute(
    ctx: Ctx,
    op: Operation | str,
    *,
    body: Any = None,
    query: Any = None,
    idempotency_key: str | None = None,
    upload: Any = None,
    headers: dict[str, str | None] | None = None,
    **params: str,
) -> Any:
    """Run one operation with its permission check, validation and unit of work."""
    if isinstance(op, str):
        op = REGISTRY[op]
    check_access(ctx, op)
    refuse_needs_offline(ctx, op)
    check_idempotency_key(idempotency_key)
    parsed = parse_body(op, body)
    q = parse_query(op, query)
    kwargs: dict[str, Any] = dict(params)
    if op.body is not None:
        kwargs["body"] = parsed
    if op.query is not None:
        kwargs["query"] = q
    if op.upload:
        if upload is None:
            raise ValidationFailed("a file is required")
        kwargs["upload"] = upload
    if op.headers:
        kwargs["headers"] = {h: (headers or {}).get(h) for h in op.headers}
    if op.tx != "read":
        ctx.operation = (op.name, op.record or module_kind(op.module))
    # Responses that carry their record's allowed actions read the caller from it; set only for
    # the use cases whose response has such a record (the write path's other calls pay nothing).
    token = CURRENT_CTX.set(ctx) if op.stateful else None
    try:
        if op.tx != "write":
            if op.takes_session and op.tx == "read":
                with ctx.read() as s:
                    return op.handler(ctx, session=s, **kwargs)
            return op.handler(ctx, **kwargs)
        if ctx.runtime.is_station and op.auth != "platform":
            refuse_secrets_offline(op, parsed)
            refuse_online_only(ctx, op)
        with ctx.write():
            if idempotency_key and ctx.tenant is not None:
                fresh = ctx.uow.fresh_keys
                if idempotency_key in fresh:
                    fresh.discard(idempotency_key)  # used now: a second call with it looks it up
                elif (done := _replay(ctx, op, idempotency_key, params, parsed)) is not None:
                    return done.get("result")
            outboxed = ctx.runtime.is_station and op.auth != "platform"
            # A station records the identifiers the change makes; the platform's
            # replay of it takes the same ones. The flush makes column defaults
            # (ids of new rows) happen inside the plan.
            plan = IdPlan(ctx.replay_ids) if ctx.replay_ids is not None else (IdPlan() if outboxed else None)
            base = None
            if outboxed and op.method == "DELETE" and DELETE_BASE:
                # The record as this station held it, read before the delete (the path's last parameter).
                named = [params[n] for n in re.findall(r"\{(\w+)\}", op.path) if n in params]
                if named:
                    base = DELETE_BASE[0](ctx.uow.connection(), ctx.tenant_id, named[-1])
            with id_plan(plan):
                if op.takes_session:
                    kwargs["session"] = ctx.uow.session
                result = op.handler(ctx, **kwargs)
                if plan is not None:
                    ctx.uow.session.flush()
            _note_ids(ctx, params, plan, result)
            from services.core.audit import note  # audit imports this module (its route)

            note(ctx, op, params, parsed, result)  # same transaction as the change
            if idempotency_key and ctx.tenant is not None:
                _remember(ctx, op, idempotency_key, params, parsed, result)
            if outboxed:
                ids = plan.ids if plan else []
                rid = getattr(result, "id", None)
                # Only a record this change made can get another id from a spec-only platform.
                made = rid if isinstance(rid, str) and rid in ids else None
                record_outbox(
                    ctx, op, params, parsed, idempotency_key, ids, made, q, upload if op.upload else None, base
                )
        return result
    finally:
        if token is not None:
            CURRENT_CTX.reset(token)


def _note_ids(ctx: Ctx, params: dict[str, str], plan: IdPlan | None, result: Any) -> None:
    """The records the change touched, where known (``CommitInfo.ids``): its path's, the ones it made."""
    ids = ctx.uow.ids
    ids.update(v for v in params.values() if isinstance(v, str))
    if plan is not None:
        ids.update(plan.ids)
    rid = getattr(result, "id", None)
    if isinstance(rid, str):
        ids.add(rid)

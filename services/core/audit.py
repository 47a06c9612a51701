"""The audit log: every change to a tenant's access and settings, recorded in ONE place.

``commands.execute`` calls ``note`` inside the unit of work of each write use case, so an entry
commits with its change or not at all. Which use cases count is decided here (``kind_of``): the
platform's own (users, roles, module access, API keys), webhook subscriptions, and any module's
settings and connections. ``changes`` is the request body with every secret masked: a key,
secret, token or password never reaches the log.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy import delete, or_

from local_db.models.audit import AuditEntry
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.pagination import Listing, ListQuery, Page
from services.core.roles import MANAGERS

if TYPE_CHECKING:
    from local_db.engine import Database
    from services.core.commands import Operation

# Named kinds for the changes people look for most; any other audited use case keeps its name.
KINDS = {
    "platform.api_keys.create": "api_key.created",
    "platform.api_keys.revoke": "api_key.revoked",
    "platform.tenant.modules": "tenant.modules_changed",
    "platform.users.create": "user.created",
    "platform.users.update": "user.changed",
    "events.subscriptions.create": "webhook_subscription.created",
    "events.subscriptions.update": "webhook_subscription.changed",
    "events.subscriptions.delete": "webhook_subscription.deleted",
    "events.subscriptions.activate": "webhook_subscription.activated",
    "events.subscriptions.deactivate": "webhook_subscription.deactivated",
    "events.subscriptions.rotate_secret": "webhook_subscription.secret_rotated",
}
# Settings and connections of any module (``sign.settings.update``, ``tax.connections.x.save``).
_SETTINGS = re.compile(r"\.settings\.|\.connections\.")
# Field names whose values are secrets (the whole name or a part of it).
_SECRET = re.compile(r"secret|password|token|api_?key|credential|^key$|private", re.I)
MASK = "***"


def kind_of(op: Operation) -> str | None:
    """The audit kind of a write use case, or None when it is not audited."""
    if op.tx != "write":
        return None
    if op.name in KINDS:
        return KINDS[op.name]
    if _SETTINGS.search(op.name):
        return "connection.changed" if ".connections." in op.name else "settings.changed"
    return None


def masked(value: Any) -> Any:
    """The value with every secret-named field replaced by ``***`` (nested too)."""
    if isinstance(value, dict):
        return {k: (MASK if _SECRET.search(str(k)) and v not in (None, "") else masked(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [masked(v) for v in value]
    return value


def note(ctx: Ctx, op: Operation, params: dict[str, str], body: BaseModel | None, result: Any) -> None:
    """Record the change in the open unit of work, when the use case is audited."""
    kind = kind_of(op)
    if kind is None or ctx.tenant is None:
        return
    rid = getattr(result, "id", None)
    if not isinstance(rid, str):
        rid = next((v for k, v in reversed(params.items()) if k != "tenant" and isinstance(v, str)), None)
    changes = masked(body.model_dump(mode="json", exclude_unset=True)) if body is not None else {}
    p = ctx.principal
    ctx.uow.session.add(
        AuditEntry(
            tenant_id=ctx.tenant_id,
            at=ctx.now(),
            actor_id=p.id,
            actor_email=p.email,
            actor_kind=p.kind,
            kind=kind,
            record_id=rid,
            changes=changes,
            ip=ctx.ip,
        )
    )


def purge(db: Database, now: datetime, retention_days: int) -> int:
    """Delete entries older than the retention window (all tenants): the events retention job."""
    with db.transaction(None) as s:
        gone = s.connection().execute(delete(AuditEntry).where(AuditEntry.at < now - timedelta(days=retention_days)))
        return int(gone.rowcount)


# --- the list -----------------------------------------------------------------------------------


def _bound(v: str | None, *, end: bool) -> datetime | None:
    """``from``/``to`` as an ISO 8601 date (the whole day) or timestamp (UTC when no offset)."""
    if v is None or v == "":
        return None
    try:
        if len(v) == 10:
            day = datetime.combine(date.fromisoformat(v), time.min, tzinfo=UTC)
            return day + timedelta(days=1) if end else day
        t = datetime.fromisoformat(v.replace("Z", "+00:00"))
    except ValueError as exc:
        raise ValueError(f"not an ISO 8601 date or timestamp: {v!r}") from exc
    t = t if t.tzinfo else t.replace(tzinfo=UTC)
    return t + timedelta(microseconds=1) if end else t  # an exact ``to`` is inclusive


class AuditQuery(ListQuery):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    actor: str | None = None
    kind: str | None = None
    from_: str | None = Field(default=None, alias="from")
    to: str | None = None

    @field_validator("from_", "to")
    @classmethod
    def _iso(cls, v: str | None) -> str | None:
        _bound(v, end=False)
        return v


class Actor(BaseModel):
    id: str
    email: str | None
    kind: str


class AuditOut(BaseModel):
    id: str
    at: datetime
    actor: Actor
    kind: str
    record_id: str | None
    changes: dict[str, Any]
    ip: str | None


def _out(e: AuditEntry) -> AuditOut:
    actor = Actor(id=e.actor_id, email=e.actor_email, kind=e.actor_kind)
    return AuditOut(id=e.id, at=e.at, actor=actor, kind=e.kind, record_id=e.record_id, changes=e.changes or {}, ip=e.ip)


AUDIT = Listing(
    AuditEntry,
    filters={
        "actor": lambda _n, v: or_(AuditEntry.actor_id == v.strip(), AuditEntry.actor_email == v.strip().lower()),
        "kind": AuditEntry.kind,
        "from_": lambda _n, v: AuditEntry.at >= _bound(v, end=False),
        "to": lambda _n, v: AuditEntry.at < _bound(v, end=True),
    },
    sort={"at": AuditEntry.at},
    default_sort="-at",
)


@use_case(
    "platform.audit.list",
    "GET /api/tenants/{tenant}/audit",
    tx="read",
    roles=MANAGERS,
    summary="read the audit log",
)
def list_audit(ctx: Ctx, query: AuditQuery) -> Page[AuditOut]:
    with ctx.read() as s:
        return AUDIT.page(s, query, _out)

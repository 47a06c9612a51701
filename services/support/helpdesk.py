"""Helpdesk configuration: loading it, SLA targets, and its get/put use cases."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.engine import Prepared
from local_db.models.support import (
    SupportConfig,
    SupportTicket,
)
from services.core.commands import SESSION, next_value, use_case
from services.core.context import Ctx
from services.core.errors import Forbidden, ValidationFailed
from services.core.roles import MANAGERS
from services.core.storage import IMAGE_TYPES
from services.support import schemas as sc
from services.support import states
from services.support.sla import add_business_minutes

if TYPE_CHECKING:  # annotations only: tickets imports this module
    from services.support.tickets import NewTicket

MODULE = "support"
ATTACHMENT_TYPES = IMAGE_TYPES | {"application/pdf", "text/plain"}
_NUMBER = re.compile(r"^(TKT-\d{4}-\d{6}|PROV-[\w-]+)$", re.IGNORECASE)
# Compared against when the number is unknown, so both failures cost the same.
_DUMMY_HASH = hashlib.sha256(b"no-such-ticket").hexdigest()
TXT_PREFIX = "_platform-verification"
ACCESS_HEADER = "x-access-token"
_AFTER = timedelta(milliseconds=1)  # the auto-reply sorts after the description it answers


# --- helpers ---------------------------------------------------------------------


def _require_module(ctx: Ctx) -> None:
    """Public routes skip the central module check: the tenant must still have Support."""
    if ctx.tenant is None or MODULE not in ctx.tenant.modules:
        raise Forbidden("support is not enabled for this tenant")


# Validated configurations by tenant, with the stored document they came from: every ticket made
# reads the configuration, and validating it cost more than the ticket's insert. A cached entry
# is used only while the stored document is equal to it, so a change (here, by another process or
# by a station's pull) is seen at once. Callers treat the answer as read-only.
_CONFIGS: dict[str | None, tuple[Any, sc.HelpdeskConfig]] = {}
_CONFIGS_KEPT = 1024
# Compiled once and run on the driver (local_db.engine.Prepared): on SQLite the stored JSON text
# comes back as it is, compared with the cached entry's text without parsing it (issue 38: the
# read through SQLAlchemy's execution and result machinery was a tenth of a ticket POST's CPU).
_CONFIG_DATA = Prepared(select(SupportConfig.data).where(SupportConfig.tenant_id == bindparam("t")))


# The configuration read once per session (a sync push makes a chunk's tickets in one): kept in
# the session's info until the session writes the configuration itself, after which it is read
# every time (a savepoint rolled back could otherwise leave the session a configuration it undid).
_SESSION_KEY = "support_config"


def load_config(s: Session) -> sc.HelpdeskConfig:
    kept = s.info.get(_SESSION_KEY)
    if isinstance(kept, sc.HelpdeskConfig):
        return kept
    cfg = _read_config(s)
    if kept is None:
        s.info[_SESSION_KEY] = cfg
    return cfg


def config_written(s: Session) -> None:
    """Every write of the configuration row says so: this session reads it afresh from now on."""
    s.info[_SESSION_KEY] = False


def _read_config(s: Session) -> sc.HelpdeskConfig:
    tenant_id = s.info.get("tenant_id")
    if tenant_id is None:
        data = s.execute(select(SupportConfig.data)).scalar_one_or_none()
    else:
        # A Core select with the tenant named (the session's own scoping runs on ORM statements
        # only): half the cost, on every ticket made. The row is written by the ORM elsewhere:
        # flush what is pending first, as an ORM select would.
        s.flush()
        # The text on SQLite's fast path; the parsed document elsewhere (another database, or a
        # connection outside a transaction, which Prepared runs through SQLAlchemy).
        data = _CONFIG_DATA.scalar(s.connection(), {"t": tenant_id})
    if data is None:
        return sc.HelpdeskConfig()
    cached = _CONFIGS.get(tenant_id)
    if cached is not None and cached[0] == data:
        return cached[1]
    cfg = sc.HelpdeskConfig.model_validate(json.loads(data) if isinstance(data, str) else data)
    if len(_CONFIGS) >= _CONFIGS_KEPT:
        _CONFIGS.clear()
    _CONFIGS[tenant_id] = (data, cfg)
    return cfg


def _set_sla(t: SupportTicket | NewTicket, cfg: sc.HelpdeskConfig) -> None:
    target = cfg.sla[t.priority]  # type: ignore[index]
    t.first_response_due = add_business_minutes(t.created_at, target.first_response_minutes, cfg.business_hours)
    t.resolution_due = add_business_minutes(t.created_at, target.resolution_minutes, cfg.business_hours)


def _reprioritize_sla(t: SupportTicket, cfg: sc.HelpdeskConfig, now: datetime) -> None:
    """A new priority moves only the targets still open: an outcome already reached (met, or breached
    because its due time passed) is a record and never changes."""
    target = cfg.sla[t.priority]  # type: ignore[index]
    first_breached = t.first_response_due is not None and t.first_response_due < now
    if t.first_response_at is None and not first_breached:
        t.first_response_due = add_business_minutes(t.created_at, target.first_response_minutes, cfg.business_hours)
    resolution_breached = t.resolution_due is not None and t.resolution_due < now
    if t.resolved_at is None and not resolution_breached:
        t.resolution_due = add_business_minutes(t.created_at, target.resolution_minutes, cfg.business_hours)


def is_breaching(t: SupportTicket | NewTicket, now: datetime) -> bool:
    if t.state not in states.ACTIVE:
        return False
    late_first = t.first_response_at is None and t.first_response_due is not None and t.first_response_due < now
    return late_first or (t.resolution_due is not None and t.resolution_due < now)


TRIAGE_COUNTER = "support-triage-corpus"
_DONE = ("resolved", "closed")


def corpus_changed(ctx: Ctx) -> None:
    """Bump the tenant's triage version (in the open unit of work): the cached model is rebuilt."""
    next_value(ctx, ctx.tenant_id, TRIAGE_COUNTER)


@use_case(
    "support.helpdesk.get",
    "GET /api/tenants/{tenant}/support/helpdesk",
    tx="read",
    summary="read the helpdesk configuration",
)
def get_helpdesk(ctx: Ctx, session: Session = SESSION) -> sc.HelpdeskConfig:
    return load_config(session)


@use_case(
    "support.helpdesk.put",
    "PUT /api/tenants/{tenant}/support/helpdesk",
    tx="write",
    roles=MANAGERS,
    summary="change the helpdesk configuration",
)
def put_helpdesk(ctx: Ctx, body: sc.HelpdeskConfig) -> sc.HelpdeskConfig:
    ids = [c.id for c in body.canned_responses]
    if len(ids) != len(set(ids)):
        raise ValidationFailed("canned response ids must be unique")
    with ctx.write() as s:
        from services.support.automation import check_config  # imports this module

        check_config(ctx, s, body)
        row = s.execute(select(SupportConfig)).scalar_one_or_none()
        data = body.model_dump(mode="json")
        config_written(s)
        if row is None:
            s.add(SupportConfig(id=new_id(), data=data, updated_at=ctx.now()))
        else:
            row.data, row.updated_at = data, ctx.now()
        # New targets apply to the tickets still being worked on.
        for t in s.execute(select(SupportTicket).where(SupportTicket.state.in_(states.ACTIVE))).scalars():
            _set_sla(t, body)
    return body


# --- e-mail domain -----------------------------------------------------------------

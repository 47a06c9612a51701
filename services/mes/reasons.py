"""Mes: the tenant's stop reasons, each with its category and its loss (docs/mes.md "Stop reasons").

``planned`` stops (a break, planned maintenance, no demand) are not planned production time: they
leave availability alone. ``unplanned`` stops count against it. Each unplanned reason names the
one of the six big losses (TPM) it belongs to. The list is the tenant's (setting
``mes.stop_reasons``), the defaults below until a manager saves one; a reason not on it is refused.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import flag_modified

from local_db.models.core import Tenant
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.roles import MANAGERS, STAFF
from services.mes.schemas import StopReasonOut, StopReasonsIn, StopReasonsOut

DEFAULTS: tuple[tuple[str, str, str | None], ...] = (
    ("breakdown", "unplanned", "equipment_failure"),
    ("changeover", "unplanned", "setup_adjustments"),
    ("material shortage", "unplanned", "equipment_failure"),
    ("waiting for operator", "unplanned", "equipment_failure"),
    ("quality check", "unplanned", "setup_adjustments"),
    ("tooling", "unplanned", "setup_adjustments"),
    ("cleaning", "unplanned", "setup_adjustments"),
    ("blocked downstream", "unplanned", "idling_minor_stops"),
    ("minor stop", "unplanned", "idling_minor_stops"),
    ("other", "unplanned", "equipment_failure"),
    ("planned maintenance", "planned", None),
    ("break", "planned", None),
    ("no demand", "planned", None),
)


def reasons(s: Session, ctx: Ctx) -> list[StopReasonOut]:
    t = s.get(Tenant, ctx.tenant_id)
    stored: list[dict[str, Any]] | None = (((t.settings if t else None) or {}).get("mes") or {}).get("stop_reasons")
    if stored:
        return [StopReasonOut(**r) for r in stored]
    return [StopReasonOut(reason=r, category=c, loss=loss) for r, c, loss in DEFAULTS]  # type: ignore[arg-type]


def planned_reasons(s: Session, ctx: Ctx) -> list[str]:
    return [r.reason for r in reasons(s, ctx) if r.category == "planned"]


def check_reason(s: Session, ctx: Ctx, reason: str | None) -> str | None:
    """The reason as the list spells it; a reason not on the tenant's list is 400."""
    if reason is None:
        return None
    known = {r.reason.casefold(): r.reason for r in reasons(s, ctx)}
    found = known.get(reason.strip().casefold())
    if found is None:
        raise ValidationFailed(
            f"{reason!r} is not one of the tenant's stop reasons",
            {"fields": [{"field": "reason", "message": "not on the list (GET stop-reasons)", "type": "stop_reason"}]},
        )
    return found


@use_case(
    "mes.stop_reasons.list",
    "GET /stop-reasons",
    tx="read",
    roles=STAFF,
    record="mes.machine",
    summary="the tenant's stop reasons with their category (planned or unplanned) and big loss",
)
def list_stop_reasons(ctx: Ctx, session: Session = SESSION) -> StopReasonsOut:
    return StopReasonsOut(reasons=reasons(session, ctx))


@use_case(
    "mes.stop_reasons.save",
    "PUT /stop-reasons",
    tx="write",
    roles=MANAGERS,
    says="Stop reasons",
    record="mes.machine",
    summary="replace the tenant's stop reasons",
)
def save_stop_reasons(ctx: Ctx, body: StopReasonsIn, session: Session = SESSION) -> StopReasonsOut:
    seen: set[str] = set()
    for r in body.reasons:
        if r.reason.casefold() in seen:
            raise ValidationFailed(f"{r.reason!r} is listed twice", {"reason": r.reason})
        seen.add(r.reason.casefold())
    t = session.get(Tenant, ctx.tenant_id)
    assert t is not None
    settings = dict(t.settings or {})
    settings["mes"] = {**(settings.get("mes") or {}), "stop_reasons": [r.model_dump() for r in body.reasons]}
    t.settings = settings
    flag_modified(t, "settings")
    session.flush()
    return StopReasonsOut(reasons=reasons(session, ctx))

"""Aftersale: lookups."""

from __future__ import annotations

from datetime import date

from sqlalchemy.orm import Session

from local_db.models.aftersale import AftersaleWarranty
from services.core.context import Ctx
from services.core.errors import Forbidden, NotFound

MODULE = "aftersale"


def _enabled(ctx: Ctx) -> None:
    if ctx.tenant is None or MODULE not in ctx.tenant.modules:
        raise Forbidden("aftersale is not enabled for this tenant")


def _is_customer(ctx: Ctx) -> bool:
    return ctx.principal.kind == "customer"


def _status(w: AftersaleWarranty, today: date) -> str:
    if w.status == "active" and w.coverage_until < today:
        return "expired"
    return w.status


def _warranty(ctx: Ctx, s: Session, id: str) -> AftersaleWarranty:
    w = s.get(AftersaleWarranty, id)
    if w is None or (_is_customer(ctx) and w.email != ctx.principal.email):
        raise NotFound("warranty not found", {"id": id})
    return w

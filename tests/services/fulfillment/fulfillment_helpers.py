"""Shared by the fulfillment tests: call contexts for demo users, demo orders, a Code 128 reader."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from local_db.models import Tenant
from local_db.models.fulfillment import FulfillmentOrder
from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from tests.barcodes import decode_code128, pdf_to_image  # noqa: F401 - re-exported for the module's tests


def ctx_for(rt: Runtime, email: str, slug: str = "demo") -> Ctx:
    with rt.db.reading(None) as s:
        t = s.execute(select(Tenant).where(Tenant.slug == slug)).scalar_one()
        tenant = auth.tenant_info(t)
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant))


def order_in(rt: Runtime, status: str, slug: str = "demo", skip: int = 0) -> FulfillmentOrder:
    with rt.db.reading(None) as s:
        rows = s.execute(
            select(FulfillmentOrder)
            .join(Tenant, Tenant.id == FulfillmentOrder.tenant_id)
            .where(Tenant.slug == slug, FulfillmentOrder.status == status)
            .order_by(FulfillmentOrder.order_number)
        ).scalars()
        return list(rows)[skip]


def pick_all(ctx: Ctx, order_id: str) -> Any:
    detail = execute(ctx, "fulfillment.orders.get", id=order_id)
    items = [{"code": ln.barcode, "quantity": ln.quantity - ln.picked_quantity} for ln in detail.lines]
    return execute(ctx, "fulfillment.orders.operate", id=order_id, body={"operation": "pick", "items": items})


def op(ctx: Ctx, order_id: str, **body: Any) -> Any:
    return execute(ctx, "fulfillment.orders.operate", id=order_id, body=body)


# --- reading the label back --------------------------------------------------------

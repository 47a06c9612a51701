"""Inbound webhooks: orders from an e-commerce platform, tracking updates from a shipping platform.

Both are signed: ``X-Webhook-Signature: sha256=<hex HMAC-SHA256 of the raw body>``
keyed with the tenant's fulfillment webhook secret (tenant settings). The
signature is checked before the body is parsed. Both are idempotent on the
sender's id: a repeated delivery answers the first answer and changes nothing.
Payload shapes are documented in docs/fulfillment.md.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.fulfillment import FulfillmentOrder, WebhookReceipt
from services.core import signing
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import NotFound, Unauthorized, ValidationFailed, validation_details
from services.core.events import emit
from services.core.files import Upload
from services.fulfillment import states
from services.fulfillment.orders import add_order, cancelled, event_lines, replace_lines
from services.fulfillment.schemas import Address, WebhookResult
from services.fulfillment.settings import webhook_secret

SIGNATURE_HEADER = "x-webhook-signature"
ID_HEADER = "x-webhook-id"
HEADERS = (SIGNATURE_HEADER, ID_HEADER)


class _Lenient(BaseModel):
    # Senders add fields over time; only the ones read here are checked.
    model_config = ConfigDict(extra="ignore")


class EcommerceLineItem(_Lenient):
    id: int | str | None = None
    sku: str = Field(min_length=1, max_length=100)
    barcode: str | None = Field(default=None, max_length=100)
    title: str = Field(min_length=1, max_length=300)
    quantity: int = Field(ge=1, le=10_000)


class EcommerceCustomer(_Lenient):
    first_name: str | None = None
    last_name: str | None = None
    email: str | None = None


class EcommerceOrder(_Lenient):
    """Shopify-style order object (``orders/create``, ``orders/updated``, ``orders/cancelled``)."""

    id: int | str
    name: str | None = Field(default=None, max_length=100)  # the shop's order number, e.g. "#1001"
    email: str | None = Field(default=None, max_length=320)
    created_at: datetime | None = None
    updated_at: datetime | None = None
    cancelled_at: datetime | None = None
    cancel_reason: str | None = Field(default=None, max_length=500)
    customer: EcommerceCustomer | None = None
    shipping_address: Address | None = None
    billing_address: Address | None = None
    line_items: list[EcommerceLineItem] = Field(min_length=1, max_length=500)


class TrackingUpdate(_Lenient):
    """ShipStation/EasyPost-style tracker event."""

    id: str = Field(min_length=1, max_length=200)
    event: str = Field(default="tracker.updated", max_length=60)
    tracking_number: str = Field(min_length=1, max_length=64)
    carrier: str | None = Field(default=None, max_length=40)
    status: str = Field(min_length=1, max_length=40)  # pre_transit, in_transit, out_for_delivery, delivered, ...
    occurred_at: datetime | None = None


def verify(ctx: Ctx, s: Session, upload: Upload, headers: dict[str, str | None]) -> None:
    secret = webhook_secret(s, ctx.tenant_id, ctx.runtime.secret_key)
    given = (headers.get(SIGNATURE_HEADER) or "").strip()
    if secret is None:
        raise Unauthorized("inbound webhooks are not configured for this tenant")
    if not given:
        raise Unauthorized("missing X-Webhook-Signature")
    if not signing.verify(secret, upload.content, given):
        raise Unauthorized("bad webhook signature")


def _parse(upload: Upload, model: type[BaseModel]) -> Any:
    try:
        raw = json.loads(upload.content)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValidationFailed("webhook body is not valid JSON") from exc
    if not isinstance(raw, dict):
        raise ValidationFailed("webhook body must be a JSON object")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise ValidationFailed("webhook body failed validation", validation_details(exc)) from exc


def _seen(s: Session, source: str, sender_id: str) -> WebhookResult | None:
    rec = s.execute(
        select(WebhookReceipt).where(WebhookReceipt.source == source, WebhookReceipt.sender_id == sender_id)
    ).scalar_one_or_none()
    if rec is None:
        return None
    return WebhookResult(**{**rec.response, "action": "duplicate"})


def _remember(ctx: Ctx, s: Session, result: WebhookResult) -> WebhookResult:
    s.add(
        WebhookReceipt(
            id=new_id(),
            source=result.source,
            sender_id=result.sender_id,
            order_id=result.order_id,
            response=result.model_dump(mode="json"),
            received_at=ctx.now(),
        )
    )
    return result


@use_case(
    "fulfillment.webhooks.ecommerce",
    "POST /webhooks/ecommerce",
    tx="write",
    auth="public",
    upload=True,
    headers=HEADERS,
    summary="inbound order webhook from an e-commerce platform",
)
def ecommerce(ctx: Ctx, upload: Upload, headers: dict[str, str | None]) -> WebhookResult:
    with ctx.write() as s:
        verify(ctx, s, upload, headers)
        p: EcommerceOrder = _parse(upload, EcommerceOrder)
        ext = str(p.id)
        sender_id = headers.get(ID_HEADER) or f"{ext}:{p.updated_at.isoformat() if p.updated_at else ''}"
        done = _seen(s, "ecommerce", sender_id)
        if done is not None:
            return done
        o = s.execute(
            select(FulfillmentOrder).where(FulfillmentOrder.source == "ecommerce", FulfillmentOrder.external_id == ext)
        ).scalar_one_or_none()
        result = WebhookResult(source="ecommerce", sender_id=sender_id, action="ignored")
        lines = [
            {"sku": li.sku, "barcode": li.barcode, "name": li.title, "quantity": li.quantity} for li in p.line_items
        ]
        customer = " ".join(x for x in ((p.customer.first_name, p.customer.last_name) if p.customer else ()) if x)
        address = p.shipping_address.model_dump(exclude_none=True) if p.shipping_address else {}
        fields: dict[str, Any] = {
            "customer_name": customer or address.get("name") or "",
            "customer_email": p.email or (p.customer.email if p.customer else None),
            "shipping_address": address,
            "billing_address": p.billing_address.model_dump(exclude_none=True) if p.billing_address else None,
            "external_number": p.name,
            "external_updated_at": p.updated_at,
        }
        now = ctx.now()
        if o is None:
            if p.cancelled_at is not None:
                return _remember(ctx, s, result)  # cancelled before we saw it: nothing to fulfil
            o = add_order(ctx, s, lines=lines, source="ecommerce", external_id=ext, **fields)
            emit(
                ctx,
                "order.created",
                {
                    "order_id": o.id,
                    "order_number": o.order_number,
                    "source": "ecommerce",
                    "external_id": ext,
                    "external_number": p.name,
                    "line_count": len(lines),
                    # Inventory holds these at the shipping location (its reaction, this transaction).
                    "lines": event_lines(lines),
                },
            )
            result.action = "created"
        elif p.updated_at and o.external_updated_at and p.updated_at <= o.external_updated_at:
            result.action = "ignored"  # an older version arriving late
        elif p.cancelled_at is not None:
            if o.status != "cancelled":
                o.status = states.check(o.status, "cancel")
                o.cancelled_at, o.cancel_reason, o.updated_at = now, p.cancel_reason or "cancelled by the shop", now
                emit(ctx, "order.cancelled", cancelled(o))
                result.action = "cancelled"
        else:
            states.check(o.status, "update")
            for k, v in fields.items():
                setattr(o, k, v)
            o.updated_at = now
            replace_lines(s, o, lines)
            emit(
                ctx,
                "order.updated",
                {"order_id": o.id, "order_number": o.order_number, "lines": event_lines(lines)},
            )
            result.action = "updated"
        result.order_id, result.order_number, result.status = o.id, o.order_number, o.status
        s.flush()
        return _remember(ctx, s, result)


@use_case(
    "fulfillment.webhooks.shipping",
    "POST /webhooks/shipping-platform",
    tx="write",
    auth="public",
    upload=True,
    headers=HEADERS,
    summary="inbound tracking webhook from a shipping platform",
)
def shipping_platform(ctx: Ctx, upload: Upload, headers: dict[str, str | None]) -> WebhookResult:
    with ctx.write() as s:
        verify(ctx, s, upload, headers)
        p: TrackingUpdate = _parse(upload, TrackingUpdate)
        done = _seen(s, "shipping-platform", p.id)
        if done is not None:
            return done
        o = s.execute(
            select(FulfillmentOrder).where(FulfillmentOrder.tracking_number == p.tracking_number)
        ).scalar_one_or_none()
        if o is None:
            raise NotFound(f"no order with tracking number {p.tracking_number}", {"tracking_number": p.tracking_number})
        result = WebhookResult(
            source="shipping-platform",
            sender_id=p.id,
            action="status_recorded",
            order_id=o.id,
            order_number=o.order_number,
        )
        status = p.status.lower()
        now = ctx.now()
        o.carrier_status, o.updated_at = status, now
        if status == "delivered" and o.status != "delivered":
            o.status = states.check(o.status, "deliver")
            o.delivered_at = p.occurred_at or now
            emit(
                ctx,
                "order.delivered",
                {
                    "order_id": o.id,
                    "order_number": o.order_number,
                    "tracking_number": p.tracking_number,
                    "carrier": o.carrier,
                    "delivered_at": o.delivered_at.isoformat(),
                },
            )
            result.action = "delivered"
        result.status = o.status
        s.flush()
        return _remember(ctx, s, result)

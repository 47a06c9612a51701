"""Fulfillment settings: per-device settings and the webhook secret."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models import Tenant
from local_db.models.fulfillment import DeviceSettings
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Forbidden, ValidationFailed
from services.core.roles import ANYONE, MANAGERS
from services.core.sealing import seal, unseal
from services.fulfillment.orders import DEVICE_ROLE
from services.fulfillment.schemas import (
    DeviceQuery,
    DeviceSettingsIn,
    DeviceSettingsOut,
    WebhookSecretIn,
    WebhookSettingsOut,
)

# --- device settings ---------------------------------------------------------------

DEVICE_DEFAULTS: dict[str, Any] = {
    "printer": "",
    "label_format": "pdf",
    "scanner_suffix": "enter",
    "sounds": True,
    "boxes": ["S", "M", "L", "XL"],
    "auto_print": True,
}


def _device_of(ctx: Ctx, query: DeviceQuery) -> str:
    p = ctx.principal
    if p.role == DEVICE_ROLE:
        if query.device not in (None, p.id, "default"):
            raise Forbidden("a device reads its own settings")
        return query.device or p.id
    return query.device or "default"


def _settings_out(device: str, row: DeviceSettings | None, base: dict[str, Any]) -> DeviceSettingsOut:
    values = {**DEVICE_DEFAULTS, **base, **(row.values if row else {})}
    return DeviceSettingsOut(device=device, updated_at=row.updated_at if row else None, **values)


def _settings_row(s: Session, device: str) -> DeviceSettings | None:
    return s.execute(select(DeviceSettings).where(DeviceSettings.device == device)).scalar_one_or_none()


@use_case(
    "fulfillment.settings.device.get",
    "GET /settings/device",
    tx="read",
    roles=ANYONE,
    summary="read device settings",
)
def get_device_settings(ctx: Ctx, query: DeviceQuery) -> DeviceSettingsOut:
    device = _device_of(ctx, query)
    with ctx.read() as s:
        row = _settings_row(s, device)
        default = _settings_row(s, "default") if device != "default" else None
    return _settings_out(device, row, default.values if default else {})


@use_case("fulfillment.settings.device.put", "PUT /settings/device", tx="write", summary="change device settings")
def put_device_settings(ctx: Ctx, body: DeviceSettingsIn, query: DeviceQuery) -> DeviceSettingsOut:
    device = _device_of(ctx, query)
    changes = body.model_dump(exclude_unset=True)
    if any(v is None for v in changes.values()):
        raise ValidationFailed("settings cannot be null", {"fields": [k for k, v in changes.items() if v is None]})
    with ctx.write() as s:
        row = _settings_row(s, device)
        if row is None:
            row = DeviceSettings(id=new_id(), device=device, values={})
            s.add(row)
        row.values = {**row.values, **changes}  # a new dict: JSON columns track assignment only
        row.updated_at = ctx.now()
        row.updated_by = ctx.principal.id
        s.flush()
        default = _settings_row(s, "default") if device != "default" else None
        return _settings_out(device, row, default.values if default else {})


# --- webhook settings ----------------------------------------------------------------


def webhook_secret(s: Session, tenant_id: str, seal_key: str) -> str | None:
    """The tenant's inbound webhook secret, in clear (it is stored sealed)."""
    t = s.get(Tenant, tenant_id)
    sealed = ((t.settings or {}).get("fulfillment") or {}).get("webhook_secret") if t else None
    return unseal(seal_key, sealed) if sealed else None


@use_case(
    "fulfillment.settings.webhooks.get",
    "GET /settings/webhooks",
    tx="read",
    roles=MANAGERS,
    summary="read inbound webhook settings",
)
def get_webhook_settings(ctx: Ctx) -> WebhookSettingsOut:
    with ctx.read() as s:
        configured = webhook_secret(s, ctx.tenant_id, ctx.runtime.secret_key) is not None
    return WebhookSettingsOut(configured=configured, signature_header="X-Webhook-Signature", algorithm="hmac-sha256")


@use_case(
    "fulfillment.settings.webhooks.put",
    "PUT /settings/webhooks",
    tx="write",
    roles=MANAGERS,
    summary="set the inbound webhook secret",
)
def put_webhook_settings(ctx: Ctx, body: WebhookSecretIn) -> WebhookSettingsOut:
    with ctx.write() as s:
        set_webhook_secret(s, ctx.tenant_id, body.secret, ctx.runtime.secret_key)
    return WebhookSettingsOut(configured=True, signature_header="X-Webhook-Signature", algorithm="hmac-sha256")


def set_webhook_secret(s: Session, tenant_id: str, secret: str, seal_key: str) -> None:
    t = s.get(Tenant, tenant_id)
    assert t is not None
    settings = dict(t.settings or {})
    # Sealed, not hashed: verifying a sender's HMAC needs the secret itself.
    settings["fulfillment"] = {**(settings.get("fulfillment") or {}), "webhook_secret": seal(seal_key, secret)}
    t.settings = settings  # a new dict: JSON columns track assignment only

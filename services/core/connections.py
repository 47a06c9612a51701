"""Connections to outside services: a tenant's e-commerce shop and tax service (DECISIONS, Tax).

A connection is kept in the tenant's settings (``connections.<name>``) with its key sealed, after
a real check call (``GET {base_url}/account``) accepted it; it is answered without the key. The
platform calls it only at addresses ``url_problem`` allows (PLATFORM_CONNECTIONS_ALLOW_PRIVATE).
Tax declares the use cases (services/tax/connections.py); Catalog's product sync and Tax's
transaction sync read it through ``stored_connection`` and ``connection_client``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, field_validator
from sqlalchemy.orm import Session

from local_db.models import Tenant
from services.core.context import Ctx
from services.core.errors import Conflict, ValidationFailed
from services.core.schemas import Strict
from services.core.sealing import seal, unseal
from services.core.shop import ShopClient, ShopError, url_problem
from services.core.urls import FetchUrl


class EcommerceConnectionIn(Strict):
    """The tenant's e-commerce connection (DECISIONS, Tax: the documented ``generic`` provider)."""

    provider: Literal["generic"] = "generic"
    base_url: FetchUrl = Field(max_length=500)
    credentials: dict[str, Annotated[str, Field(max_length=500)]]
    # Requests per second the shop allows (the sync paces itself to it).
    rate_limit: float = Field(default=2.0, gt=0, le=100)

    @field_validator("credentials")
    @classmethod
    def _creds(cls, v: dict[str, str]) -> dict[str, str]:
        if not v.get("api_key"):
            raise ValueError("credentials.api_key is required")
        if set(v) - {"api_key"}:
            raise ValueError("credentials take api_key only")
        return v


class EcommerceConnectionOut(BaseModel):
    """A connection (e-commerce or tax service) as DECISIONS gives it, never with its key."""

    connected: bool
    provider: str | None
    account: str | None  # the account name the service's check call answered
    base_url: str | None
    account_name: str | None
    rate_limit: float | None
    key_hint: str | None  # the last characters of the key, so people recognise it
    saved_at: datetime | None
    # Set by Tax's transaction sync: when it last completed and why the last attempt failed.
    last_sync_at: datetime | None = None
    last_error: str | None = None


@dataclass(frozen=True)
class ConnectionsConfig:
    """PLATFORM_CONNECTIONS_ALLOW_PRIVATE: connections may use plain http, loopback and private addresses."""

    allow_private: bool = False


def _stored(s: Session, tenant_id: str, name: str = "ecommerce") -> dict[str, Any] | None:
    t = s.get(Tenant, tenant_id)
    return ((t.settings or {}).get("connections") or {}).get(name) if t else None


def stored_connection(s: Session, tenant_id: str, name: str = "ecommerce") -> dict[str, Any] | None:
    """The connection as kept in the tenant's settings (its key sealed), or None."""
    return _stored(s, tenant_id, name)


def _connection_out(conn: dict[str, Any] | None) -> EcommerceConnectionOut:
    if not conn:
        return EcommerceConnectionOut(
            connected=False,
            provider=None,
            account=None,
            base_url=None,
            account_name=None,
            rate_limit=None,
            key_hint=None,
            saved_at=None,
        )

    def when(key: str) -> datetime | None:
        return datetime.fromisoformat(conn[key]) if conn.get(key) else None

    return EcommerceConnectionOut(
        connected=True,
        provider=conn["provider"],
        account=conn.get("account_name"),
        base_url=conn["base_url"],
        account_name=conn.get("account_name"),
        rate_limit=conn.get("rate_limit"),
        key_hint=conn.get("key_hint"),
        saved_at=when("saved_at"),
        last_sync_at=when("last_sync_at"),
        last_error=conn.get("last_error"),
    )


def _put(ctx: Ctx, name: str, conn: dict[str, Any] | None) -> None:
    with ctx.write() as s:
        t = s.get(Tenant, ctx.tenant_id)
        assert t is not None
        settings = dict(t.settings or {})
        conns = dict(settings.get("connections") or {})
        if conn is None:
            conns.pop(name, None)
        else:
            conns[name] = conn
        settings["connections"] = conns
        t.settings = settings  # a new dict: JSON columns track assignment only


def connection_status(ctx: Ctx, name: str) -> EcommerceConnectionOut:
    with ctx.read() as s:
        return _connection_out(_stored(s, ctx.tenant_id, name))


def save_connection_as(ctx: Ctx, name: str, body: EcommerceConnectionIn) -> EcommerceConnectionOut:
    """Check the credentials with a real call to the service, then keep them sealed."""
    if ctx.runtime.is_station:
        raise Conflict(
            "a connection carries a secret, so it is saved on the platform, not queued on a station",
            {"reason": "online_only"},
        )
    allow = ctx.runtime.part(ConnectionsConfig).allow_private
    why = url_problem(body.base_url, allow_private=allow)
    if why:
        raise ValidationFailed(why, {"fields": [{"field": "base_url", "message": why, "type": "url"}]})
    key = body.credentials["api_key"]
    try:
        # The check call: outside the transaction's lock would be nicer, but it is one short request.
        with ShopClient(body.base_url, key, rate=body.rate_limit, attempts=2) as shop:
            account = shop.account()
    except ShopError as exc:
        raise ValidationFailed(
            f"the service did not accept the connection: {exc}",
            {"fields": [{"field": "credentials.api_key", "message": str(exc), "type": "check"}]},
        ) from None
    conn = {
        "provider": body.provider,
        "base_url": body.base_url.rstrip("/"),
        "api_key": seal(ctx.runtime.secret_key, key),
        "account_name": str(account["name"])[:200],
        "rate_limit": body.rate_limit,
        "key_hint": "…" + key[-4:],
        "saved_at": ctx.now().isoformat(),
    }
    _put(ctx, name, conn)
    return _connection_out(conn)


def remove_connection(ctx: Ctx, name: str) -> EcommerceConnectionOut:
    _put(ctx, name, None)
    return _connection_out(None)


def note_sync(ctx: Ctx, name: str, *, at: datetime | None, error: str | None) -> None:
    """Record on the connection when a sync last completed (``at``) or why it failed (``error``)."""
    with ctx.write() as s:
        conn = _stored(s, ctx.tenant_id, name)
        if not conn:
            return
        conn = dict(conn)
        if at is not None:
            conn["last_sync_at"] = at.isoformat()
        conn["last_error"] = error[:500] if error else None
    _put(ctx, name, conn)


def connection_client(ctx: Ctx, conn: dict[str, Any]) -> ShopClient:
    """A client of the stored connection (its key unsealed here, never kept elsewhere)."""
    allow = ctx.runtime.part(ConnectionsConfig).allow_private
    why = url_problem(conn["base_url"], allow_private=allow)
    if why:
        raise ShopError(f"the connection's address is refused: {why}")
    return ShopClient(
        conn["base_url"], unseal(ctx.runtime.secret_key, conn["api_key"]), rate=float(conn.get("rate_limit") or 2.0)
    )

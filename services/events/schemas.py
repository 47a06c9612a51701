"""Requests and responses of the events module."""

from __future__ import annotations

import base64
import binascii
import re
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from services.core.events import EVENT_TYPES, PUBLIC_PREFIX
from services.core.pagination import ListQuery
from services.core.schemas import Out, Strict
from services.core.urls import FetchUrl

RETENTION_DAYS = 90
MAX_FILTER_KEYS = 20
_SOURCE = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,49}$")
_PATH = re.compile(r"^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$")


def _known_type(v: str) -> str:
    """A catalogue type, or ``public.<catalogue type>`` (the same published anonymously)."""
    if v.removeprefix(PUBLIC_PREFIX) not in EVENT_TYPES:
        raise ValueError(f"unknown event type {v!r}")
    return v


def _subscribable(v: str) -> str:
    """A type a subscription may name: a catalogue type, ``*`` (every platform type),
    ``<module>.*`` (every type the catalogue gives that module), ``public.<type>`` or ``public.*``
    (published anonymously: ``*`` does not take them)."""
    if v in ("*", "public.*"):
        return v
    if v.endswith(".*"):
        module = v[:-2]
        if module not in {et.module for et in EVENT_TYPES.values()}:
            raise ValueError(f"unknown module {module!r} in {v!r} (GET event-types lists the modules)")
        return v
    return _known_type(v)


def aware(v: datetime) -> datetime:
    """Timestamps without a zone are read as UTC (the spec writes them as ISO 8601)."""
    return v.replace(tzinfo=UTC) if v.tzinfo is None else v.astimezone(UTC)


# --- events --------------------------------------------------------------------


class PublishRequest(Strict):
    type: str = Field(min_length=1, max_length=100)
    source: str | None = Field(default=None, max_length=50)
    data: dict[str, Any] = Field(default_factory=dict)

    @field_validator("source")
    @classmethod
    def _source(cls, v: str | None) -> str | None:
        if v is not None and not _SOURCE.match(v):
            raise ValueError("source is a module name: lower-case letters, digits, '_', '.', '-'")
        return v


class EventSettings(Strict):
    """The tenant's events settings. ``public_publish``: whether anyone may publish through
    ``POST /<tenant>/events/api/p/events`` (on by default; such events are delivered with
    ``"origin": "public"``)."""

    public_publish: bool = Field(strict=True)
    # Endpoint health: a subscription whose every delivery failed for this many days is disabled
    # (5, as Svix does). Left out of a PUT: the stored value stays.
    endpoint_disable_days: int = Field(default=5, ge=1, le=90, strict=True)


class EventOut(Out):
    id: str
    type: str
    source: str
    tenant_id: str
    data: dict[str, Any]
    created_at: datetime


class PublishedEvent(EventOut):
    deliveries: int


def _bound(v: str | None, *, end: bool) -> datetime | None:
    """``from``/``to`` as an ISO 8601 date (whole day) or timestamp."""
    if v is None or v == "":
        return None
    try:
        if len(v) == 10:
            d = date.fromisoformat(v)
            day = datetime.combine(d, time.min, tzinfo=UTC)
            return day + timedelta(days=1) if end else day
        return aware(datetime.fromisoformat(v.replace("Z", "+00:00")))
    except ValueError as exc:
        raise ValueError(f"not an ISO 8601 date or timestamp: {v!r}") from exc


class EventQuery(ListQuery):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    type: str | None = None
    source: str | None = None
    from_: str | None = Field(default=None, alias="from")
    to: str | None = None

    @field_validator("from_", "to")
    @classmethod
    def _iso(cls, v: str | None) -> str | None:
        _bound(v, end=False)
        return v

    @property
    def start(self) -> datetime | None:
        return _bound(self.from_, end=False)

    @property
    def end(self) -> datetime | None:
        """Exclusive: a date ``to`` covers that whole day."""
        b = _bound(self.to, end=True)
        if b is not None and self.to is not None and len(self.to) != 10:
            b += timedelta(microseconds=1)  # an exact timestamp is inclusive
        return b


# --- subscriptions -----------------------------------------------------------------


class SubscriptionCreate(Strict):
    """Both documented forms: ``event_types``/``target`` or legacy ``event_type``/``target_module``."""

    event_types: list[str] | None = Field(default=None, min_length=1, max_length=50)
    event_type: str | None = None
    target: Literal["webhook"] | None = None
    target_module: Literal["external", "webhook"] | None = None
    webhook_url: FetchUrl = Field(max_length=2048)
    # hmac-sha256: required. standard-webhooks: a whsec_ secret, or none and the platform makes one.
    secret: str | None = Field(default=None, min_length=1, max_length=256)
    active: bool = True
    filter: dict[str, Any] | None = None
    # How the body names the time: "created_at" (with source) or the legacy "timestamp".
    payload_format: Literal["created_at", "timestamp"] = "created_at"
    signing: Literal["hmac-sha256", "standard-webhooks"] = "hmac-sha256"

    @field_validator("event_types")
    @classmethod
    def _types(cls, v: list[str] | None) -> list[str] | None:
        if v is None:
            return v
        return list(dict.fromkeys(_subscribable(t) for t in v))

    @field_validator("event_type")
    @classmethod
    def _type(cls, v: str | None) -> str | None:
        return None if v is None else _known_type(v)

    @field_validator("filter")
    @classmethod
    def _filter(cls, v: dict[str, Any] | None) -> dict[str, Any] | None:
        return check_filter(v)

    @model_validator(mode="after")
    def _one_form(self) -> SubscriptionCreate:
        if (self.event_types is None) == (self.event_type is None):
            raise ValueError("give either event_types (a list) or event_type (one type)")
        if self.target is not None and self.target_module is not None:
            raise ValueError("give either target or target_module")
        if self.signing == "hmac-sha256" and self.secret is None:
            raise ValueError("secret is required (or choose signing standard-webhooks, and the platform makes one)")
        if self.signing == "standard-webhooks" and self.secret is not None:
            check_whsec(self.secret)
        return self

    @property
    def types(self) -> list[str]:
        # The legacy form is stored as a one-element event_types (DECISIONS.md).
        return self.event_types if self.event_types is not None else [str(self.event_type)]


def check_whsec(secret: str) -> str:
    """A Standard Webhooks secret: ``whsec_`` and the base64 of 24 to 64 random bytes."""
    if not secret.startswith("whsec_"):
        raise ValueError("a standard-webhooks secret starts with whsec_ (or leave it out: the platform makes one)")
    try:
        key = base64.b64decode(secret.removeprefix("whsec_"), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("a standard-webhooks secret is whsec_ followed by base64") from None
    if not 24 <= len(key) <= 64:
        raise ValueError("a standard-webhooks secret holds 24 to 64 bytes")
    return secret


def check_filter(v: dict[str, Any] | None) -> dict[str, Any] | None:
    if v is None:
        return v
    if len(v) > MAX_FILTER_KEYS:
        raise ValueError(f"a filter has at most {MAX_FILTER_KEYS} fields")
    for key in v:
        if not _PATH.match(key):
            raise ValueError(f"filter key {key!r} is not a field path like 'carrier' or 'address.country'")
    return v


class SubscriptionUpdate(Strict):
    event_types: list[str] | None = Field(default=None, min_length=1, max_length=50)
    webhook_url: FetchUrl | None = Field(default=None, max_length=2048)
    filter: dict[str, Any] | None = None
    payload_format: Literal["created_at", "timestamp"] | None = None

    @field_validator("event_types")
    @classmethod
    def _types(cls, v: list[str] | None) -> list[str] | None:
        return None if v is None else list(dict.fromkeys(_subscribable(t) for t in v))

    @field_validator("filter")
    @classmethod
    def _filter(cls, v: dict[str, Any] | None) -> dict[str, Any] | None:
        return check_filter(v)


class RotateSecret(Strict):
    secret: str = Field(min_length=1, max_length=256)
    # The old secret keeps signing (X-Service-Signature-Previous) this long; 0 ends it now.
    grace_seconds: int = Field(default=86400, ge=0, le=7 * 86400)


class SubscriptionOut(Out):
    id: str
    event_types: list[str]
    target: str
    webhook_url: str
    filter: dict[str, Any] | None
    payload_format: str
    signing: str
    active: bool
    previous_secret_expires_at: datetime | None
    created_at: datetime
    updated_at: datetime
    # Set when endpoint health turned it off (every delivery failing too long); cleared by activate.
    disabled_at: datetime | None = None
    disabled_reason: str | None = None


class SubscriptionCreated(SubscriptionOut):
    """The 201 answer: with ``secret`` once, when the platform made it (standard-webhooks)."""

    secret: str | None = None

    @model_serializer(mode="wrap")
    def _secret_only_when_made(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("secret") is None:
            data.pop("secret", None)  # a secret the caller gave is never sent back
        return data


class SubscriptionQuery(ListQuery):
    active: bool | None = None
    event_type: str | None = None


# --- replay, deliveries ------------------------------------------------------------


class ReplayRange(Strict):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, populate_by_name=True)

    event_type: str
    from_: datetime = Field(alias="from")
    to: datetime

    @field_validator("event_type")
    @classmethod
    def _type(cls, v: str) -> str:
        return _known_type(v)

    @field_validator("from_", "to")
    @classmethod
    def _aware(cls, v: datetime) -> datetime:
        return aware(v)

    @model_validator(mode="after")
    def _order(self) -> ReplayRange:
        if self.from_ > self.to:
            raise ValueError("'from' is after 'to'")
        return self


class ReplayOut(BaseModel):
    model_config = ConfigDict(serialize_by_alias=True)

    event_id: str | None = None
    event_type: str
    events: int
    deliveries: int
    from_: datetime | None = Field(default=None, serialization_alias="from")
    to: datetime | None = None


class AttemptOut(BaseModel):
    number: int
    retry_count: int
    trigger: str
    attempted_at: datetime
    duration_ms: int
    status_code: int | None
    error_class: str | None
    error_message: str | None
    response_body: str


class DeliveryOut(BaseModel):
    id: str
    subscription_id: str
    event_id: str | None
    event_type: str
    kind: str
    replay: bool
    status: str
    attempts: int
    max_attempts: int
    next_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    created_at: datetime
    completed_at: datetime | None
    attempt_log: list[AttemptOut] = Field(default_factory=list)


class DeliveryQuery(ListQuery):
    status: str | None = None
    kind: str | None = None

"""Event type registry and ``emit``: events written in the caller's transaction.

``emit`` is the one way a module records that something happened. The row is
part of the unit of work, so a rollback leaves no event behind. On the
platform the runtime's event hooks fan the event out to webhook deliveries in
that same transaction; on a station the event is signed with the station key
and waits for the sync engine (delivery to webhooks happens only on the
platform).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError
from sqlalchemy import insert

from local_db import new_id
from local_db.base import table_of
from local_db.engine import Prepared
from local_db.models import Event
from services.core.context import Ctx
from services.core.errors import ValidationFailed, validation_details
from services.core.signing import sign


class OrderShipped(BaseModel):
    model_config = ConfigDict(extra="allow")

    order_id: str
    tracking_number: str
    carrier: str
    shipped_at: datetime


@dataclass(frozen=True)
class EventType:
    name: str
    module: str
    description: str
    schema: type[BaseModel] | None = None
    # The Python module that registered it: a module's manifest answers for the product's own
    # registrations, not for types a test or an integration adds at run time.
    origin: str = ""


EVENT_TYPES: dict[str, EventType] = {}


# Events published anonymously (POST /p/events) are stored and delivered as ``public.<type>``.
PUBLIC_ORIGIN = "public"
PUBLIC_PREFIX = "public."


def register_event_type(name: str, module: str, description: str, schema: type[BaseModel] | None = None) -> EventType:
    et = EventType(name, module, description, schema, origin=sys._getframe(1).f_globals.get("__name__", ""))
    EVENT_TYPES[name] = et
    return et


_SPEC_TYPES: list[tuple[str, str, str]] = [
    ("order.created", "fulfillment", "new order synced from the e-commerce platform"),
    ("order.picked", "fulfillment", "every line of the order picked"),
    ("order.packed", "fulfillment", "order packed in a box"),
    ("order.shipped", "fulfillment", "label created, order shipped"),
    ("order.delivered", "fulfillment", "carrier reported delivery"),
    ("sale.recorded", "rewards", "counter sale submitted"),
    ("sale.approved", "rewards", "sale approved, points credited"),
    ("redemption.created", "rewards", "redemption order placed"),
    ("document.sent", "sign", "document sent for signature"),
    ("document.viewed", "sign", "a signer opened the document"),
    ("document.signed", "sign", "all signatures collected"),
    ("document.declined", "sign", "a signer declined"),
    ("ticket.created", "support", "ticket opened"),
    ("ticket.replied", "support", "a reply was added"),
    ("ticket.resolved", "support", "ticket resolved"),
    ("stock.low", "inventory", "stock fell below its alert threshold"),
    ("stock.adjusted", "inventory", "stock quantity adjusted"),
    ("transfer.completed", "inventory", "transfer completed"),
    ("campaign.sent", "campaign", "campaign sent"),
    ("campaign.completed", "campaign", "campaign completed"),
    ("contact.unsubscribed", "campaign", "contact unsubscribed"),
    ("qr.scanned", "qr", "QR code scanned"),
    ("qr.threshold_reached", "qr", "scan count reached the alert threshold"),
    ("certificate.uploaded", "tax", "exemption certificate uploaded"),
    ("certificate.expiring", "tax", "exemption certificate expiring"),
    ("warranty.registered", "aftersale", "warranty registered"),
    ("claim.submitted", "aftersale", "warranty claim submitted"),
    ("tradein.submitted", "upgrade", "trade-in submitted for review"),
    ("tradein.approved", "upgrade", "offer accepted by the customer"),
    ("catalog.generated", "catalog", "PDF catalog generated"),
    ("ecommerce.sync_completed", "catalog", "e-commerce product sync completed"),
    ("machine.alarm", "mes", "machine raised an alarm"),
    ("machine.status_changed", "mes", "machine went online, offline or idle"),
    ("production.run_completed", "mes", "production run completed"),
]
for _name, _module, _desc in _SPEC_TYPES:
    register_event_type(_name, _module, _desc, OrderShipped if _name == "order.shipped" else None)


def validate_event(type_: str, data: dict[str, Any]) -> dict[str, Any]:
    """Refuse unknown types; validate and normalise data where the type has a schema."""
    et = EVENT_TYPES.get(type_)
    if et is None:
        raise ValidationFailed(f"unknown event type {type_!r}", {"type": type_})
    if not isinstance(data, dict):
        raise ValidationFailed("event data must be an object", {"type": type_})
    if et.schema is None:
        return data
    try:
        return et.schema.model_validate(data).model_dump(mode="json")
    except ValidationError as exc:
        raise ValidationFailed(f"data does not match the schema of {type_}", validation_details(exc)) from exc


# Built once: json.dumps with any option but the defaults builds a new encoder on every call, and
# every event, delivery and outbox row is written through here.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def canonical_json(obj: Any) -> bytes:
    return _CANONICAL.encode(obj).encode()


@dataclass(slots=True)
class EmittedEvent:
    """The columns of an ``Event`` row just written (a plain record: building an ORM instance
    per emit cost more than the insert itself)."""

    id: str
    type: str
    source: str
    data: dict[str, Any]
    created_at: datetime
    origin: str | None
    tenant_id: str
    signature: str | None = None
    synced_at: datetime | None = None


def event_signing_payload(ev: Event | EmittedEvent) -> bytes:
    return canonical_json(
        {
            "id": ev.id,
            "type": ev.type,
            "tenant_id": ev.tenant_id,
            "source": ev.source,
            "created_at": ev.created_at.isoformat(),
            "data": ev.data,
        }
    )


def emit(
    ctx: Ctx, type_: str, data: dict[str, Any], *, source: str | None = None, origin: str | None = None
) -> EmittedEvent:
    """Record an event in the open unit of work (no unit of work: an error, by design).

    The row is written with a Core insert on the unit of work's connection:
    every write use case emits, and the ORM's per-object bookkeeping would
    double its cost. The returned record is a read-only copy of the row.
    """
    uow = ctx.uow
    clean = validate_event(type_, data)
    module = EVENT_TYPES[type_].module
    if origin == PUBLIC_ORIGIN:
        # Anyone may publish anonymously: such an event keeps its own namespace (issue #35), so it is
        # never taken for the platform's own (no reaction, no count, no `*` subscriber gets it).
        type_ = PUBLIC_PREFIX + type_
    ev = EmittedEvent(
        id=new_id(),
        type=type_,
        source=source or module,
        data=clean,
        created_at=ctx.now(),
        # "public": published anonymously (POST /p/events); delivered bodies say so.
        origin=origin or ctx.runtime.station_id,
        tenant_id=ctx.tenant_id,
    )
    if ctx.runtime.is_station and ctx.runtime.station_key:
        ev.signature = sign(ctx.runtime.station_key, event_signing_payload(ev))
    _INSERT_EVENT.run(uow.connection(), {c: getattr(ev, c) for c in _EVENT_COLUMNS})
    uow.events.append((ev.id, ev.type))
    for hook in ctx.runtime.event_hooks:
        # Hooks (webhook fan-out on the platform) write in the same transaction.
        hook(uow.session, ev)
    for handler in HANDLERS.get(type_, ()):
        # Another module's reaction, in this same unit of work: it commits or rolls back with the change.
        handler(ctx, ev)
    return ev


# Reactions of one module to another's events (inventory taking stock out when an order ships):
# event type -> handlers, run by ``emit`` in the emitting unit of work. A module names its reactions
# in its manifest (``Module(reactions=...)``) and the composition root subscribes them, so no module
# imports another's internals to react to it.
Handler = Callable[[Ctx, EmittedEvent], None]
HANDLERS: dict[str, list[Handler]] = {}

# A session.info key set (to a dict) by a caller that writes many changes in one transaction (a sync
# push's chunk): event hooks keep what they read once per transaction there instead of once per
# event (the webhook fan-out, the tenant's active subscriptions). The caller empties it when one of
# its changes may alter what was kept.
BATCH_CACHE = "events.batch_cache"


def subscribe(type_: str, handler: Handler) -> None:
    """Run ``handler(ctx, event)`` after every ``type_`` event is written, inside its unit of work.

    A handler's writes are part of the change; its error undoes the change (as an error of the use
    case would). Subscribing the same handler twice runs it once.
    """
    if type_ not in EVENT_TYPES:
        raise ValueError(f"unknown event type {type_!r}")
    handlers = HANDLERS.setdefault(type_, [])
    if handler not in handlers:
        handlers.append(handler)


_EVENT_COLUMNS = [c.key for c in table_of(Event).columns]
assert set(_EVENT_COLUMNS) == {f.name for f in fields(EmittedEvent)}, "EmittedEvent mirrors the events table"
_INSERT_EVENT = Prepared(insert(table_of(Event)))

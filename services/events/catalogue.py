"""The event types a subscription may name, with their payload's JSON Schema (the catalogue)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from services.core.commands import use_case
from services.core.context import Ctx
from services.core.events import EVENT_TYPES


class EventTypesOut(BaseModel):
    items: list[dict[str, Any]]


@use_case(
    "events.event_types.list",
    "GET /event-types",
    tx="read",
    summary="list the event types: type, module, description and the payload's JSON Schema",
)
def list_event_types(ctx: Ctx) -> EventTypesOut:
    items = []
    for et in sorted(EVENT_TYPES.values(), key=lambda e: (e.module, e.name)):
        # A type without a declared payload model takes any object.
        schema = et.schema.model_json_schema() if et.schema is not None else {"type": "object"}
        items.append({"type": et.name, "module": et.module, "description": et.description, "schema": schema})
    return EventTypesOut(items=items)

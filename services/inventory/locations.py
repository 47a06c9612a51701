"""Inventory locations: list, get, create."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.inventory import InventoryLocation
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.declaring import declare_defaults
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.pagination import Listing, Page
from services.core.roles import MANAGERS
from services.inventory.schemas import LocationIn, LocationOut, LocationQuery
from services.inventory.stock import find_location, within

record_kind("inventory.location", get="inventory.locations.get", label="code")
declare_defaults("inventory.locations", record="inventory.location")

LOCATIONS = Listing(
    InventoryLocation,
    filters={
        "kind": InventoryLocation.kind,
        "code": InventoryLocation.code,
        "parent_id": lambda _n, v: InventoryLocation.parent_id.in_(within(v, False)),
    },
    search=(InventoryLocation.code, InventoryLocation.name),
    sort={"code": InventoryLocation.code, "name": InventoryLocation.name, "created_at": InventoryLocation.created_at},
    default_sort="code",
)


@use_case("inventory.locations.list", "GET /locations", tx="read", summary="list locations")
def list_locations(ctx: Ctx, query: LocationQuery, session: Session = SESSION) -> Page[LocationOut]:
    return LOCATIONS.page(session, query, LocationOut)


@use_case("inventory.locations.get", "GET /locations/{id}", tx="read", summary="read a location (by id or code)")
def get_location(ctx: Ctx, id: str, session: Session = SESSION) -> LocationOut:
    loc = (
        session.get(InventoryLocation, id)
        or session.execute(select(InventoryLocation).where(InventoryLocation.code == id.strip())).scalars().first()
    )
    if loc is None:
        raise NotFound(f"no location {id}", {"location": id})
    return LocationOut.model_validate(loc)


@use_case(
    "inventory.locations.create",
    "POST /locations",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="New location",
    summary="create a location",
)
def create_location(ctx: Ctx, body: LocationIn, session: Session = SESSION) -> LocationOut:
    if session.execute(select(InventoryLocation.id).where(InventoryLocation.code == body.code)).first():
        raise Conflict(f"location code {body.code} is taken", {"code": body.code})
    fields = body.model_dump()
    if body.parent_id is not None:
        parent = find_location(session, body.parent_id)  # an id or a code
        if parent is None:
            raise ValidationFailed("parent location not found", {"parent_id": body.parent_id})
        fields["parent_id"] = parent.id
    loc = InventoryLocation(id=new_id(), created_at=ctx.now(), **fields)
    session.add(loc)
    session.flush()
    return LocationOut.model_validate(loc)

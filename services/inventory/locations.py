"""Inventory locations: list, get, create."""

from __future__ import annotations

from sqlalchemy import or_, select

from local_db import new_id
from local_db.models.inventory import (
    InventoryLocation,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.pagination import Page, contains, paginate
from services.core.roles import ANYONE, MANAGERS
from services.inventory.schemas import (
    LocationIn,
    LocationOut,
    LocationQuery,
)

record_kind("inventory.location", get="inventory.locations.get", label="code")


def _location_out(loc: InventoryLocation) -> LocationOut:
    return LocationOut(
        id=loc.id,
        code=loc.code,
        name=loc.name,
        kind=loc.kind,
        parent_id=loc.parent_id,  # type: ignore[arg-type]
        allow_negative=loc.allow_negative,
        created_at=loc.created_at,
    )


@use_case(
    "inventory.locations.list",
    "GET /locations",
    tx="read",
    roles=ANYONE,
    record="inventory.location",
    summary="list locations",
)
def list_locations(ctx: Ctx, query: LocationQuery) -> Page[LocationOut]:
    stmt = select(InventoryLocation)
    if query.kind:
        stmt = stmt.where(InventoryLocation.kind == query.kind)
    if query.code:
        stmt = stmt.where(InventoryLocation.code == query.code.strip())
    if query.search:
        stmt = stmt.where(
            or_(contains(InventoryLocation.code, query.search), contains(InventoryLocation.name, query.search))
        )
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "code": InventoryLocation.code,
                "name": InventoryLocation.name,
                "created_at": InventoryLocation.created_at,
            },
            default_sort="code",
        )
    return page.map(_location_out)


@use_case(
    "inventory.locations.get",
    "GET /locations/{id}",
    tx="read",
    roles=ANYONE,
    record="inventory.location",
    summary="read a location (by id or code)",
)
def get_location(ctx: Ctx, id: str) -> LocationOut:
    with ctx.read() as s:
        loc = (
            s.get(InventoryLocation, id)
            or s.execute(select(InventoryLocation).where(InventoryLocation.code == id.strip())).scalars().first()
        )
        if loc is None:
            raise NotFound(f"no location {id}", {"location": id})
        return _location_out(loc)


@use_case(
    "inventory.locations.create",
    "POST /locations",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="New location",
    record="inventory.location",
    summary="create a location",
)
def create_location(ctx: Ctx, body: LocationIn) -> LocationOut:
    with ctx.write() as s:
        if s.execute(select(InventoryLocation.id).where(InventoryLocation.code == body.code)).first():
            raise Conflict(f"location code {body.code} is taken", {"code": body.code})
        if body.parent_id is not None and s.get(InventoryLocation, body.parent_id) is None:
            raise ValidationFailed("parent location not found", {"parent_id": body.parent_id})
        loc = InventoryLocation(
            id=new_id(),
            code=body.code,
            name=body.name,
            kind=body.kind,
            parent_id=body.parent_id,
            allow_negative=body.allow_negative,
            created_at=ctx.now(),
        )
        s.add(loc)
        s.flush()
        return _location_out(loc)


# --- stock -----------------------------------------------------------------------------------

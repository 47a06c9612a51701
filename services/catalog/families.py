"""Catalog: attribute families (Akeneo's): typed attributes (text, number with a unit, choice,
boolean, date, media) and the channels that require each one. A product of a family has its
attribute values checked by type on every save; attributes the family does not name stay free
(untyped, as before families existed)."""

from __future__ import annotations

import math
import re
from datetime import date
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from local_db.models.catalog import CatalogFamily, CatalogProduct
from services.catalog.schemas import AttributeDef, FamilyIn, FamilyOut, FamilyUpdate
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, ValidationFailed, find_ref
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.roles import MANAGERS, STAFF

record_kind("catalog.family", get="catalog.families.get", label="code")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


def value_problem(a: dict[str, Any], v: Any) -> str | None:
    """Why ``v`` is not a value of attribute ``a`` (None: it is, or it is empty)."""
    if v is None or v == "":
        return None
    kind = a["type"]
    if kind == "text":
        return None if isinstance(v, str) else "a text"
    if kind == "number":
        ok = isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
        return None if ok else f"a number (in {a.get('unit')})"
    if kind == "choice":
        choices = a.get("choices") or []
        return None if isinstance(v, str) and v in choices else f"one of {', '.join(choices)}"
    if kind == "boolean":
        return None if isinstance(v, bool) else "true or false"
    if kind == "date":
        try:
            ok = isinstance(v, str) and len(v) == 10 and date.fromisoformat(v) is not None
        except ValueError:
            ok = False
        return None if ok else "a date as YYYY-MM-DD"
    if kind == "media":
        # A file in the tenant's store (its SHA-256, as product images) or an https address (a DAM's).
        if isinstance(v, str) and (_SHA256.match(v) or (urlsplit(v).scheme == "https" and urlsplit(v).netloc)):
            return None
        return "an https address or the SHA-256 of a stored file"
    return f"of unknown type {kind}"


def filled(a: dict[str, Any], v: Any) -> bool:
    """The value counts for completeness: given and of the attribute's type."""
    return v is not None and v != "" and value_problem(a, v) is None


def attribute_problems(defs: list[dict[str, Any]], attributes: dict[str, Any]) -> list[dict[str, str]]:
    out = []
    for a in defs:
        problem = value_problem(a, attributes.get(a["code"]))
        if problem:
            out.append(
                {"field": f"attributes.{a['code']}", "message": f"{a['code']} is {problem}", "type": "attribute"}
            )
    return out


def check_family(s: Session, family_id: str | None, attributes: dict[str, Any]) -> CatalogFamily | None:
    """The product's family (400 when there is none by that id) with its attribute values checked."""
    if family_id is None:
        return None
    fam = s.get(CatalogFamily, family_id)
    if fam is None:
        fam = s.execute(select(CatalogFamily).where(CatalogFamily.code == family_id)).scalar_one_or_none()
    if fam is None:
        raise ValidationFailed(
            f"no attribute family {family_id}",
            {"fields": [{"field": "family_id", "message": f"no family {family_id}", "type": "not_found"}]},
        )
    problems = attribute_problems(fam.attributes or [], attributes)
    if problems:
        raise ValidationFailed("attribute values do not match their family's types", {"fields": problems})
    return fam


def families_by_id(s: Session) -> dict[str, CatalogFamily]:
    return {f.id: f for f in s.execute(select(CatalogFamily)).scalars()}


def _out(s: Session, f: CatalogFamily, counts: dict[str, int] | None = None) -> FamilyOut:
    if counts is None:
        counts = {
            f.id: s.execute(
                select(func.count()).select_from(CatalogProduct).where(CatalogProduct.family_id == f.id)
            ).scalar_one()
        }
    return FamilyOut(
        id=f.id,
        code=f.code,
        name=f.name,
        attributes=[AttributeDef(**a) for a in f.attributes or []],
        product_count=counts.get(f.id, 0),
        created_at=f.created_at,
        updated_at=f.updated_at,
    )


def _find(s: Session, ref: str) -> CatalogFamily:
    return find_ref(s, CatalogFamily, ref, CatalogFamily.code, what="attribute family", key="family")


def _flush(s: Session) -> None:
    try:
        s.flush()
    except IntegrityError as exc:
        raise Conflict("a family with this code exists", {"reason": "code_taken"}) from exc


@use_case(
    "catalog.families.list",
    "GET /families",
    tx="read",
    roles=STAFF,
    record="catalog.family",
    summary="attribute families with their typed attributes",
)
def list_families(ctx: Ctx, query: ListQuery) -> Page[FamilyOut]:
    stmt = select(CatalogFamily)
    if query.search:
        stmt = stmt.where(contains(CatalogFamily.code, query.search) | contains(CatalogFamily.name, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"code": CatalogFamily.code, "created_at": CatalogFamily.created_at})
        counts: dict[str, int] = {
            fid: n
            for fid, n in s.execute(select(CatalogProduct.family_id, func.count()).group_by(CatalogProduct.family_id))
            if fid is not None
        }
        return page.map(lambda f: _out(s, f, counts))


@use_case(
    "catalog.families.get", "GET /families/{id}", tx="read", roles=STAFF, record="catalog.family", summary="a family"
)
def get_family(ctx: Ctx, id: str) -> FamilyOut:
    with ctx.read() as s:
        return _out(s, _find(s, id))


@use_case(
    "catalog.families.create",
    "POST /families",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="New attribute family",
    record="catalog.family",
    summary="create an attribute family (typed attributes, channels that require each)",
)
def create_family(ctx: Ctx, body: FamilyIn) -> FamilyOut:
    with ctx.write() as s:
        if s.execute(select(CatalogFamily.id).where(CatalogFamily.code == body.code)).first():
            raise Conflict(f"a family {body.code} exists", {"reason": "code_taken", "code": body.code})
        f = CatalogFamily(
            code=body.code,
            name=body.name,
            attributes=[a.model_dump() for a in body.attributes],
            created_at=ctx.now(),
            updated_at=ctx.now(),
        )
        s.add(f)
        _flush(s)
        return _out(s, f)


@use_case(
    "catalog.families.update",
    "PUT /families/{id}",
    tx="write",
    roles=MANAGERS,
    says="Change to attribute family",
    record="catalog.family",
    summary="rename a family or replace its attributes (refused while a product's value would not fit)",
)
def update_family(ctx: Ctx, id: str, body: FamilyUpdate) -> FamilyOut:
    with ctx.write() as s:
        f = _find(s, id)
        if body.name is not None:
            f.name = body.name
        if body.attributes is not None:
            new = [a.model_dump() for a in body.attributes]
            # A type change that a product's value would not fit is refused, naming the products.
            clashes = []
            for sku, attrs in s.execute(
                select(CatalogProduct.sku, CatalogProduct.attributes).where(CatalogProduct.family_id == f.id)
            ):
                for p in attribute_problems(new, attrs or {}):
                    clashes.append({"sku": sku, **p})
            if clashes:
                raise Conflict(
                    "products of this family have values the new attributes would not accept",
                    {"reason": "values_do_not_fit", "products": clashes[:50]},
                )
            f.attributes = new
        f.updated_at = ctx.now()
        _flush(s)
        return _out(s, f)


@use_case(
    "catalog.families.delete",
    "DELETE /families/{id}",
    tx="write",
    roles=MANAGERS,
    says="Remove attribute family",
    record="catalog.family",
    summary="remove a family no product uses (409 naming how many do)",
)
def delete_family(ctx: Ctx, id: str) -> None:
    with ctx.write() as s:
        f = _find(s, id)
        used = s.execute(
            select(func.count()).select_from(CatalogProduct).where(CatalogProduct.family_id == f.id)
        ).scalar_one()
        if used:
            raise Conflict(f"{used} products are of this family", {"reason": "in_use", "products": used})
        s.delete(f)

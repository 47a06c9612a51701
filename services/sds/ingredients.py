"""Sds: ingredients."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.sds import (
    SdsIngredient,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import NotFound, ValidationFailed
from services.core.pagination import Page, contains, paginate
from services.core.roles import STAFF
from services.sds import chem
from services.sds.pubchem import PubChem, PubChemConfig, PubChemError
from services.sds.schemas import (
    AllergenList,
    AllergenOut,
    DetectIn,
    DetectOut,
    IngredientAllergenOut,
    IngredientIn,
    IngredientOut,
    IngredientQuery,
    SearchHit,
    SearchOut,
    SearchQuery,
)

record_kind("sds.ingredient", get="sds.ingredients.get", label="name")


def _ing_out(i: SdsIngredient) -> IngredientOut:
    names = chem.allergens()
    return IngredientOut(
        id=i.id,
        name=i.name,
        inci=i.inci,
        cas=i.cas,
        hazards=list(i.hazards or []),
        allergens=[
            IngredientAllergenOut(
                allergen=a["allergen"],
                name=names[a["allergen"]].name if a["allergen"] in names else a["allergen"],
                percent=float(a["percent"]),
            )
            for a in (i.allergens or [])
        ],
        pubchem_cid=i.pubchem_cid,
        molecular_formula=i.molecular_formula,
        created_at=i.created_at,
    )


def _find_ing(s: Session, id: str) -> SdsIngredient:
    i = s.get(SdsIngredient, id)
    if i is None:
        raise NotFound(f"no ingredient {id}", {"id": id})
    return i


@use_case(
    "sds.ingredients.list",
    "GET /ingredients",
    tx="read",
    roles=STAFF,
    record="sds.ingredient",
    summary="the tenant's ingredient library (search name, INCI, CAS)",
)
def list_ingredients(ctx: Ctx, query: IngredientQuery) -> Page[IngredientOut]:
    stmt = select(SdsIngredient)
    if query.cas:
        stmt = stmt.where(SdsIngredient.cas == query.cas)
    if query.search:
        stmt = stmt.where(
            or_(
                contains(SdsIngredient.name, query.search),
                contains(SdsIngredient.inci, query.search),
                contains(SdsIngredient.cas, query.search),
            )
        )
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": SdsIngredient.created_at, "name": SdsIngredient.name})
        return Page([_ing_out(i) for i in page.items], page.total, page.spec)


@use_case("sds.ingredients.get", "GET /ingredients/{id}", tx="read", roles=STAFF, record="sds.ingredient")
def get_ingredient(ctx: Ctx, id: str) -> IngredientOut:
    with ctx.read() as s:
        return _ing_out(_find_ing(s, id))


@use_case(
    "sds.ingredients.create",
    "POST /ingredients",
    tx="write",
    roles=STAFF,
    status=201,
    says="New ingredient {name}",
    record="sds.ingredient",
    summary="add an ingredient (a CAS number with a wrong check digit is 400)",
)
def create_ingredient(ctx: Ctx, body: IngredientIn) -> IngredientOut:
    merged: dict[str, Decimal] = {}
    for a in body.allergens:
        merged[a.allergen] = merged.get(a.allergen, Decimal(0)) + a.percent
    if any(v > 100 for v in merged.values()):
        raise ValidationFailed(
            "an allergen cannot be more than 100 % of an ingredient",
            {"fields": [{"field": "allergens", "message": "over 100 %", "type": "range"}]},
        )
    with ctx.write() as s:
        i = SdsIngredient(
            id=new_id(),
            name=body.name,
            inci=body.inci,
            cas=body.cas,
            hazards=list(body.hazards),
            allergens=[{"allergen": k, "percent": f"{v.normalize():f}"} for k, v in merged.items()],
            created_at=ctx.now(),
            updated_at=ctx.now(),
        )
        s.add(i)
        s.flush()
        return _ing_out(i)


@use_case(
    "sds.ingredients.search",
    "GET /ingredients/search",
    tx="read",
    roles=STAFF,
    summary="search the tenant's library, then PubChem when the platform is online and it is enabled",
)
def search_ingredients(ctx: Ctx, query: SearchQuery) -> SearchOut:
    q = query.q.strip()
    with ctx.read() as s:
        found = (
            s.execute(
                select(SdsIngredient)
                .where(
                    or_(
                        contains(SdsIngredient.name, q),
                        contains(SdsIngredient.inci, q),
                        SdsIngredient.cas == q,
                    )
                )
                .order_by(SdsIngredient.name)
                .limit(query.limit)
            )
            .scalars()
            .all()
        )
    results = [
        SearchHit(
            source="library",
            id=i.id,
            name=i.name,
            inci=i.inci,
            cas=i.cas,
            pubchem_cid=i.pubchem_cid,
            molecular_formula=i.molecular_formula,
            molecular_weight=None,
        )
        for i in found
    ]
    if len(results) >= query.limit:
        return SearchOut(query=q, results=results, pubchem="not_needed")
    client = ctx.runtime.part(PubChem, lambda: PubChem(PubChemConfig()))
    if not client.config.enabled:
        return SearchOut(query=q, results=results, pubchem="disabled")
    if ctx.runtime.is_station:
        return SearchOut(query=q, results=results, pubchem="offline")  # a station asks the platform
    hits_before = client.hits
    try:
        remote = client.search(q, limit=query.limit - len(results))
    except PubChemError as exc:
        return SearchOut(query=q, results=results, pubchem="error", pubchem_error=str(exc))
    have = {r.cas for r in results if r.cas}
    for r in remote:
        if r["cas"] and r["cas"] in have:
            continue
        results.append(
            SearchHit(
                source="pubchem",
                id=None,
                name=r["name"],
                inci=None,
                cas=r["cas"],
                pubchem_cid=r["cid"],
                molecular_formula=r["molecular_formula"],
                molecular_weight=r["molecular_weight"],
            )
        )
    return SearchOut(query=q, results=results, pubchem="cached" if client.hits > hits_before else "used")


def _allergen_out(a: chem.Allergen) -> AllergenOut:
    return AllergenOut(
        key=a.key,
        name=a.name,
        inci=a.inci,
        cas=a.cas,
        kind=a.kind,
        synonyms=list(a.synonyms),
        banned=a.banned,  # type: ignore[arg-type]
    )


@use_case("sds.allergens.list", "GET /allergens", tx="read", roles=STAFF, summary="the EU allergen lists")
def list_allergens(ctx: Ctx) -> AllergenList:
    every = list(chem.allergens().values())
    raw = chem.allergen_file()
    return AllergenList(
        fragrance=[_allergen_out(a) for a in every if a.kind == "fragrance"],
        food=[_allergen_out(a) for a in every if a.kind == "food"],
        thresholds=dict(raw["thresholds"]),
        sources=list(raw["sources"]),
    )


@use_case(
    "sds.allergens.detect",
    "POST /allergens/detect",
    tx="read",
    roles=STAFF,
    summary="find EU allergens named in a text (names, INCI and CAS)",
)
def detect_allergens_in_text(ctx: Ctx, body: DetectIn) -> DetectOut:
    return DetectOut.model_validate({"found": chem.detect(body.text)})

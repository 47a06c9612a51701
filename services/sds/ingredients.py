"""Sds: ingredients."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.sds import (
    SdsFormula,
    SdsFormulaLine,
    SdsIngredient,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import NotFound, ValidationFailed
from services.core.events import emit
from services.core.pagination import Page, contains, paginate
from services.core.roles import STAFF
from services.sds import chem, classify, labels
from services.sds.classification import component_of, ghs_of
from services.sds.formulas import _Tree
from services.sds.pubchem import PubChem, PubChemConfig, PubChemError
from services.sds.schemas import (
    AllergenList,
    AllergenOut,
    DetectIn,
    DetectOut,
    IngredientAllergenOut,
    IngredientIn,
    IngredientOut,
    IngredientPatch,
    IngredientQuery,
    SearchHit,
    SearchOut,
    SearchQuery,
    WhereUsedItem,
    WhereUsedOut,
)

record_kind("sds.ingredient", get="sds.ingredients.get", label="name")


def _ing_out(i: SdsIngredient) -> IngredientOut:
    names = chem.allergens()
    ghs = dict(i.ghs or {})
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
        categories=dict(ghs.get("categories") or {}),
        ate={k: float(v) for k, v in (ghs.get("ate") or {}).items()},
        unknown_acute=list(ghs.get("unknown_acute") or []),
        m_acute=int(ghs.get("m_acute") or 1),
        m_chronic=int(ghs.get("m_chronic") or 1),
        specific_limits={k: float(v) for k, v in (ghs.get("limits") or {}).items()},
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
    allergens = _allergens(body.allergens)
    ghs = ghs_of(body)
    _check_ghs(body.name, list(body.hazards), ghs)
    with ctx.write() as s:
        i = SdsIngredient(
            id=new_id(),
            name=body.name,
            inci=body.inci,
            cas=body.cas,
            hazards=list(body.hazards),
            allergens=allergens,
            ghs=ghs,
            created_at=ctx.now(),
            updated_at=ctx.now(),
        )
        s.add(i)
        s.flush()
        return _ing_out(i)


def _allergens(given: list[Any]) -> list[dict[str, str]]:
    merged: dict[str, Decimal] = {}
    for a in given:
        merged[a.allergen] = merged.get(a.allergen, Decimal(0)) + a.percent
    if any(v > 100 for v in merged.values()):
        raise ValidationFailed(
            "an allergen cannot be more than 100 % of an ingredient",
            {"fields": [{"field": "allergens", "message": "over 100 %", "type": "range"}]},
        )
    return [{"allergen": k, "percent": f"{v.normalize():f}"} for k, v in merged.items()]


def _check_ghs(name: str, hazards: list[str], ghs: dict[str, Any]) -> None:
    """The classification data must be usable by the mixture rules (a category for H300, limits
    only for codes it carries...): checked as a one-substance mixture, before anything is stored."""
    try:
        classify.check(classify.Mixture((component_of(name, Decimal(100), ghs, hazards),)), labels.known_codes())
    except classify.ClassificationError as exc:
        raise ValidationFailed(
            str(exc).replace("components.0", "ingredient"),
            {"fields": [{"field": "hazards", "message": str(exc), "type": "classification"}]},
        ) from None


@use_case(
    "sds.ingredients.replace",
    "PUT /ingredients/{id}",
    tx="write",
    roles=STAFF,
    says="Change ingredient {name}",
    record="sds.ingredient",
    summary="replace an ingredient's data (the documents of every formula using it go stale)",
)
def replace_ingredient(ctx: Ctx, id: str, body: IngredientIn) -> IngredientOut:
    allergens = _allergens(body.allergens)
    ghs = ghs_of(body)
    _check_ghs(body.name, list(body.hazards), ghs)
    with ctx.write() as s:
        i = _find_ing(s, id)
        i.name, i.inci, i.cas, i.hazards, i.allergens, i.ghs = (
            body.name,
            body.inci,
            body.cas,
            list(body.hazards),
            allergens,
            ghs,
        )
        i.updated_at = ctx.now()
        s.flush()
        _changed(ctx, s, i)
        return _ing_out(i)


@use_case(
    "sds.ingredients.patch",
    "PATCH /ingredients/{id}",
    tx="write",
    roles=STAFF,
    says="Change ingredient",
    record="sds.ingredient",
    summary="change some of an ingredient's fields (the same checks as PUT)",
)
def patch_ingredient(ctx: Ctx, id: str, body: IngredientPatch) -> IngredientOut:
    given = body.model_fields_set
    if "name" in given and body.name is None:
        raise ValidationFailed("an ingredient keeps a name", {"fields": [{"field": "name", "message": "required"}]})
    with ctx.write() as s:
        i = _find_ing(s, id)
        ghs = dict(i.ghs or {})
        for key, stored in (("categories", "categories"), ("unknown_acute", "unknown_acute")):
            if key in given:
                ghs[stored] = getattr(body, key) or ({} if key == "categories" else [])
        if "ate" in given:
            ghs["ate"] = {k: f"{v.normalize():f}" for k, v in (body.ate or {}).items()}
        if "specific_limits" in given:
            ghs["limits"] = {k: f"{v.normalize():f}" for k, v in (body.specific_limits or {}).items()}
        for key in ("m_acute", "m_chronic"):
            if key in given:
                ghs[key] = getattr(body, key) or 1
        hazards = list(body.hazards or []) if "hazards" in given else list(i.hazards or [])
        name = body.name if body.name is not None else i.name
        _check_ghs(name, hazards, ghs)
        allergens = _allergens(body.allergens or []) if "allergens" in given else i.allergens
        i.name, i.hazards, i.ghs, i.allergens = name, hazards, ghs, allergens
        if "inci" in given:
            i.inci = body.inci
        if "cas" in given:
            i.cas = body.cas
        i.updated_at = ctx.now()
        s.flush()
        _changed(ctx, s, i)
        return _ing_out(i)


def _changed(ctx: Ctx, s: Session, i: SdsIngredient) -> None:
    every, _ = parents_of(s, i.id)
    emit(ctx, "ingredient.changed", {"ingredient_id": i.id, "formulas": len(every)})


def parents_of(s: Session, ingredient_id: str | None, formula_id: str | None = None) -> tuple[set[str], set[str]]:
    """Every formula holding the ingredient (or the formula) at any depth, and those holding it
    directly: walk the lines upwards, sub-formula by sub-formula, each formula once."""
    first = (
        SdsFormulaLine.ingredient_id == ingredient_id if ingredient_id else SdsFormulaLine.sub_formula_id == formula_id
    )
    direct = set(s.execute(select(SdsFormulaLine.formula_id).where(first)).scalars())
    seen, todo = set(direct), list(direct)
    while todo:
        batch, todo = todo[:500], todo[500:]
        for parent in s.execute(
            select(SdsFormulaLine.formula_id).where(SdsFormulaLine.sub_formula_id.in_(batch))
        ).scalars():
            if parent not in seen:
                seen.add(parent)
                todo.append(parent)
    return seen, direct


@use_case(
    "sds.ingredients.where_used",
    "GET /ingredients/{id}/where-used",
    tx="read",
    roles=STAFF,
    record="sds.ingredient",
    summary="the formulas using an ingredient at any depth, with its share of each finished product",
)
def where_used(ctx: Ctx, id: str) -> WhereUsedOut:
    with ctx.read() as s:
        _find_ing(s, id)
        every, direct = parents_of(s, id)
        tree = _Tree(s)
        items = []
        for f in s.execute(select(SdsFormula).where(SdsFormula.id.in_(sorted(every)))).scalars():
            share = chem.flatten(f.id, tree).get(id, Decimal(0))
            items.append(
                WhereUsedItem(
                    formula_id=f.id,
                    code=f.code,
                    name=f.name,
                    status=f.status,
                    percent=float(share),
                    direct=f.id in direct,
                )
            )
        items.sort(key=lambda x: (not x.direct, x.code))
        return WhereUsedOut(id=id, formulas=items)


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


@use_case(
    "sds.formulas.where_used",
    "GET /formulas/{id}/where-used",
    tx="read",
    roles=STAFF,
    record="sds.formula",
    summary="the formulas using a formula as a sub-formula at any depth, with its share of each product",
)
def formula_where_used(ctx: Ctx, id: str) -> WhereUsedOut:
    with ctx.read() as s:
        sub = s.get(SdsFormula, id)
        if sub is None:
            raise NotFound(f"no formula {id}", {"id": id})
        every, direct = parents_of(s, None, sub.id)
        tree = _Tree(s)
        items = []
        for f in s.execute(select(SdsFormula).where(SdsFormula.id.in_(sorted(every)))).scalars():
            items.append(
                WhereUsedItem(
                    formula_id=f.id,
                    code=f.code,
                    name=f.name,
                    status=f.status,
                    percent=float(_share_of_formula(f.id, sub.id, tree)),
                    direct=f.id in direct,
                )
            )
        items.sort(key=lambda x: (not x.direct, x.code))
        return WhereUsedOut(id=sub.id, formulas=items)


def _share_of_formula(top: str, sub: str, tree: _Tree, share: Decimal = Decimal(100)) -> Decimal:
    """The sub-formula's share of ``top``, through every path to it (lines are walked like flatten)."""
    total = Decimal(0)
    for line in tree(top):
        part = share * line.percent / 100
        if line.formula_id == sub:
            total += part
        elif line.formula_id:
            total += _share_of_formula(line.formula_id, sub, tree, part)
    return total

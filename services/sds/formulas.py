"""Sds: formulas."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from typing import Any

from sqlalchemy import delete, func, or_, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.sds import (
    SdsAllergenResult,
    SdsFormula,
    SdsFormulaLine,
    SdsFormulaRevision,
    SdsIngredient,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed, find_ref
from services.core.events import emit
from services.core.files import FileResult, Upload
from services.core.pagination import Page, contains, paginate
from services.core.roles import STAFF
from services.sds import chem, states
from services.sds.schemas import (
    AllergenResult,
    AllergenResultOut,
    FormulaIn,
    FormulaLineOut,
    FormulaOut,
    FormulaProperties,
    FormulaQuery,
    FormulaStatusIn,
    FormulaUpdate,
    ImportError_,
    ImportOut,
    LineIn,
)

record_kind("sds.formula", get="sds.formulas.get", label="code")


TEMPLATE_COLUMNS = ["formula_code", "formula_name", "product_type", "ingredient", "percent"]


MAX_IMPORT_ROWS = 20_000


def _num(d: Decimal) -> float:
    return float(d)


def declared(i: SdsIngredient) -> dict[str, Decimal]:
    """What an ingredient contains of each allergen: the supplier's declaration, and the ingredient
    itself when its own CAS is an allergen (linalool is 100 % linalool unless declared otherwise)."""
    out = {a["allergen"]: Decimal(str(a["percent"])) for a in (i.allergens or [])}
    if i.cas and i.cas in chem.allergens() and i.cas not in out:
        out[i.cas] = Decimal(100)
    return out


def _find_formula(s: Session, ref: str) -> SdsFormula:
    return find_ref(s, SdsFormula, ref, SdsFormula.code, what="formula", key="id")


class _Tree:
    """Lines of formulas read as needed, each formula once (a computation walks many levels)."""

    def __init__(self, s: Session) -> None:
        self.s = s
        self.cache: dict[str, list[chem.Line]] = {}

    def __call__(self, formula_id: str) -> list[chem.Line]:
        if formula_id not in self.cache:
            rows = self.s.execute(
                select(SdsFormulaLine).where(SdsFormulaLine.formula_id == formula_id).order_by(SdsFormulaLine.position)
            ).scalars()
            self.cache[formula_id] = [chem.Line(Decimal(r.percent), r.ingredient_id, r.sub_formula_id) for r in rows]
        return self.cache[formula_id]


def _formula_out(s: Session, f: SdsFormula) -> FormulaOut:
    lines = (
        s.execute(select(SdsFormulaLine).where(SdsFormulaLine.formula_id == f.id).order_by(SdsFormulaLine.position))
        .scalars()
        .all()
    )
    ing_ids = [x.ingredient_id for x in lines if x.ingredient_id]
    sub_ids = [x.sub_formula_id for x in lines if x.sub_formula_id]
    ings = {i.id: i for i in s.execute(select(SdsIngredient).where(SdsIngredient.id.in_(ing_ids))).scalars()}
    subs = {x.id: x for x in s.execute(select(SdsFormula).where(SdsFormula.id.in_(sub_ids))).scalars()}
    out_lines = []
    for x in lines:
        if x.ingredient_id:
            i = ings.get(x.ingredient_id)
            name, cas = (i.name, i.cas) if i else ("?", None)
        else:
            sub = subs.get(x.sub_formula_id or "")
            name, cas = (f"{sub.code} {sub.name}" if sub else "?"), None
        out_lines.append(
            FormulaLineOut(
                ingredient_id=x.ingredient_id, formula_id=x.sub_formula_id, name=name, cas=cas, percent=float(x.percent)
            )
        )
    return FormulaOut(
        id=f.id,
        code=f.code,
        name=f.name,
        status=f.status,  # type: ignore[arg-type]
        revision=f.revision,
        product_type=f.product_type,  # type: ignore[arg-type]
        lines=out_lines,
        allowed_actions=states.FORMULA.actions_from(f.status),
        properties=_props_out(f.properties or {}),
        created_at=f.created_at,
        updated_at=f.updated_at,
    )


def _props_out(props: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"physical_state": "liquid", "inhalation_form": "vapour"} | dict(props)
    for k in ("flash_point_c", "boiling_point_c"):
        out[k] = float(out[k]) if out.get(k) is not None else None
    return out


def _props_in(p: FormulaProperties | None) -> dict[str, Any]:
    """The stored form of a formula's measured properties (decimals as text, as percents are)."""
    if p is None:
        return {}
    return {
        "physical_state": p.physical_state,
        "inhalation_form": p.inhalation_form,
        "flash_point_c": f"{p.flash_point_c.normalize():f}" if p.flash_point_c is not None else None,
        "boiling_point_c": f"{p.boiling_point_c.normalize():f}" if p.boiling_point_c is not None else None,
    }


def _check_lines(s: Session, formula_id: str | None, lines: list[LineIn]) -> None:
    """Every line names an existing ingredient or formula, and no formula contains itself."""
    problems = []
    ing_ids = {x.ingredient_id for x in lines if x.ingredient_id}
    sub_ids = {x.formula_id for x in lines if x.formula_id}
    have_ing = set(s.execute(select(SdsIngredient.id).where(SdsIngredient.id.in_(ing_ids))).scalars())
    have_sub = set(s.execute(select(SdsFormula.id).where(SdsFormula.id.in_(sub_ids))).scalars())
    for n, x in enumerate(lines):
        if x.ingredient_id and x.ingredient_id not in have_ing:
            problems.append({"field": f"lines.{n}.ingredient_id", "message": "no such ingredient", "type": "not_found"})
        if x.formula_id and x.formula_id not in have_sub:
            problems.append({"field": f"lines.{n}.formula_id", "message": "no such formula", "type": "not_found"})
    if problems:
        raise ValidationFailed("a line names something that does not exist", {"fields": problems})
    if formula_id is not None and sub_ids:
        tree = _Tree(s)
        tree.cache[formula_id] = [chem.Line(x.percent, x.ingredient_id, x.formula_id) for x in lines]
        try:
            chem.flatten(formula_id, tree)
        except chem.CycleError:
            raise ValidationFailed(
                "a formula cannot contain itself, at any level",
                {"fields": [{"field": "lines", "message": "contains itself", "type": "cycle"}]},
            ) from None


def _write_lines(ctx: Ctx, s: Session, f: SdsFormula, lines: list[LineIn]) -> None:
    s.execute(delete(SdsFormulaLine).where(SdsFormulaLine.formula_id == f.id))
    for n, x in enumerate(lines):
        s.add(
            SdsFormulaLine(
                id=new_id(),
                formula_id=f.id,
                ingredient_id=x.ingredient_id,
                sub_formula_id=x.formula_id,
                percent=f"{x.percent.normalize():f}",
                position=n,
            )
        )
    s.add(
        SdsFormulaRevision(
            id=new_id(),
            formula_id=f.id,
            revision=f.revision,
            data={
                "name": f.name,
                "product_type": f.product_type,
                "lines": [
                    {
                        "ingredient_id": x.ingredient_id,
                        "formula_id": x.formula_id,
                        "percent": f"{x.percent.normalize():f}",
                    }
                    for x in lines
                ],
            },
            created_at=ctx.now(),
        )
    )


@use_case(
    "sds.formulas.list",
    "GET /formulas",
    tx="read",
    roles=STAFF,
    record="sds.formula",
    summary="formulas (filter by status and product type; search code and name)",
)
def list_formulas(ctx: Ctx, query: FormulaQuery) -> Page[FormulaOut]:
    stmt = select(SdsFormula)
    if query.status:
        stmt = stmt.where(SdsFormula.status == query.status)
    if query.product_type:
        stmt = stmt.where(SdsFormula.product_type == query.product_type)
    if query.search:
        stmt = stmt.where(or_(contains(SdsFormula.code, query.search), contains(SdsFormula.name, query.search)))
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={"created_at": SdsFormula.created_at, "code": SdsFormula.code, "name": SdsFormula.name},
        )
        return Page([_formula_out(s, f) for f in page.items], page.total, page.spec)


@use_case("sds.formulas.get", "GET /formulas/{id}", tx="read", roles=STAFF, record="sds.formula")
def get_formula(ctx: Ctx, id: str) -> FormulaOut:
    with ctx.read() as s:
        return _formula_out(s, _find_formula(s, id))


def _create(ctx: Ctx, s: Session, body: FormulaIn) -> SdsFormula:
    if s.execute(select(SdsFormula.id).where(SdsFormula.code == body.code)).first():
        raise Conflict(f"formula code {body.code} is taken", {"code": body.code, "reason": "code_taken"})
    _check_lines(s, None, body.lines)
    f = SdsFormula(
        id=new_id(),
        code=body.code,
        name=body.name,
        product_type=body.product_type,
        properties=_props_in(body.properties),
        status="draft",
        revision=1,
        created_at=ctx.now(),
        updated_at=ctx.now(),
    )
    s.add(f)
    s.flush()
    _write_lines(ctx, s, f, body.lines)
    s.flush()
    emit(ctx, "formula.created", {"formula_id": f.id, "code": f.code, "revision": 1})
    return f


@use_case(
    "sds.formulas.create",
    "POST /formulas",
    tx="write",
    roles=STAFF,
    status=201,
    says="New formula {code}",
    record="sds.formula",
    summary="create a formula of ingredients and sub-formulas (lines add up to 100)",
)
def create_formula(ctx: Ctx, body: FormulaIn) -> FormulaOut:
    with ctx.write() as s:
        return _formula_out(s, _create(ctx, s, body))


@use_case(
    "sds.formulas.update",
    "PUT /formulas/{id}",
    tx="write",
    roles=STAFF,
    says="Change to formula",
    record="sds.formula",
    summary="change a formula: new lines or product type make the next revision (while it is worked on)",
)
def update_formula(ctx: Ctx, id: str, body: FormulaUpdate) -> FormulaOut:
    with ctx.write() as s:
        f = _find_formula(s, id)
        revise = body.lines is not None or (body.product_type is not None and body.product_type != f.product_type)
        if revise and f.status not in states.EDITABLE:
            raise Conflict(
                f"a formula in {f.status} is not changed: reformulate it first",
                {"current_state": f.status, "action": "change"},
            )
        if body.name is not None:
            f.name = body.name
        if body.properties is not None:
            # Measured data, not a recipe change: no new revision, but every document made from
            # the old values goes stale (documents.sources_digest holds them).
            f.properties = _props_in(body.properties)
        if revise:
            lines = body.lines
            if lines is None:
                lines = [
                    LineIn(ingredient_id=x.ingredient_id, formula_id=x.formula_id, percent=x.percent)
                    for x in _Tree(s)(f.id)
                ]
            _check_lines(s, f.id, lines)
            f.product_type = body.product_type or f.product_type
            f.revision += 1
            _write_lines(ctx, s, f, lines)
            emit(ctx, "formula.revised", {"formula_id": f.id, "code": f.code, "revision": f.revision})
        f.updated_at = ctx.now()
        s.flush()
        return _formula_out(s, f)


@use_case(
    "sds.formulas.status",
    "POST /formulas/{id}/status",
    tx="write",
    roles=STAFF,
    says="{action} formula",
    record="sds.formula",
    summary="move a formula: start, evaluate, release, rework, reformulate, fail",
)
def change_status(ctx: Ctx, id: str, body: FormulaStatusIn) -> FormulaOut:
    with ctx.write() as s:
        f = _find_formula(s, id)
        before = f.status
        f.status = states.FORMULA.check(f.status, body.action)
        f.updated_at = ctx.now()
        s.flush()
        emit(ctx, "formula.status_changed", {"formula_id": f.id, "from": before, "to": f.status})
        return _formula_out(s, f)


@use_case(
    "sds.formulas.import_template",
    "GET /formulas/import",
    tx="read",
    roles=STAFF,
    summary="the CSV template of the formula import (one row per line)",
)
def import_template(ctx: Ctx) -> FileResult:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(TEMPLATE_COLUMNS)
    w.writerow(["BASE-01", "Fragrance base", "leave_on", "78-70-6", "40"])
    w.writerow(["BASE-01", "Fragrance base", "leave_on", "Ethanol", "60"])
    w.writerow(["CREAM-01", "Day cream", "leave_on", "Aqua", "98"])
    w.writerow(["CREAM-01", "Day cream", "leave_on", "formula:BASE-01", "2"])
    return FileResult(buf.getvalue().encode(), "text/csv", "formulas-template.csv", inline=False)


def _rows_from(upload: Upload) -> list[dict[str, Any]] | list[Any]:
    text = upload.content.decode("utf-8-sig", "replace")
    if "json" in upload.content_type or text.lstrip().startswith("["):
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise ValidationFailed(f"the JSON import is not valid JSON: {exc}") from None
        if not isinstance(data, list):
            raise ValidationFailed("the JSON import is an array of formulas (POST formulas bodies)")
        return data
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in TEMPLATE_COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise ValidationFailed(
            f"the CSV lacks the columns {', '.join(missing)} (GET formulas/import gives the template)",
            {"missing": missing},
        )
    return list(reader)


def _resolve(s: Session, ref: str, codes: dict[str, str]) -> tuple[str | None, str | None]:
    """An import row's ``ingredient``: a sub-formula (``formula:<code>``) or a library ingredient by
    CAS, INCI or name."""
    ref = ref.strip()
    if ref.lower().startswith("formula:"):
        code = ref.split(":", 1)[1].strip()
        fid = codes.get(code) or s.execute(select(SdsFormula.id).where(SdsFormula.code == code)).scalar()
        if fid is None:
            raise ValueError(f"no formula {code} (sub-formulas come earlier in the file or exist already)")
        return None, fid
    low = ref.lower()
    i = s.execute(
        select(SdsIngredient.id)
        .where(
            or_(SdsIngredient.cas == ref, func.lower(SdsIngredient.inci) == low, func.lower(SdsIngredient.name) == low)
        )
        .order_by(SdsIngredient.created_at)
        .limit(1)
    ).scalar()
    if i is None:
        raise ValueError(f"no ingredient {ref!r} in the library (by CAS, INCI or name)")
    return i, None


@use_case(
    "sds.formulas.import",
    "POST /formulas/import",
    tx="write",
    roles=STAFF,
    upload=True,
    limit="upload",
    says="Import formulas",
    record="sds.formula",
    summary="bulk import formulas from the CSV template or a JSON array of POST formulas bodies",
)
def import_formulas(ctx: Ctx, upload: Upload) -> ImportOut:
    rows = _rows_from(upload)
    if len(rows) > MAX_IMPORT_ROWS:
        raise ValidationFailed(f"at most {MAX_IMPORT_ROWS} rows per import", {"rows": len(rows)})
    errors: list[ImportError_] = []
    imported = 0
    with ctx.write() as s:
        codes: dict[str, str] = {}
        if rows and isinstance(rows[0], dict) and "formula_code" in rows[0]:
            groups: dict[str, list[tuple[int, dict[str, Any]]]] = {}
            for n, r in enumerate(rows, 1):
                groups.setdefault(str(r.get("formula_code") or "").strip(), []).append((n, r))
            for code, group in groups.items():
                nums = [n for n, _ in group]
                first = group[0][1]
                lines, bad = [], False
                for n, r in group:
                    try:
                        ing, sub = _resolve(s, str(r.get("ingredient") or ""), codes)
                        lines.append(
                            {"ingredient_id": ing, "formula_id": sub, "percent": str(r.get("percent") or "").strip()}
                        )
                    except ValueError as exc:
                        errors.append(ImportError_(row=n, error=str(exc)))
                        bad = True
                if bad:
                    continue
                body = {"code": code, "name": (first.get("formula_name") or "").strip(), "lines": lines}
                if (first.get("product_type") or "").strip():
                    body["product_type"] = first["product_type"].strip()
                imported += _import_one(ctx, s, nums, body, codes, errors)
        else:
            for n, body in enumerate(rows, 1):
                imported += _import_one(ctx, s, [n], body, codes, errors)
    return ImportOut(imported=imported, errors=errors)


def _import_one(
    ctx: Ctx, s: Session, rows: list[int], body: Any, codes: dict[str, str], errors: list[ImportError_]
) -> int:
    """One formula of an import in a savepoint: it lands whole or not at all."""
    from pydantic import ValidationError

    try:
        parsed = FormulaIn.model_validate(body)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        errors.append(ImportError_(row=rows[0], error=f"{where}: {first['msg']}" if where else first["msg"]))
        return 0
    try:
        with s.begin_nested():
            f = _create(ctx, s, parsed)
    except (Conflict, ValidationFailed) as exc:
        errors.append(ImportError_(row=rows[0], error=str(exc)))
        return 0
    codes[f.code] = f.id
    return 1


def compute(s: Session, f: SdsFormula) -> tuple[list[AllergenResult], dict[str, Decimal]]:
    """Every allergen the formula contains through all its sub-formulas, with its threshold for the
    product type, and the ingredients' percents in the product."""
    ingredients = chem.flatten(f.id, _Tree(s))
    ings = {i.id: i for i in s.execute(select(SdsIngredient).where(SdsIngredient.id.in_(list(ingredients)))).scalars()}
    content = chem.allergen_content(ingredients, lambda i: declared(ings[i]))
    catalog = chem.allergens()
    out = []
    for key, pct in content.items():
        a = catalog[key]
        if (a.kind == "food") != (f.product_type == "food") or pct <= 0:
            continue  # food allergens for food, fragrance allergens for cosmetics
        limit = chem.threshold(a, f.product_type)
        out.append(
            AllergenResult(
                allergen=key,
                name=a.name,
                cas=a.cas,
                percent=_num(pct),
                threshold=_num(limit),
                declarable=pct > limit,
                banned=a.banned,
            )
        )
    out.sort(key=lambda r: (-r.percent, r.name))
    return out, ingredients


@use_case(
    "sds.formulas.detect_allergens",
    "POST /formulas/{id}/detect-allergens",
    tx="write",
    roles=STAFF,
    says="Compute allergens",
    record="sds.formula",
    summary="compute each allergen's percent through sub-formulas against the leave-on/rinse-off thresholds",
)
def detect_allergens(ctx: Ctx, id: str) -> AllergenResultOut:
    with ctx.write() as s:
        f = _find_formula(s, id)
        results, _ = compute(s, f)
        row = s.execute(select(SdsAllergenResult).where(SdsAllergenResult.formula_id == f.id)).scalar_one_or_none()
        if row is None:
            row = SdsAllergenResult(id=new_id(), formula_id=f.id, revision=f.revision)
            s.add(row)
        row.revision = f.revision
        row.results = [r.model_dump() for r in results]
        row.computed_at = ctx.now()
        s.flush()
        emit(
            ctx,
            "formula.allergens_computed",
            {"formula_id": f.id, "revision": f.revision, "declarable": sum(r.declarable for r in results)},
        )
        return AllergenResultOut(
            formula_id=f.id,
            revision=f.revision,
            product_type=f.product_type,  # type: ignore[arg-type]
            results=results,
            computed_at=row.computed_at,
        )


@use_case(
    "sds.formulas.allergens",
    "GET /formulas/{id}/detect-allergens",
    tx="read",
    roles=STAFF,
    record="sds.formula",
    summary="the last allergen computation of a formula (404 before the first)",
)
def last_allergens(ctx: Ctx, id: str) -> AllergenResultOut:
    with ctx.read() as s:
        f = _find_formula(s, id)
        row = s.execute(select(SdsAllergenResult).where(SdsAllergenResult.formula_id == f.id)).scalar_one_or_none()
        if row is None:
            raise NotFound("the allergens of this formula were not computed yet", {"id": f.id})
        return AllergenResultOut(
            formula_id=f.id,
            revision=row.revision,
            product_type=f.product_type,  # type: ignore[arg-type]
            results=[AllergenResult.model_validate(r) for r in row.results],
            computed_at=row.computed_at,
        )

"""SDS: a formula's certificate and safety data sheet (PDF documents with revisions)."""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models import Tenant
from local_db.models.sds import (
    SdsDocument,
    SdsFormula,
    SdsIngredient,
)
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound
from services.core.events import emit
from services.core.files import FileResult
from services.core.roles import STAFF
from services.core.storage import keep_blob, read_blob
from services.sds import chem, classification, pdf, sheet
from services.sds.formulas import _find_formula, _num, _Tree, compute, declared
from services.sds.schemas import (
    DocumentOut,
    DocumentQuery,
)


def failing_items(s: Session, f: SdsFormula) -> list[dict[str, Any]]:
    """What keeps a formula from complying: a banned substance present (as an ingredient or inside
    one), or an Annex III substance over its maximum for the product type."""
    results, ingredients = compute(s, f)
    ings = {i.id: i for i in s.execute(select(SdsIngredient).where(SdsIngredient.id.in_(list(ingredients)))).scalars()}
    lim = chem.limits()
    banned = {b["cas"]: b for b in lim["banned"]}
    contained: dict[str, Decimal] = {}
    for iid, pct in ingredients.items():
        for key, inner in declared(ings[iid]).items():
            contained[key] = contained.get(key, Decimal(0)) + pct * inner / 100
        cas = ings[iid].cas
        if cas and cas not in chem.allergens():
            contained[cas] = contained.get(cas, Decimal(0)) + pct
    out: list[dict[str, Any]] = []
    for cas, pct in sorted(contained.items()):
        if cas in banned and pct > 0:
            out.append(
                {"substance": banned[cas]["name"], "cas": cas, "percent": _num(pct), "limit": 0.0, "reason": "banned"}
            )
    for m in lim["maxima"]:
        pct = contained.get(m["cas"], Decimal(0))
        maximum = m.get(f.product_type)
        if maximum is not None and pct > Decimal(str(maximum)):
            out.append(
                {
                    "substance": m["name"],
                    "cas": m["cas"],
                    "percent": _num(pct),
                    "limit": float(maximum),
                    "reason": "over_maximum",
                }
            )
    return out


def sources_digest(s: Session, f: SdsFormula, supplier: dict[str, Any] | None = None) -> str:
    """A digest of everything a document of ``f`` is made from: the formula and every sub-formula
    at any depth (name, product type, revision, lines, measured properties), every ingredient
    reached (its identity, hazards, classification data and allergens) and the supplier block. A
    document whose digest differs from the formula's now is stale. Properties, classification data
    and the supplier enter only once set, so a document made before they existed keeps its digest
    (an upgrade does not mark every issued document stale)."""
    tree = _Tree(s)
    formulas: dict[str, SdsFormula] = {}
    ingredient_ids: set[str] = set()
    todo = [f.id]
    while todo:  # each formula once: a formula used twice, or a cycle, is walked once
        fid = todo.pop()
        if fid in formulas:
            continue
        row = f if fid == f.id else s.get(SdsFormula, fid)
        if row is None:
            continue
        formulas[fid] = row
        for line in tree(fid):
            if line.ingredient_id:
                ingredient_ids.add(line.ingredient_id)
            if line.formula_id:
                todo.append(line.formula_id)
    ings = s.execute(select(SdsIngredient).where(SdsIngredient.id.in_(sorted(ingredient_ids)))).scalars()
    made_from = {
        "formulas": sorted(
            [
                x.id,
                x.code,
                x.name,
                x.product_type,
                x.revision,
                [[str(ln.percent), ln.ingredient_id, ln.formula_id] for ln in tree(x.id)],
                *([x.properties] if x.properties else []),
            ]
            for x in formulas.values()
        ),
        "ingredients": sorted(
            [i.id, i.name, i.inci, i.cas, i.hazards, i.allergens, i.molecular_formula, *([i.ghs] if i.ghs else [])]
            for i in ings
        ),
    }
    if supplier:
        made_from["supplier"] = supplier
    return hashlib.sha256(json.dumps(made_from, sort_keys=True, default=str).encode()).hexdigest()


def _supplier_block(s: Session, ctx: Ctx) -> dict[str, Any] | None:
    """The tenant's SDS supplier block as set (None until it is), for the digest."""
    t = s.get(Tenant, ctx.tenant_id)
    block = ((t.settings or {}).get("sds") or {}).get("supplier") if t else None
    return dict(block) if block else None


def _is_stale(d: SdsDocument, f: SdsFormula, digest: str | None) -> bool:
    made = (d.summary or {}).get("sources")
    if made is None or digest is None:  # a document made before its sources were kept
        return d.formula_revision != f.revision
    return bool(made != digest)


def _doc_out(d: SdsDocument, stale: bool) -> DocumentOut:
    return DocumentOut(
        id=d.id,
        formula_id=d.formula_id,
        kind=d.kind,  # type: ignore[arg-type]
        formula_revision=d.formula_revision,
        version=d.version,
        status="succeeded",
        compliant=d.compliant,
        pages=d.pages,
        size=d.size,
        stale=stale,
        download_url=f"formulas/{d.formula_id}/{d.kind}?format=pdf",
        created_at=d.created_at,
    )


def _latest(s: Session, formula_id: str, kind: str) -> SdsDocument | None:
    return s.execute(
        select(SdsDocument)
        .where(SdsDocument.formula_id == formula_id, SdsDocument.kind == kind)
        .order_by(SdsDocument.version.desc())
        .limit(1)
    ).scalar_one_or_none()


def _issuer(s: Session, ctx: Ctx) -> str:
    t = s.get(Tenant, ctx.tenant_id)
    return t.name if t else "the supplier"


def _keep(
    ctx: Ctx, s: Session, f: SdsFormula, kind: str, content: bytes, pages: int, summary: dict[str, Any]
) -> SdsDocument:
    digest, _ = keep_blob(ctx, content)
    last = _latest(s, f.id, kind)
    summary = {**summary, "sources": sources_digest(s, f, _supplier_block(s, ctx))}
    d = SdsDocument(
        id=new_id(),
        formula_id=f.id,
        kind=kind,
        formula_revision=f.revision,
        version=(last.version + 1) if last else 1,
        status="succeeded",
        compliant=True,
        summary=summary,
        file_sha256=digest,
        size=len(content),
        pages=pages,
        created_by=ctx.principal.user_id,
        created_at=ctx.now(),
    )
    s.add(d)
    s.flush()
    return d


@use_case(
    "sds.formulas.certificate",
    "POST /formulas/{id}/certificate",
    tx="write",
    roles=STAFF,
    status=201,
    says="Make certificate",
    record="sds.formula",
    summary="generate a compliance certificate (409 with the failing items when the formula breaks a limit)",
)
def make_certificate(ctx: Ctx, id: str) -> DocumentOut:
    with ctx.write() as s:
        f = _find_formula(s, id)
        failing = failing_items(s, f)
        if failing:
            raise Conflict(
                f"formula {f.code} does not comply: {len(failing)} failing item(s)",
                {"current_state": "non_compliant", "action": "certificate", "failing": failing},
            )
        results, _ = compute(s, f)
        rows = [
            [r.name, r.cas or "—", f"{Decimal(str(r.percent)):.4f} %", f"{r.threshold} %"]
            for r in results
            if r.declarable
        ]
        checked = [f"{b['name']} ({b['cas']}): banned, Annex II" for b in chem.limits()["banned"]]
        content, pages = pdf.render_certificate(
            f.name, f.code, f.revision, f.product_type, ctx.now(), _issuer(s, ctx), rows, checked
        )
        d = _keep(ctx, s, f, "certificate", content, pages, {"declarable": len(rows)})
        emit(ctx, "formula.certificate_issued", {"formula_id": f.id, "document_id": d.id, "revision": f.revision})
        return _doc_out(d, False)


def _sheet(s: Session, ctx: Ctx, f: SdsFormula, version: int) -> tuple[pdf.Sheet, dict[str, Any]]:
    """The sheet's content and what it keeps of its classification (for comparing versions)."""
    results, _ = compute(s, f)
    mixture, shares, ings = classification.mixture_of(s, f)
    result = classification.run(mixture)
    composition = [
        {
            "name": ings[i].name,
            "cas": ings[i].cas,
            "percent": pct,
            "hazards": list(ings[i].hazards or []),
            "m_acute": int((ings[i].ghs or {}).get("m_acute") or 1),
            "m_chronic": int((ings[i].ghs or {}).get("m_chronic") or 1),
            "limits": dict((ings[i].ghs or {}).get("limits") or {}),
        }
        for i, pct in sorted(shares.items(), key=lambda kv: -kv[1])
    ]
    made = sheet.Made(
        name=f.name,
        code=f.code,
        revision=f.revision,
        version=version,
        product_type=f.product_type,
        issued_at=ctx.now(),
        supplier=classification.supplier(s, ctx).model_dump(),
        mixture=mixture,
        result=result,
        composition=composition,
        allergens=[[r.name, r.cas or "—", f"{Decimal(str(r.percent)).normalize():f}"] for r in results if r.declarable],
    )
    return sheet.build(made), classification.summary(result, shares, ings)


@use_case(
    "sds.formulas.sds",
    "POST /formulas/{id}/sds",
    tx="write",
    roles=STAFF,
    status=201,
    says="Make safety data sheet",
    record="sds.formula",
    summary="generate the 16-section safety data sheet (a PDF) for the formula's current revision",
)
def make_sds(ctx: Ctx, id: str) -> DocumentOut:
    with ctx.write() as s:
        f = _find_formula(s, id)
        last = _latest(s, f.id, "sds")
        content_of, kept = _sheet(s, ctx, f, (last.version + 1) if last else 1)
        content, pages = pdf.render_sds(content_of)
        d = _keep(ctx, s, f, "sds", content, pages, {"sections": 16, "classification": kept})
        emit(ctx, "formula.sds_issued", {"formula_id": f.id, "document_id": d.id, "revision": f.revision})
        return _doc_out(d, False)


def _get_doc(ctx: Ctx, id: str, kind: str, query: DocumentQuery) -> DocumentOut | FileResult:
    with ctx.read() as s:
        f = _find_formula(s, id)
        d = _latest(s, f.id, kind)
        if d is None:
            raise NotFound(f"no {kind} generated for formula {f.code} yet", {"id": f.id, "kind": kind})
        out = _doc_out(d, _is_stale(d, f, sources_digest(s, f, _supplier_block(s, ctx))))
        code = f.code
    if query.format is None:
        return out
    assert d.file_sha256 is not None
    name = f"{'SDS' if kind == 'sds' else 'certificate'}-{code}-r{d.formula_revision}-v{d.version}.pdf"
    try:
        content = read_blob(ctx, d.file_sha256)
    except FileNotFoundError:
        # A copied database without its files (or a station that replayed the record): make it again.
        raise NotFound(f"the {kind} PDF is not on this machine: generate it again", {"id": f.id}) from None
    return FileResult(content, "application/pdf", name)


@use_case(
    "sds.formulas.certificate_get",
    "GET /formulas/{id}/certificate",
    tx="read",
    roles=STAFF,
    says="Certificate PDF",
    record="sds.formula",
    summary="the latest certificate of a formula; ?format=pdf gives its PDF",
)
def get_certificate(ctx: Ctx, id: str, query: DocumentQuery) -> DocumentOut | FileResult:
    return _get_doc(ctx, id, "certificate", query)


@use_case(
    "sds.formulas.sds_get",
    "GET /formulas/{id}/sds",
    tx="read",
    roles=STAFF,
    says="Safety data sheet PDF",
    record="sds.formula",
    summary="the latest safety data sheet of a formula; ?format=pdf gives its PDF",
)
def get_sds(ctx: Ctx, id: str, query: DocumentQuery) -> DocumentOut | FileResult:
    return _get_doc(ctx, id, "sds", query)

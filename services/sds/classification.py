"""SDS: a formula's classification under CLP, an ad-hoc mixture's, the phrase library, the
pictograms, and the supplier block the safety data sheet prints (the tenant's details)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import flag_modified

from local_db.models import Tenant
from local_db.models.sds import SdsDocument, SdsFormula, SdsIngredient
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.files import FileResult
from services.core.roles import MANAGERS, STAFF
from services.sds import chem, classify, labels, pictograms
from services.sds.formulas import _find_formula, _Tree
from services.sds.schemas import (
    ClassificationOut,
    ClassifyIn,
    CompareOut,
    CompareQuery,
    ComponentIn,
    FormulaProperties,
    HazardOut,
    PhrasesOut,
    PictogramOut,
    SupplierIn,
    SupplierOut,
    Texts,
    TransportOut,
)

REGULATION = "Regulation (EC) No 1272/2008 (CLP), Annex I mixture rules"


def component_of(name: str, percent: Decimal | None, ghs: dict[str, Any], hazards: list[str]) -> classify.Component:
    """A classification component from an ingredient's stored data or a request's."""
    return classify.Component(
        name=name,
        percent=percent,
        hazards=tuple(hazards),
        categories=dict(ghs.get("categories") or {}),
        ate={k: Decimal(str(v)) for k, v in (ghs.get("ate") or {}).items()},
        unknown_acute=tuple(ghs.get("unknown_acute") or ()),
        m_acute=int(ghs.get("m_acute") or 1),
        m_chronic=int(ghs.get("m_chronic") or 1),
        limits={k: Decimal(str(v)) for k, v in (ghs.get("limits") or {}).items()},
    )


def properties_of(props: dict[str, Any]) -> dict[str, Any]:
    p = FormulaProperties.model_validate(props or {})
    return {
        "physical_state": p.physical_state,
        "inhalation_form": p.inhalation_form,
        "flash_point_c": p.flash_point_c,
        "boiling_point_c": p.boiling_point_c,
    }


def mixture_of(s: Session, f: SdsFormula) -> tuple[classify.Mixture, dict[str, Decimal], dict[str, SdsIngredient]]:
    """The formula as a mixture of substances, its sub-formulas flattened at any depth."""
    shares = chem.flatten(f.id, _Tree(s))
    ings = {i.id: i for i in s.execute(select(SdsIngredient).where(SdsIngredient.id.in_(list(shares)))).scalars()}
    comps = tuple(
        component_of(ings[i].name, pct, dict(ings[i].ghs or {}), list(ings[i].hazards or []))
        for i, pct in sorted(shares.items(), key=lambda kv: -kv[1])
    )
    return classify.Mixture(comps, **properties_of(dict(f.properties or {}))), shares, ings


def run(mixture: classify.Mixture) -> classify.Result:
    try:
        return classify.classify(mixture, labels.known_codes())
    except classify.ClassificationError as exc:
        field = exc.field or "components"
        raise ValidationFailed(
            str(exc), {"fields": [{"field": field, "message": str(exc), "type": "classification"}]}
        ) from None


def _texts(code: str) -> Texts:
    return Texts(code=code, **labels.statement(code))


def out(result: classify.Result, mixture: classify.Mixture, f: SdsFormula | None) -> ClassificationOut:
    lab = labels.label(result)
    lib = labels.phrases()
    t = labels.transport(result, mixture)
    return ClassificationOut(
        formula_id=f.id if f else None,
        revision=f.revision if f else None,
        regulation=REGULATION,
        hazards=[
            HazardOut(hazard_class=h.hazard_class, category=h.category, route=h.route, h=h.h, reason=h.reason)
            for h in result.hazards
        ],
        pictograms=[PictogramOut(code=p, image_url=f"pictograms/{p}", **lib["pictograms"][p]) for p in lab.pictograms],
        signal_word=Texts(code=lab.signal_word, **lib["signal_words"][lab.signal_word]) if lab.signal_word else None,
        h_statements=[_texts(h) for h in lab.h],
        supplemental=[Texts(code=x.get("code") or "", en=x["en"], de=x["de"]) for x in lab.supplemental],
        p_statements=[_texts(p) for p in lab.p],
        p_label=lab.p_label,
        ate={k: float(v) for k, v in result.ate.items()},
        euh208=result.euh208,
        not_assessed=result.not_assessed,
        notes=result.notes,
        transport=TransportOut(
            un_number=t.un_number,
            proper_shipping_name=t.proper_shipping_name,
            transport_class=t.transport_class,
            packing_group=t.packing_group,
            environmental_hazard=t.environmental_hazard,
            note=t.note,
        ),
    )


def summary(result: classify.Result, shares: dict[str, Decimal], ings: dict[str, SdsIngredient]) -> dict[str, Any]:
    """What an issued SDS keeps of its classification, so two versions can be compared later."""
    lab = labels.label(result)
    return {
        "hazards": [f"{h.hazard_class} {h.category} ({h.h})" for h in result.hazards],
        "pictograms": lab.pictograms,
        "signal_word": lab.signal_word,
        "h": [*lab.h, *lab.euh],
        "p": lab.p,
        "composition": {ings[i].name: f"{pct.normalize():f}" for i, pct in shares.items()},
    }


@use_case(
    "sds.formulas.classification",
    "GET /formulas/{id}/classification",
    tx="read",
    roles=STAFF,
    record="sds.formula",
    summary="the formula's CLP classification through every sub-formula: hazard classes, pictograms, "
    "signal word, H and P statements in English and German, transport",
)
def formula_classification(ctx: Ctx, id: str) -> ClassificationOut:
    with ctx.read() as s:
        f = _find_formula(s, id)
        mixture, _, _ = mixture_of(s, f)
        return out(run(mixture), mixture, f)


@use_case(
    "sds.classify",
    "POST /classify",
    tx="read",
    roles=STAFF,
    summary="classify a mixture given as components (percent, H codes, ATEs, M-factors, limits); stores nothing",
)
def classify_mixture(ctx: Ctx, body: ClassifyIn) -> ClassificationOut:
    comps = tuple(_component_in(c) for c in body.components)
    mixture = classify.Mixture(comps, **properties_of(body.properties.model_dump()))
    return out(run(mixture), mixture, None)


def _component_in(c: ComponentIn) -> classify.Component:
    return component_of(c.name, c.percent, ghs_of(c), list(c.hazards))


def ghs_of(body: Any) -> dict[str, Any]:
    """The stored form of a request's classification data (IngredientIn, ComponentIn)."""
    return {
        "categories": dict(body.categories),
        "ate": {k: f"{v.normalize():f}" for k, v in body.ate.items()},
        "unknown_acute": list(body.unknown_acute),
        "m_acute": body.m_acute,
        "m_chronic": body.m_chronic,
        "limits": {k: f"{v.normalize():f}" for k, v in body.specific_limits.items()},
    }


@use_case("sds.phrases.list", "GET /phrases", tx="read", roles=STAFF, summary="the H, EUH and P statements (EN, DE)")
def list_phrases(ctx: Ctx) -> PhrasesOut:
    lib = labels.phrases()
    return PhrasesOut(
        h=[Texts(code=k, **v) for k, v in lib["h"].items()],
        p=[Texts(code=k, **v) for k, v in lib["p"].items()],
        pictograms=[Texts(code=k, **v) for k, v in lib["pictograms"].items()],
        signal_words=[Texts(code=k, **v) for k, v in lib["signal_words"].items()],
        sources=list(lib["sources"]),
    )


@use_case("sds.pictograms.get", "GET /pictograms/{code}", tx="read", roles=STAFF, summary="a GHS pictogram as SVG")
def get_pictogram(ctx: Ctx, code: str) -> FileResult:
    if code not in pictograms.CODES:
        raise NotFound(f"no pictogram {code} (GHS01 to GHS09)", {"code": code})
    return FileResult(pictograms.svg(code).encode(), "image/svg+xml", f"{code}.svg")


def supplier(s: Session, ctx: Ctx) -> SupplierOut:
    t = s.get(Tenant, ctx.tenant_id)
    data = dict(((t.settings or {}).get("sds") or {}).get("supplier") or {}) if t else {}
    return SupplierOut(
        name=data.get("name") or (t.name if t else "the supplier"),
        address=data.get("address"),
        phone=data.get("phone"),
        email=data.get("email"),
        emergency_phone=data.get("emergency_phone"),
        emergency_hours=data.get("emergency_hours"),
    )


@use_case("sds.settings.supplier", "GET /supplier", tx="read", roles=STAFF, summary="the supplier block of the SDS")
def get_supplier(ctx: Ctx) -> SupplierOut:
    with ctx.read() as s:
        return supplier(s, ctx)


@use_case(
    "sds.settings.supplier_save",
    "PUT /supplier",
    tx="write",
    roles=MANAGERS,
    says="SDS supplier details",
    summary="the supplier's address, phone, e-mail and emergency number printed in SDS section 1",
)
def save_supplier(ctx: Ctx, body: SupplierIn) -> SupplierOut:
    with ctx.write() as s:
        t = s.get(Tenant, ctx.tenant_id)
        assert t is not None
        settings = dict(t.settings or {})
        settings["sds"] = {**(settings.get("sds") or {}), "supplier": body.model_dump()}
        t.settings = settings
        flag_modified(t, "settings")
        s.flush()
        return supplier(s, ctx)


def _sds_version(s: Session, formula_id: str, version: int) -> SdsDocument:
    d = s.execute(
        select(SdsDocument).where(
            SdsDocument.formula_id == formula_id, SdsDocument.kind == "sds", SdsDocument.version == version
        )
    ).scalar_one_or_none()
    if d is None:
        raise NotFound(f"no SDS version {version} of this formula", {"id": formula_id, "version": version})
    return d


def _added(a: list[str], b: list[str]) -> list[str]:
    return [x for x in b if x not in a]


@use_case(
    "sds.formulas.sds_compare",
    "GET /formulas/{id}/sds/compare",
    tx="read",
    roles=STAFF,
    record="sds.formula",
    summary="what changed between two SDS versions (?a=1&b=2): hazard classes, pictograms, signal word, "
    "H and P statements, composition",
)
def compare_sds(ctx: Ctx, id: str, query: CompareQuery) -> CompareOut:
    with ctx.read() as s:
        f = _find_formula(s, id)
        da, db = _sds_version(s, f.id, query.a), _sds_version(s, f.id, query.b)
        ca = dict((da.summary or {}).get("classification") or {})
        cb = dict((db.summary or {}).get("classification") or {})
        if not ca or not cb:
            raise Conflict(
                "an SDS made before classifications were kept cannot be compared: make it again",
                {"current_state": "no_classification", "action": "compare"},
            )
        comp_a, comp_b = dict(ca.get("composition") or {}), dict(cb.get("composition") or {})
        composition = [
            {"ingredient": name, "a": comp_a.get(name), "b": comp_b.get(name)}
            for name in sorted(set(comp_a) | set(comp_b))
            if comp_a.get(name) != comp_b.get(name)
        ]
        return CompareOut(
            formula_id=f.id,
            a=query.a,
            b=query.b,
            a_revision=da.formula_revision,
            b_revision=db.formula_revision,
            hazards_added=_added(ca["hazards"], cb["hazards"]),
            hazards_removed=_added(cb["hazards"], ca["hazards"]),
            pictograms_added=_added(ca["pictograms"], cb["pictograms"]),
            pictograms_removed=_added(cb["pictograms"], ca["pictograms"]),
            signal_word={"a": ca.get("signal_word"), "b": cb.get("signal_word")},
            h_added=_added(ca["h"], cb["h"]),
            h_removed=_added(cb["h"], ca["h"]),
            p_added=_added(ca["p"], cb["p"]),
            p_removed=_added(cb["p"], ca["p"]),
            composition=composition,
        )

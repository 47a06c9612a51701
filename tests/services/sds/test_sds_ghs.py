"""A formula classified under CLP through its sub-formulas, its SDS filled from the tenant, the
formula and the classification (pictograms drawn in section 2), ingredients edited with the
same checks as when made, where-used at any depth, and two SDS versions compared."""

from __future__ import annotations

from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from sqlalchemy import select

from local_db.models import Event
from local_db.models.sds import SdsIngredient
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.errors import Conflict, NotFound, ValidationFailed
from tests.services.sds.test_sds_service import ctx_for, formula, pdf_text


def ing(ctx: Ctx, name: str, hazards: list[str], **ghs: Any) -> str:
    return str(execute(ctx, "sds.ingredients.create", body={"name": name, "hazards": hazards, **ghs}).id)


def _paths(content: bytes) -> int:
    doc = pdfium.PdfDocument(content)
    try:
        return sum(1 for page in doc for obj in page.get_objects(max_depth=3) if obj.type == pdfium_c.FPDF_PAGEOBJ_PATH)
    finally:
        doc.close()


@pytest.fixture()
def product(runtime: Runtime) -> dict[str, str]:
    """A perfume three levels deep: 60 % ethanol at the top, an acid and linalool two levels down."""
    ctx = ctx_for(runtime)
    ids = {
        "ethanol": ing(ctx, "Ethanol", ["H225", "H319"]),
        "water": ing(ctx, "Water", []),
        "acid": ing(ctx, "Citric acid blend", ["H314"], categories={"H314": "1B"}),
        "linalool": ing(ctx, "Linalool", ["H315", "H317", "H319"]),
    }
    lvl3 = formula(ctx, "ACC-3", [("i", ids["acid"], "40"), ("i", ids["linalool"], "20"), ("i", ids["water"], "40")])
    lvl2 = formula(ctx, "ACC-2", [("f", lvl3, "50"), ("i", ids["water"], "50")])
    top = formula(ctx, "EDT-1", [("f", lvl2, "20"), ("i", ids["ethanol"], "60"), ("i", ids["water"], "20")])
    execute(
        ctx,
        "sds.formulas.update",
        id=top,
        body={"properties": {"flash_point_c": "21", "boiling_point_c": "78"}},
    )
    return {**ids, "lvl3": lvl3, "lvl2": lvl2, "top": top}


def test_formula_classification_through_sub_formulas(runtime: Runtime, product: dict[str, str]) -> None:
    ctx = ctx_for(runtime)
    c = execute(ctx, "sds.formulas.classification", id=product["top"])
    # In the product: acid 20 x 50 x 40 % = 4 % (Skin Corr. 1B: 1-5 % is Skin Irrit. 2, >= 3 % Eye Dam. 1);
    # linalool 2 % (Skin Sens. 1 >= 1 %); flash point 21 / boiling point 78 °C: Flam. Liq. 2.
    got = {(h.hazard_class, h.category, h.h) for h in c.hazards}
    assert got == {
        ("Flam. Liq.", "2", "H225"),
        ("Skin Irrit.", "2", "H315"),
        ("Eye Dam.", "1", "H318"),
        ("Skin Sens.", "1", "H317"),
    }
    assert [p.code for p in c.pictograms] == ["GHS02", "GHS05", "GHS07"]
    assert c.pictograms[0].de == "Flamme" and c.pictograms[0].image_url == "pictograms/GHS02"
    assert c.signal_word is not None and (c.signal_word.en, c.signal_word.de) == ("Danger", "Gefahr")
    h225 = next(h for h in c.h_statements if h.code == "H225")
    assert (h225.en, h225.de) == ("Highly flammable liquid and vapour.", "Flüssigkeit und Dampf leicht entzündbar.")
    assert {"P210", "P280", "P305+P351+P338", "P310"} <= {p.code for p in c.p_statements}
    assert len(c.p_label) <= 6
    assert (c.transport.un_number, c.transport.transport_class, c.transport.packing_group) == ("1993", "3", "II")
    # The pictogram answers as SVG.
    svg = execute(ctx, "sds.pictograms.get", code="GHS05")
    assert svg.media_type == "image/svg+xml" and b"<svg" in svg.content
    with pytest.raises(NotFound):
        execute(ctx, "sds.pictograms.get", code="GHS10")


def test_sds_sections_filled_and_pictograms_drawn(runtime: Runtime, product: dict[str, str]) -> None:
    ctx = ctx_for(runtime)
    execute(
        ctx,
        "sds.settings.supplier_save",
        body={
            "name": "Demo Fragrances GmbH",
            "address": "Hauptstraße 1, 10115 Berlin, Germany",
            "phone": "+49 30 1234567",
            "email": "sds@demo.test",
            "emergency_phone": "+49 30 19240",
        },
    )
    execute(ctx, "sds.formulas.sds", id=product["top"])
    content = execute(ctx, "sds.formulas.sds_get", id=product["top"], query={"format": "pdf"}).content
    text = pdf_text(content)
    for expected in (
        "Demo Fragrances GmbH",
        "Hauptstraße 1, 10115 Berlin",
        "Emergency telephone: +49 30 19240",
        "Flam. Liq. 2, H225",
        "Signal word: Danger",
        "H225 Highly flammable liquid and vapour.",
        "GHS02",
        "GHS05",
        "UN 1993",
        "FLAMMABLE LIQUID, N.O.S.",
        "Flash point: 21 °C",
        "alcohol-resistant foam",
        "After eye contact",
    ):
        assert expected in text, expected
    # Section 2 no longer lists the ingredients' H codes as the mixture's classification.
    assert "Hazard statements of the ingredients" not in text
    # Sections 4 to 14 carry text, not "No data available", where the classification gives it.
    section4 = text[text.index("SECTION 4") : text.index("SECTION 5")]
    assert "No data available" not in section4
    # The pictograms are vector drawings: many path objects beside the text.
    assert _paths(content) > 30

    # What it was made from changes: the supplier's emergency number, then the measured flash point.
    def stale() -> bool:
        return bool(execute(ctx, "sds.formulas.sds_get", id=product["top"], query={}).stale)

    assert not stale()
    execute(
        ctx,
        "sds.settings.supplier_save",
        body={"address": "Hauptstraße 1", "phone": "+49 30 1", "email": "sds@demo.test", "emergency_phone": "112"},
    )
    assert stale()
    execute(ctx, "sds.formulas.sds", id=product["top"])
    assert not stale()
    execute(ctx, "sds.formulas.update", id=product["top"], body={"properties": {"flash_point_c": "30"}})
    assert stale()


def test_ingredient_edit_revalidates_and_makes_documents_stale(runtime: Runtime, product: dict[str, str]) -> None:
    ctx = ctx_for(runtime)
    execute(ctx, "sds.formulas.sds", id=product["top"])
    before = {h.h for h in execute(ctx, "sds.formulas.classification", id=product["top"]).hazards}
    # Bad input is refused and nothing is stored.
    for bad in (
        {"hazards": ["H999"]},
        {"hazards": ["H300"]},  # Acute Tox. 1 or 2 without its category or ATE
        {"specific_limits": {"H400": 1}},  # a limit for a code it does not carry
        {"m_chronic": 7},
        {"ate": {"oral": -1}},
    ):
        with pytest.raises(ValidationFailed):
            execute(ctx, "sds.ingredients.patch", id=product["linalool"], body=bad)
    with runtime.db.session(None, write=True) as s:
        row = s.get(SdsIngredient, product["linalool"])
        assert row is not None and row.hazards == ["H315", "H317", "H319"]
        assert row.ghs["limits"] == {} and row.ghs["m_chronic"] == 1 and row.ghs["ate"] == {}
    assert not execute(ctx, "sds.formulas.sds_get", id=product["top"], query={}).stale

    # Linalool becomes Skin Sens. 1A with an aquatic M-factor: classification and staleness follow.
    out = execute(
        ctx,
        "sds.ingredients.patch",
        id=product["linalool"],
        body={"hazards": ["H315", "H317", "H319", "H410"], "categories": {"H317": "1A"}, "m_chronic": 100},
    )
    assert out.categories == {"H317": "1A"} and out.m_chronic == 100 and out.name == "Linalool"
    after = execute(ctx, "sds.formulas.classification", id=product["top"])
    assert {h.h for h in after.hazards} == before | {"H410"}  # 2 % x M 100 = 200 % >= 25 %
    assert execute(ctx, "sds.formulas.sds_get", id=product["top"], query={}).stale
    with runtime.db.reading(ctx.tenant_id) as s:
        payloads = [e.data for e in s.execute(select(Event).where(Event.type == "ingredient.changed")).scalars()]
    assert payloads == [{"ingredient_id": product["linalool"], "formulas": 3}]  # the failed PATCHes emitted nothing
    # PUT replaces the whole record.
    put = execute(ctx, "sds.ingredients.replace", id=product["water"], body={"name": "Aqua", "cas": "7732-18-5"})
    assert (put.name, put.cas, put.hazards) == ("Aqua", "7732-18-5", [])
    with pytest.raises(NotFound):
        execute(ctx, "sds.ingredients.replace", id="nope", body={"name": "x"})


def test_where_used_at_any_depth(runtime: Runtime, product: dict[str, str]) -> None:
    ctx = ctx_for(runtime)
    used = execute(ctx, "sds.ingredients.where_used", id=product["acid"])
    by_code = {f.code: f for f in used.formulas}
    assert set(by_code) == {"ACC-3", "ACC-2", "EDT-1"}
    assert by_code["ACC-3"].direct and not by_code["EDT-1"].direct
    assert (by_code["ACC-3"].percent, by_code["ACC-2"].percent, by_code["EDT-1"].percent) == (40.0, 20.0, 4.0)
    assert execute(ctx, "sds.ingredients.where_used", id=product["ethanol"]).formulas[0].code == "EDT-1"
    subs = execute(ctx, "sds.formulas.where_used", id=product["lvl3"]).formulas
    assert [(f.code, f.percent, f.direct) for f in subs] == [("ACC-2", 50.0, True), ("EDT-1", 10.0, False)]
    assert execute(ctx, "sds.formulas.where_used", id=product["top"]).formulas == []


def test_two_sds_versions_compared(runtime: Runtime, product: dict[str, str]) -> None:
    ctx = ctx_for(runtime)
    execute(ctx, "sds.formulas.sds", id=product["top"])
    # Two levels down the acid goes from 40 % to 80 % of ACC-3: 8 % of the product, Skin Corr. 1B.
    execute(
        ctx,
        "sds.formulas.update",
        id=product["lvl3"],
        body={
            "lines": [
                {"ingredient_id": product["acid"], "percent": "80"},
                {"ingredient_id": product["linalool"], "percent": "20"},
            ]
        },
    )
    execute(ctx, "sds.formulas.sds", id=product["top"])
    diff = execute(ctx, "sds.formulas.sds_compare", id=product["top"], query={"a": 1, "b": 2})
    assert diff.hazards_added == ["Skin Corr. 1B (H314)"]
    assert diff.hazards_removed == ["Skin Irrit. 2 (H315)"]
    assert "H314" in diff.h_added and "H315" in diff.h_removed and "H318" in diff.h_removed  # H314 covers H318
    assert {"ingredient": "Citric acid blend", "a": "4", "b": "8"} in diff.composition
    assert {"ingredient": "Water", "a": "34", "b": "30"} in diff.composition
    with pytest.raises(NotFound):
        execute(ctx, "sds.formulas.sds_compare", id=product["top"], query={"a": 1, "b": 9})


def test_ad_hoc_classification_refuses_missing_concentration(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    with pytest.raises(ValidationFailed, match="needs its concentration"):
        execute(ctx, "sds.classify", body={"components": [{"name": "Acid", "hazards": ["H314"]}]})
    with pytest.raises(ValidationFailed) as bad:
        execute(ctx, "sds.classify", body={"components": [{"name": "X", "percent": 5, "hazards": ["H777"]}]})
    assert "H777 is not a hazard statement of CLP Annex III" in bad.value.details["fields"][0]["message"]
    ok = execute(ctx, "sds.classify", body={"components": [{"name": "Acid", "percent": 6, "hazards": ["H314"]}]})
    assert [h.code for h in ok.h_statements] == ["H314"] and ok.formula_id is None
    with runtime.db.session(None, write=True) as s:
        assert s.execute(select(SdsIngredient).where(SdsIngredient.name == "Acid")).first() is None


def test_old_sds_without_classification_cannot_be_compared(runtime: Runtime, product: dict[str, str]) -> None:
    ctx = ctx_for(runtime)
    execute(ctx, "sds.formulas.sds", id=product["top"])
    execute(ctx, "sds.formulas.sds", id=product["top"])
    from local_db.models.sds import SdsDocument

    with runtime.db.session(None, write=True) as s:
        d = s.execute(
            select(SdsDocument).where(SdsDocument.formula_id == product["top"], SdsDocument.version == 1)
        ).scalar_one()
        d.summary = {"sections": 16}
        s.commit()
    with pytest.raises(Conflict):
        execute(ctx, "sds.formulas.sds_compare", id=product["top"], query={"a": 1, "b": 2})


def test_demo_base_is_classified_and_its_sheet_names_the_supplier(runtime: Runtime) -> None:
    from services.core.demo import demo_id

    ctx = ctx_for(runtime)
    base = execute(ctx, "sds.formulas.classification", id=demo_id("sds-formula", "demo", "FB-LAV"))
    # 50 % ethanol, flash point 22 °C: Flam. Liq. 2; lavender oil (H317) at 50 %: Skin Sens. 1;
    # its H304 is not computed and is said so.
    assert {(h.hazard_class, h.h) for h in base.hazards} >= {("Flam. Liq.", "H225"), ("Skin Sens.", "H317")}
    assert base.not_assessed == ["H304"]
    cream = demo_id("sds-formula", "demo", "CR-DAY")
    execute(ctx, "sds.formulas.sds", id=cream)
    text = pdf_text(execute(ctx, "sds.formulas.sds_get", id=cream, query={"format": "pdf"}).content)
    assert "Musterstraße 12, 10115 Berlin" in text and "Emergency telephone: +49 30 19240" in text

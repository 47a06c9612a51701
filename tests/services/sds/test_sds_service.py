"""SDS in the service layer: CAS check digits, allergens through nested sub-formulas against
hand-computed cases at the 0.001 % and 0.01 % thresholds, formula revisions and states, import,
detection in text, certificates refused with the failing items, the 16-section SDS PDF, and
PubChem through a local stand-in speaking PUG REST."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pypdfium2 as pdfium
import pytest
from sqlalchemy import select

from local_db.models import Event
from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed
from services.core.files import FileResult, Upload
from services.sds.chem import allergens, cas_problem, detect, sds_sections
from services.sds.pubchem import PubChem, PubChemConfig
from tests.pubchem_server import PubChemStandIn

OWNER = "owner@demo.test"
LINALOOL, LIMONENE, HICC = "78-70-6", "5989-27-5", "31906-04-4"


def ctx_for(rt: Runtime, email: str = OWNER, slug: str = "demo") -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant))


def pdf_text(content: bytes) -> str:
    doc = pdfium.PdfDocument(content)
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in doc)
    finally:
        doc.close()


def ing(ctx: Ctx, name: str, cas: str | None = None, allergens: list[dict[str, Any]] | None = None) -> str:
    body: dict[str, Any] = {"name": name, "allergens": allergens or []}
    if cas:
        body["cas"] = cas
    return str(execute(ctx, "sds.ingredients.create", body=body).id)


def formula(ctx: Ctx, code: str, lines: list[tuple[str, str, str]], product_type: str = "leave_on") -> str:
    body = {
        "code": code,
        "name": code,
        "product_type": product_type,
        "lines": [{("ingredient_id" if k == "i" else "formula_id"): ref, "percent": p} for k, ref, p in lines],
    }
    return str(execute(ctx, "sds.formulas.create", body=body).id)


def by_cas(result: Any) -> dict[str, Any]:
    return {r.allergen: r for r in result.results}


def test_cas_check_digits_and_the_lists() -> None:
    assert cas_problem("7732-18-5") is None  # water (DOMAIN §2)
    assert cas_problem("7732-18-4") == "the CAS check digit of 7732-18-4 should be 5"
    assert cas_problem("77-3218-5") is not None and cas_problem("1-18-5") is not None
    every = allergens()
    frag = [a for a in every.values() if a.kind == "fragrance"]
    food = [a for a in every.values() if a.kind == "food"]
    assert len(frag) >= 26 and len(food) == 14 and all(cas_problem(a.cas or "") is None for a in frag)
    assert every[HICC].banned and not every[LINALOOL].banned
    assert [s["number"] for s in sds_sections()] == list(range(1, 17))
    found = detect("Aqua, Parfum, LINALOOL, d-Limonene, Cinnamyl Alcohol, 31906-04-4, contains peanuts and soya.")
    assert [h["name"] for h in found] == ["Linalool", "Limonene", "Cinnamyl Alcohol", "HICC", "Peanuts", "Soybeans"]
    assert found[0]["matches"][0]["text"] == "LINALOOL"


def test_allergens_through_nested_formulas_equal_hand_computed_cases(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    lav = ing(
        ctx,
        "Test lavender",
        allergens=[{"allergen": LINALOOL, "percent": 30}, {"allergen": "limonene", "percent": "1"}],
    )
    base = ing(ctx, "Test base")
    lin = ing(ctx, "Test linalool", cas=LINALOOL)  # its own CAS is an allergen: 100 % linalool
    b = formula(ctx, "T-BASE", [("i", lav, "10"), ("i", base, "90")])  # linalool 3 %, limonene 0.1 %
    m = formula(ctx, "T-MID", [("f", b, "5"), ("i", base, "95")])  # linalool 0.15 %, limonene 0.005 %
    # Leave-on: linalool 2 % x 0.15 % + 0.01 % = 0.013 % (declared); limonene 0.0001 % (< 0.001 %).
    top = formula(ctx, "T-TOP", [("f", m, "2"), ("i", base, "97.99"), ("i", lin, "0.01")])
    r = by_cas(execute(ctx, "sds.formulas.detect_allergens", id=top))
    assert Decimal(str(r[LINALOOL].percent)) == Decimal("0.013") and r[LINALOOL].declarable
    assert r[LINALOOL].threshold == 0.001
    assert Decimal(str(r[LIMONENE].percent)) == Decimal("0.0001") and not r[LIMONENE].declarable
    # Rinse-off at 0.01 %: 0.013 % is declared; 0.003 % + 0.005 % = 0.008 % is not (it would be leave-on).
    rinse = formula(ctx, "T-RINSE", [("f", m, "2"), ("i", base, "97.99"), ("i", lin, "0.01")], "rinse_off")
    rr = by_cas(execute(ctx, "sds.formulas.detect_allergens", id=rinse))
    assert rr[LINALOOL].threshold == 0.01 and rr[LINALOOL].declarable
    low = formula(ctx, "T-LOW", [("f", m, "2"), ("i", base, "97.995"), ("i", lin, "0.005")], "rinse_off")
    lo = by_cas(execute(ctx, "sds.formulas.detect_allergens", id=low))
    assert Decimal(str(lo[LINALOOL].percent)) == Decimal("0.008") and not lo[LINALOOL].declarable
    low_leave = formula(ctx, "T-LOW-L", [("f", m, "2"), ("i", base, "97.995"), ("i", lin, "0.005")])
    assert by_cas(execute(ctx, "sds.formulas.detect_allergens", id=low_leave))[LINALOOL].declarable
    # At the threshold exactly is not above it: 0.001 % leave-on.
    edge = formula(ctx, "T-EDGE", [("i", lin, "0.001"), ("i", base, "99.999")])
    assert not by_cas(execute(ctx, "sds.formulas.detect_allergens", id=edge))[LINALOOL].declarable
    # The last result is kept; before the first, 404.
    assert execute(ctx, "sds.formulas.allergens", id=top).revision == 1
    with pytest.raises(NotFound):
        execute(ctx, "sds.formulas.allergens", id=b)

    # A formula cannot contain itself at any level; lines add up to 100; CAS check digits.
    with pytest.raises(ValidationFailed):
        execute(ctx, "sds.formulas.update", id=b, body={"lines": [{"formula_id": top, "percent": 100}]})
    with pytest.raises(ValidationFailed):
        formula(ctx, "T-BAD", [("i", base, "60"), ("i", lav, "39.98")])
    formula(ctx, "T-OK", [("i", base, "60"), ("i", lav, "39.995")])  # within 0.01
    with pytest.raises(ValidationFailed):
        ing(ctx, "Bad water", cas="7732-18-4")
    with pytest.raises(ValidationFailed):
        ing(ctx, "Unknown allergen", allergens=[{"allergen": "unobtainium", "percent": 1}])
    with pytest.raises(Conflict):
        formula(ctx, "T-BASE", [("i", base, "100")])


def test_revisions_states_certificate_and_sds(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    base = ing(ctx, "Base", cas="7732-18-5")
    muguet = ing(ctx, "Muguet", allergens=[{"allergen": HICC, "percent": 2}])
    clean = formula(ctx, "C-1", [("i", base, "100")])
    bad_sub = formula(ctx, "C-SUB", [("i", muguet, "50"), ("i", base, "50")])
    bad = formula(ctx, "C-BAD", [("f", bad_sub, "0.1"), ("i", base, "99.9")])

    with pytest.raises(Conflict) as refused:
        execute(ctx, "sds.formulas.certificate", id=bad)
    failing = refused.value.details["failing"]
    assert refused.value.details["current_state"] == "non_compliant"
    assert [(f["cas"], f["reason"]) for f in failing] == [(HICC, "banned")]
    assert Decimal(str(failing[0]["percent"])) == Decimal("0.001")  # 0.1 % x 50 % x 2 %

    cert = execute(ctx, "sds.formulas.certificate", id=clean)
    assert cert.kind == "certificate" and cert.version == 1 and cert.compliant and not cert.stale
    got = execute(ctx, "sds.formulas.certificate_get", id=clean, query={"format": "pdf"})
    assert isinstance(got, FileResult) and got.media_type == "application/pdf"
    assert "CERTIFICATE OF CONFORMITY" in pdf_text(got.content)

    sds = execute(ctx, "sds.formulas.sds", id=clean)
    assert sds.kind == "sds" and sds.pages and sds.pages >= 2
    text = pdf_text(execute(ctx, "sds.formulas.sds_get", id=clean, query={"format": "pdf"}).content)
    for section in sds_sections():
        assert f"SECTION {section['number']}:" in text
        for sub in section["subheadings"]:
            assert sub.split(" ", 1)[0] in text
    assert "No data available" in text and "7732-18-5" in text
    assert execute(ctx, "sds.formulas.sds_get", id=clean, query={}).id == sds.id

    # States: lines change while worked on; in evaluation a change is 409; a new revision makes
    # the documents stale.
    f = execute(ctx, "sds.formulas.status", id=clean, body={"action": "start"})
    assert f.status == "development" and "evaluate" in f.allowed_actions
    revised = execute(
        ctx, "sds.formulas.update", id=clean, body={"lines": [{"ingredient_id": base, "percent": "100.00"}]}
    )
    assert revised.revision == 2
    assert execute(ctx, "sds.formulas.sds_get", id=clean, query={}).stale
    execute(ctx, "sds.formulas.status", id=clean, body={"action": "evaluate"})
    with pytest.raises(Conflict) as locked:
        execute(ctx, "sds.formulas.update", id=clean, body={"product_type": "rinse_off"})
    assert locked.value.details["current_state"] == "evaluation"
    with pytest.raises(Conflict):
        execute(ctx, "sds.formulas.status", id=clean, body={"action": "reformulate"})
    assert execute(ctx, "sds.formulas.update", id=clean, body={"name": "Renamed"}).name == "Renamed"
    assert execute(ctx, "sds.formulas.sds", id=clean).version == 2
    with runtime.db.reading(ctx.tenant_id) as s:
        types = set(s.execute(select(Event.type).where(Event.type.like("formula.%"))).scalars())
    assert {"formula.created", "formula.revised", "formula.status_changed", "formula.sds_issued"} <= types

    with pytest.raises(Forbidden):
        execute(ctx_for(runtime, "operator@demo.test"), "sds.formulas.list", query={})
    with pytest.raises(NotFound):
        execute(ctx_for(runtime, "owner@other.test", "other"), "sds.formulas.get", id=clean)


def test_import_template_csv_and_json(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    template = execute(ctx, "sds.formulas.import_template")
    assert template.content.decode().splitlines()[0] == "formula_code,formula_name,product_type,ingredient,percent"
    csv_text = (
        "formula_code,formula_name,product_type,ingredient,percent\r\n"
        "IMP-B,Imported base,leave_on,78-70-6,5\r\n"  # by CAS: the demo's linalool
        "IMP-B,Imported base,leave_on,aqua,95\r\n"  # by INCI
        "IMP-T,Imported top,rinse_off,Glycerin,90\r\n"  # by name
        "IMP-T,Imported top,rinse_off,formula:IMP-B,10\r\n"  # a sub-formula of this file
        "IMP-X,Broken,leave_on,unobtainium,100\r\n"
        "IMP-Y,Not 100,leave_on,aqua,50\r\n"
    )
    out = execute(ctx, "sds.formulas.import", upload=Upload("f.csv", "text/csv", csv_text.encode()))
    assert out.imported == 2
    assert [(e.row, "unobtainium" in e.error or "100" in e.error) for e in out.errors] == [(5, True), (6, True)]
    top = execute(ctx, "sds.formulas.get", id="IMP-T")
    assert top.product_type == "rinse_off" and {x.name.split(" ")[0] for x in top.lines} == {"Glycerin", "IMP-B"}
    # Linalool 10 % x 5 % = 0.5 % in a rinse-off product: declared.
    assert by_cas(execute(ctx, "sds.formulas.detect_allergens", id=top.id))[LINALOOL].percent == 0.5
    again = execute(ctx, "sds.formulas.import", upload=Upload("f.csv", "text/csv", csv_text.encode()))
    assert again.imported == 0 and any("taken" in e.error for e in again.errors)

    water = execute(ctx, "sds.ingredients.list", query={"cas": "7732-18-5"}).items[0].id
    body = json.dumps(
        [
            {"code": "J-1", "name": "From JSON", "lines": [{"ingredient_id": water, "percent": 100}]},
            {"code": "J-2", "name": "Bad", "lines": [{"ingredient_id": water, "percent": 99}]},
        ]
    )
    js = execute(ctx, "sds.formulas.import", upload=Upload("f.json", "application/json", body.encode()))
    assert js.imported == 1 and [e.row for e in js.errors] == [2]
    with pytest.raises(ValidationFailed):
        execute(ctx, "sds.formulas.import", upload=Upload("f.csv", "text/csv", b"code,name\r\nx,y\r\n"))


@pytest.fixture
def pubchem() -> Iterator[PubChemStandIn]:
    s = PubChemStandIn().start()
    yield s
    s.stop()


def test_search_library_then_pubchem(runtime: Runtime, pubchem: PubChemStandIn) -> None:
    ctx = ctx_for(runtime)
    off = execute(ctx, "sds.ingredients.search", query={"q": "caffeine"})
    assert off.pubchem == "disabled" and off.results == []
    lib = execute(ctx, "sds.ingredients.search", query={"q": "lavender"})
    assert lib.results[0].source == "library" and lib.results[0].cas == "8000-28-0"
    runtime.provide(PubChem(PubChemConfig(enabled=True, base_url=pubchem.url, rate=50)))
    on = execute(ctx, "sds.ingredients.search", query={"q": "caffeine"})
    assert on.pubchem == "used"
    hit = on.results[0]
    assert (hit.source, hit.pubchem_cid, hit.molecular_formula, hit.molecular_weight, hit.cas) == (
        "pubchem",
        2519,
        "C8H10N4O2",
        "194.19",
        "58-08-2",
    )
    n = len(pubchem.requests)
    assert execute(ctx, "sds.ingredients.search", query={"q": "Caffeine"}).pubchem == "cached"
    assert len(pubchem.requests) == n  # the cache answered
    # The library's linalool is not listed twice when PubChem names the same CAS.
    both = execute(ctx, "sds.ingredients.search", query={"q": "linalool"})
    assert [r.source for r in both.results] == ["library"]
    assert execute(ctx, "sds.ingredients.search", query={"q": "nothing-like-it"}).results == []
    runtime.provide(PubChem(PubChemConfig(enabled=True, base_url="http://127.0.0.1:9", timeout=1)))
    down = execute(ctx, "sds.ingredients.search", query={"q": "theobromine"})
    assert down.pubchem == "error" and down.pubchem_error

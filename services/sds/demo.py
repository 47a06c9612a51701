"""Demo SDS content (CONTRACT.md: "SDS formulas with allergens"): a small ingredient library with
supplier allergen declarations, a fragrance base used as a sub-formula by a leave-on cream and a
rinse-off shampoo, a food formula with peanut, and an old formula with HICC that cannot be
certified; the cream has a safety data sheet and a certificate. Deterministic ids (``demo_id``)."""

from __future__ import annotations

from decimal import Decimal

from local_db.models import Tenant
from local_db.models.sds import SdsFormula, SdsIngredient
from services.core.context import Ctx
from services.core.demo import demo_id, demo_seeder
from services.sds import pdf
from services.sds.documents import _keep, _sheet
from services.sds.formulas import _write_lines
from services.sds.schemas import LineIn

INGREDIENTS: list[tuple[str, str, str | None, str | None, list[str], list[tuple[str, str]]]] = [
    # key, name, INCI, CAS, hazards, declared allergens (CAS or name, percent)
    ("aqua", "Water", "Aqua", "7732-18-5", [], []),
    ("ethanol", "Ethanol", "Alcohol", "64-17-5", ["H225", "H319"], []),
    ("glycerin", "Glycerin", "Glycerin", "56-81-5", [], []),
    ("linalool", "Linalool", "Linalool", "78-70-6", ["H315", "H317", "H319"], []),
    (
        "lavender",
        "Lavender oil",
        "Lavandula Angustifolia Oil",
        "8000-28-0",
        ["H304", "H315", "H317"],
        [("78-70-6", "30"), ("5989-27-5", "1"), ("106-24-1", "0.5"), ("91-64-5", "0.1")],
    ),
    ("muguet", "Muguet base (old stock)", None, None, ["H317"], [("31906-04-4", "2"), ("107-75-5", "5")]),
    ("peanut", "Peanut oil", "Arachis Hypogaea Oil", "8002-03-7", [], [("Peanuts", "100")]),
    ("sugar", "Sugar", "Sucrose", "57-50-1", [], []),
]
FORMULAS: list[tuple[str, str, str, str, list[tuple[str, str]]]] = [
    # code, name, product type, status, lines ("ing:<key>" | "formula:<code>", percent)
    ("FB-LAV", "Lavender fragrance base", "leave_on", "production", [("ing:lavender", "50"), ("ing:ethanol", "50")]),
    (
        "CR-DAY",
        "Lavender day cream",
        "leave_on",
        "development",
        [("ing:aqua", "94.5"), ("ing:glycerin", "4"), ("formula:FB-LAV", "1"), ("ing:linalool", "0.5")],
    ),
    ("SH-LAV", "Lavender shampoo", "rinse_off", "draft", [("ing:aqua", "97"), ("formula:FB-LAV", "3")]),
    ("NB-01", "Peanut snack bar", "food", "evaluation", [("ing:sugar", "90"), ("ing:peanut", "10")]),
    ("OLD-MUG", "Muguet body lotion (2015)", "leave_on", "reformulation", [("ing:aqua", "99"), ("ing:muguet", "1")]),
]


PROPERTIES = {"FB-LAV": {"physical_state": "liquid", "flash_point_c": "22", "boiling_point_c": "78"}}
SUPPLIER = {
    "name": None,
    "address": "Musterstraße 12, 10115 Berlin, Germany",
    "phone": "+49 30 555 0100",
    "email": "sds@demo.test",
    "emergency_phone": "+49 30 19240",
    "emergency_hours": "24 h (Giftnotruf Berlin)",
}


@demo_seeder
def seed_sds(ctx: Ctx) -> None:
    if ctx.tenant is None or ctx.tenant.slug != "demo":
        return
    slug = ctx.tenant.slug
    now = ctx.now()
    with ctx.write() as s:
        if s.get(SdsFormula, demo_id("sds-formula", slug, "FB-LAV")) is not None:
            return
        tenant = s.get(Tenant, ctx.tenant.id)
        if tenant is not None and not (tenant.settings or {}).get("sds"):
            tenant.settings = {**(tenant.settings or {}), "sds": {"supplier": SUPPLIER}}
        ids: dict[str, str] = {}
        for key, name, inci, cas, hazards, allergens in INGREDIENTS:
            ids[key] = demo_id("sds-ingredient", slug, key)
            s.add(
                SdsIngredient(
                    id=ids[key],
                    name=name,
                    inci=inci,
                    cas=cas,
                    hazards=hazards,
                    allergens=[{"allergen": a, "percent": p} for a, p in allergens],
                    created_at=now,
                    updated_at=now,
                )
            )
        s.flush()
        made: dict[str, SdsFormula] = {}
        for code, name, ptype, status, lines in FORMULAS:
            f = SdsFormula(
                id=demo_id("sds-formula", slug, code),
                code=code,
                name=name,
                product_type=ptype,
                # The fragrance base is half ethanol: its measured flash point makes it Flam. Liq. 2.
                properties=PROPERTIES.get(code, {}),
                status=status,
                revision=1,
                created_at=now,
                updated_at=now,
            )
            s.add(f)
            s.flush()
            body = [
                LineIn(
                    ingredient_id=ids[ref[4:]] if ref.startswith("ing:") else None,
                    formula_id=made[ref[8:]].id if ref.startswith("formula:") else None,
                    percent=Decimal(p),
                )
                for ref, p in lines
            ]
            _write_lines(ctx, s, f, body)
            s.flush()
            made[code] = f
        cream = made["CR-DAY"]
        sheet, kept = _sheet(s, ctx, cream, 1)
        content, pages = pdf.render_sds(sheet)
        _keep(ctx, s, cream, "sds", content, pages, {"sections": 16, "classification": kept})

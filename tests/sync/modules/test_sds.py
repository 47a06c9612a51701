"""SDS syncs: an ingredient, a formula edited, moved and imported offline; a formula moved twice."""

from __future__ import annotations

from typing import Any

from services.core.files import Upload
from tests.sync.modules.kit import Move, Platform, applied_once, conflict, offline, row, sync_a_then_b

CSV = "formula_code,formula_name,product_type,ingredient,percent\r\nSYNC-IMP,Imported,leave_on,aqua,100\r\n"


def _formula(s: Any, code: str, ingredient: str) -> Any:
    body = {"code": code, "name": code, "product_type": "leave_on",
            "lines": [{"ingredient_id": ingredient, "percent": "100"}]}  # fmt: skip
    return s.do("sds.formulas.create", body=body)


def test_sds(platform: Platform, pair: Any) -> None:
    a, b = pair
    with offline(a):
        ing = a.do("sds.ingredients.create", body={"name": "Sync water", "allergens": []})
        f = _formula(a, "SYNC-F1", ing.id)
        a.do("sds.formulas.update", id=f.id, body={"name": "Sync formula"})
        a.do("sds.formulas.status", id=f.id, body={"action": "start"})
        a.do("sds.formulas.import", upload=Upload("f.csv", "text/csv", CSV.encode()))
    applied_once(
        platform,
        a,
        b,
        [
            row("sds_ingredients", ing.id, name="Sync water"),
            row("sds_formulas", f.id, name="Sync formula", status="development"),
        ],
        also=("sds_formulas", "sds_formula_lines"),
    )  # fmt: skip (revisions stay on the side that made them)
    f2 = _formula(a, "SYNC-F2", ing.id)
    sync_a_then_b(a, b)
    conflict(
        platform, a, b,
        theirs=Move("sds.formulas.status", {"id": f2.id}, {"action": "fail"}),
        mine=Move("sds.formulas.status", {"id": f2.id}, {"action": "start"}),
        state=row("sds_formulas", f2.id, status="failed"),
        current="failed",
        behind=lambda s: row("sds_formulas", _formula(s, "SYNC-F3", ing.id).id),
    )  # fmt: skip

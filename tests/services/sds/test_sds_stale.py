"""An issued SDS and certificate go stale when anything they were made from changes, a sub-formula
three levels down included (the bergamot at 5 % that became 8 %); a document made after the
change is current again."""

from __future__ import annotations

from decimal import Decimal

from services.core.commands import execute
from services.core.context import Runtime
from tests.services.sds.test_sds_service import LINALOOL, ctx_for, formula, ing, pdf_text


def test_documents_go_stale_when_a_sub_formula_three_levels_down_changes(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    base = ing(ctx, "Base", cas="7732-18-5")
    bergamot = ing(ctx, "Bergamot oil", allergens=[{"allergen": LINALOOL, "percent": 30}])
    level3 = formula(ctx, "ACC-3", [("i", bergamot, "5"), ("i", base, "95")])
    level2 = formula(ctx, "ACC-2", [("f", level3, "50"), ("i", base, "50")])
    level1 = formula(ctx, "ACC-1", [("f", level2, "50"), ("i", base, "50")])
    top = formula(ctx, "PRODUCT", [("f", level1, "80"), ("i", base, "20")])
    sds = execute(ctx, "sds.formulas.sds", id=top)
    cert = execute(ctx, "sds.formulas.certificate", id=top)
    assert not sds.stale and not cert.stale
    assert not execute(ctx, "sds.formulas.sds_get", id=top, query={}).stale
    # An unrelated formula's change leaves them current.
    formula(ctx, "OTHER", [("i", bergamot, "1"), ("i", base, "99")])
    assert not execute(ctx, "sds.formulas.sds_get", id=top, query={}).stale

    # Three levels down, the bergamot goes from 5 % to 8 %: the top formula's revision is the same.
    revision = execute(ctx, "sds.formulas.get", id=top).revision
    execute(
        ctx,
        "sds.formulas.update",
        id=level3,
        body={"lines": [{"ingredient_id": bergamot, "percent": "8"}, {"ingredient_id": base, "percent": "92"}]},
    )
    assert execute(ctx, "sds.formulas.get", id=top).revision == revision
    assert execute(ctx, "sds.formulas.sds_get", id=top, query={}).stale
    assert execute(ctx, "sds.formulas.certificate_get", id=top, query={}).stale
    # The middle formulas' own documents are stale too (they hold the changed one).
    execute(ctx, "sds.formulas.sds", id=level1)
    assert not execute(ctx, "sds.formulas.sds_get", id=level1, query={}).stale

    # Made again: current, and the sheet tells the product's linalool from 8 % bergamot
    # (80 % x 50 % x 50 % x 8 % x 30 % = 0.48 %).
    again = execute(ctx, "sds.formulas.sds", id=top)
    assert not again.stale and again.version == sds.version + 1
    text = pdf_text(execute(ctx, "sds.formulas.sds_get", id=top, query={"format": "pdf"}).content)
    assert LINALOOL in text and "0.48" in text
    allergens = execute(ctx, "sds.formulas.detect_allergens", id=top)
    linalool = next(r for r in allergens.results if r.cas == LINALOOL)
    assert Decimal(str(linalool.percent)) == Decimal("0.48")

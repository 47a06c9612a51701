"""SDS benchmark (not part of `make test`'s pass/fail):

    .venv/bin/python tests/bench/bench_sds.py                 # full size
    BENCH_TINY=1 .venv/bin/python tests/bench/bench_sds.py    # smoke run, a few seconds

1. Allergen correctness: the hand-computed nested cases (three levels of sub-formulas, at the
   0.001 % leave-on and 0.01 % rinse-off thresholds) and a generated 50-ingredient formula whose
   allergens are recomputed independently (exact decimals, by walking the tree here): agreement
   must be 100 %. Time of `POST formulas/{id}/detect-allergens` on the 50-ingredient formula.
2. Time to generate the 16-section SDS PDF (`POST formulas/{id}/sds`, PDF included), pages and size.
3. CLP classification: a 40-ingredient formula three levels deep, every ingredient with hazard
   data (acute toxicity, corrosion, sensitisers, aquatic with M-factors, flammable), classified by
   `GET formulas/{id}/classification` and, the same mixture flattened independently here, by the
   pure method: the two must agree. Time of the classification, and of classification + SDS PDF
   (target under 1 s).
Exits non-zero when a result differs.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import fmt, timed  # noqa: E402

from app.settings import Settings  # noqa: E402
from app.wiring import platform_runtime  # noqa: E402
from services.core import auth  # noqa: E402
from services.core.commands import execute  # noqa: E402
from services.core.context import Ctx, Runtime  # noqa: E402
from services.core.demo import demo_id, seed_demo  # noqa: E402
from services.sds.chem import allergens  # noqa: E402

TINY = os.environ.get("BENCH_TINY") == "1"
RUNS = 3 if TINY else 30
LIN, LIM = "78-70-6", "5989-27-5"


def ctx_for(rt: Runtime) -> Ctx:
    tenant = auth.load_tenant(rt.db, "demo")
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", "owner@demo.test"), tenant))


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


def hand_cases(ctx: Ctx) -> tuple[int, int]:
    """The tests' vectors: (expected percent, declarable) per case, computed by hand."""
    lav = ing(ctx, "B lavender", allergens=[{"allergen": LIN, "percent": 30}, {"allergen": LIM, "percent": 1}])
    base = ing(ctx, "B base")
    lin = ing(ctx, "B linalool", cas=LIN)
    b = formula(ctx, "B-BASE", [("i", lav, "10"), ("i", base, "90")])
    m = formula(ctx, "B-MID", [("f", b, "5"), ("i", base, "95")])
    cases = [
        # formula, allergen, expected %, declarable
        (formula(ctx, "B-TOP", [("f", m, "2"), ("i", base, "97.99"), ("i", lin, "0.01")]), LIN, "0.013", True),
        ("B-TOP", LIM, "0.0001", False),
        (
            formula(ctx, "B-R", [("f", m, "2"), ("i", base, "97.99"), ("i", lin, "0.01")], "rinse_off"),
            LIN,
            "0.013",
            True,
        ),
        (
            formula(ctx, "B-RL", [("f", m, "2"), ("i", base, "97.995"), ("i", lin, "0.005")], "rinse_off"),
            LIN,
            "0.008",
            False,
        ),
        (formula(ctx, "B-LL", [("f", m, "2"), ("i", base, "97.995"), ("i", lin, "0.005")]), LIN, "0.008", True),
        (formula(ctx, "B-EDGE", [("i", lin, "0.001"), ("i", base, "99.999")]), LIN, "0.001", False),
        (b, LIN, "3", True),
        (m, LIM, "0.005", True),
    ]
    agree = 0
    for fid, key, pct, declarable in cases:
        got = {r.allergen: r for r in execute(ctx, "sds.formulas.detect_allergens", id=fid).results}[key]
        agree += Decimal(str(got.percent)) == Decimal(pct) and got.declarable == declarable
    return agree, len(cases)


def generated(ctx: Ctx) -> tuple[str, dict[str, Decimal]]:
    """A 50-ingredient formula in three levels, and its allergens recomputed here."""
    rng = random.Random(1400)
    frag = [a.cas for a in allergens().values() if a.kind == "fragrance" and not a.banned]
    decl: dict[str, dict[str, Decimal]] = {}
    ids = []
    for i in range(50):
        d = {c: Decimal(rng.randint(1, 400)) / 100 for c in rng.sample(frag, 3)} if i % 3 else {}
        iid = ing(ctx, f"G{i}", allergens=[{"allergen": c, "percent": str(p)} for c, p in d.items()])
        decl[iid] = d
        ids.append(iid)

    def parts(n: int) -> list[Decimal]:
        raw = [Decimal(rng.randint(1, 1000)) for _ in range(n)]
        total = sum(raw)
        out = [(r * 100 / total).quantize(Decimal("0.0001")) for r in raw]
        out[-1] += Decimal(100) - sum(out)
        return out

    want: dict[str, Decimal] = {}

    def add(iid: str, share: Decimal) -> None:
        for c, p in decl[iid].items():
            want[c] = want.get(c, Decimal(0)) + share * p / 100

    inner_ids, mid_ids, top_ids = ids[:20], ids[20:35], ids[35:]
    inner_p = parts(20)
    inner = formula(ctx, "G-IN", [("i", x, str(p)) for x, p in zip(inner_ids, inner_p, strict=True)])
    mid_p = parts(16)
    mid = formula(
        ctx,
        "G-MID",
        [("f", inner, str(mid_p[0]))] + [("i", x, str(p)) for x, p in zip(mid_ids, mid_p[1:], strict=True)],
    )
    top_p = parts(16)
    top = formula(
        ctx, "G-TOP", [("f", mid, str(top_p[0]))] + [("i", x, str(p)) for x, p in zip(top_ids, top_p[1:], strict=True)]
    )
    for x, p in zip(top_ids, top_p[1:], strict=True):
        add(x, p)
    for x, p in zip(mid_ids, mid_p[1:], strict=True):
        add(x, top_p[0] * p / 100)
    for x, p in zip(inner_ids, inner_p, strict=True):
        add(x, top_p[0] * mid_p[0] / 100 * p / 100)
    return top, want


HAZARD_POOL: list[dict[str, Any]] = [
    {"hazards": ["H225", "H319"]},
    {"hazards": ["H301"], "ate": {"oral": 150}},
    {"hazards": ["H302", "H312"]},
    {"hazards": ["H314"], "categories": {"H314": "1B"}},
    {"hazards": ["H315", "H317"]},
    {"hazards": ["H317"], "categories": {"H317": "1A"}, "specific_limits": {"H317": "0.05"}},
    {"hazards": ["H400", "H410"], "m_acute": 10, "m_chronic": 10},
    {"hazards": ["H411"]},
    {"hazards": ["H318"]},
    {"hazards": ["H334"]},
    {"hazards": []},
]


def classified(ctx: Ctx) -> tuple[str, list[tuple[str, Decimal, dict[str, Any]]]]:
    """A 40-ingredient formula in three levels (16 + 12 + 12), every ingredient with hazard data;
    and its substances with their shares of the product, computed here."""
    rng = random.Random(3600)
    data = [dict(HAZARD_POOL[i % len(HAZARD_POOL)]) for i in range(40)]
    ids = [str(execute(ctx, "sds.ingredients.create", body={"name": f"C{i}", **d}).id) for i, d in enumerate(data)]

    def parts(n: int) -> list[Decimal]:
        raw = [Decimal(rng.randint(1, 1000)) for _ in range(n)]
        total = sum(raw)
        out = [(r * 100 / total).quantize(Decimal("0.0001")) for r in raw]
        out[-1] += Decimal(100) - sum(out)
        return out

    p3, p2, p1 = parts(16), parts(13), parts(13)
    lvl3 = formula(ctx, "C-3", [("i", x, str(p)) for x, p in zip(ids[:16], p3, strict=True)])
    lvl2 = formula(
        ctx, "C-2", [("f", lvl3, str(p2[0]))] + [("i", x, str(p)) for x, p in zip(ids[16:28], p2[1:], strict=True)]
    )
    top = formula(
        ctx, "C-1", [("f", lvl2, str(p1[0]))] + [("i", x, str(p)) for x, p in zip(ids[28:], p1[1:], strict=True)]
    )
    execute(ctx, "sds.formulas.update", id=top, body={"properties": {"flash_point_c": "18", "boiling_point_c": "78"}})
    shares: list[tuple[str, Decimal, dict[str, Any]]] = []
    for i, p in enumerate(p3):
        shares.append((f"C{i}", p1[0] * p2[0] * p / 10000, data[i]))
    for i, p in enumerate(p2[1:], 16):
        shares.append((f"C{i}", p1[0] * p / 100, data[i]))
    for i, p in enumerate(p1[1:], 28):
        shares.append((f"C{i}", p, data[i]))
    return top, shares


def independent(shares: list[tuple[str, Decimal, dict[str, Any]]]) -> set[tuple[str, str, str]]:
    from services.sds.classification import component_of, ghs_of
    from services.sds.classify import Mixture, classify
    from services.sds.labels import known_codes
    from services.sds.schemas import ComponentIn

    comps = []
    for name, pct, d in shares:
        body = ComponentIn.model_validate({"name": name, **d})  # the exact share goes in below
        comps.append(component_of(name, pct, ghs_of(body), list(body.hazards)))
    r = classify(Mixture(tuple(comps), flash_point_c=Decimal(18), boiling_point_c=Decimal(78)), known_codes())
    return {(h.hazard_class, h.category, h.h) for h in r.hazards}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        rt = platform_runtime(Settings(data_dir=Path(tmp), secret_key="bench-secret"))
        seed_demo(rt)
        ctx = ctx_for(rt)
        print(f"== SDS benchmark ({'tiny' if TINY else 'full'} size)")
        agree, total = hand_cases(ctx)
        top, want = generated(ctx)
        got = {r.allergen: r for r in execute(ctx, "sds.formulas.detect_allergens", id=top).results}
        gen_agree = sum(
            1
            for c, p in want.items()
            if c in got
            and abs(Decimal(str(got[c].percent)) - p) <= Decimal("1e-12")
            and got[c].declarable == (p > Decimal("0.001"))
        )
        print(
            f"1. allergens: hand-computed cases {agree}/{total} equal; 50-ingredient formula {gen_agree}/{len(want)} allergens equal"
        )
        print(
            f"   detect-allergens, 50 ingredients in 3 levels: {fmt(timed(lambda: execute(ctx, 'sds.formulas.detect_allergens', id=top), RUNS, 1))}"
        )
        docs: list[Any] = []
        times = timed(lambda: docs.append(execute(ctx, "sds.formulas.sds", id=top)), RUNS, 1)
        print(
            f"2. SDS PDF (16 sections, 50 ingredients): {fmt(times)}; {docs[-1].pages} pages, {docs[-1].size / 1024:.0f} KiB"
        )
        cream = demo_id("sds-formula", "demo", "CR-DAY")
        print(
            f"   SDS PDF of the demo cream:              {fmt(timed(lambda: execute(ctx, 'sds.formulas.sds', id=cream), RUNS, 1))}"
        )
        ctop, shares = classified(ctx)
        api = execute(ctx, "sds.formulas.classification", id=ctop)
        got_classes = {(h.hazard_class, h.category, h.h) for h in api.hazards}
        same = got_classes == independent(shares)
        print(
            f"3. CLP classification, 40 ingredients in 3 levels: {len(got_classes)} hazard classes, "
            f"{len(api.pictograms)} pictograms, {api.signal_word.en if api.signal_word else 'no signal word'}; "
            f"equal to the independent flattening: {'yes' if same else 'NO'}"
        )
        print(
            f"   classification:            {fmt(timed(lambda: execute(ctx, 'sds.formulas.classification', id=ctop), RUNS, 1))}"
        )

        def both() -> None:
            execute(ctx, "sds.formulas.classification", id=ctop)
            execute(ctx, "sds.formulas.sds", id=ctop)

        both_times = timed(both, RUNS, 1)
        print(f"   classification + SDS PDF:  {fmt(both_times)}  (target: under 1 s)")
        rt.db.dispose()
        if agree != total or gen_agree != len(want):
            print("FAILED: an allergen result differs")
            sys.exit(1)
        if not same:
            print("FAILED: the classification differs from the independent one")
            sys.exit(1)


if __name__ == "__main__":
    main()

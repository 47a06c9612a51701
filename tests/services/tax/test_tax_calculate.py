"""Tax calculation held to the cent against worked examples from the bundled sample of the states'
published rates (CA, NY, TX), with each state's taxability and an exemption certificate; rate
tables imported with effective dates (a gap or an overlap refused, nothing stored), and the bad
inputs of the calculation refused with a clear error."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import func, select

from local_db.models.tax import TaxRate, TaxRateTable
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.errors import Conflict, Forbidden, ValidationFailed
from services.core.files import Upload
from tests.services.tax.test_tax_service import ctx_for

DAY = "2025-06-02"
FROM = {"street": "1 Warehouse Way", "city": "Reno", "state": "NV", "zip": "89501", "country": "US"}
PLACES = {
    "90001": ("Los Angeles", "CA"),
    "10001": ("New York", "NY"),
    "12207": ("Albany", "NY"),
    "77002": ("Houston", "TX"),
}
HEADER = (
    "State,ZipCode,TaxRegionName,EstimatedCombinedRate,StateRate,EstimatedCountyRate,EstimatedCityRate,"
    "EstimatedSpecialRate,RiskLevel\n"
)


def cart(zip_code: str, lines: list[tuple[str, int, str]], shipping: str = "0", **extra: Any) -> dict[str, Any]:
    city, state = PLACES[zip_code]
    return {
        "ship_from": FROM,
        "ship_to": {"street": "100 Main St", "city": city, "state": state, "zip": zip_code, "country": "US"},
        "lines": [{"amount": a, "quantity": q, "product_tax_code": c} for a, q, c in lines],
        "shipping": shipping,
        "date": DAY,
        **extra,
    }


# (cart, tax per line, shipping tax, total): worked by hand from the sample's rates, each
# jurisdiction's tax rounded half up to the cent.
WORKED = [
    # Los Angeles 9.75 % (state 6, county 0.25, district 3.5); CA shipping by carrier is exempt.
    (cart("90001", [("100.00", 1, "general")], "10.00"), ["9.75"], "0.00", "9.75"),
    # 19.99: 1.1994 -> 1.20, 0.049975 -> 0.05, 0.69965 -> 0.70; clothing taxed; food and digital not.
    (
        cart(
            "90001", [("19.99", 1, "general"), ("50.00", 1, "food"), ("9.99", 1, "digital"), ("45.50", 2, "clothing")]
        ),
        ["1.95", "0.00", "0.00", "4.43"],
        "0.00",
        "6.38",
    ),
    # New York City 8.875 %: clothing under $110 an item is exempt everywhere in the city, 120 an
    # item is taxed; 100 general: 4.00 + 4.50 + 0.375 -> 0.38. Shipping follows the taxable share
    # (340 of 430): 15.81 taxed, 0.63 + 0.71 + 0.06.
    (
        cart("10001", [("90.00", 2, "clothing"), ("240.00", 2, "clothing"), ("100.00", 1, "general")], "20.00"),
        ["0.00", "21.30", "8.88"],
        "1.40",
        "31.58",
    ),
    # Albany 8 %: clothing under $110 is exempt from the state's 4 %, the county's 4 % applies.
    (cart("12207", [("50.00", 1, "clothing")]), ["2.00"], "0.00", "2.00"),
    # Houston 8.25 %: 250 -> 15.625 -> 15.63 + 2.50 + 2.50; digital products taxed; food exempt;
    # shipping follows 265 of 295: 10.78 taxed, 0.67375 -> 0.67, 0.11, 0.11.
    (
        cart("77002", [("250.00", 1, "general"), ("30.00", 1, "food"), ("15.00", 1, "digital")], "12.00"),
        ["20.63", "0.00", "1.24"],
        "0.89",
        "22.76",
    ),
]


@pytest.mark.parametrize("body,line_tax,ship_tax,total", WORKED)
def test_worked_examples_to_the_cent(
    runtime: Runtime, body: dict[str, Any], line_tax: list[str], ship_tax: str, total: str
) -> None:
    got = execute(ctx_for(runtime), "tax.calculate", body=body)
    assert [ln.tax for ln in got.lines] == line_tax
    assert got.shipping.tax == ship_tax and got.total_tax == total
    for ln in [*got.lines, got.shipping]:  # every line's tax is its jurisdictions' to the cent
        assert Decimal(ln.tax) == sum(Decimal(j.tax) for j in ln.jurisdictions)
        assert {j.kind for j in ln.jurisdictions} >= {"state"} and all(j.rule for j in ln.jurisdictions)


def test_answer_shape_and_exemption_certificate(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    got = execute(ctx, "tax.calculate", body=cart("90001", [("100.00", 1, "general")]))
    assert got.combined_rate == "0.097500" and got.region == "LOS ANGELES COUNTY" and got.exemption is None
    js = {j.kind: j for j in got.lines[0].jurisdictions}
    assert js["state"].name == "California" and js["state"].rate == "0.060000" and js["state"].tax == "6.00"
    assert js["special"].tax == "3.50" and "city" not in js  # a zero rate is no jurisdiction of the ZIP
    # The demo's CA resale certificate (100 %, signed 300 days ago) for customer CUST-ACTIVE, today
    # (no date: today's rates): nothing taxed, the rule said.
    today = {"customer_id": "CUST-ACTIVE", "date": None}
    exempt = execute(ctx, "tax.calculate", body=cart("90001", [("100.00", 1, "general")], **today))
    assert exempt.total_tax == "0.00" and exempt.exemption == "SR-CA-104233"
    assert all("SR-CA-104233" in j.rule for j in exempt.lines[0].jurisdictions)
    # Its certificate is for CA: in New York the same customer pays; the expired TX one never applies.
    ny = execute(ctx, "tax.calculate", body=cart("12207", [("10.00", 1, "general")], **today))
    assert ny.total_tax == "0.80" and ny.exemption is None
    tx = execute(
        ctx, "tax.calculate", body=cart("77002", [("10.00", 1, "general")], customer_id="CUST-EXPIRED", date=None)
    )
    assert tx.exemption is None and tx.total_tax == "0.83"


def _bad(ctx: Ctx, body: dict[str, Any]) -> str:
    with pytest.raises(ValidationFailed) as e:
        execute(ctx, "tax.calculate", body=body)
    return f"{e.value} {e.value.details}"


def test_bad_carts_are_refused(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    ok = cart("90001", [("10.00", 1, "general")])
    assert "ZZ" in _bad(ctx, {**ok, "ship_to": {**ok["ship_to"], "state": "ZZ"}})
    assert "ZIP" in _bad(ctx, {**ok, "ship_to": {**ok["ship_to"], "zip": "9000"}})
    assert "US" in _bad(ctx, {**ok, "ship_to": {**ok["ship_to"], "country": "CA"}})
    assert "not in CA" in _bad(ctx, {**ok, "ship_to": {**ok["ship_to"], "zip": "10001"}})  # NY's ZIP in CA
    assert "no state sales tax" in _bad(ctx, {**ok, "ship_to": {**ok["ship_to"], "state": "OR", "zip": "97201"}})
    _bad(ctx, {**ok, "lines": []})
    _bad(ctx, {**ok, "lines": [{"amount": "-1.00", "quantity": 1, "product_tax_code": "general"}]})
    _bad(ctx, {**ok, "lines": [{"amount": "1.001", "quantity": 1, "product_tax_code": "general"}]})
    _bad(ctx, {**ok, "lines": [{"amount": "1.00", "quantity": 0, "product_tax_code": "general"}]})
    _bad(ctx, {**ok, "lines": [{"amount": "1.00", "quantity": 1, "product_tax_code": "guns"}]})
    _bad(ctx, {**ok, "surprise": 1})
    with pytest.raises(Conflict) as none:  # no table for Florida imported
        execute(ctx, "tax.calculate", body={**ok, "ship_to": {**ok["ship_to"], "state": "FL", "zip": "33101"}})
    assert none.value.details["current_state"] == "no_rate_table"
    with pytest.raises(Conflict):  # before the sample is in force
        execute(ctx, "tax.calculate", body={**ok, "date": "2025-03-31"})


def _import(ctx: Ctx, text: str, start: str, end: str | None = None, name: str = "rates.csv") -> Any:
    query = {"effective_from": start, **({"effective_to": end} if end else {})}
    upload = Upload(filename=name, content_type="text/csv", content=text.encode())
    return execute(ctx, "tax.rate_tables.import", query=query, upload=upload)


def _count(runtime: Runtime, ctx: Ctx) -> tuple[int, int]:
    with runtime.db.reading(ctx.tenant_id) as s:
        return (
            int(s.execute(select(func.count()).select_from(TaxRateTable)).scalar_one()),
            int(s.execute(select(func.count()).select_from(TaxRate)).scalar_one()),
        )


def test_rate_tables_follow_each_other_without_gap_or_overlap(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    la = "CA,90001,LOS ANGELES COUNTY,0.102500,0.060000,0.002500,0.000000,0.040000,1\n"
    # In force from 2026: the sample's open-ended CA table now ends the day before.
    t2 = _import(ctx, HEADER + la, "2026-01-01", "2026-06-30")
    assert t2.state == "CA" and t2.rows == 1 and t2.effective_to.isoformat() == "2026-06-30"
    tables = execute(ctx, "tax.rate_tables.list", query={"state": "CA", "sort": "effective_from"}).items
    assert [(t.effective_from.isoformat(), str(t.effective_to)) for t in tables] == [
        ("2025-04-01", "2025-12-31"),
        ("2026-01-01", "2026-06-30"),
    ]
    before = _count(runtime, ctx)
    for start, end, reason in [
        ("2026-08-01", None, "gap"),  # July 2026 would have no rates
        ("2026-03-01", None, "overlap"),
        ("2025-04-01", None, "overlap"),
        ("2024-01-01", "2024-06-30", "gap"),  # history that does not reach the first table
        ("2025-01-01", "2025-05-01", "overlap"),
    ]:
        with pytest.raises(ValidationFailed) as e:
            _import(ctx, HEADER + la, start, end)
        assert e.value.details["reason"] == reason, (start, end)
    assert _count(runtime, ctx) == before  # nothing stored
    _import(ctx, HEADER + la, "2026-07-01")  # follows on the day: taken
    _import(ctx, HEADER + la, "2025-01-01", "2025-03-31")  # history up to the first table: taken
    # Each day reads its own table: 2026-02 the new rate (10.25 %), 2025-06 the sample's (9.75 %).
    body = cart("90001", [("100.00", 1, "general")])
    assert execute(ctx, "tax.calculate", body={**body, "date": "2026-02-01"}).total_tax == "10.25"
    assert execute(ctx, "tax.calculate", body=body).total_tax == "9.75"
    assert execute(ctx, "tax.calculate", body={**body, "date": "2025-02-01"}).total_tax == "10.25"


def test_a_bad_rate_file_is_refused_with_its_rows(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    before = _count(runtime, ctx)
    cases = [
        (HEADER.replace("RiskLevel", "Colour"), "Colour", "unknown column"),
        ("State,ZipCode\n", "TaxRegionName", "missing column"),
        (HEADER + "CA,90001,X,0.097500,0.060000,0.002500,0.000000,0.030000,1\n", "EstimatedCombinedRate", "sum"),
        (HEADER + "CA,9001A,X,0.06,0.06,0,0,0,1\n", "ZipCode", "five digits"),
        (HEADER + "CA,90001,X,1.06,1.06,0,0,0,1\n", "StateRate", "below 1"),
        (HEADER + "CA,90001,X,0.0600001,0.0600001,0,0,0,1\n", "StateRate", "six decimals"),
        (HEADER + "ZZ,90001,X,0.06,0.06,0,0,0,1\n", "State", "not a US state"),
        (HEADER + "CA,90001,X,0.06,0.06,0,0,0,1\nCA,90001,X,0.06,0.06,0,0,0,1\n", "ZipCode", "also on row 2"),
    ]
    for text, column, words in cases:
        with pytest.raises(ValidationFailed) as e:
            _import(ctx, text, "2027-01-01")
        errors = e.value.details["errors"]
        assert any(x["column"] == column and words in x["message"] for x in errors), (text, errors)
    with pytest.raises(ValidationFailed):  # two states in one file
        _import(ctx, HEADER + "CA,90001,X,0.06,0.06,0,0,0,1\nNY,10001,X,0.04,0.04,0,0,0,1\n", "2027-01-01")
    with pytest.raises(ValidationFailed):  # the end before the start
        _import(ctx, HEADER + "TX,77002,X,0.0625,0.0625,0,0,0,1\n", "2027-01-01", "2026-01-01")
    assert _count(runtime, ctx) == before
    with pytest.raises(Forbidden):  # an operator reads tables but does not import them
        _import(ctx_for(runtime, "operator@demo.test"), HEADER + "TX,77002,X,0.0625,0.0625,0,0,0,1\n", "2027-01-01")

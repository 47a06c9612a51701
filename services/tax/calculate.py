"""Tax: the calculation of a cart's tax (``POST /calculate``), per line and per jurisdiction.

Rates: the tenant's ZIP-code table of the ship-to state in force on the day (services/tax/rates.py);
destination sourcing (the rule for a remote seller). Taxability: per state and product tax code
(services/tax/data/taxability.json, with its sources). An active exemption certificate of the
customer in the ship-to state takes its percentage off the taxable amount. Each jurisdiction's tax
of a line is rounded half up to the cent; a line's tax is the sum of its jurisdictions', the total
the sum of the lines' and the shipping's (docs/tax.md "Calculation").
"""

from __future__ import annotations

import json
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from local_db.models.tax import TaxCertificate, TaxRate, TaxRateTable
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, ValidationFailed
from services.core.roles import STAFF
from services.tax.lookups import nexus_table
from services.tax.schemas import CalcLineIn, CalcLineOut, CalculateIn, CalculateOut, JurisdictionOut

CENT = Decimal("0.01")
MILLION = Decimal(1_000_000)
KINDS = ("state", "county", "city", "special")


@cache
def taxability() -> dict[str, Any]:
    return dict(json.loads((Path(__file__).parent / "data" / "taxability.json").read_text()))


@cache
def _state_names() -> dict[str, tuple[str, bool]]:
    return {r["state"]: (r["name"], bool(r["sales_tax"])) for r in nexus_table()["states"]}


def _cents(d: Decimal) -> Decimal:
    return d.quantize(CENT, rounding=ROUND_HALF_UP)


def _rate_text(micro: int) -> str:
    return str((Decimal(micro) / MILLION).quantize(Decimal("0.000001")))


def _find_rate(s: Session, state: str, zip_code: str, day: date) -> tuple[TaxRate, TaxRateTable]:
    R, T = TaxRate, TaxRateTable
    found = s.execute(
        select(R, T)
        .join(T, T.id == R.table_id)
        .where(
            R.zip == zip_code,
            T.state == state,
            T.effective_from <= day,
            or_(T.effective_to.is_(None), T.effective_to >= day),
        )
    ).first()
    if found is not None:
        return found[0], found[1]
    in_force = s.execute(
        select(T.id).where(
            T.state == state, T.effective_from <= day, or_(T.effective_to.is_(None), T.effective_to >= day)
        )
    ).first()
    if in_force is None:
        raise Conflict(
            f"no rate table for {state} is in force on {day}: import the state's table first",
            {"current_state": "no_rate_table", "state": state, "date": day.isoformat()},
        )
    raise ValidationFailed(
        f"ZIP {zip_code} is not in {state}'s rate table",
        {"fields": [{"field": "ship_to.zip", "message": f"not a {state} ZIP code in the rate table", "type": "zip"}]},
    )


def _names(state: str, region: str) -> dict[str, str]:
    state_name = _state_names()[state][0]
    place = region.title() if region else state_name
    return {
        "state": state_name,
        "county": f"{place} (county)",
        "city": f"{place} (city)",
        "special": f"{place} (special district)",
    }


def _line_rule(state: str, region: str, code: str, line: CalcLineIn) -> tuple[set[str], str]:
    """The jurisdiction kinds that exempt this line, and the rule quoted."""
    rule = taxability()["states"].get(state, {}).get(code)
    if rule is None:
        return set(), f"{state}: {code} is taxable"
    if rule["taxable"] is False:
        return set(KINDS), rule["rule"]
    limit = rule.get("exempt_below_per_item")
    if limit is not None and line.amount / line.quantity < Decimal(limit):
        # A locality that exempts the item too (New York City) exempts it from every rate.
        kinds = set(KINDS) if region in rule.get("exempt_regions", ()) else set(rule["exempt_kinds"])
        return kinds, rule["rule"]
    return set(), f"{state}: {code} is taxable" + (f" ({line.amount / line.quantity:.2f} an item)" if limit else "")


Rates = list[tuple[str, int, str]]  # (kind, rate in millionths, the rate as published) of the kinds that apply


def _rates(rate: TaxRate) -> Rates:
    """The ZIP row's rates read once per cart (not once per line: the ORM attribute reads and the
    rate texts were a third of a 20-line cart's time)."""
    out: Rates = []
    for kind in KINDS:
        micro = int(getattr(rate, f"{kind}_rate"))
        if micro == 0 and kind != "state":
            continue
        out.append((kind, micro, _rate_text(micro)))
    return out


def _jurisdictions(
    rates: Rates, names: dict[str, str], exempt: set[str], taxable: Decimal, rule: str, taxed: str
) -> tuple[list[JurisdictionOut], Decimal]:
    """The line's jurisdictions and their tax summed (each rounded half up to the cent first)."""
    out = []
    total = Decimal("0.00")
    zero = Decimal(0)
    for kind, micro, text in rates:
        base = zero if kind in exempt else taxable
        tax = _cents(base * micro / MILLION)
        total += tax
        out.append(
            JurisdictionOut(
                name=names[kind],
                kind=kind,  # type: ignore[arg-type]
                rate=text,
                taxable_amount=str(_cents(base)),
                tax=str(tax),
                rule=rule if kind in exempt else taxed,
            )
        )
    return out, total


def _line_out(index: int, amount: Decimal, qty: int, code: str, js: list[JurisdictionOut], tax: Decimal) -> CalcLineOut:
    return CalcLineOut(
        index=index, amount=str(amount), quantity=qty, product_tax_code=code, tax=str(tax), jurisdictions=js
    )


@use_case(
    "tax.calculate",
    "POST /calculate",
    tx="read",
    # Rate tables stay on the platform (tens of thousands of rows, never pulled by a station): a
    # station asks the platform, online, instead of answering "no rate table".
    needs=("the platform's rate tables",),
    roles=STAFF,
    record="tax.rate_table",
    summary="the tax of a cart per line and per jurisdiction, from the rate tables, taxability and certificates",
)
def calculate(ctx: Ctx, body: CalculateIn, session: Session = SESSION) -> CalculateOut:
    day = body.date or ctx.now().date()
    to = body.ship_to
    name, has_tax = _state_names()[to.state]
    if not has_tax:
        raise ValidationFailed(
            f"{name} has no state sales tax: nothing to calculate",
            {"fields": [{"field": "ship_to.state", "message": "a state without sales tax", "type": "no_sales_tax"}]},
        )
    rate, table = _find_rate(session, to.state, to.zip, day)
    names = _names(to.state, rate.region)
    certificate = _certificate(session, body.customer_id, to.state, day)
    factor = Decimal(100 - certificate.exempt_percentage) / 100 if certificate else Decimal(1)
    cert_rule = (
        f"exemption certificate {certificate.exemption_number} ({certificate.reason}, "
        f"{certificate.exempt_percentage} %)"
        if certificate
        else ""
    )
    taxed = cert_rule or "taxable"

    rates = _rates(rate)
    region = rate.region
    lines: list[CalcLineOut] = []
    total = Decimal("0.00")
    goods = Decimal(0)
    taxable_goods = dict.fromkeys(KINDS, Decimal(0))
    for i, line in enumerate(body.lines):
        exempt, rule = _line_rule(to.state, region, line.product_tax_code, line)
        line_js, line_tax = _jurisdictions(rates, names, exempt, line.amount * factor, rule, taxed)
        total += line_tax
        lines.append(_line_out(i, line.amount, line.quantity, line.product_tax_code, line_js, line_tax))
        if line.product_tax_code != "shipping":
            goods += line.amount
            for kind in KINDS:
                if kind not in exempt:
                    taxable_goods[kind] += line.amount

    ship_rule = taxability()["states"].get(to.state, {}).get("shipping")
    js: list[JurisdictionOut] = []
    ship_tax = Decimal("0.00")
    if ship_rule is None or ship_rule["taxable"] is True:
        js, ship_tax = _jurisdictions(rates, names, set(), body.shipping * factor, "", taxed)
    elif ship_rule["taxable"] is False:
        js, ship_tax = _jurisdictions(rates, names, set(KINDS), body.shipping, ship_rule["rule"], ship_rule["rule"])
    else:  # follows the goods: each jurisdiction taxes the share of the goods it taxes
        for kind, micro, text in rates:
            share = taxable_goods[kind] / goods if goods else Decimal(1)
            base = _cents(body.shipping * share * factor)
            tax = _cents(base * micro / MILLION)
            ship_tax += tax
            js.append(
                JurisdictionOut(
                    name=names[kind],
                    kind=kind,  # type: ignore[arg-type]
                    rate=text,
                    taxable_amount=str(base),
                    tax=str(tax),
                    rule=ship_rule["rule"] + (f"; {cert_rule}" if cert_rule else ""),
                )
            )
    shipping = _line_out(len(body.lines), body.shipping, 1, "shipping", js, ship_tax)
    total += ship_tax
    return CalculateOut(
        date=day,
        zip=to.zip,
        state=to.state,
        region=rate.region,
        rate_table_id=table.id,
        combined_rate=_rate_text(sum(micro for _k, micro, _t in rates)),
        exemption=certificate.exemption_number if certificate else None,
        lines=lines,
        shipping=shipping,
        total_tax=str(_cents(total)),
    )


def _certificate(s: Session, customer_id: str | None, state: str, day: date) -> TaxCertificate | None:
    if customer_id is None:
        return None
    C = TaxCertificate
    return (
        s.execute(
            select(C)
            .where(
                C.customer_id == customer_id,
                C.state == state,
                C.status == "active",
                or_(C.expiration_date.is_(None), C.expiration_date >= day),
                or_(C.signed_date.is_(None), C.signed_date <= day),
            )
            .order_by(C.exempt_percentage.desc())
        )
        .scalars()
        .first()
    )

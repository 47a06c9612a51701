"""Tax: ZIP-code rate tables, imported in the published format of the free per-state rate files
(Avalara's "Sales tax rates by ZIP code" CSV, the format the big providers and several states
publish: ``State, ZipCode, TaxRegionName, EstimatedCombinedRate, StateRate, EstimatedCountyRate,
EstimatedCityRate, EstimatedSpecialRate, RiskLevel``), each with the days it is in force.

A state's tables follow each other without a gap or an overlap: a new table that starts after an
open-ended one closes it the day before; any other gap or overlap is refused, nothing stored.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.base import table_of
from local_db.models.tax import TaxRate, TaxRateTable
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed, get_or_404
from services.core.events import emit
from services.core.files import Upload
from services.core.pagination import Page, contains, paginate
from services.core.roles import MANAGERS, STAFF
from services.tax.schemas import US_STATES, RateTableListQuery, RateTableOut, RateTableQuery

record_kind("tax.rate_table", get="tax.rate_tables.get", label="state")

COLUMNS = (
    "State",
    "ZipCode",
    "TaxRegionName",
    "EstimatedCombinedRate",
    "StateRate",
    "EstimatedCountyRate",
    "EstimatedCityRate",
    "EstimatedSpecialRate",
    "RiskLevel",
)
REQUIRED = COLUMNS[:-1]  # RiskLevel is informative: a file without it is read the same
RATE_COLUMNS = ("StateRate", "EstimatedCountyRate", "EstimatedCityRate", "EstimatedSpecialRate")
MAX_ROWS = 100_000  # the largest state file (TX) has under 3,000 ZIP codes; a bigger file is not one
MAX_ERRORS = 50  # a report, not a copy of the file
MILLION = Decimal(1_000_000)
SAMPLE = Path(__file__).parent / "data"


@dataclass(frozen=True)
class ParsedTable:
    state: str
    rows: list[dict[str, Any]]


def _rate(text: str) -> int:
    """A published rate ("0.0725") in millionths; refused when negative, 1 or more, or finer."""
    try:
        d = Decimal(text.strip())
    except InvalidOperation:
        raise ValueError(f"{text!r} is not a decimal rate such as 0.0725") from None
    if not d.is_finite() or d < 0 or d >= 1:
        raise ValueError("a rate is a fraction from 0 to below 1 (0.0725 for 7.25 %)")
    micro = d * MILLION
    if micro != micro.to_integral_value():
        raise ValueError("a rate has at most six decimals")
    return int(micro)


def parse_table(content: bytes) -> ParsedTable:
    """Reads one state's rate file; every error is reported as ``{row, column, message}``."""
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationFailed("the rate table is not UTF-8 text", {"errors": []}) from None
    reader = csv.reader(io.StringIO(text))
    header = [h.strip() for h in next(reader, [])]
    unknown = [h for h in header if h not in COLUMNS]
    missing = [c for c in REQUIRED if c not in header]
    if unknown or missing:
        raise ValidationFailed(
            "the rate table's columns are not the published format's",
            {
                "errors": [{"row": 1, "column": c, "message": "unknown column"} for c in unknown]
                + [{"row": 1, "column": c, "message": "missing column"} for c in missing],
                "columns": list(COLUMNS),
            },
        )
    errors: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    states: set[str] = set()
    seen: dict[str, int] = {}
    for n, raw in enumerate(reader, start=2):
        if not any(x.strip() for x in raw):
            continue
        if len(rows) >= MAX_ROWS:
            raise ValidationFailed(f"a rate table has at most {MAX_ROWS} rows", {"errors": [], "max_rows": MAX_ROWS})
        if len(raw) != len(header):
            errors.append(
                {"row": n, "column": None, "message": f"{len(raw)} fields where the header has {len(header)}"}
            )
            continue
        rec = dict(zip(header, (x.strip() for x in raw), strict=True))
        bad = len(errors)
        st = rec["State"].upper()
        if st not in US_STATES:
            errors.append({"row": n, "column": "State", "message": f"{rec['State']!r} is not a US state code"})
        states.add(st)
        z = rec["ZipCode"].zfill(5) if rec["ZipCode"].isdigit() else rec["ZipCode"]
        if not (len(z) == 5 and z.isdigit()):
            errors.append({"row": n, "column": "ZipCode", "message": "a ZIP code is five digits"})
        elif z in seen:
            errors.append({"row": n, "column": "ZipCode", "message": f"ZIP {z} is also on row {seen[z]}"})
        else:
            seen[z] = n
        rates: dict[str, int] = {}
        for col in (*RATE_COLUMNS, "EstimatedCombinedRate"):
            try:
                rates[col] = _rate(rec[col])
            except ValueError as exc:
                errors.append({"row": n, "column": col, "message": str(exc)})
        if len(rates) == 5 and sum(rates[c] for c in RATE_COLUMNS) != rates["EstimatedCombinedRate"]:
            errors.append(
                {
                    "row": n,
                    "column": "EstimatedCombinedRate",
                    "message": "the combined rate is not the sum of the state, county, city and special rates",
                }
            )
        if len(errors) >= MAX_ERRORS:
            break
        if len(errors) == bad:
            rows.append(
                {
                    "zip": z,
                    "region": rec["TaxRegionName"][:100],
                    "state_rate": rates["StateRate"],
                    "county_rate": rates["EstimatedCountyRate"],
                    "city_rate": rates["EstimatedCityRate"],
                    "special_rate": rates["EstimatedSpecialRate"],
                }
            )
    if len(states) > 1 and not errors:
        errors.append({"row": None, "column": "State", "message": f"one state a file; this one holds {sorted(states)}"})
    if errors:
        raise ValidationFailed(f"the rate table has {len(errors)} error(s); nothing was imported", {"errors": errors})
    if not rows:
        raise ValidationFailed("the rate table has no rows", {"errors": []})
    return ParsedTable(states.pop(), rows)


def _place(s: Session, state: str, start: date, end: date | None) -> TaxRateTable | None:
    """Checks where a table from ``start`` to ``end`` goes among the state's; answers the open-ended
    table it closes, if any. A gap or an overlap is refused (400) naming the neighbouring table."""
    tables = list(
        s.execute(select(TaxRateTable).where(TaxRateTable.state == state).order_by(TaxRateTable.effective_from))
        .scalars()
        .all()
    )
    if not tables:
        return None

    def refuse(reason: str, other: TaxRateTable, message: str) -> ValidationFailed:
        return ValidationFailed(
            message,
            {
                "reason": reason,
                "table_id": other.id,
                "effective_from": other.effective_from.isoformat(),
                "effective_to": other.effective_to.isoformat() if other.effective_to else None,
            },
        )

    first, last = tables[0], tables[-1]
    if start > last.effective_from:
        if last.effective_to is None:
            return last  # the new table takes over: the open one ends the day before
        if start <= last.effective_to:
            raise refuse("overlap", last, f"{state}'s table in force until {last.effective_to} overlaps {start}")
        if start > last.effective_to + timedelta(days=1):
            raise refuse("gap", last, f"{state} would have no rates from {last.effective_to + timedelta(days=1)}")
        return None
    # Before the first table: history filled in, ending the day before the first one starts.
    if end is not None and start < first.effective_from and end < first.effective_from:
        if end + timedelta(days=1) < first.effective_from:
            raise refuse("gap", first, f"{state} would have no rates until {first.effective_from}")
        return None
    raise refuse("overlap", first if start < first.effective_from else last, f"{state} has rates in force on {start}")


def import_table(
    ctx: Ctx, s: Session, content: bytes, filename: str, start: date, end: date | None = None
) -> TaxRateTable:
    parsed = parse_table(content)
    closes = _place(s, parsed.state, start, end)
    if closes is not None:
        closes.effective_to = start - timedelta(days=1)
    t = TaxRateTable(
        id=new_id(),
        state=parsed.state,
        effective_from=start,
        effective_to=end,
        filename=filename[:255],
        rows=len(parsed.rows),
        created_at=ctx.now(),
    )
    s.add(t)
    s.flush()
    # One Core insert for the rows: a state file is thousands of them (ids made here so a replay
    # is the same).
    s.execute(
        insert(table_of(TaxRate)),
        [{"id": new_id(), "tenant_id": ctx.tenant_id, "table_id": t.id, **r} for r in parsed.rows],
    )
    return t


def import_sample(ctx: Ctx, s: Session, start: date) -> list[TaxRateTable]:
    """The bundled sample (CA, NY, TX; services/tax/data/rates_sample_*.csv) for the demo."""
    return [
        import_table(ctx, s, (SAMPLE / f"rates_sample_{st}.csv").read_bytes(), f"rates_sample_{st}.csv", start)
        for st in ("CA", "NY", "TX")
    ]


@use_case(
    "tax.rate_tables.import",
    "POST /rate-tables",
    tx="write",
    roles=MANAGERS,
    upload=True,
    limit="upload",
    status=201,
    # Rate tables stay on the platform (tens of thousands of rows, never pulled by a station): a
    # station asks the platform, online, instead of answering "no rate table".
    needs=("the platform's rate tables",),
    says="Import rate table",
    record="tax.rate_table",
    summary="import one state's ZIP-code rate table (the published CSV format) in force from effective_from",
)
def import_rate_table(ctx: Ctx, query: RateTableQuery, upload: Upload, session: Session = SESSION) -> RateTableOut:
    t = import_table(ctx, session, upload.content, upload.filename, query.effective_from, query.effective_to)
    emit(
        ctx,
        "tax.rate_table_imported",
        {
            "rate_table_id": t.id,
            "state": t.state,
            "effective_from": t.effective_from.isoformat(),
            "effective_to": t.effective_to.isoformat() if t.effective_to else None,
            "rows": t.rows,
        },
    )
    return RateTableOut.model_validate(t)


@use_case(
    "tax.rate_tables.list",
    "GET /rate-tables",
    tx="read",
    roles=STAFF,
    record="tax.rate_table",
    summary="the imported rate tables per state with the days they are in force",
)
def list_rate_tables(ctx: Ctx, query: RateTableListQuery, session: Session = SESSION) -> Page[RateTableOut]:
    stmt = select(TaxRateTable)
    if query.state:
        stmt = stmt.where(TaxRateTable.state == query.state.upper())
    if query.search:  # the records finder asks every list with words: a table is found by its state
        stmt = stmt.where(contains(TaxRateTable.state, query.search))
    page = paginate(
        session,
        stmt,
        query,
        columns={
            "created_at": TaxRateTable.created_at,
            "effective_from": TaxRateTable.effective_from,
            "state": TaxRateTable.state,
        },
    )
    return Page([RateTableOut.model_validate(t) for t in page.items], page.total, page.spec)


@use_case(
    "tax.rate_tables.get",
    "GET /rate-tables/{id}",
    tx="read",
    roles=STAFF,
    record="tax.rate_table",
    summary="one imported rate table",
)
def get_rate_table(ctx: Ctx, id: str, session: Session = SESSION) -> RateTableOut:
    return RateTableOut.model_validate(get_or_404(session, TaxRateTable, id, what="rate table"))

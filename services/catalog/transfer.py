"""Catalog: import and export of products, variants and translations as CSV or XLSX.

One row per product and one per variant (``product_sku`` names its product), the translations in
``name@<tag>`` and ``description@<tag>`` columns, as Shopify's and Akeneo's files do. The export's
columns are the import's: a file exported, edited and imported again changes only what was edited.
The import checks the file at once (type, size, header: an unknown column refuses the whole file)
and runs as a job (``catalog.import``): rows are checked in one pass, then written in chunks with
the progress on the job; a wrong row is skipped with its product and reported
``{row, column, message}``, the other products are stored.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field, ValidationError
from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from local_db.base import table_of
from local_db.engine import Prepared
from local_db.models.catalog import (
    CatalogCategory,
    CatalogProduct,
    CatalogTranslation,
    CatalogVariant,
)
from local_db.models.jobs import Job
from services.catalog import sheets, states
from services.catalog.families import attribute_problems, families_by_id
from services.catalog.languages import tenant_languages
from services.catalog.products import _cents, _money, text_hash
from services.catalog.schemas import ProductUpdate, TranslationIn, VariantIn, _check_variants
from services.catalog.versions import record_baselines, record_first_versions, record_versions
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.events import emit
from services.core.files import FileResult, Upload
from services.core.jobs import JobOut, Report, job_kind, submit
from services.core.roles import STAFF
from services.core.storage import keep_blob, read_blob
from services.sync.changelog import log_written

IMPORT_KIND = "catalog.import"
BASE_COLUMNS = [
    "sku",
    "product_sku",
    "status",
    "name",
    "description",
    "gtin",
    "categories",
    "family",
    "attributes",
    "options",
    "price",
]
PRODUCT_ONLY = ("status", "name", "description", "categories", "family", "attributes")
VARIANT_ONLY = ("options", "price")
CHUNK = 2000  # products written per transaction (and between two progress reports)
MAX_REPORT = 10_000  # report lines kept on the job (the counts stay exact)


class ExportQuery(BaseModel):
    format: str = Field(default="csv", pattern="^(csv|xlsx)$")


def columns(languages: list[str]) -> list[str]:
    """The file's columns: the product's and variant's, then two per language besides the default."""
    return BASE_COLUMNS + [f"{f}@{lang}" for lang in languages[1:] for f in ("name", "description")]


def check_header(header: list[str], languages: list[str]) -> None:
    known = columns(languages)
    unknown = [h for h in header if h not in known]
    if unknown:
        raise ValidationFailed(
            f"unknown column{'s' if len(unknown) > 1 else ''} {', '.join(repr(u) for u in unknown[:10])}: "
            "the whole file is refused",
            {
                "fields": [
                    {"field": "file", "message": f"unknown column {u!r}", "type": "column"} for u in unknown[:50]
                ],
                "unknown": unknown[:50],
                "known": known,
            },
        )
    dupes = sorted({h for h in header if header.count(h) > 1})
    if dupes:
        raise sheets.refuse(f"column{'s' if len(dupes) > 1 else ''} {', '.join(dupes)} given twice")
    if "sku" not in header:
        raise sheets.refuse("the file has no 'sku' column", known=known)


# --- export ------------------------------------------------------------------------------------


def export_rows(s: Session, languages: list[str]) -> list[list[str]]:
    p, v, t = CatalogProduct, CatalogVariant, CatalogTranslation
    variants: dict[str, list[Any]] = {}
    for row in s.execute(select(v.product_id, v.sku, v.gtin, v.options, v.price_cents).order_by(v.position)):
        variants.setdefault(row[0], []).append(row)
    texts: dict[str, dict[str, tuple[str, str]]] = {}
    for pid, lang, name, desc in s.execute(select(t.product_id, t.language, t.name, t.description)):
        texts.setdefault(pid, {})[lang] = (name, desc)
    others = languages[1:]
    families = {f.id: f.code for f in families_by_id(s).values()}
    out: list[list[str]] = []
    q = select(p.id, p.sku, p.status, p.name, p.description, p.gtin, p.category_ids, p.family_id, p.attributes)
    for pid, sku, status, name, desc, gtin, cats, fid, attrs in s.execute(q.order_by(p.sku)):
        tr = texts.get(pid, {})
        langs = [x for lang in others for x in tr.get(lang, ("", ""))]
        attributes = json.dumps(attrs, ensure_ascii=False, sort_keys=True) if attrs else ""
        family = families.get(fid, "") if fid else ""
        out.append([sku, "", status, name, desc, gtin or "", "|".join(cats or []), family, attributes, "", "", *langs])
        for _, vsku, vgtin, options, cents in variants.get(pid, []):
            opts = "|".join(f"{k}={val}" for k, val in (options or {}).items())
            price = _money(cents) or ""
            out.append([vsku, sku, "", "", "", vgtin or "", "", "", "", opts, price, *([""] * len(langs))])
    return out


@use_case(
    "catalog.products.export",
    "GET /products/export",
    tx="read",
    roles=STAFF,
    summary="products, variants and translations as a CSV or XLSX file (the import's columns)",
)
def export_products(ctx: Ctx, query: ExportQuery) -> FileResult:
    with ctx.read() as s:
        langs = tenant_languages(s, ctx.tenant_id)
        rows = export_rows(s, langs)
    day = ctx.now().date().isoformat()
    if query.format == "xlsx":
        content = sheets.write_xlsx(columns(langs), rows)
        media = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    else:
        content, media = sheets.write_csv(columns(langs), rows), "text/csv; charset=utf-8"
    return FileResult(content, media, f"products-{day}.{query.format}", inline=False)


# --- import: the request -----------------------------------------------------------------------


@use_case(
    "catalog.products.import",
    "POST /products/import",
    tx="write",
    roles=STAFF,
    upload=True,
    limit="upload",
    status=202,
    # The job writes thousands of records where it runs; a station's would never reach the
    # platform (its outbox carries calls, not a job's rows): import on the platform.
    needs=("the platform's import",),
    says="Import products",
    record="platform.job",
    summary="import products, variants and translations from CSV or XLSX (a job; per-row report on it)",
)
def import_products(ctx: Ctx, upload: Upload) -> JobOut:
    rows = sheets.read_rows(upload.content)
    with ctx.write() as s:
        langs = tenant_languages(s, ctx.tenant_id)
        check_header([h.strip() for h in rows[0]], langs)
        digest, _ = keep_blob(ctx, upload.content)
        job = submit(
            ctx,
            IMPORT_KIND,
            {"sha256": digest, "filename": upload.filename, "rows": len(rows) - 1},
            title=f"Import products: {upload.filename} ({len(rows) - 1} rows)",
        )
        row = s.get(Job, job.id)
        assert row is not None
        row.params = {**row.params, "job_id": job.id}  # named in the event the job emits
        return job


# --- import: the job ---------------------------------------------------------------------------


@dataclass
class Group:
    """A product's rows in the file: its own (when given) and its variants'."""

    sku: str
    row: int | None = None
    body: ProductUpdate | None = None
    given: set[str] = field(default_factory=set)
    translations: dict[str, TranslationIn] = field(default_factory=dict)
    variants: list[tuple[int, VariantIn]] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)
    bad: bool = False
    existing: Any = None  # the product's id, status, family and attributes when the catalogue holds it
    family: str | None = None  # the family column's code ("" removes the family)


@dataclass
class Run:
    header: list[str]
    languages: list[str]
    report: list[dict[str, Any]] = field(default_factory=list)
    reported: int = 0
    groups: dict[str, Group] = field(default_factory=dict)
    seen: dict[str, int] = field(default_factory=dict)  # SKU -> the row that gave it first

    def error(self, row: int, column: str | None, message: str, group: Group | None = None) -> None:
        self.reported += 1
        if len(self.report) < MAX_REPORT:
            self.report.append({"row": row, "column": column, "message": message})
        if group is not None:
            group.bad = True

    def pydantic(self, row: int, exc: ValidationError, group: Group, column: str | None = None) -> None:
        for e in exc.errors():
            name = str(e["loc"][0]) if e["loc"] else None
            col = column or {"category_ids": "categories"}.get(name or "", name)
            self.error(row, col, str(e["msg"]).removeprefix("Value error, "), group)


def _options(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in filter(None, (x.strip() for x in text.split("|"))):
        key, eq, val = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"options are name=value pairs separated by |, not {part!r}")
        out[key.strip()] = val.strip()
    return out


def _product_row(run: Run, n: int, cells: dict[str, str]) -> None:
    sku = cells["sku"]
    g = run.groups.setdefault(sku, Group(sku))
    if g.row is not None:
        run.error(n, "sku", f"product {sku} is also on row {g.row}", g)
        return
    g.row = n
    g.rows.append(n)
    fields: dict[str, Any] = {"sku": sku}
    for col in ("name", "description", "gtin", "status"):
        if col in cells:
            fields[col] = cells[col] or (None if col in ("gtin", "status", "name") else "")
    if "categories" in cells:
        fields["category_ids"] = [c.strip() for c in cells["categories"].split("|") if c.strip()]
    if "attributes" in cells:
        try:
            attrs = json.loads(cells["attributes"]) if cells["attributes"] else {}
        except ValueError:
            run.error(n, "attributes", 'attributes are a JSON object such as {"material": "linen"}', g)
            return
        if not isinstance(attrs, dict):
            run.error(n, "attributes", 'attributes are a JSON object such as {"material": "linen"}', g)
            return
        fields["attributes"] = attrs
    if "name" in cells and not cells["name"]:
        run.error(n, "name", "a product has a name", g)
        return
    if "family" in cells:
        g.family = cells["family"]
    try:
        g.body = ProductUpdate(**fields)
    except ValidationError as exc:
        run.pydantic(n, exc, g)
        return
    g.given = set(fields)
    for lang in run.languages[1:]:
        name, desc = cells.get(f"name@{lang}", ""), cells.get(f"description@{lang}", "")
        if not name and not desc:
            continue  # no translation in the file: the one kept stays
        if not name:
            run.error(n, f"name@{lang}", "a translation has a name", g)
            continue
        # The language is an enabled one (the header said so): the lengths are all left to check,
        # by hand rather than a model per cell, the import's hot loop.
        if len(name) > 200:
            run.error(n, f"name@{lang}", "at most 200 characters", g)
        elif len(desc) > 20_000:
            run.error(n, f"description@{lang}", "at most 20,000 characters", g)
        else:
            g.translations[lang] = TranslationIn.model_construct(language=lang, name=name, description=desc)


def _variant_row(run: Run, n: int, cells: dict[str, str]) -> None:
    g = run.groups.setdefault(cells["product_sku"], Group(cells["product_sku"]))
    g.rows.append(n)
    for col in PRODUCT_ONLY + tuple(h for h in run.header if "@" in h):
        if cells.get(col):
            run.error(n, col, f"a variant row leaves {col} empty: it belongs to the product's row", g)
            return
    try:
        options = _options(cells.get("options", ""))
    except ValueError as exc:
        run.error(n, "options", str(exc), g)
        return
    try:
        v = VariantIn(
            sku=cells["sku"], gtin=cells.get("gtin") or None, options=options, price=cells.get("price") or None
        )
    except ValidationError as exc:
        run.pydantic(n, exc, g)
        return
    g.variants.append((n, v))


def check_rows(run: Run, rows: list[list[str]]) -> None:
    width = len(run.header)
    free = [(j, h) for j, h in enumerate(run.header) if h == "description" or h.startswith("description@")]
    for i, raw in enumerate(rows, start=2):  # row 1 is the header, as a spreadsheet numbers them
        if not any(c.strip() for c in raw):
            continue
        if len(raw) > width and any(c.strip() for c in raw[width:]):
            run.error(i, None, f"the row has {len(raw)} cells, the header {width} columns")
            continue
        cells = {h: (raw[j].strip() if j < len(raw) else "") for j, h in enumerate(run.header)}
        for j, h in free:  # free text is kept as written (leading spaces, a final line break)
            if j < len(raw) and cells[h]:
                cells[h] = raw[j]
        sku = cells["sku"]
        if not sku:
            run.error(i, "sku", "every row has a SKU")
            continue
        if sku in run.seen:
            # The row is skipped; the first row with the SKU stands.
            run.error(i, "sku", f"SKU {sku} is also on row {run.seen[sku]}")
            continue
        run.seen[sku] = i
        if cells.get("product_sku"):
            _variant_row(run, i, cells)
        else:
            _product_row(run, i, cells)


def _chunks(items: list[Any], n: int = 900) -> Any:
    for i in range(0, len(items), n):
        yield items[i : i + n]


def check_against_catalog(run: Run, s: Session) -> None:
    """SKUs against the products and variants the catalogue holds, categories, states, variant sets."""
    skus = list(run.seen)
    products: dict[str, tuple[str, str, str | None, dict[str, Any]]] = {}
    p = CatalogProduct
    cols = (p.id, p.sku, p.status, p.family_id, p.attributes)
    owners: dict[str, str] = {}
    for part in _chunks(skus):
        for pid, sku, status, fid, attrs in s.execute(select(*cols).where(p.sku.in_(part))):
            products[sku] = (pid, status, fid, attrs or {})
        for sku, pid in s.execute(
            select(CatalogVariant.sku, CatalogVariant.product_id).where(CatalogVariant.sku.in_(part))
        ):
            owners[sku] = pid
    missing_parents = [g.sku for g in run.groups.values() if g.row is None and g.sku not in products]
    for part in _chunks(missing_parents):
        for pid, sku, status, fid, attrs in s.execute(select(*cols).where(p.sku.in_(part))):
            products[sku] = (pid, status, fid, attrs or {})
    categories = set(s.execute(select(CatalogCategory.id)).scalars())
    families = families_by_id(s)
    family_codes = {f.code: f.id for f in families.values()}
    for g in run.groups.values():
        if g.bad:
            continue
        g.existing = products.get(g.sku)
        pid = g.existing[0] if g.existing else None
        first = g.row or (g.variants[0][0] if g.variants else 0)
        if g.row is None and g.existing is None:
            run.error(first, "product_sku", f"no product {g.sku} in the file or the catalogue", g)
            continue
        if g.sku in owners:
            run.error(first, "sku", f"SKU {g.sku} is a variant's in this catalogue", g)
            continue
        for n, v in g.variants:
            other = products.get(v.sku)
            owner = owners.get(v.sku)
            if (other is not None) or (owner is not None and owner != pid):
                run.error(n, "sku", f"SKU {v.sku} is already used in this catalogue", g)
        if g.bad:
            continue
        body = g.body
        if g.existing is not None and g.existing[1] == "archived" and (body is None or body.status != "draft"):
            # Read only until restored: status "draft" on its row restores it and applies the row.
            run.error(first, "status", "the product is archived: status draft restores it", g)
            continue
        if body is not None:
            unknown = [c for c in body.category_ids or [] if c not in categories]
            if unknown:
                run.error(first, "categories", f"no category {unknown[0]}", g)
                continue
            if g.existing is None and body.status == "archived":
                run.error(first, "status", "a new product is a draft or active", g)
                continue
            if g.family:
                if g.family not in family_codes:
                    run.error(first, "family", f"no attribute family {g.family}", g)
                    continue
                g.family = family_codes[g.family]
            # The values are checked against the family the product has after the row.
            fid = g.family if g.family is not None else (g.existing[2] if g.existing else None)
            attrs = body.attributes if body.attributes is not None else (g.existing[3] if g.existing else {})
            if fid and fid in families and (g.family is not None or body.attributes is not None):
                for problem in attribute_problems(families[fid].attributes or [], attrs or {}):
                    run.error(first, "attributes", problem["message"], g)
                if g.bad:
                    continue
            was = g.existing[1] if g.existing is not None else None
            if (
                was
                and body.status
                and body.status != was
                and not states.PRODUCT.find(was, states.action_to(was, body.status))
            ):
                run.error(first, "status", f"a product that is {was} cannot become {body.status}", g)
                continue
        if g.variants:
            try:
                _check_variants([v for _, v in g.variants])
            except ValueError as exc:
                run.error(g.variants[0][0], "options", str(exc), g)


def fresh_ids(n: int) -> list[str]:
    """``n`` random (version 4) UUIDs, as ``uuid4`` makes them at a tenth of its cost (its UUID
    object is built and taken apart again for each). The import runs as a job on the platform,
    never inside a station change's id plan, so ``new_id``'s plan has nothing to say here."""
    raw = bytearray(os.urandom(16 * n))
    out = []
    for i in range(0, 16 * n, 16):
        raw[i + 6] = (raw[i + 6] & 0x0F) | 0x40  # version 4
        raw[i + 8] = (raw[i + 8] & 0x3F) | 0x80  # RFC 4122 variant
        h = raw[i : i + 16].hex()
        out.append(f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}")
    return out


# Compiled once per table and column set (local_db.engine.Prepared): a big import's rows go to the
# driver as value lists.
_INSERTS = {m: Prepared(insert(table_of(m))) for m in (CatalogProduct, CatalogVariant, CatalogTranslation)}


def _insert_new(ctx: Ctx, s: Session, groups: list[Group]) -> list[str]:
    now = ctx.now()
    ids = iter(fresh_ids(sum(1 + len(g.variants) + len(g.translations) for g in groups)))
    tid = ctx.tenant_id
    products: list[dict[str, Any]] = []
    variants: list[dict[str, Any]] = []
    translations: list[dict[str, Any]] = []
    for g in groups:
        b = g.body
        assert b is not None and b.name is not None
        pid = next(ids)
        status = b.status or "draft"
        desc = b.description or ""
        th = text_hash(b.name, desc)
        products.append(
            {
                "id": pid,
                "tenant_id": tid,
                "sku": g.sku,
                "gtin": b.gtin,
                "name": b.name,
                "description": desc,
                "text_hash": th,
                "category_ids": list(dict.fromkeys(b.category_ids or [])),
                "attributes": dict(b.attributes or {}),
                "status": status,
                "image_sha256": None,
                "published_at": now if status == "active" else None,
                "family_id": g.family or None,
                "created_at": now,
                "updated_at": now,
            }
        )
        for i, (_, v) in enumerate(g.variants):
            variants.append(
                {
                    "id": next(ids),
                    "tenant_id": tid,
                    "product_id": pid,
                    "sku": v.sku,
                    "gtin": v.gtin,
                    "options": dict(v.options),
                    "price_cents": _cents(v.price),
                    "position": i,
                }
            )
        for lang, t in g.translations.items():
            translations.append(
                {
                    "id": next(ids),
                    "tenant_id": tid,
                    "product_id": pid,
                    "language": lang,
                    "name": t.name,
                    "description": t.description,
                    "source_hash": th,
                    "updated_at": now,
                }
            )
    conn = s.connection()
    for model, rows in ((CatalogProduct, products), (CatalogVariant, variants), (CatalogTranslation, translations)):
        if rows:
            _INSERTS[model].run_many(conn, rows)
            # Core inserts pass the flush: logged for the stations' pull as the flush would.
            log_written(s, tid, model.__tablename__, [r["id"] for r in rows])
    record_first_versions(ctx, s, fresh_ids(len(products)), products, variants, translations, "import")
    return [str(r["id"]) for r in products]


def _update_existing(ctx: Ctx, s: Session, groups: list[Group]) -> list[CatalogProduct]:
    now = ctx.now()
    ids = [g.existing[0] for g in groups]
    found = {p.id: p for p in s.execute(select(CatalogProduct).where(CatalogProduct.id.in_(ids))).scalars()}
    record_baselines(ctx, s, list(found.values()))
    old_variants: dict[str, list[CatalogVariant]] = {i: [] for i in ids}
    for v in s.execute(select(CatalogVariant).where(CatalogVariant.product_id.in_(ids))).scalars():
        old_variants[v.product_id].append(v)
    old_tr = {
        (t.product_id, t.language): t
        for t in s.execute(select(CatalogTranslation).where(CatalogTranslation.product_id.in_(ids))).scalars()
    }
    # The old variants of every product that brings new ones, deleted through the ORM (so the change
    # log tells the stations) in one flush for the chunk: a flush per product was most of an
    # update's time (605 rows/s).
    for g in groups:
        if g.variants:
            for old in old_variants[g.existing[0]]:
                s.delete(old)
    s.flush()
    for g in groups:
        p = found[g.existing[0]]
        b = g.body
        if b is not None:
            if b.status is not None and b.status != p.status:
                p.status = states.PRODUCT.check(p.status, states.action_to(p.status, b.status))
                if p.status == "active" and p.published_at is None:
                    p.published_at = now
            if "gtin" in g.given:
                p.gtin = b.gtin
            if b.name is not None:
                p.name = b.name
            if b.description is not None:
                p.description = b.description
            if b.category_ids is not None:
                p.category_ids = list(dict.fromkeys(b.category_ids))
            if b.attributes is not None:
                p.attributes = dict(b.attributes)
            if g.family is not None:
                p.family_id = g.family or None
            p.text_hash = text_hash(p.name, p.description)
        if g.variants:
            for i, (_, vin) in enumerate(g.variants):
                s.add(
                    CatalogVariant(
                        product_id=p.id,
                        sku=vin.sku,
                        gtin=vin.gtin,
                        options=dict(vin.options),
                        price_cents=_cents(vin.price),
                        position=i,
                    )
                )
        for lang, t in g.translations.items():
            row = old_tr.get((p.id, lang))
            if row is None:
                row = CatalogTranslation(product_id=p.id, language=lang)
                s.add(row)
            row.name, row.description, row.source_hash, row.updated_at = t.name, t.description, p.text_hash, now
        p.updated_at = now
    s.flush()
    return list(found.values())


@job_kind(IMPORT_KIND, "Product import")
def run_import(ctx: Ctx, params: dict[str, Any], report: Report) -> dict[str, Any]:
    rows = sheets.read_rows(read_blob(ctx, params["sha256"]))
    header = [h.strip() for h in rows[0]]
    total = len(rows) - 1
    report(0, total, "checking rows")
    with ctx.read() as s:
        langs = tenant_languages(s, ctx.tenant_id)
        check_header(header, langs)
        run = Run(header, langs)
        check_rows(run, rows[1:])
        del rows
        check_against_catalog(run, s)
    good = [g for g in run.groups.values() if not g.bad]
    skipped = len({n for g in run.groups.values() if g.bad for n in g.rows} | {e["row"] for e in run.report})
    created = updated = done = 0
    for part in _chunks(good, CHUNK):
        with ctx.write() as s:
            new = [g for g in part if g.existing is None]
            old = [g for g in part if g.existing is not None]
            _insert_new(ctx, s, new)
            if old:
                record_versions(ctx, s, _update_existing(ctx, s, old), "import")
        created += len(new)
        updated += len(old)
        done += sum(len(g.rows) for g in part)
        report(done, total, f"{done} of {total} rows stored")
    run.report.sort(key=lambda e: (e["row"], e["column"] or ""))
    result = {
        "rows": total,
        "created": created,
        "updated": updated,
        "skipped": skipped,
        "report": run.report,
        "report_total": run.reported,
    }
    with ctx.write():
        emit(
            ctx,
            "catalog.products_imported",
            {"job_id": params.get("job_id"), "rows": total, "created": created, "updated": updated, "skipped": skipped},
        )
    return result

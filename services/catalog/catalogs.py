"""PDF catalogs as jobs: ``POST catalogs/generate`` queues one, the job worker renders it, the file is
kept in the tenant's blob store and ``catalog.generated`` is emitted in the transaction that records it."""

from __future__ import annotations

import os
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.catalog import CatalogPdf, CatalogProduct, CatalogTranslation, CatalogVariant
from local_db.models.jobs import Job
from services.catalog import pdf
from services.catalog.categories import active_products, mark_published
from services.catalog.codes import fallbacks
from services.catalog.languages import tenant_languages
from services.catalog.products import _check_categories, _money
from services.catalog.schemas import CatalogGenerate, CatalogOut, CatalogQuery
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.events import emit
from services.core.files import FileResult
from services.core.jobs import Report, job_kind, submit
from services.core.jobs import out as job_out
from services.core.pagination import Page, contains, paginate
from services.core.roles import STAFF
from services.core.storage import blob_dir, keep_blob, read_blob, thumbnail

KIND = "catalog.generate"
record_kind("catalog.catalog", get="catalog.catalogs.get", label="title")

# Words printed in the catalog, per language (RFC 4647 lookup, English otherwise).
LABELS: dict[str, dict[str, str]] = {
    "en": {"sku": "SKU", "variants": "variants", "empty": "No products."},
    "de": {"sku": "Art.-Nr.", "variants": "Varianten", "empty": "Keine Produkte."},
    "fr": {"sku": "Réf.", "variants": "variantes", "empty": "Aucun produit."},
    "es": {"sku": "Ref.", "variants": "variantes", "empty": "Sin productos."},
    "it": {"sku": "Cod.", "variants": "varianti", "empty": "Nessun prodotto."},
    "nl": {"sku": "Art.nr.", "variants": "varianten", "empty": "Geen producten."},
}


def _catalog_out(c: CatalogPdf, job: Job | None) -> CatalogOut:
    j = job_out(job) if job is not None else None
    # The file is recorded in the run's last transaction: from then on it can be downloaded.
    status = "succeeded" if c.file_sha256 else (j.status if j else "queued")
    return CatalogOut(
        id=c.id,
        title=c.title,
        language=c.language,
        category_ids=list(c.category_ids or []),
        job_id=c.job_id,
        status=status,
        progress=100 if c.file_sha256 else (j.progress if j else 0),
        message=j.message if j else None,
        pages=c.pages,
        size=c.size,
        product_count=c.product_count,
        download_url=f"catalogs/{c.id}/download" if c.file_sha256 else None,
        created_at=c.created_at,
        finished_at=j.finished_at if j else None,
    )


def _jobs(s: Session, ids: list[str]) -> dict[str, Job]:
    return {j.id: j for j in s.execute(select(Job).where(Job.id.in_(ids))).scalars()} if ids else {}


def _find(s: Session, id: str) -> CatalogPdf:
    c = s.get(CatalogPdf, id)
    if c is None:
        raise NotFound(f"no catalog {id}", {"catalog": id})
    return c


@use_case(
    "catalog.catalogs.generate",
    "POST /catalogs/generate",
    tx="write",
    roles=STAFF,
    status=201,
    says="PDF catalog {result.title}",
    record="catalog.catalog",
    summary="start a PDF catalog of the active products in a language (a job)",
)
def generate(ctx: Ctx, body: CatalogGenerate) -> CatalogOut:
    with ctx.write() as s:
        langs = tenant_languages(s, ctx.tenant_id)
        lang = next((x for x in langs if x.lower() == body.language.lower()), None)
        if lang is None:
            raise ValidationFailed(
                f"language {body.language} is not enabled for this catalog",
                {
                    "fields": [{"field": "language", "message": f"enabled: {', '.join(langs)}", "type": "language"}],
                    "enabled": langs,
                },
            )
        cats = _check_categories(s, body.category_ids or [])
        c = CatalogPdf(
            title=body.title,
            language=lang,
            category_ids=cats,
            job_id="",
            created_at=ctx.now(),
            created_by=ctx.principal.user_id,
        )
        s.add(c)
        s.flush()
        job = submit(ctx, KIND, {"catalog_id": c.id}, title=f"PDF catalog: {body.title} ({lang})")
        c.job_id = job.id
        s.flush()
        return _catalog_out(c, s.get(Job, job.id))


@use_case(
    "catalog.catalogs.list",
    "GET /catalogs",
    tx="read",
    roles=STAFF,
    record="catalog.catalog",
    summary="list PDF catalogs with their job's status",
)
def list_catalogs(ctx: Ctx, query: CatalogQuery) -> Page[CatalogOut]:
    stmt = select(CatalogPdf)
    if query.language:
        stmt = stmt.where(CatalogPdf.language == query.language)
    if query.search:
        stmt = stmt.where(contains(CatalogPdf.title, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": CatalogPdf.created_at, "title": CatalogPdf.title})
        jobs = _jobs(s, [c.job_id for c in page.items])
        return page.map(lambda c: _catalog_out(c, jobs.get(c.job_id)))


@use_case(
    "catalog.catalogs.get",
    "GET /catalogs/{id}",
    tx="read",
    roles=STAFF,
    record="catalog.catalog",
    summary="read a PDF catalog and its progress",
)
def get_catalog(ctx: Ctx, id: str) -> CatalogOut:
    with ctx.read() as s:
        c = _find(s, id)
        return _catalog_out(c, s.get(Job, c.job_id))


@use_case(
    "catalog.catalogs.download",
    "GET /catalogs/{id}/download",
    tx="read",
    roles=STAFF,
    summary="download a generated PDF catalog (409 until it is ready)",
)
def download(ctx: Ctx, id: str) -> FileResult:
    with ctx.read() as s:
        c = _find(s, id)
        out = _catalog_out(c, s.get(Job, c.job_id))
    if c.file_sha256 is None:
        raise Conflict(
            f"the catalog is {out.status}, not ready to download",
            {"current_state": out.status, "action": "download", "progress": out.progress},
        )
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", c.title).strip("-") or "catalog"
    return FileResult(read_blob(ctx, c.file_sha256), "application/pdf", f"{name}-{c.language}.pdf", inline=False)


# --- the job -----------------------------------------------------------------------------------


def _text(p: CatalogProduct, by_lang: dict[str, CatalogTranslation], chain: list[str], default: str) -> tuple[str, str]:
    """Name and description in the first language of the chain that has them (RFC 4647 lookup)."""
    name = desc = ""
    for lang in chain:
        if lang == default:
            name, desc = name or p.name, desc or p.description
        elif (t := by_lang.get(lang)) is not None:
            name, desc = name or t.name, desc or t.description
        if name and desc:
            break
    return name or p.name, desc


def _price(variants: list[CatalogVariant]) -> str | None:
    prices = sorted(v.price_cents for v in variants if v.price_cents is not None)
    if not prices:
        return None
    lo, hi = _money(prices[0]), _money(prices[-1])
    return lo if lo == hi else f"{lo} – {hi}"


def catalog_image(ctx: Ctx, sha256: str | None) -> bytes | None:
    """The product image as printed: a 400 px JPEG (a phone photo per product would make a catalog
    of gigabytes), made once per image and kept beside the blobs for the next catalog."""
    if sha256 is None:
        return None
    folder = blob_dir(ctx) / "catalog-thumbs"
    path = folder / f"{sha256}-400.jpg"
    if path.exists():
        return path.read_bytes()
    try:
        small = thumbnail(read_blob(ctx, sha256), 400)
    except FileNotFoundError:
        return None  # the file is gone: its box stays empty, the catalog still prints
    if small is not None:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{sha256}.{os.getpid()}.{threading.get_ident()}.tmp"
        tmp.write_bytes(small)
        os.replace(tmp, path)  # whole or not at all
    return small


@job_kind(KIND, "PDF catalog")
def run_generate(ctx: Ctx, params: dict[str, Any], report: Report) -> dict[str, Any]:
    with ctx.read() as s:
        c = _find(s, params["catalog_id"])
        title, language, category_ids = c.title, c.language, list(c.category_ids or [])
        langs = tenant_languages(s, ctx.tenant_id)
        products = active_products(s, category_ids)
        ids = [p.id for p in products]
        variants: dict[str, list[CatalogVariant]] = {i: [] for i in ids}
        translations: dict[str, dict[str, CatalogTranslation]] = {i: {} for i in ids}
        for chunk in range(0, len(ids), 500):
            part = ids[chunk : chunk + 500]
            for v in s.execute(
                select(CatalogVariant).where(CatalogVariant.product_id.in_(part)).order_by(CatalogVariant.position)
            ).scalars():
                variants[v.product_id].append(v)
            for t in s.execute(select(CatalogTranslation).where(CatalogTranslation.product_id.in_(part))).scalars():
                translations[t.product_id][t.language] = t
        s.expunge_all()
    chain = fallbacks(language, langs[0])
    labels = next((LABELS[x.split("-")[0]] for x in chain if x.split("-")[0] in LABELS), LABELS["en"])
    total = len(products)
    # In the catalog's language, sorted by the name it prints.
    texts = {p.id: _text(p, translations[p.id], chain, langs[0]) for p in products}
    products.sort(key=lambda p: (texts[p.id][0].casefold(), p.sku))
    report(0, total, "reading products")

    def entries() -> Any:
        # Images are made small on a few threads ahead of the page being drawn (Pillow works
        # outside the GIL); map keeps the products' order.
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
            images = pool.map(lambda p: catalog_image(ctx, p.image_sha256), products)
            for p, image in zip(products, images, strict=True):
                name, desc = texts[p.id]
                attrs = [(k, str(v)) for k, v in sorted((p.attributes or {}).items()) if v not in (None, "")][:4]
                yield pdf.Entry(
                    sku=p.sku,
                    name=name,
                    description=desc,
                    price=_price(variants[p.id]),
                    gtin=p.gtin,
                    attributes=attrs,
                    variants=len(variants[p.id]),
                    image=image,
                )

    step = max(pdf.PER_PAGE, (total // 20) // pdf.PER_PAGE * pdf.PER_PAGE or pdf.PER_PAGE)
    last = [0]

    def progress(done: int) -> None:
        if done - last[0] >= step or done == total:
            last[0] = done
            report(done, total, f"{done} of {total} products")

    content, pages = pdf.render(title, language, entries(), total, ctx.now(), labels, progress)
    digest, _ = keep_blob(ctx, content)
    with ctx.write() as s:
        c = _find(s, params["catalog_id"])
        c.file_sha256, c.size, c.pages, c.product_count = digest, len(content), pages, total
        mark_published(s, ids, ctx.now())
        emit(
            ctx,
            "catalog.generated",
            {
                "catalog_id": c.id,
                "title": title,
                "language": language,
                "pages": pages,
                "size": len(content),
                "product_count": total,
                "download_url": f"catalogs/{c.id}/download",
            },
        )
    return {"catalog_id": params["catalog_id"], "pages": pages, "size": len(content), "product_count": total}

"""Catalog in the service layer: GTIN and BCP 47 checks, completeness, the product state table, a
station's outbox, PDF catalogs with images and fallbacks, and the sync's guards."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import select

from local_db.models import OutboxEntry
from services.catalog import states
from services.catalog.codes import canonical_language, fallbacks, gtin_problem
from services.core import auth
from services.core.commands import execute
from services.core.connections import ConnectionsConfig
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed
from services.core.files import Upload
from services.core.jobs import JobWorker
from services.core.shop import retry_after, url_problem

OWNER = "owner@demo.test"


def ctx_for(rt: Runtime, email: str = OWNER, slug: str = "demo") -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant))


def png(color: tuple[int, int, int], size: tuple[int, int] = (120, 90)) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def worker(runtime: Runtime) -> Iterator[JobWorker]:
    w = JobWorker(runtime, poll=0.05).start()
    yield w
    w.stop()


def _until(ctx: Ctx, catalog_id: str) -> object:
    deadline = time.monotonic() + 60
    while True:
        c = execute(ctx, "catalog.catalogs.get", id=catalog_id)
        if c.status in ("succeeded", "failed") or time.monotonic() > deadline:
            return c
        time.sleep(0.05)


def test_gtin_check_digits_of_every_length() -> None:
    # DOMAIN §7 and §9 vectors: 629104150021 -> 3, UPC-A 03600024145 -> 7.
    assert gtin_problem("6291041500213") is None
    assert gtin_problem("036000241457") is None
    assert gtin_problem("96385074") is None  # GTIN-8
    assert gtin_problem("10614141000415") is None  # GTIN-14 (GS1's example)
    assert "check digit" in (gtin_problem("6291041500210") or "")
    assert "8, 12, 13 or 14" in (gtin_problem("1234567890") or "")
    assert gtin_problem("629104150021٣") is not None  # digits of other scripts are not GTIN digits


def test_bcp47_tags_and_their_fallbacks() -> None:
    assert canonical_language("zh-hant-tw") == "zh-Hant-TW"
    assert canonical_language("EN_us") == "en-US"
    assert canonical_language("es-419") == "es-419"
    for bad in ("", "e", "en-", "en--us", "toolongtag", "en-US-x", "12"):
        with pytest.raises(ValueError):
            canonical_language(bad)
    assert fallbacks("zh-Hant-TW", "en") == ["zh-Hant-TW", "zh-Hant", "zh", "en"]
    assert fallbacks("en-US", "en") == ["en-US", "en"]


def test_product_state_table() -> None:
    assert states.PRODUCT.check("draft", states.action_to("draft", "active")) == "active"
    assert states.PRODUCT.check("archived", states.action_to("archived", "draft")) == "draft"
    with pytest.raises(Conflict):
        states.PRODUCT.check("archived", states.action_to("archived", "active"))


def test_retry_after_and_connection_addresses() -> None:
    assert retry_after("3", 1.0) == 3.0
    assert retry_after(None, 0.5) == 0.5
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT", 1.0) == 0.0  # a date in the past: go now
    assert retry_after("soon", 2.0) == 2.0
    assert url_problem("https://93.184.215.14/shop", allow_private=False) is None
    assert "private" in (url_problem("https://10.0.0.5", allow_private=False) or "")
    assert "loopback" in (url_problem("https://127.0.0.1:8443", allow_private=False) or "")
    assert "https" in (url_problem("http://93.184.215.14", allow_private=False) or "")
    assert url_problem("http://127.0.0.1:9", allow_private=True) is None
    assert url_problem("ftp://example.com", allow_private=True) is not None


def test_private_connection_addresses_are_refused_unless_allowed(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    body = {"provider": "generic", "base_url": "http://127.0.0.1:9", "credentials": {"api_key": "k"}}
    with pytest.raises(ValidationFailed) as e:
        execute(ctx, "tax.connections.ecommerce.save", body=body)
    assert "https" in e.value.message or "loopback" in e.value.message
    runtime.provide(ConnectionsConfig(allow_private=True))
    # Allowed now, so the check call runs: nothing listens on port 9.
    with pytest.raises(ValidationFailed) as e:
        execute(ctx, "tax.connections.ecommerce.save", body=body)
    assert "did not accept" in e.value.message


def test_a_sync_already_queued_is_not_started_twice(runtime: Runtime) -> None:
    from local_db.models import Tenant

    ctx = ctx_for(runtime)
    with ctx.write() as s:  # a stored connection, as the save writes it (the shop is not called here)
        t = s.get(Tenant, ctx.tenant_id)
        assert t is not None
        t.settings = {
            **(t.settings or {}),
            "connections": {
                "ecommerce": {
                    "provider": "generic",
                    "base_url": "https://shop.example",
                    "api_key": "k",
                    "saved_at": None,
                }
            },
        }
    first = execute(ctx, "catalog.ecommerce.sync", body={})
    assert first.status == "queued"
    with pytest.raises(Conflict) as e:
        execute(ctx, "catalog.ecommerce.sync", body={})
    assert e.value.details and e.value.details["current_state"] == "queued"
    assert execute(ctx, "catalog.ecommerce.status").job_id == first.job_id


def test_download_before_the_catalog_is_ready_is_409(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    c = execute(ctx, "catalog.catalogs.generate", body={"title": "Waiting", "language": "en"})
    assert c.status == "queued" and c.download_url is None
    with pytest.raises(Conflict) as e:
        execute(ctx, "catalog.catalogs.download", id=c.id)
    assert e.value.details and e.value.details["current_state"] == "queued"


def test_roles_and_tenants(runtime: Runtime) -> None:
    with pytest.raises(Forbidden):
        execute(ctx_for(runtime, "operator@demo.test"), "catalog.products.list", query={})
    with pytest.raises(Forbidden):
        execute(ctx_for(runtime, "device@demo.test"), "catalog.products.list", query={})
    other = ctx_for(runtime, "owner@other.test", "other")
    with pytest.raises(NotFound):
        execute(other, "catalog.products.get", id=demo_id("catalog-product", "demo", "TSH"))
    assert execute(other, "catalog.languages.list").default == "en"


def test_catalog_of_a_category_tree_in_a_regional_language_with_images(runtime: Runtime, worker: JobWorker) -> None:
    import pypdfium2 as pdfium

    ctx = ctx_for(runtime)
    apparel = demo_id("catalog-category", "demo", "apparel")
    # Images on two products: drawn in the catalog (made small first).
    for sku, color in (("TSH", (200, 30, 30)), ("CAP-NVY", (20, 40, 120))):
        execute(ctx, "catalog.products.image.put", id=sku, upload=Upload("p.png", "image/png", png(color)))
    assert execute(ctx, "catalog.products.get", id="TSH").has_image
    with pytest.raises(ValidationFailed):
        execute(ctx, "catalog.products.image.put", id="TSH", upload=Upload("x.txt", "text/plain", b"not an image"))
    execute(ctx, "catalog.languages.set", body={"languages": ["en", "de", "fr", "fr-CA"]})
    c = execute(
        ctx, "catalog.catalogs.generate", body={"title": "Vêtements", "language": "fr-ca", "category_ids": [apparel]}
    )
    assert c.language == "fr-CA"
    done = _until(ctx, c.id)
    assert done.status == "succeeded", done  # type: ignore[attr-defined]
    # Apparel and its subcategories: T-shirt, cap, socks, tote (active ones only).
    assert done.product_count == 4  # type: ignore[attr-defined]
    pdf = execute(ctx, "catalog.catalogs.download", id=c.id).content
    doc = pdfium.PdfDocument(pdf)
    try:
        page = doc[0]
        text = page.get_textpage().get_text_range()
        images = [o for o in page.get_objects() if o.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE]
    finally:
        doc.close()
    # fr-CA falls back to fr (RFC 4647), then to the default language where French is missing.
    assert "T-shirt en coton bio" in text and "Chaussettes, lot de 3" in text and "Baseball cap" in text
    assert "Réf." in text
    assert len(images) == 2
    # Printed products have history now.
    assert execute(ctx, "catalog.products.delete", id="CAP-NVY").status == "archived"


def test_a_station_records_catalog_changes_in_its_outbox(station: Runtime) -> None:
    ctx = ctx_for(station)
    p = execute(ctx, "catalog.products.create", body={"sku": "ST-1", "name": "Station product"})
    execute(ctx, "catalog.products.translate", id=p.id, body={"language": "de", "name": "Stationsprodukt"})
    with station.db.reading(None) as s:
        rows = s.execute(select(OutboxEntry.command, OutboxEntry.path, OutboxEntry.ids).order_by(OutboxEntry.seq)).all()
    assert [r.command for r in rows][-2:] == ["catalog.products.create", "catalog.products.translate"]
    assert rows[-2].path == "/demo/catalog/api/products" and p.id in rows[-2].ids
    # The sync runs on the platform; a connection carries a secret: neither is queued on a station.
    with pytest.raises(Conflict):
        execute(ctx, "catalog.ecommerce.sync", body={})
    with pytest.raises(Conflict):
        execute(
            ctx,
            "tax.connections.ecommerce.save",
            body={"base_url": "https://shop.example", "credentials": {"api_key": "k"}},
        )

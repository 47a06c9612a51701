"""Demo content of Catalog (CONTRACT.md): languages, a category tree, products in mixed states with
variants, GS1-valid GTINs and translations. Deterministic ids, so it is idempotent.

The SKUs are the demo's warehouse items (fulfillment order lines, inventory stock): a variant's or a
variant-less product's SKU is the item Inventory counts.
"""

from __future__ import annotations

from local_db.models import Tenant
from local_db.models.catalog import CatalogCategory, CatalogProduct, CatalogTranslation, CatalogVariant
from services.catalog.products import text_hash
from services.core.checkdigits import with_check_digit
from services.core.context import Ctx
from services.core.demo import demo_id, demo_seeder

LANGUAGES = ["en", "de", "fr"]

# key, name, parent key
CATEGORIES: tuple[tuple[str, str, str | None], ...] = (
    ("apparel", "Apparel", None),
    ("tops", "T-shirts and tops", "apparel"),
    ("accessories", "Accessories", "apparel"),
    ("home", "Home and office", None),
    ("audio", "Audio", None),
)

# sku, name, description, categories, status, gtin data digits (12) or None, attributes,
# variants [(sku, options, price)], translations {lang: (name, description)}
PRODUCTS: tuple[tuple, ...] = (  # type: ignore[type-arg]
    (
        "TSH",
        "Organic cotton T-shirt",
        "Soft, heavy jersey T-shirt in organic cotton, cut for a relaxed fit.",
        ["tops"],
        "active",
        "400638133393",
        {"material": "organic cotton", "weight_g": 180},
        [
            ("TSH-BLK-M", {"colour": "black", "size": "M"}, "19.90"),
            ("TSH-WHT-L", {"colour": "white", "size": "L"}, "19.90"),
        ],
        {
            "de": (
                "T-Shirt aus Bio-Baumwolle",
                "Weiches, schweres Jersey-T-Shirt aus Bio-Baumwolle, lässig geschnitten.",
            ),
            "fr": ("T-shirt en coton bio", "T-shirt en jersey épais et doux, coton biologique, coupe décontractée."),
        },
    ),
    (
        "MUG-CER-01",
        "Ceramic mug",
        "Stoneware mug, 330 ml, dishwasher safe.",
        ["home"],
        "active",
        "590123412345",
        {"capacity_ml": 330, "warranty_months": 24},
        [("MUG-CER-01-W", {"colour": "white"}, "9.50")],
        {"de": ("Keramikbecher", "Steinzeugbecher, 330 ml, spülmaschinenfest.")},
    ),
    (
        "CAP-NVY",
        "Baseball cap",
        "Six-panel cap with an adjustable strap.",
        ["accessories"],
        "active",
        "761234567890",
        {"material": "cotton twill"},
        [],
        {},
    ),
    (
        "SCK-GRY-3P",
        "Socks, 3-pack",
        "Grey melange socks in a pack of three.",
        ["accessories"],
        "active",
        None,
        {},
        [],
        {"fr": ("Chaussettes, lot de 3", "Chaussettes gris chiné, lot de trois.")},
    ),
    (
        "BTL-STL-750",
        "Steel bottle 750 ml",
        "Double-walled stainless steel bottle: cold for 24 h, hot for 12 h.",
        ["home"],
        "active",
        "871234567890",
        {"capacity_ml": 750, "warranty_months": 24},
        [],
        {},
    ),
    ("NTB-A5-DOT", "Notebook A5 dotted", "", ["home"], "draft", None, {"pages": 192}, [], {}),
    ("PEN-GEL-BLU", "Gel pen blue", "Retractable gel pen, 0.5 mm.", ["home"], "archived", None, {}, [], {}),
    (
        "BAG-TOTE",
        "Canvas tote bag",
        "Heavy canvas tote with long handles.",
        ["accessories"],
        "active",
        None,
        {},
        [("BAG-TOTE-NAT", {"colour": "natural"}, "14.00"), ("BAG-TOTE-BLK", {"colour": "black"}, "15.00")],
        {},
    ),
    (
        "HDP-USB-C",
        "USB-C headphones",
        "Wired in-ear headphones with a USB-C plug and an inline microphone.",
        ["audio"],
        "draft",
        "400123456789",
        {"warranty_months": 12},
        [],
        {},
    ),
)


@demo_seeder
def seed_catalog(ctx: Ctx) -> None:
    if ctx.tenant is None or ctx.tenant.slug != "demo":
        return
    now = ctx.now()
    slug = ctx.tenant.slug
    with ctx.write() as s:
        t = s.get(Tenant, ctx.tenant_id)
        assert t is not None
        settings = dict(t.settings or {})
        if not (settings.get("catalog") or {}).get("languages"):
            settings["catalog"] = {**(settings.get("catalog") or {}), "languages": LANGUAGES}
            t.settings = settings
        for key, name, parent in CATEGORIES:
            cid = demo_id("catalog-category", slug, key)
            if s.get(CatalogCategory, cid) is None:
                s.add(
                    CatalogCategory(
                        id=cid,
                        name=name,
                        created_at=now,
                        updated_at=now,
                        parent_id=demo_id("catalog-category", slug, parent) if parent else None,
                    )
                )
                s.flush()
        for sku, name, desc, cats, status, gtin, attrs, variants, translations in PRODUCTS:
            pid = demo_id("catalog-product", slug, sku)
            if s.get(CatalogProduct, pid) is not None:
                continue
            h = text_hash(name, desc)
            s.add(
                CatalogProduct(
                    id=pid,
                    sku=sku,
                    gtin=with_check_digit(gtin) if gtin else None,
                    name=name,
                    description=desc,
                    text_hash=h,
                    attributes=attrs,
                    status=status,
                    category_ids=[demo_id("catalog-category", slug, c) for c in cats],
                    published_at=now if status != "draft" else None,
                    created_at=now,
                    updated_at=now,
                )
            )
            s.flush()
            for i, (vsku, options, price) in enumerate(variants):
                s.add(
                    CatalogVariant(
                        id=demo_id("catalog-variant", slug, vsku),
                        product_id=pid,
                        sku=vsku,
                        options=options,
                        price_cents=int(price.replace(".", "")),
                        position=i,
                    )
                )
            for lang, (tname, tdesc) in translations.items():
                s.add(
                    CatalogTranslation(
                        id=demo_id("catalog-translation", slug, sku, lang),
                        product_id=pid,
                        language=lang,
                        name=tname,
                        description=tdesc,
                        source_hash=h,
                        updated_at=now,
                    )
                )

"""Catalog: products with variants and translations, the category tree, PDF catalogs, e-commerce sync."""

from services.catalog import catalogs, categories, demo, ecommerce, events, languages, products, transfer  # noqa: F401 - declarations, event types and demo seeders register on import
from services.core.modules import Module

MODULE = Module(
    name="catalog",
    events=("catalog.generated", "ecommerce.sync_completed", "catalog.products_imported"),
    records=("catalog.product", "catalog.category", "catalog.catalog"),
    seeders=(demo.seed_catalog,),
    position=140,
)

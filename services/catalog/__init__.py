"""Catalog: products with variants and translations, the category tree, PDF catalogs, e-commerce sync."""

from services.catalog import (  # noqa: F401 - declarations, event types and demo seeders register on import
    catalogs,
    categories,
    channels,
    demo,
    ecommerce,
    events,
    families,
    history,
    languages,
    products,
    transfer,
)
from services.core.modules import Module

MODULE = Module(
    name="catalog",
    events=(
        "catalog.generated",
        "ecommerce.sync_completed",
        "catalog.products_imported",
        "catalog.product_restored",
        "catalog.products_mass_edited",
    ),
    records=("catalog.product", "catalog.category", "catalog.catalog", "catalog.family", "catalog.channel"),
    seeders=(demo.seed_catalog,),
    position=140,
    title="Catalog",
)

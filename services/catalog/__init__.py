"""Catalog: products with variants and translations, the category tree, PDF catalogs, e-commerce sync."""

from services.catalog import (  # noqa: F401 - declarations, job kinds and demo seeders register on import
    catalogs,
    categories,
    demo,
    ecommerce,
    languages,
    products,
)

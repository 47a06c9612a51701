"""Catalog event types beyond the spec's two (``catalog.generated``, ``ecommerce.sync_completed``)."""

from services.core.events import register_event_type

M = "catalog"

for _name, _desc in [
    ("catalog.products_imported", "a product import finished: rows stored, updated and skipped"),
    ("catalog.product_restored", "an earlier version of a product was made its content again"),
    ("catalog.products_mass_edited", "one change was applied to a selection of products"),
]:
    register_event_type(_name, M, _desc)

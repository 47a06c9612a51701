"""Catalog syncs: a product made, renamed, activated and given an image offline; one moved twice."""

from __future__ import annotations

from typing import Any

from services.core.files import Upload
from tests.sync.modules.kit import PNG, Move, Platform, applied_once, conflict, offline, row, sync_a_then_b


def _product(s: Any, sku: str) -> Any:
    return s.do("catalog.products.create", body={"sku": sku, "name": f"Product {sku}"})


def test_catalog(platform: Platform, pair: Any) -> None:
    a, b = pair
    with offline(a):
        cat = a.do("catalog.categories.create", body={"name": "Sync shelf"})
        p = _product(a, "SYNC-CAT-1")
        a.do("catalog.products.update", id=p.id, body={"name": "Synced product", "category_ids": [cat.id]})
        a.do("catalog.products.update", id=p.id, body={"status": "active"})
        a.do("catalog.products.image.put", id=p.id, upload=Upload("p.png", "image/png", PNG))
    applied_once(platform, a, b, [
        row("catalog_categories", cat.id, name="Sync shelf"),
        row("catalog_products", p.id, name="Synced product", status="active"),
    ])  # fmt: skip
    p2 = _product(a, "SYNC-CAT-2")
    sync_a_then_b(a, b)
    conflict(
        platform, a, b,
        theirs=Move("catalog.products.update", {"id": p2.id}, {"status": "archived"}),
        mine=Move("catalog.products.update", {"id": p2.id}, {"status": "active"}),
        state=row("catalog_products", p2.id, status="archived"),
        current="archived",
        behind=lambda s: row("catalog_products", _product(s, "SYNC-CAT-3").id),
    )  # fmt: skip

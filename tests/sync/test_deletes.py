"""Deleted and archived records sync both ways, each once: a deletion on the platform leaves the
stations at their next pull; one made on a station offline is applied on the platform, or is a
sync issue when the record changed there meanwhile."""

from __future__ import annotations

import sqlite3
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from services.sync import station as st
from tests.sync.conftest import PlatformProcess, Station, owner_token

CATEGORIES = "/api/tenants/demo/support/categories"


def http(platform: PlatformProcess) -> httpx.Client:
    return httpx.Client(base_url=platform.url, headers={"Authorization": f"Bearer {owner_token(platform.url)}"})


def platform_has(platform: PlatformProcess, table: str, rid: str) -> bool:
    with sqlite3.connect(platform.data_dir / "data.db") as db:
        return db.execute(f"SELECT COUNT(*) FROM {table} WHERE id = ?", (rid,)).fetchone()[0] == 1  # noqa: S608


def station_has(s: Station, table: str, rid: str) -> bool:
    with s.rt.db.reading(s.tenant.id) as ses:
        return ses.execute(text(f"SELECT COUNT(*) FROM {table} WHERE id = :i"), {"i": rid}).scalar_one() == 1  # noqa: S608


def category_on_both(platform: PlatformProcess, *stations: Station, name: str = "Returns desk") -> str:
    with http(platform) as c:
        made = c.post(CATEGORIES, json={"name": name})
        assert made.status_code == 201, made.text
    for s in stations:
        s.sync()
        assert station_has(s, "support_categories", made.json()["data"]["id"])
    return str(made.json()["data"]["id"])


def test_a_record_deleted_on_the_platform_leaves_every_station_at_its_next_pull_once(
    platform: PlatformProcess, make_station: Any
) -> None:
    a, b = make_station("del-a", platform), make_station("del-b", platform)
    cat = category_on_both(platform, a, b)
    with http(platform) as c:
        assert c.delete(f"{CATEGORIES}/{cat}").status_code in (200, 204)
    for s in (a, b):
        status = s.sync()
        assert (status.state, status.difference) == ("idle", {})
        assert not station_has(s, "support_categories", cat)
        assert s.sync().pulled == 0  # the deletion came once


def test_a_record_deleted_on_a_station_offline_is_deleted_on_the_platform_once(
    platform: PlatformProcess, make_station: Any
) -> None:
    a, b = make_station("gone-a", platform), make_station("gone-b", platform)
    cat = category_on_both(platform, a, b)
    platform.kill()
    a.do("support.categories.delete", category_id=cat, query={})
    platform.start()
    status = a.sync()
    assert (status.state, status.pending, status.issues) == ("idle", 0, 0)
    assert not platform_has(platform, "support_categories", cat)
    b.sync()
    assert not station_has(b, "support_categories", cat)
    # The same batch sent again (its answer lost): answered from the receipt, nothing else happens.
    with a.rt.db.transaction(a.tenant.id) as ses:
        ses.execute(text("UPDATE outbox SET status = 'pending'"))
    assert (a.sync().issues, a.outbox()) == (0, {"sent": 1})


def test_a_record_both_sides_deleted_is_deleted_once_and_no_issue(platform: PlatformProcess, make_station: Any) -> None:
    a = make_station("both-a", platform)
    cat = category_on_both(platform, a)
    a.do("support.categories.delete", category_id=cat, query={})
    with http(platform) as c:
        assert c.delete(f"{CATEGORIES}/{cat}").status_code in (200, 204)
    status = a.sync()
    assert (status.state, status.pending, status.issues) == ("idle", 0, 0)
    assert a.outbox() == {"sent": 1}
    assert not platform_has(platform, "support_categories", cat) and not station_has(a, "support_categories", cat)


@pytest.mark.parametrize("choice", ["keep_theirs", "retry"])
def test_a_record_deleted_on_a_station_but_changed_on_the_platform_meanwhile_is_a_sync_issue(
    platform: PlatformProcess, make_station: Any, choice: str
) -> None:
    a = make_station(f"changed-{choice}", platform)
    cat = category_on_both(platform, a)
    a.do("support.categories.delete", category_id=cat, query={})
    with http(platform) as c:
        r = c.patch(f"{CATEGORIES}/{cat}", json={"name": "Returns and repairs"})
        assert r.status_code == 200, r.text
    status = a.sync()
    assert (status.pending, status.issues) == (0, 1)
    assert platform_has(platform, "support_categories", cat)  # not deleted over the colleague's change
    [issue] = st.issues(a.ctx())
    assert issue.status == "conflict" and issue.choices == ("keep_theirs", "retry")
    assert "changed on the platform" in issue.message

    async def decide() -> bool:
        e = a.engine()
        try:
            return await e.resolve(a.ctx(), issue.id, choice)  # type: ignore[arg-type]
        finally:
            await e.stop()

    import asyncio

    assert asyncio.run(decide())
    if choice == "keep_theirs":
        # The platform's version comes back to the station, with the colleague's change.
        with a.rt.db.reading(a.tenant.id) as ses:
            name = ses.execute(text("SELECT name FROM support_categories WHERE id = :i"), {"i": cat}).scalar_one()
        assert name == "Returns and repairs"
        assert a.sync().issues == 0 and platform_has(platform, "support_categories", cat)
    else:
        # Delete anyway: sent again without the version it named.
        status = a.sync()
        assert (status.pending, status.issues) == (0, 0)
        assert not platform_has(platform, "support_categories", cat)
        assert not station_has(a, "support_categories", cat)


def test_a_product_archived_or_deleted_on_a_station_offline_is_so_on_the_platform(
    platform: PlatformProcess, make_station: Any
) -> None:
    a, b = make_station("arch-a", platform), make_station("arch-b", platform)
    kept = a.do("catalog.products.create", body={"sku": "ARCH-1", "name": "To archive", "status": "active"})
    draft = a.do("catalog.products.create", body={"sku": "DEL-1", "name": "To delete"})
    assert a.sync().issues == 0
    platform.kill()
    assert a.do("catalog.products.delete", id=kept.id).status == "archived"  # it has history: archived
    assert a.do("catalog.products.delete", id=draft.id) is None  # a draft with none: deleted
    platform.start()
    status = a.sync()
    assert (status.pending, status.issues, status.difference) == (0, 0, {})
    with sqlite3.connect(platform.data_dir / "data.db") as db:
        assert db.execute("SELECT status FROM catalog_products WHERE id = ?", (kept.id,)).fetchone() == ("archived",)
    assert not platform_has(platform, "catalog_products", draft.id)
    b.sync()
    assert not station_has(b, "catalog_products", draft.id)
    with b.rt.db.reading(b.tenant.id) as ses:
        got = ses.execute(text("SELECT status FROM catalog_products WHERE id = :i"), {"i": kept.id}).scalar_one()
    assert got == "archived"

"""The request path's auth cache (services/core/authcache.py, issue 38 part 1): a request reads the
tenant, the key and the principal from the cache, and any change to them, made by whatever writes
to the database (here plain Core statements on another connection, as another worker process or a
script would), applies at the next request."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import event, text

from local_db.models import ApiKey
from services.core import auth, authcache
from services.core.authcache import Resolver, cache_of
from tests.conftest import LiveServer, auth_headers

LIST = "/demo/fulfillment/api/orders"


@pytest.fixture
def statements(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every SQL statement the server runs, as it runs it; the auth cache's version read too, which
    goes straight to the driver connection (no SQLAlchemy event sees it)."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_a: Any) -> None:
        seen.append(statement)

    cache = cache_of(server.runtime.db)
    read_version = cache.version

    def version() -> int:
        seen.append(authcache._VERSION_SQL)
        return read_version()

    monkeypatch.setattr(cache, "version", version)
    engine = server.runtime.db.engine
    event.listen(engine, "before_cursor_execute", record)
    yield seen
    event.remove(engine, "before_cursor_execute", record)


def change(server: LiveServer, sql: str, **params: Any) -> None:
    # A Core statement on its own connection: no ORM event of this process sees it.
    with server.runtime.db.engine.begin() as conn:
        conn.execute(text(sql), params)


def test_a_cached_request_reads_neither_tenant_nor_key(
    client: httpx.Client, server: LiveServer, statements: list[str]
) -> None:
    h = auth_headers(client, "owner@demo.test")
    r = client.post("/api/tenants/demo/api-keys", json={"name": "c", "modules": ["fulfillment"]}, headers=h)
    key = {"X-API-Key": r.json()["data"]["key"]}
    for _ in range(2):  # the key's first use writes its last_used_at: a change, read again once
        assert client.get(LIST, headers=key).status_code == 200
        assert client.get(LIST, headers=h).status_code == 200
    statements.clear()
    assert client.get(LIST, headers=key).status_code == 200
    assert client.get(LIST, headers=h).status_code == 200
    touched = " ".join(statements)
    assert "cache_versions" in touched
    for table in ("FROM tenants", "FROM api_keys", "FROM memberships", "FROM revoked_sessions"):
        assert table not in touched, table


def test_changes_by_another_writer_apply_at_the_next_request(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    r = client.post("/api/tenants/demo/api-keys", json={"name": "c", "modules": ["fulfillment"]}, headers=h)
    key_id, key = r.json()["data"]["id"], {"X-API-Key": r.json()["data"]["key"]}
    admin = auth_headers(client, "admin@demo.test")
    assert client.get(LIST, headers=key).status_code == 200
    assert client.get(LIST, headers=admin).status_code == 200

    # The admin loses fulfillment: the membership's modules change underneath.
    change(server, "UPDATE memberships SET user_modules = :m WHERE role = 'admin'", m='["support"]')
    assert client.get(LIST, headers=admin).status_code == 403
    # The key is revoked.
    change(server, "UPDATE api_keys SET revoked_at = CURRENT_TIMESTAMP WHERE id = :id", id=key_id)
    r = client.get(LIST, headers=key)
    assert r.status_code == 401 and r.json()["error"] == "API key revoked"
    # The tenant gives up the module: the owner is refused too.
    assert client.get(LIST, headers=h).status_code == 200
    change(server, "UPDATE tenants SET modules = :m WHERE slug = 'demo'", m='["support"]')
    assert client.get(LIST, headers=h).status_code == 403
    # A tenant renamed away is unknown at once.
    change(server, "UPDATE tenants SET slug = 'renamed' WHERE slug = 'demo'")
    assert client.get(LIST, headers=h).status_code == 404


def test_an_entry_read_at_an_old_version_is_not_served_at_a_new_one(server: LiveServer) -> None:
    db = server.runtime.db
    old = Resolver(db)
    assert old.get(("x",), lambda: "before") == "before"
    assert Resolver(db).get(("x",), lambda: "reloaded") == "before"  # same version: the cache
    change(server, "UPDATE users SET name = name")
    new = Resolver(db)
    assert new.version > old.version
    # A request still working at the old version stores what it loaded; the new one does not take it.
    old.get(("y",), lambda: "stale")
    assert new.get(("y",), lambda: "fresh") == "fresh"
    assert new.get(("x",), lambda: "after") == "after"
    assert cache_of(db) is new.cache


def test_a_public_page_shows_a_changed_brand_at_the_next_visit(client: httpx.Client, server: LiveServer) -> None:
    import json

    page = "/demo/support/p/new"
    assert client.get(page).status_code == 200
    assert client.get(page).status_code == 200  # now from the cache
    with server.runtime.db.engine.connect() as conn:
        raw = conn.execute(text("SELECT settings FROM tenants WHERE slug = 'demo'")).scalar()
    settings = (json.loads(raw) if isinstance(raw, str) else dict(raw or {})) | {"brand_color": "#123456"}
    change(server, "UPDATE tenants SET settings = :s WHERE slug = 'demo'", s=json.dumps(settings))
    r = client.get(page)
    assert r.status_code == 200 and "#123456" in r.text


def test_a_keys_last_use_written_keeps_the_cache(
    client: httpx.Client, server: LiveServer, statements: list[str]
) -> None:
    """The minute's last_used_at write is not an auth fact: it bumps no version, so no worker's cache
    empties for it (before, each key in use emptied every cache once a minute)."""
    h = auth_headers(client, "owner@demo.test")
    r = client.post("/api/tenants/demo/api-keys", json={"name": "c", "modules": ["fulfillment"]}, headers=h)
    key_id, key = r.json()["data"]["id"], {"X-API-Key": r.json()["data"]["key"]}
    assert client.get(LIST, headers=key).status_code == 200
    db = server.runtime.db
    before = Resolver(db).version
    # A minute later (as this process remembers it): the next request writes the time again.
    auth._USED_WRITTEN[key_id] = datetime.now(UTC) - timedelta(minutes=2)
    statements.clear()
    assert client.get(LIST, headers=key).status_code == 200
    touched = " ".join(statements)
    assert "UPDATE api_keys SET last_used_at" in touched and "FROM api_keys" not in touched
    assert Resolver(db).version == before
    with db.engine.connect() as conn:
        used = conn.execute(text("SELECT last_used_at FROM api_keys WHERE id = :id"), {"id": key_id}).scalar_one()
    assert used is not None
    # Any other change to the key still bumps it (a rename here; revocation is tested above).
    change(server, "UPDATE api_keys SET name = 'renamed' WHERE id = :id", id=key_id)
    assert Resolver(db).version > before


def test_the_key_trigger_watches_every_column_but_last_used_at(server: LiveServer) -> None:
    """A column added to api_keys must be added to the trigger (migration 0007's note)."""
    db = server.runtime.db
    with db.engine.connect() as conn:
        if db.is_sqlite:
            sql = conn.execute(
                text("SELECT sql FROM sqlite_master WHERE name = 'cache_version_api_keys_update'")
            ).scalar_one()
        else:
            sql = conn.execute(
                text("SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE tgname = 'cache_version_api_keys'")
            ).scalar_one()
    head = sql.split(" ON ", 1)[0]
    for col in ApiKey.__table__.columns:
        assert (col.name in head) is (col.name != "last_used_at"), col.name

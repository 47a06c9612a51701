"""Upgrading the previous release's database: the stored database of the last tagged release (with that
release's demo data, tests/upgrade_data/<tag>/, made by scripts/make-upgrade-data.sh) is upgraded with
the current migrations, twice, on SQLite and on PostgreSQL; then the API (a real uvicorn server) and
the sync (a push and a pull with a real station) run against it.

A migration that loses rows, that cannot run again after its own downgrade, or that leaves the data in
a shape the current code cannot serve or sync fails here.
"""

from __future__ import annotations

import lzma
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, func, inspect, select, table

from app.settings import Settings
from local_db import make_engine, run_migrations
from local_db.engine import alembic_config
from tests.conftest import LiveServer, auth_headers, start_server

UPGRADE_DATA = Path(__file__).parent / "upgrade_data"
ROOT_MIGRATIONS = Path(__file__).resolve().parents[1] / "local_db" / "migrations"


def _version(tag: str) -> tuple[int, ...]:
    return tuple(int(part) for part in tag.lstrip("v").split("."))


# The newest stored release is the previous one (the current code is the next).
PREVIOUS = max((p.name for p in UPGRADE_DATA.iterdir() if (p / "revision").exists()), key=_version)
DATA = UPGRADE_DATA / PREVIOUS
SECRET = (DATA / "secret.key").read_text().strip()  # the test key the release's seeding sealed with


def row_counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as c:
        return {
            name: int(c.execute(select(func.count()).select_from(table(name))).scalar_one())
            for name in inspect(engine).get_table_names()
        }


def demo_counts(engine: Engine, tables: tuple[str, ...]) -> dict[str, int]:
    """Rows of the demo tenant in some tables (what its lists must show after the upgrade)."""
    with engine.connect() as c:
        tenant = c.exec_driver_sql("SELECT id FROM tenants WHERE slug = 'demo'").scalar_one()
        return {
            name: int(c.exec_driver_sql(f"SELECT COUNT(*) FROM {name} WHERE tenant_id = '{tenant}'").scalar_one())
            for name in tables
        }


def revisions_in(engine: Engine) -> set[str]:
    with engine.connect() as c:
        return {str(r[0]) for r in c.exec_driver_sql("SELECT version_num FROM alembic_version")}


def upgrade_twice(engine: Engine, migrations: Path | None = None) -> list[str]:
    """Upgrade to the newest revisions; then take each revision the old database lacked back down and
    up again (each new migration runs twice, on real data), and start once more (nothing to do).
    Answers the new revisions, newest first. ``migrations``: another script directory (the test of
    this check); else the project's, as the app's start runs them."""
    cfg = alembic_config(engine)
    if migrations is not None:
        cfg.set_main_option("script_location", str(migrations))

    def start() -> None:
        if migrations is None:
            run_migrations(engine)  # what serve and the desktop run at start
        else:
            command.upgrade(cfg, "heads")

    old = revisions_in(engine)
    start()
    script = ScriptDirectory.from_config(cfg)
    had = {r.revision for r in script.iterate_revisions(tuple(old), "base")}
    new = [r.revision for r in script.walk_revisions() if r.revision not in had]  # heads first
    for rev in new:
        # "<rev>@-1": one step down on that revision's own branch, the other modules' branches untouched.
        command.downgrade(cfg, f"{rev}@-1")
    assert revisions_in(engine) == old, "the new migrations' downgrades did not lead back to the release's revisions"
    start()
    start()  # a second start: nothing left to do, nothing fails
    assert revisions_in(engine) == set(script.get_heads())
    if engine.dialect.name == "sqlite":  # off while migrating (local_db/migrations/env.py), on again after
        with engine.connect() as c:
            assert c.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    return new


def check_no_rows_lost(before: dict[str, int], after: dict[str, int]) -> None:
    gone = sorted(set(before) - set(after))
    assert not gone, f"tables of {PREVIOUS} dropped by the upgrade: {gone}"
    lost = {t: (before[t], after[t]) for t in before if after[t] < before[t] and t != "alembic_version"}
    assert not lost, f"rows lost by the upgrade (table: before, after): {lost}"


def check_api(url: str, before: dict[str, int]) -> None:
    """List, get and create on several modules, as an owner, over HTTP."""
    with httpx.Client(base_url=url, timeout=30) as client:
        h = auth_headers(client, "owner@demo.test")  # the release's password hash still signs in
        users = client.get("/api/tenants/demo/users", headers=h)
        assert users.status_code == 200, users.text
        assert users.json()["meta"]["total"] >= 4

        orders = client.get("/demo/fulfillment/api/orders", params={"limit": 100}, headers=h)
        assert orders.status_code == 200, orders.text
        assert orders.json()["meta"]["total"] == before["fulfillment_orders"]
        first = orders.json()["data"][0]
        got = client.get(f"/demo/fulfillment/api/orders/{first['id']}", headers=h)
        assert got.status_code == 200 and got.json()["data"]["id"] == first["id"]

        ticket = client.post(
            "/api/tenants/demo/support/tickets",
            json={
                "subject": "After the upgrade",
                "email": "ann@example.com",
                "name": "Ann",
                "description": "Still here?",
            },
            headers=h,
        )
        assert ticket.status_code == 201, ticket.text
        tid = ticket.json()["data"]["id"]
        assert client.get(f"/api/tenants/demo/support/tickets/{tid}", headers=h).json()["data"]["subject"] == (
            "After the upgrade"
        )
        tickets = client.get("/api/tenants/demo/support/tickets", headers=h).json()
        assert tickets["meta"]["total"] == before["support_tickets"] + 1

        item = client.post("/demo/inventory/api/items", json={"sku": "UPG-1", "name": "Upgrade mug"}, headers=h)
        assert item.status_code == 201, item.text
        items = client.get("/demo/inventory/api/items", params={"limit": 1}, headers=h).json()
        assert items["meta"]["total"] == before["inventory_items"] + 1

        doc = client.post("/demo/docs/api/documents", json={"title": "Upgrade notes", "body": "# Notes"}, headers=h)
        assert doc.status_code == 201, doc.text
        assert client.get(f"/demo/docs/api/documents/{doc.json()['data']['id']}", headers=h).status_code == 200

        audit = client.get("/api/tenants/demo/audit", headers=h)
        assert audit.status_code == 200, audit.text

        bad = client.post("/demo/inventory/api/items", json={"sku": ""}, headers=h)
        assert bad.status_code == 400  # the upgraded database refuses bad input like a new one


def check_sync(url: str, base: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A station registers with the upgraded platform, pushes a change, pulls the platform's, and
    downloads everything again without a difference."""
    from services.sync import station as st
    from tests.sync.conftest import Station, new_station_dir

    s = Station(new_station_dir(base, "upgrade-station", tmp_path_factory), "upgrade-station")
    try:
        s.link(url)
        made = s.do(
            "support.tickets.create",
            body={"subject": "From the station", "description": "pushed", "email": "bo@example.test", "name": "Bo"},
        )
        status = s.sync()
        assert (status.pending, status.issues) == (0, 0)
        with httpx.Client(base_url=url, timeout=30) as client:
            h = auth_headers(client, "owner@demo.test")
            there = client.get(f"/api/tenants/demo/support/tickets/{made.id}", headers=h)
            assert there.status_code == 200 and there.json()["data"]["subject"] == "From the station"
            doc = client.post("/demo/docs/api/documents", json={"title": "For the station", "body": "x"}, headers=h)
            assert doc.status_code == 201, doc.text
        s.sync()
        from local_db.models.docs import DocDocument

        with s.rt.db.reading(s.tenant.id) as ses:
            titles = set(ses.execute(select(DocDocument.title)).scalars())
        assert {"For the station", "Upgrade notes"} <= titles  # pulled from the upgraded platform
        st.restart_pull(s.rt, s.tenant.id)  # everything again: every upgraded row goes through the pull
        again = s.sync()
        assert again.issues == 0 and not again.difference, again
    finally:
        s.close()


def run_checks(settings: Settings, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    engine = make_engine(settings.resolved_database_url())
    before = row_counts(engine)
    listed = demo_counts(engine, ("fulfillment_orders", "support_tickets", "inventory_items"))
    upgrade_twice(engine)
    check_no_rows_lost(before, row_counts(engine))
    engine.dispose()
    srv: LiveServer = start_server(settings)
    try:
        check_api(srv.url, listed)
        check_sync(srv.url, tmp_path, tmp_path_factory)
    finally:
        srv.stop()
        srv.runtime.db.dispose()


@pytest.mark.timeout(600)  # a server, a station and a full pull: generous on a loaded machine
def test_the_previous_release_upgrades_on_sqlite(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    data = tmp_path / "platform"
    data.mkdir()
    (data / "data.db").write_bytes(lzma.decompress((DATA / "sqlite.db.xz").read_bytes()))
    settings = Settings(data_dir=data, secret_key=SECRET, demo=True, scheduler=False, rate_limits="off")
    run_checks(settings, tmp_path, tmp_path_factory)
    with make_engine(settings.resolved_database_url()).connect() as c:
        assert c.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"


FAKE = """
import sqlalchemy as sa
from alembic import op

revision = "9990_fake_{name}"
down_revision = "{parent}"
branch_labels = ("fake_{name}",)
depends_on = None


def upgrade() -> None:
    op.create_table("fake_{name}", sa.Column("id", sa.Integer, primary_key=True))


def downgrade() -> None:
    {downgrade}
"""


def test_a_migration_that_cannot_run_twice_fails_the_check(tmp_path: Path) -> None:
    # The release's database, and the project's migrations plus two new ones on a module branch each:
    # one that undoes itself (passes), one whose downgrade forgets its table (its second run fails).
    migrations = tmp_path / "migrations"
    shutil.copytree(ROOT_MIGRATIONS, migrations, ignore=shutil.ignore_patterns("__pycache__"))
    parent = "0004_tenant_sandboxes"
    good = FAKE.format(name="good", parent=parent, downgrade='op.drop_table("fake_good")')
    (migrations / "versions" / "9990_fake_good.py").write_text(good)
    db = tmp_path / "data.db"
    db.write_bytes(lzma.decompress((DATA / "sqlite.db.xz").read_bytes()))
    engine = make_engine(f"sqlite:///{db}")
    try:
        before = row_counts(engine)
        assert "9990_fake_good" in upgrade_twice(engine, migrations)
        check_no_rows_lost(before, row_counts(engine))
        bad = FAKE.format(name="bad", parent=parent, downgrade="pass")
        (migrations / "versions" / "9990_fake_bad.py").write_text(bad)
        with pytest.raises(Exception, match="fake_bad"):
            upgrade_twice(engine, migrations)
    finally:
        engine.dispose()


def test_a_migration_that_loses_rows_fails_the_check() -> None:
    # The check above must be able to fail: a table emptied or dropped is named.
    with pytest.raises(AssertionError, match="rows lost.*support_tickets"):
        check_no_rows_lost({"support_tickets": 3, "alembic_version": 20}, {"support_tickets": 0, "alembic_version": 21})
    with pytest.raises(AssertionError, match="dropped.*docs_documents"):
        check_no_rows_lost({"docs_documents": 1}, {})


PG_URL = os.environ.get("PLATFORM_TEST_POSTGRES_URL")


@pytest.fixture
def pg_database() -> Iterator[str]:
    """A database of this test's own on the test server (dropped after)."""
    from tests.conftest import empty_pg_database

    with empty_pg_database("upgrade") as url:
        yield url


@pytest.mark.timeout(600)  # a server, a station and a full pull: generous on a loaded machine
@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason="PLATFORM_TEST_POSTGRES_URL not set")
@pytest.mark.skipif(shutil.which("psql") is None, reason="psql (postgresql-client) not installed")
def test_the_previous_release_upgrades_on_postgres(
    pg_database: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # The release's plain-SQL dump, restored by psql as an operator would (stop at the first error).
    dump = lzma.decompress((DATA / "postgres.sql.xz").read_bytes())
    libpq = pg_database.replace("postgresql+psycopg://", "postgresql://", 1)
    restored = subprocess.run(
        ["psql", "-q", "-v", "ON_ERROR_STOP=1", "-d", libpq], input=dump, capture_output=True, timeout=300
    )
    assert restored.returncode == 0, restored.stderr.decode()[-2000:]
    settings = Settings(
        data_dir=tmp_path / "platform",
        database_url=pg_database,
        secret_key=SECRET,
        demo=True,
        scheduler=False,
        rate_limits="off",
    )
    run_checks(settings, tmp_path, tmp_path_factory)

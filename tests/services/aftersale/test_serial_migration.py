"""The 1001 migration re-keys active serials without dashes: a pair that now collides becomes a dispute."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from sqlalchemy import insert, text

from local_db import make_engine, run_migrations
from local_db.engine import alembic_config
from local_db.models import Tenant


def test_colliding_serials_become_a_dispute(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    run_migrations(engine)
    command.downgrade(alembic_config(engine), "1000_aftersale")
    with engine.connect() as c:
        c.execute(insert(Tenant.__table__).values(id="t1", slug="t1", name="T"))  # its other columns' defaults
        for wid, serial, at in (("w1", "SN-ABC-12345", "2026-01-01"), ("w2", "sn abc 12345", "2026-01-02"),
                                ("w3", "OTHER 1", "2026-01-03")):  # fmt: skip
            key = "".join(serial.split()).upper()  # the old rule: case and spaces only
            c.execute(
                text("INSERT INTO aftersale_warranties (id, tenant_id, serial_number, active_serial, product_sku, "
                     "warranty_months, purchase_date, coverage_until, status, email, name, created_at) VALUES "
                     "(:id, 't1', :s, :k, 'SKU', 12, '2026-01-01', '2027-01-01', 'active', 'a@b.c', 'A', :at)"),
                {"id": wid, "s": serial, "k": key, "at": at},
            )  # fmt: skip
        c.commit()
    run_migrations(engine)
    with engine.connect() as c:
        rows = c.execute(text("SELECT id, active_serial, status, disputes_id FROM aftersale_warranties ORDER BY id"))
        assert [tuple(r) for r in rows] == [
            ("w1", "SNABC12345", "active", None),
            ("w2", None, "disputed", "w1"),
            ("w3", "OTHER1", "active", None),
        ]
    engine.dispose()

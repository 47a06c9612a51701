"""aftersale: serials compared without dashes, disputed registrations, voids

Revision ID: 1001_aftersale_serial_disputes
Revises: 1000_aftersale
Create Date: 2026-11-26

``active_serial`` (the key one active registration holds) now ignores dashes as well as case and
spaces: ``SN-ABC-12345`` and ``sn abc 12345`` are one serial. Keys are recomputed; where two
active registrations now share a key, the earlier keeps it and the later becomes ``disputed``
(naming the earlier in ``disputes_id``), for staff to settle.
"""

import re

import sqlalchemy as sa
from alembic import op

revision = "1001_aftersale_serial_disputes"
down_revision = "1000_aftersale"
branch_labels = None
depends_on = None

_SEPARATORS = re.compile(r"[\s\-\u2010-\u2015\u2212]+")


def key(serial: str) -> str:
    # The same rule as services.aftersale.warranties.serial_key, frozen here as of this revision.
    return _SEPARATORS.sub("", serial).upper()


def upgrade() -> None:
    with op.batch_alter_table("aftersale_warranties", schema=None) as batch_op:
        batch_op.add_column(sa.Column("disputes_id", sa.String(length=36), nullable=True))
        batch_op.add_column(sa.Column("void_reason", sa.Text(), nullable=True))
    bind = op.get_bind()
    w = sa.table(
        "aftersale_warranties",
        sa.column("id"),
        sa.column("tenant_id"),
        sa.column("serial_number"),
        sa.column("active_serial"),
        sa.column("status"),
        sa.column("disputes_id"),
        sa.column("created_at"),
    )
    rows = bind.execute(
        sa.select(w.c.id, w.c.tenant_id, w.c.serial_number, w.c.active_serial)
        .where(w.c.active_serial.is_not(None))
        .order_by(w.c.created_at, w.c.id)
    ).all()
    # Free every key first, so a recomputed key never meets an old one in the unique index.
    bind.execute(sa.update(w).where(w.c.active_serial.is_not(None)).values(active_serial=None))
    holder: dict[tuple[str, str], str] = {}
    for rid, tenant, serial, _old in rows:
        k = (tenant, key(serial))
        if k in holder:
            bind.execute(sa.update(w).where(w.c.id == rid).values(status="disputed", disputes_id=holder[k]))
        else:
            holder[k] = rid
            bind.execute(sa.update(w).where(w.c.id == rid).values(active_serial=k[1]))


def downgrade() -> None:
    with op.batch_alter_table("aftersale_warranties", schema=None) as batch_op:
        batch_op.drop_column("void_reason")
        batch_op.drop_column("disputes_id")

"""docs templates

Revision ID: 1605_docs_templates
Revises: 1604_docs_revisions
Create Date: 2026-11-27 02:45:00
"""
from alembic import op
import sqlalchemy as sa
import local_db.base


revision = '1605_docs_templates'
down_revision = '1604_docs_revisions'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('docs_templates',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('description', sa.Text(), nullable=False),
    sa.Column('title', sa.String(length=300), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('category_id', sa.String(length=36), nullable=True),
    sa.Column('tags', sa.JSON(), nullable=False),
    sa.Column('created_by', sa.String(length=36), nullable=True),
    sa.Column('created_at', local_db.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('updated_at', local_db.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('tenant_id', sa.String(length=36), nullable=False),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_docs_templates_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_docs_templates'))
    )
    with op.batch_alter_table('docs_templates', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_docs_templates_tenant_id'), ['tenant_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('docs_templates', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_docs_templates_tenant_id'))
    op.drop_table('docs_templates')

"""Catalog tables: products with variants and translations, the category tree, PDF catalogs and
the state of the e-commerce sync (every tenant row has the TenantScoped mixin).

Prices are kept in integer cents: exact on every backend (SQLite has no decimal type).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class CatalogCategory(TenantScoped, Base):
    __tablename__ = "catalog_categories"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    parent_id: Mapped[str | None] = mapped_column(
        String(36), ForeignKey("catalog_categories.id", ondelete="SET NULL"), default=None, index=True
    )
    position: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class CatalogProduct(TenantScoped, Base):
    __tablename__ = "catalog_products"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    # SKUs are unique per tenant (across products and variants: the service checks both tables).
    __table_args__ = (
        UniqueConstraint("tenant_id", "sku", name="uq_catalog_products_tenant_sku"),
        Index("ix_catalog_products_tenant_status_created", "tenant_id", "status", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    sku: Mapped[str] = mapped_column(String(64))
    gtin: Mapped[str | None] = mapped_column(String(14), default=None)
    # The text in the tenant's default language; other languages are translations.
    name: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text, default="")
    # Hash of name and description: translations made from other text are stale.
    text_hash: Mapped[str] = mapped_column(String(64), default="")
    category_ids: Mapped[list[Any]] = mapped_column(default=list)
    attributes: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(20), default="draft")
    # Content hash of a product image in the tenant's blob store (drawn in PDF catalogs).
    image_sha256: Mapped[str | None] = mapped_column(String(64), default=None)
    # Set once the product was active, printed or pushed: deleting it then archives it.
    published_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class CatalogVariant(TenantScoped, Base):
    __tablename__ = "catalog_variants"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (UniqueConstraint("tenant_id", "sku", name="uq_catalog_variants_tenant_sku"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    product_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("catalog_products.id", ondelete="CASCADE"), index=True
    )
    sku: Mapped[str] = mapped_column(String(64))
    gtin: Mapped[str | None] = mapped_column(String(14), default=None)
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    price_cents: Mapped[int | None] = mapped_column(Integer, default=None)
    position: Mapped[int] = mapped_column(Integer, default=0)


class CatalogTranslation(TenantScoped, Base):
    __tablename__ = "catalog_translations"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        UniqueConstraint("tenant_id", "product_id", "language", name="uq_catalog_translations_product_language"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    product_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("catalog_products.id", ondelete="CASCADE"), index=True
    )
    language: Mapped[str] = mapped_column(String(35))  # BCP 47, canonical case
    name: Mapped[str] = mapped_column(String(200), default="")
    description: Mapped[str] = mapped_column(Text, default="")
    # Hash of the default-language text it was made from: a changed source makes it stale.
    source_hash: Mapped[str] = mapped_column(String(64), default="")
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class CatalogPdf(TenantScoped, Base):
    """A PDF catalog: the request, the job that makes it, and the file once made."""

    __tablename__ = "catalog_pdfs"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    title: Mapped[str] = mapped_column(String(200))
    language: Mapped[str] = mapped_column(String(35))
    category_ids: Mapped[list[Any]] = mapped_column(default=list)
    job_id: Mapped[str] = mapped_column(String(36), index=True)
    file_sha256: Mapped[str | None] = mapped_column(String(64), default=None)
    size: Mapped[int | None] = mapped_column(Integer, default=None)
    pages: Mapped[int | None] = mapped_column(Integer, default=None)
    product_count: Mapped[int | None] = mapped_column(Integer, default=None)
    created_by: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CatalogSyncItem(TenantScoped, Base):
    """What the shop holds of one product: its id there and the hash of what was last pushed."""

    __tablename__ = "catalog_sync_items"
    __table_args__ = (UniqueConstraint("tenant_id", "product_id", name="uq_catalog_sync_items_tenant_product"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    product_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("catalog_products.id", ondelete="CASCADE"), index=True
    )
    sku: Mapped[str] = mapped_column(String(64))
    external_id: Mapped[str | None] = mapped_column(String(200), default=None)
    payload_hash: Mapped[str] = mapped_column(String(64))
    pushed_at: Mapped[datetime] = mapped_column(default=utcnow)

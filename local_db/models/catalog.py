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
    # The attribute family: which attributes it has, their types, which channels require them.
    family_id: Mapped[str | None] = mapped_column(String(36), default=None, index=True)
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


class CatalogFamily(TenantScoped, Base):
    """An attribute family (Akeneo's): typed attributes and the channels that require each."""

    __tablename__ = "catalog_families"
    __synced__ = True  # stations cache it: products are checked against it offline
    __table_args__ = (UniqueConstraint("tenant_id", "code", name="uq_catalog_families_tenant_code"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    code: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(200))
    # [{code, label, type, unit, choices, required_in: [channel codes]}]
    attributes: Mapped[list[Any]] = mapped_column(default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class CatalogChannel(TenantScoped, Base):
    """What one shop or catalogue receives: the products of some categories, in some languages."""

    __tablename__ = "catalog_channels"
    __synced__ = True  # stations cache it: completeness is computed offline
    __table_args__ = (UniqueConstraint("tenant_id", "code", name="uq_catalog_channels_tenant_code"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    code: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(200))
    languages: Mapped[list[Any]] = mapped_column(default=list)  # empty: every enabled language
    category_ids: Mapped[list[Any]] = mapped_column(default=list)  # and their subcategories; empty: all
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class CatalogProductVersion(TenantScoped, Base):
    """A product as one save left it (its fields, variants and translations): every save adds one,
    a restore and an import too. The newest is the product as it is."""

    __tablename__ = "catalog_product_versions"
    __synced__ = True  # stations cache it: the history reads offline
    __table_args__ = (Index("ix_catalog_product_versions_product", "tenant_id", "product_id", "number"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    product_id: Mapped[str] = mapped_column(String(36))
    number: Mapped[int] = mapped_column(Integer)
    snapshot: Mapped[dict[str, Any]] = mapped_column(default=dict)
    source: Mapped[str] = mapped_column(String(20))  # create, update, translate, import, mass_edit, restore
    author: Mapped[str] = mapped_column(String(320), default="")  # the person's name or e-mail, as shown
    author_id: Mapped[str | None] = mapped_column(String(36), default=None)
    restored_from: Mapped[int | None] = mapped_column(Integer, default=None)
    at: Mapped[datetime] = mapped_column(default=utcnow)

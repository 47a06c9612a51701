"""Documentation tables: categories (a tree), documents (Markdown) and their media.

The search index is an FTS5 virtual table made by the migration ``1601_docs_fts`` (SQLite
only) and kept in step with ``docs_documents`` by triggers; it is not a model.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class DocCategory(TenantScoped, Base):
    __tablename__ = "docs_categories"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    parent_id: Mapped[str | None] = mapped_column(String(36), default=None)
    position: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class DocDocument(TenantScoped, Base):
    __tablename__ = "docs_documents"
    __synced__ = True
    __table_args__ = (Index("ix_docs_documents_status", "tenant_id", "status", "updated_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    title: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text, default="")
    category_id: Mapped[str | None] = mapped_column(String(36), default=None, index=True)
    status: Mapped[str] = mapped_column(String(20), default="draft")
    tags: Mapped[list[Any]] = mapped_column(default=list)
    created_by: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    published_at: Mapped[datetime | None] = mapped_column(default=None)
    # In the trash since (restorable); None: not trashed.
    deleted_at: Mapped[datetime | None] = mapped_column(default=None)


class DocMedia(TenantScoped, Base):
    __tablename__ = "docs_media"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    document_id: Mapped[str] = mapped_column(String(36), index=True)
    filename: Mapped[str] = mapped_column(String(255))
    content_type: Mapped[str] = mapped_column(String(100))
    size: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class DocRevision(TenantScoped, Base):
    """A document as one save left it (title, body, tags, category): every save adds one, a
    restore too. The newest is the document as it is."""

    __tablename__ = "docs_revisions"
    __synced__ = True  # stations cache it: the history reads offline
    __table_args__ = (Index("ix_docs_revisions_document", "tenant_id", "document_id", "number"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    document_id: Mapped[str] = mapped_column(String(36))
    number: Mapped[int] = mapped_column(Integer)
    title: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text, default="")
    tags: Mapped[list[Any]] = mapped_column(default=list)
    category_id: Mapped[str | None] = mapped_column(String(36), default=None)
    author: Mapped[str] = mapped_column(String(320), default="")  # the person's name or e-mail, as shown
    author_id: Mapped[str | None] = mapped_column(String(36), default=None)
    restored_from: Mapped[int | None] = mapped_column(Integer, default=None)
    at: Mapped[datetime] = mapped_column(default=utcnow)


class DocTemplate(TenantScoped, Base):
    """A document's starting point: a title and a Markdown body with ``{{placeholders}}`` that a
    new document fills or leaves for its author (docs/docs.md "Templates"). Its own table, not a
    flag on documents, so a template is never a search hit, a help-centre page or a revision."""

    __tablename__ = "docs_templates"
    __synced__ = True  # stations cache it: a station starts documents from templates offline

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text, default="")
    title: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text, default="")
    category_id: Mapped[str | None] = mapped_column(String(36), default=None)
    tags: Mapped[list[Any]] = mapped_column(default=list)
    created_by: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

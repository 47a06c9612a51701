"""Documentation use cases: documents (Markdown) with their status and trash, categories, media, search.

Status changes go through ``states.DOCUMENT`` and emit their event in the same unit of work. A
trashed document reads as 404 except on the trash list (``?trashed=true``), the restore and a
permanent delete.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.docs import DocCategory, DocDocument, DocMedia
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed
from services.core.events import emit
from services.core.files import FileResult, Upload
from services.core.pagination import ListQuery, Page, PageSpec, page_spec, paginate
from services.core.roles import MANAGERS, STAFF
from services.core.storage import IMAGE_TYPES, read_blob, store_blob
from services.docs import search as fts
from services.docs import states
from services.docs.schemas import (
    CategoryIn,
    CategoryOut,
    DeleteQuery,
    DocumentIn,
    DocumentOut,
    DocumentQuery,
    DocumentUpdate,
    MediaOut,
    SearchHit,
    SearchQuery,
    SuggestQuery,
)

DOCUMENT = record_kind("docs.document", get="docs.documents.get", label="title")
CATEGORY = record_kind("docs.category", get="docs.categories.get", label="name")
MEDIA_TYPES = IMAGE_TYPES | {"application/pdf", "text/plain"}
SORTABLE = {
    "updated_at": DocDocument.updated_at,
    "created_at": DocDocument.created_at,
    "title": DocDocument.title,
    "status": DocDocument.status,
}
EVENT = {
    "published": "docs.document_published",
    "draft": "docs.document_unpublished",
    "archived": "docs.document_archived",
}


def _doc(s: Session, did: str, *, trashed: bool = False, lock: bool = False) -> DocDocument:
    """The document, or 404 (missing, another tenant's, or in the trash unless ``trashed``)."""
    d = s.get(DocDocument, did, with_for_update=lock or None)
    if d is None or (d.deleted_at is not None and not trashed):
        raise NotFound("document not found", {"id": did})
    return d


def _category(s: Session, cid: str | None) -> None:
    if cid is not None and s.get(DocCategory, cid) is None:
        raise ValidationFailed("no such category", {"category_id": cid})


def _event(ctx: Ctx, type_: str, d: DocDocument) -> None:
    emit(ctx, type_, {"document_id": d.id, "title": d.title, "status": d.status})


def _move(ctx: Ctx, d: DocDocument, target: str) -> None:
    d.status = states.check(d.status, states.ACTION_TO[target])
    if target == "published":
        d.published_at = ctx.now()
    _event(ctx, EVENT[target], d)


# --- documents ----------------------------------------------------------------------------


@use_case(
    "docs.documents.list", "GET /documents", tx="read", roles=STAFF, summary="documents (?trashed=true: the trash)"
)
def list_documents(ctx: Ctx, query: DocumentQuery) -> Page[DocumentOut]:
    D = DocDocument
    stmt = select(D).where(D.deleted_at.is_not(None) if query.trashed else D.deleted_at.is_(None))
    if query.status:
        stmt = stmt.where(D.status == query.status)
    if query.category_id:
        stmt = stmt.where(D.category_id == query.category_id)
    if query.tag:
        stmt = stmt.where(fts.tag_filter(query.tag))
    if query.search:
        stmt = stmt.where(fts._has(D.title, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns=SORTABLE, default_sort="-updated_at")
        return page.map(DocumentOut.model_validate)


@use_case(
    "docs.documents.search",
    "GET /documents/search",
    tx="read",
    roles=STAFF,
    summary="ranked full-text search with snippets (published documents unless ?status=)",
)
def search_documents(ctx: Ctx, query: SearchQuery) -> Page[SearchHit]:
    spec = page_spec(query, sortable=[], default_sort=None)
    with ctx.read() as s:
        hits, total = fts.search(
            ctx, s, query.q, status=query.status, category_id=query.category_id, limit=spec.limit, offset=spec.offset
        )
        return _hits_page(hits, total, spec)


@dataclass
class SearchPage(Page[SearchHit]):
    """A search's page: past ``fts.TOTAL_CAP`` hits the total is that cap and ``total_capped`` says
    there are more (the envelope's ``meta`` and ``pagination`` carry it beside ``total``)."""

    capped: bool = False

    def meta(self) -> dict[str, Any]:
        out = super().meta()
        out["meta"]["total_capped"] = out["pagination"]["total_capped"] = self.capped
        return out


def _hits_page(hits: list[fts.Hit], total: int, spec: PageSpec) -> SearchPage:
    items = [SearchHit(**h.__dict__) for h in hits]
    return SearchPage(items, min(total, fts.TOTAL_CAP), spec, capped=total > fts.TOTAL_CAP)


@use_case(
    "docs.documents.suggest",
    "GET /documents/suggest",
    tx="read",
    roles=STAFF,
    summary="published articles for a text (a ticket): any of its telling words, ranked",
)
def suggest_documents(ctx: Ctx, query: SuggestQuery) -> Page[SearchHit]:
    spec = page_spec(ListQuery(limit=query.limit), sortable=[], default_sort=None)
    words = fts.suggestion_words(query.text)
    if not words:
        return Page([], 0, spec)
    with ctx.read() as s:
        hits, total = fts.search(
            ctx, s, " ".join(words), status="published", category_id=None, limit=spec.limit, offset=0, any_word=True
        )
        return _hits_page(hits, total, spec)


@use_case("docs.documents.get", "GET /documents/{id}", tx="read", roles=STAFF)
def get_document(ctx: Ctx, id: str) -> DocumentOut:
    with ctx.read() as s:
        return DocumentOut.model_validate(_doc(s, id))


@use_case(
    "docs.documents.create",
    "POST /documents",
    tx="write",
    roles=STAFF,
    status=201,
    says="New document",
    record=DOCUMENT,
)
def create_document(ctx: Ctx, body: DocumentIn) -> DocumentOut:
    now = ctx.now()
    with ctx.write() as s:
        _category(s, body.category_id)
        d = DocDocument(
            id=new_id(),
            title=body.title,
            body=body.body,
            category_id=body.category_id,
            status="draft",
            tags=body.tags,
            created_by=ctx.principal.id,
            created_at=now,
            updated_at=now,
        )
        s.add(d)
        s.flush()
        if body.status != "draft":
            _move(ctx, d, body.status)
        s.flush()
        return DocumentOut.model_validate(d)


@use_case(
    "docs.documents.update",
    "PUT /documents/{id}",
    tx="write",
    roles=STAFF,
    says="Change document",
    record=DOCUMENT,
    summary="edit a document; {status} publishes, unpublishes or archives it",
)
def update_document(ctx: Ctx, id: str, body: DocumentUpdate) -> DocumentOut:
    fields = body.model_dump(exclude_unset=True)
    with ctx.write() as s:
        d = _doc(s, id, trashed=True, lock=True)
        if d.deleted_at is not None:
            # Moved to the trash meanwhile (another person, or another station's synced change):
            # a conflict naming the document's state, not a 404 the person cannot act on.
            raise Conflict(
                "the document is in the trash: restore it to edit it", {"id": id, "current_state": "trashed"}
            )
        if "category_id" in fields:
            _category(s, body.category_id)
            d.category_id = body.category_id
        for f in ("title", "body", "tags"):
            if fields.get(f) is not None:
                setattr(d, f, fields[f])
        if body.status is not None and body.status != d.status:
            _move(ctx, d, body.status)
        d.updated_at = ctx.now()
        s.flush()
        return DocumentOut.model_validate(d)


@use_case(
    "docs.documents.delete",
    "DELETE /documents/{id}",
    tx="write",
    roles=STAFF,
    says="Delete document",
    record=DOCUMENT,
    summary="move to the trash (?permanent=true removes it and its media)",
)
def delete_document(ctx: Ctx, id: str, query: DeleteQuery) -> None:
    with ctx.write() as s:
        d = _doc(s, id, trashed=query.permanent, lock=True)
        if query.permanent:
            if ctx.principal.role not in MANAGERS and ctx.principal.kind != "system":
                raise Forbidden("only owners and admins remove a document for good", {"id": id})
            _event(ctx, "docs.document_deleted", d)
            s.execute(delete(DocMedia).where(DocMedia.document_id == d.id))
            s.delete(d)
        else:
            d.deleted_at = ctx.now()
            _event(ctx, "docs.document_trashed", d)
        s.flush()


@use_case(
    "docs.documents.restore",
    "POST /documents/{id}/restore",
    tx="write",
    roles=STAFF,
    says="Restore document",
    record=DOCUMENT,
    summary="bring a document back from the trash, with its status",
)
def restore_document(ctx: Ctx, id: str) -> DocumentOut:
    with ctx.write() as s:
        d = s.get(DocDocument, id, with_for_update=True)
        if d is None or d.deleted_at is None:
            raise NotFound("no such document in the trash", {"id": id})
        d.deleted_at = None
        d.updated_at = ctx.now()
        _event(ctx, "docs.document_restored", d)
        s.flush()
        return DocumentOut.model_validate(d)


# --- categories ---------------------------------------------------------------------------


def _tree(cats: list[DocCategory]) -> list[CategoryOut]:
    """Categories in tree order (parents before children, siblings by position and name), with paths."""
    by_parent: dict[str | None, list[DocCategory]] = {}
    ids = {c.id for c in cats}
    for c in cats:
        by_parent.setdefault(c.parent_id if c.parent_id in ids else None, []).append(c)
    out: list[CategoryOut] = []

    def walk(parent: str | None, path: list[str]) -> None:
        for c in sorted(by_parent.get(parent, []), key=lambda c: (c.position, c.name.lower())):
            out.append(CategoryOut.model_validate(c).model_copy(update={"path": [*path, c.name], "depth": len(path)}))
            walk(c.id, [*path, c.name])

    walk(None, [])
    return out


@use_case("docs.categories.list", "GET /doc-categories", tx="read", roles=STAFF, summary="the category tree, in order")
def list_categories(ctx: Ctx, query: ListQuery) -> Page[CategoryOut]:
    spec = page_spec(query, sortable=[], default_sort=None)
    with ctx.read() as s:
        rows = _tree(list(s.execute(select(DocCategory)).scalars()))
        return Page(rows[spec.offset : spec.offset + spec.limit], len(rows), spec)


@use_case("docs.categories.get", "GET /doc-categories/{id}", tx="read", roles=STAFF)
def get_category(ctx: Ctx, id: str) -> CategoryOut:
    with ctx.read() as s:
        c = s.get(DocCategory, id)
        if c is None:
            raise NotFound("category not found", {"id": id})
        return CategoryOut.model_validate(c)


@use_case(
    "docs.categories.create",
    "POST /doc-categories",
    tx="write",
    roles=STAFF,
    status=201,
    says="New category",
    record=CATEGORY,
)
def create_category(ctx: Ctx, body: CategoryIn) -> CategoryOut:
    with ctx.write() as s:
        if body.parent_id is not None and s.get(DocCategory, body.parent_id) is None:
            raise ValidationFailed("no such parent category", {"parent_id": body.parent_id})
        c = DocCategory(
            id=new_id(), name=body.name, parent_id=body.parent_id, position=body.position, created_at=ctx.now()
        )
        s.add(c)
        s.flush()
        return CategoryOut.model_validate(c)


# --- media --------------------------------------------------------------------------------


def _media_out(ctx: Ctx, m: DocMedia) -> MediaOut:
    slug = ctx.tenant.slug if ctx.tenant else ""
    url = f"/{slug}/docs/api/documents/{m.document_id}/media/{m.id}"
    return MediaOut(
        id=m.id,
        document_id=m.document_id,
        filename=m.filename,
        content_type=m.content_type,
        size=m.size,
        url=url,
        created_at=m.created_at,
    )


@use_case(
    "docs.media.upload",
    "POST /documents/{id}/media",
    tx="write",
    roles=STAFF,
    status=201,
    limit="upload",
    upload=True,
    says="Add media",
    record=DOCUMENT,
    summary="attach an image, a PDF or a text file (multipart file)",
)
def upload_media(ctx: Ctx, id: str, upload: Upload) -> MediaOut:
    blob = store_blob(ctx, upload.content, allowed=frozenset(MEDIA_TYPES))  # 413 over the limit, 400 other types
    with ctx.write() as s:
        _doc(s, id)
        m = DocMedia(
            id=new_id(),
            document_id=id,
            filename=(upload.filename or "file")[:255],
            content_type=blob.content_type,
            size=blob.size,
            sha256=blob.sha256,
            created_at=ctx.now(),
        )
        s.add(m)
        s.flush()
        return _media_out(ctx, m)


@use_case("docs.media.list", "GET /documents/{id}/media", tx="read", roles=STAFF)
def list_media(ctx: Ctx, id: str, query: ListQuery) -> Page[MediaOut]:
    with ctx.read() as s:
        _doc(s, id)
        stmt = select(DocMedia).where(DocMedia.document_id == id)
        page = paginate(s, stmt, query, columns={"created_at": DocMedia.created_at, "filename": DocMedia.filename})
        return page.map(lambda m: _media_out(ctx, m))


@use_case("docs.media.get", "GET /documents/{id}/media/{media_id}", tx="read", roles=STAFF, summary="the file")
def get_media(ctx: Ctx, id: str, media_id: str) -> FileResult:
    with ctx.read() as s:
        _doc(s, id)
        m = s.get(DocMedia, media_id)
        if m is None or m.document_id != id:
            raise NotFound("media not found", {"id": media_id})
        try:
            content = read_blob(ctx, m.sha256)
        except FileNotFoundError as exc:
            raise NotFound("the file is missing from storage", {"id": media_id}) from exc
        return FileResult(content, m.content_type, m.filename)

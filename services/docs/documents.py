"""Docs: documents."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.docs import DocCategory, DocDocument, DocMedia, DocRevision
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed
from services.core.events import emit
from services.core.pagination import ListQuery, Page, PageSpec, page_spec, paginate
from services.core.roles import MANAGERS, STAFF
from services.docs import revisions, states, templates
from services.docs import search as fts
from services.docs.schemas import (
    DeleteQuery,
    DocumentIn,
    DocumentOut,
    DocumentQuery,
    DocumentUpdate,
    SearchHit,
    SearchQuery,
    SuggestQuery,
)

DOCUMENT = record_kind("docs.document", get="docs.documents.get", label="title")


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


@use_case(
    "docs.documents.list", "GET /documents", tx="read", roles=STAFF, summary="documents (?trashed=true: the trash)"
)
def list_documents(ctx: Ctx, query: DocumentQuery, session: Session = SESSION) -> Page[DocumentOut]:
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
    page = paginate(session, stmt, query, columns=SORTABLE, default_sort="-updated_at")
    return page.map(DocumentOut.model_validate)


@use_case(
    "docs.documents.search",
    "GET /documents/search",
    tx="read",
    roles=STAFF,
    summary="ranked full-text search with snippets (published documents unless ?status=)",
)
def search_documents(ctx: Ctx, query: SearchQuery, session: Session = SESSION) -> Page[SearchHit]:
    spec = page_spec(query, sortable=[], default_sort=None)
    hits, total = fts.search(
        ctx, session, query.q, status=query.status, category_id=query.category_id, limit=spec.limit, offset=spec.offset
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
def suggest_documents(ctx: Ctx, query: SuggestQuery, session: Session = SESSION) -> Page[SearchHit]:
    spec = page_spec(ListQuery(limit=query.limit), sortable=[], default_sort=None)
    words = fts.suggestion_words(query.text)
    if not words:
        return Page([], 0, spec)
    hits, total = fts.search(
        ctx, session, " ".join(words), status="published", category_id=None, limit=spec.limit, offset=0, any_word=True
    )
    return _hits_page(hits, total, spec)


@use_case("docs.documents.get", "GET /documents/{id}", tx="read", roles=STAFF)
def get_document(ctx: Ctx, id: str, session: Session = SESSION) -> DocumentOut:
    return DocumentOut.model_validate(_doc(session, id))


@use_case(
    "docs.documents.create",
    "POST /documents",
    tx="write",
    roles=STAFF,
    status=201,
    says="New document",
    record=DOCUMENT,
)
def create_document(ctx: Ctx, body: DocumentIn, session: Session = SESSION) -> DocumentOut:
    now = ctx.now()
    if body.from_template is not None:
        title, text, category, tags = templates.from_template(ctx, session, body)
    else:
        title, text, category, tags = body.title or "", body.body or "", body.category_id, body.tags or []
    _category(session, category)
    d = DocDocument(
        id=new_id(),
        title=title,
        body=text,
        category_id=category,
        status="draft",
        tags=tags,
        created_by=ctx.principal.id,
        created_at=now,
        updated_at=now,
    )
    session.add(d)
    session.flush()
    if body.status != "draft":
        _move(ctx, d, body.status)
    session.flush()
    revisions.record_revision(ctx, session, d)
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
def update_document(ctx: Ctx, id: str, body: DocumentUpdate, session: Session = SESSION) -> DocumentOut:
    fields = body.model_dump(exclude_unset=True)
    d = _doc(session, id, trashed=True, lock=True)
    if d.deleted_at is not None:
        # Moved to the trash meanwhile (another person, or another station's synced change):
        # a conflict naming the document's state, not a 404 the person cannot act on.
        raise Conflict("the document is in the trash: restore it to edit it", {"id": id, "current_state": "trashed"})
    revisions.record_first(ctx, session, d)  # a document saved before history was kept
    if "category_id" in fields:
        _category(session, body.category_id)
        d.category_id = body.category_id
    for f in ("title", "body", "tags"):
        if fields.get(f) is not None:
            setattr(d, f, fields[f])
    if body.status is not None and body.status != d.status:
        _move(ctx, d, body.status)
    d.updated_at = ctx.now()
    session.flush()
    revisions.record_revision(ctx, session, d)  # every save that changed the content
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
def delete_document(ctx: Ctx, id: str, query: DeleteQuery, session: Session = SESSION) -> None:
    d = _doc(session, id, trashed=query.permanent, lock=True)
    if query.permanent:
        if ctx.principal.role not in MANAGERS and ctx.principal.kind != "system":
            raise Forbidden("only owners and admins remove a document for good", {"id": id})
        _event(ctx, "docs.document_deleted", d)
        session.execute(delete(DocMedia).where(DocMedia.document_id == d.id))
        session.execute(delete(DocRevision).where(DocRevision.document_id == d.id))
        session.delete(d)
    else:
        d.deleted_at = ctx.now()
        _event(ctx, "docs.document_trashed", d)
    session.flush()


@use_case(
    "docs.documents.restore",
    "POST /documents/{id}/restore",
    tx="write",
    roles=STAFF,
    says="Restore document",
    record=DOCUMENT,
    summary="bring a document back from the trash, with its status",
)
def restore_document(ctx: Ctx, id: str, session: Session = SESSION) -> DocumentOut:
    d = session.get(DocDocument, id, with_for_update=True)
    if d is None or d.deleted_at is None:
        raise NotFound("no such document in the trash", {"id": id})
    d.deleted_at = None
    d.updated_at = ctx.now()
    _event(ctx, "docs.document_restored", d)
    session.flush()
    return DocumentOut.model_validate(d)

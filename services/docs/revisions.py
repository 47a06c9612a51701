"""Docs: a document's history (every save a revision, a diff against the previous, restore) and its
export as Markdown or PDF (docs/docs.md "Revisions and export")."""

from __future__ import annotations

import difflib
import re
from datetime import datetime
from typing import Literal

from pydantic import BaseModel
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.docs import DocDocument, DocRevision
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound
from services.core.events import emit
from services.core.files import FileResult
from services.core.filesafety import clean_filename
from services.core.pagination import ListQuery, Page, paginate
from services.core.roles import STAFF
from services.core.schemas import Out
from services.docs.export import render_pdf
from services.docs.schemas import DocumentOut

DOCUMENT = "docs.document"


class RevisionOut(Out):
    id: str
    number: int
    title: str
    author: str
    at: datetime
    restored_from: int | None = None


class RevisionDetail(RevisionOut):
    body: str
    tags: list[str]
    category_id: str | None
    # The unified diff of this revision's title and body against the previous one ("" for the first).
    diff: str


class ExportQuery(BaseModel):
    format: Literal["md", "pdf"] = "md"


def _author(ctx: Ctx) -> str:
    p = ctx.principal
    return p.name or p.email or p.kind


def _last(s: Session, document_id: str) -> DocRevision | None:
    return s.execute(
        select(DocRevision).where(DocRevision.document_id == document_id).order_by(DocRevision.number.desc()).limit(1)
    ).scalar_one_or_none()


def record_revision(ctx: Ctx, s: Session, d: DocDocument, restored_from: int | None = None) -> DocRevision | None:
    """The document as this save leaves it, unless the newest revision already holds exactly that.

    A document saved before revisions were kept gets its earlier state as revision 1 the first
    time, so its history starts with what people saw (its author and time as recorded).
    """
    last = _last(s, d.id)
    same = last is not None and (last.title, last.body, list(last.tags or []), last.category_id) == (
        d.title,
        d.body,
        list(d.tags or []),
        d.category_id,
    )
    if same and restored_from is None:
        return None
    r = DocRevision(
        id=new_id(),
        document_id=d.id,
        number=(last.number + 1) if last else 1,
        title=d.title,
        body=d.body,
        tags=list(d.tags or []),
        category_id=d.category_id,
        author=_author(ctx),
        author_id=ctx.principal.user_id,
        restored_from=restored_from,
        at=ctx.now(),
    )
    s.add(r)
    s.flush()
    return r


def record_first(ctx: Ctx, s: Session, d: DocDocument) -> None:
    """Before the first revised save of a document that has none: its state then, as revision 1."""
    if s.execute(select(func.count()).where(DocRevision.document_id == d.id)).scalar_one():
        return
    s.add(
        DocRevision(
            id=new_id(),
            document_id=d.id,
            number=1,
            title=d.title,
            body=d.body,
            tags=list(d.tags or []),
            category_id=d.category_id,
            author="",
            author_id=d.created_by,
            at=d.updated_at or d.created_at,
        )
    )
    s.flush()


def _doc(s: Session, id: str) -> DocDocument:
    d = s.get(DocDocument, id)
    if d is None or d.deleted_at is not None:
        raise NotFound("document not found", {"id": id})
    return d


def _revision(s: Session, d: DocDocument, revision_id: str) -> DocRevision:
    r = s.get(DocRevision, revision_id)
    if r is None or r.document_id != d.id:
        raise NotFound("no such revision of this document", {"id": d.id, "revision_id": revision_id})
    return r


def diff(before: DocRevision | None, after: DocRevision) -> str:
    if before is None:
        return ""
    a = [f"# {before.title}", "", *before.body.splitlines()]
    b = [f"# {after.title}", "", *after.body.splitlines()]
    return "\n".join(difflib.unified_diff(a, b, f"revision {before.number}", f"revision {after.number}", lineterm=""))


@use_case(
    "docs.revisions.list",
    "GET /documents/{id}/revisions",
    tx="read",
    roles=STAFF,
    record=DOCUMENT,
    summary="a document's revisions, newest first",
)
def list_revisions(ctx: Ctx, id: str, query: ListQuery, session: Session = SESSION) -> Page[RevisionOut]:
    d = _doc(session, id)
    if query.sort is None:  # newest first unless the caller sorts otherwise
        query.sort, query.order = "number", "desc"
    page = paginate(
        session,
        select(DocRevision).where(DocRevision.document_id == d.id),
        query,
        columns={"number": DocRevision.number, "at": DocRevision.at},
    )
    return Page([RevisionOut.model_validate(r) for r in page.items], page.total, page.spec)


@use_case(
    "docs.revisions.get",
    "GET /documents/{id}/revisions/{revision_id}",
    tx="read",
    roles=STAFF,
    record=DOCUMENT,
    summary="one revision with its diff against the previous",
)
def get_revision(ctx: Ctx, id: str, revision_id: str, session: Session = SESSION) -> RevisionDetail:
    d = _doc(session, id)
    r = _revision(session, d, revision_id)
    before = session.execute(
        select(DocRevision)
        .where(DocRevision.document_id == d.id, DocRevision.number < r.number)
        .order_by(DocRevision.number.desc())
        .limit(1)
    ).scalar_one_or_none()
    return RevisionDetail(
        id=r.id,
        number=r.number,
        title=r.title,
        author=r.author,
        at=r.at,
        restored_from=r.restored_from,
        body=r.body,
        tags=list(r.tags or []),
        category_id=r.category_id,
        diff=diff(before, r),
    )


@use_case(
    "docs.revisions.restore",
    "POST /documents/{id}/revisions/{revision_id}/restore",
    tx="write",
    roles=STAFF,
    says="Restore revision",
    record=DOCUMENT,
    summary="make a revision the document again (a new revision; the history keeps every one)",
)
def restore_revision(ctx: Ctx, id: str, revision_id: str, session: Session = SESSION) -> DocumentOut:
    d = session.get(DocDocument, id, with_for_update=True)
    if d is None:
        raise NotFound("document not found", {"id": id})
    if d.deleted_at is not None:
        raise Conflict("the document is in the trash: restore it first", {"id": id, "current_state": "trashed"})
    r = _revision(session, d, revision_id)
    d.title, d.body, d.tags, d.category_id = r.title, r.body, list(r.tags or []), r.category_id
    d.updated_at = ctx.now()
    record_revision(ctx, session, d, restored_from=r.number)
    emit(ctx, "docs.revision_restored", {"document_id": d.id, "title": d.title, "revision": r.number})
    session.flush()
    return DocumentOut.model_validate(d)


@use_case(
    "docs.documents.export",
    "GET /documents/{id}/export",
    tx="read",
    roles=STAFF,
    record=DOCUMENT,
    summary="the document as Markdown (?format=md) or PDF (?format=pdf)",
)
def export_document(ctx: Ctx, id: str, query: ExportQuery, session: Session = SESSION) -> FileResult:
    d = _doc(session, id)
    name = clean_filename(re.sub(r"[^\w.-]+", "-", d.title).strip("-") or "document")
    if query.format == "md":
        text = f"# {d.title}\n\n{d.body}"
        return FileResult(text.encode(), "text/markdown; charset=utf-8", f"{name}.md", inline=False)
    return FileResult(render_pdf(d.title, d.body), "application/pdf", f"{name}.pdf")

"""Docs: media."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.docs import DocMedia
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.files import FileResult, Upload
from services.core.pagination import ListQuery, Page, paginate
from services.core.roles import STAFF
from services.core.storage import IMAGE_TYPES, keep_upload, send_stored
from services.docs.documents import DOCUMENT, _doc
from services.docs.schemas import (
    MediaOut,
)

MEDIA_TYPES = IMAGE_TYPES | {"application/pdf", "text/plain"}


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
def upload_media(ctx: Ctx, id: str, upload: Upload, session: Session = SESSION) -> MediaOut:
    _doc(session, id)
    m = keep_upload(ctx, session, DocMedia, upload, allowed=MEDIA_TYPES, default_name="file", document_id=id)
    return _media_out(ctx, m)


@use_case("docs.media.list", "GET /documents/{id}/media", tx="read", roles=STAFF)
def list_media(ctx: Ctx, id: str, query: ListQuery, session: Session = SESSION) -> Page[MediaOut]:
    _doc(session, id)
    stmt = select(DocMedia).where(DocMedia.document_id == id)
    page = paginate(session, stmt, query, columns={"created_at": DocMedia.created_at, "filename": DocMedia.filename})
    return page.map(lambda m: _media_out(ctx, m))


@use_case("docs.media.get", "GET /documents/{id}/media/{media_id}", tx="read", roles=STAFF, summary="the file")
def get_media(ctx: Ctx, id: str, media_id: str, session: Session = SESSION) -> FileResult:
    _doc(session, id)
    m = session.get(DocMedia, media_id)
    if m is None or m.document_id != id:
        raise NotFound("media not found", {"id": media_id})
    return send_stored(ctx, m)

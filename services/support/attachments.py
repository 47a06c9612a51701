"""Ticket attachments."""

from __future__ import annotations

import re

from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.support import (
    SupportAttachment,
)
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound
from services.core.files import FileResult, Upload
from services.core.storage import read_blob, store_blob
from services.support import schemas as sc
from services.support.helpdesk import ATTACHMENT_TYPES
from services.support.tickets import _attachment_out, _find_ticket


def _store_attachment(
    ctx: Ctx, s: Session, upload: Upload, filename: str | None, ticket_id: str | None, by: str
) -> sc.AttachmentOut:
    blob = store_blob(ctx, upload.content, allowed=ATTACHMENT_TYPES)
    name = re.sub(r"[^\w.\- ]", "_", (filename or upload.filename or "attachment"))[:255] or "attachment"
    a = SupportAttachment(
        id=new_id(),
        ticket_id=ticket_id,
        message_id=None,
        filename=name,
        content_type=blob.content_type,
        size=blob.size,
        sha256=blob.sha256,
        uploaded_by=by,
        created_at=ctx.now(),
    )
    s.add(a)
    s.flush()
    return _attachment_out(a)


@use_case(
    "support.attachments.upload",
    "POST /api/tenants/{tenant}/support/attachments",
    tx="write",
    status=201,
    limit="upload",
    upload=True,
    says="Attachment",
    record="support.ticket",
    summary="upload attachments",
)
def upload_attachment(ctx: Ctx, query: sc.AttachmentQuery, upload: Upload) -> sc.AttachmentOut:
    with ctx.write() as s:
        tid = _find_ticket(s, query.ticket_id).id if query.ticket_id else None
        return _store_attachment(ctx, s, upload, query.filename, tid, "agent")


@use_case(
    "support.attachments.get",
    "GET /api/tenants/{tenant}/support/attachments/{attachment_id}",
    tx="read",
    summary="download attachments",
)
def download_attachment(ctx: Ctx, attachment_id: str) -> FileResult:
    with ctx.read() as s:
        a = s.get(SupportAttachment, attachment_id)
        if a is None:
            raise NotFound("attachment not found")
    return FileResult(read_blob(ctx, a.sha256), a.content_type, a.filename, inline=False)


@use_case(
    "support.attachments.delete",
    "DELETE /api/tenants/{tenant}/support/attachments/{attachment_id}",
    tx="write",
    summary="delete attachments",
)
def delete_attachment(ctx: Ctx, attachment_id: str) -> None:
    with ctx.write() as s:
        a = s.get(SupportAttachment, attachment_id)
        if a is None:
            raise NotFound("attachment not found")
        if a.message_id is not None:
            # The conversation is a record: a sent file stays with its message.
            raise Conflict("the attachment belongs to a sent message", {"message_id": a.message_id})
        s.delete(a)


# --- helpdesk configuration ------------------------------------------------------------

"""Ticket attachments."""

from __future__ import annotations

from sqlalchemy.orm import Session

from local_db.models.support import (
    SupportAttachment,
)
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound
from services.core.files import FileResult, Upload
from services.core.storage import keep_upload, send_stored
from services.support import schemas as sc
from services.support.helpdesk import ATTACHMENT_TYPES
from services.support.tickets import _attachment_out, _find_ticket


def _store_attachment(
    ctx: Ctx, s: Session, upload: Upload, filename: str | None, ticket_id: str | None, by: str
) -> sc.AttachmentOut:
    if filename:  # the name the client gives beside the file wins, cleaned the same way
        upload = Upload(filename, upload.content_type, upload.content, upload.fields)
    a = keep_upload(
        ctx,
        s,
        SupportAttachment,
        upload,
        allowed=ATTACHMENT_TYPES,
        default_name="attachment",
        ticket_id=ticket_id,
        message_id=None,
        uploaded_by=by,
    )
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
def upload_attachment(
    ctx: Ctx, query: sc.AttachmentQuery, upload: Upload, session: Session = SESSION
) -> sc.AttachmentOut:
    tid = _find_ticket(session, query.ticket_id).id if query.ticket_id else None
    return _store_attachment(ctx, session, upload, query.filename, tid, "agent")


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
    return send_stored(ctx, a, what="attachment", inline=False)


@use_case(
    "support.attachments.delete",
    "DELETE /api/tenants/{tenant}/support/attachments/{attachment_id}",
    tx="write",
    summary="delete attachments",
)
def delete_attachment(ctx: Ctx, attachment_id: str, session: Session = SESSION) -> None:
    a = session.get(SupportAttachment, attachment_id)
    if a is None:
        raise NotFound("attachment not found")
    if a.message_id is not None:
        # The conversation is a record: a sent file stays with its message.
        raise Conflict("the attachment belongs to a sent message", {"message_id": a.message_id})
    session.delete(a)


# --- helpdesk configuration ------------------------------------------------------------

"""Aftersale: files."""

from __future__ import annotations

from sqlalchemy.orm import Session

from local_db.models.aftersale import AftersaleFile
from services.aftersale.lookups import _enabled
from services.aftersale.schemas import (
    FileOut,
)
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import get_or_404
from services.core.files import FileResult, Upload
from services.core.storage import IMAGE_TYPES, keep_upload, send_stored

PROOF_TYPES = IMAGE_TYPES | {"application/pdf"}


@use_case(
    "aftersale.files.upload",
    "POST /p/files",
    tx="write",
    auth="public",
    status=201,
    limit="public_warranty",
    upload=True,
    summary="upload a proof of purchase (public; image or PDF) for a warranty registration",
)
def upload_proof(ctx: Ctx, upload: Upload, session: Session = SESSION) -> FileOut:
    _enabled(ctx)
    f = keep_upload(ctx, session, AftersaleFile, upload, allowed=PROOF_TYPES, default_name="proof")
    return FileOut.model_validate(f)


@use_case(
    "aftersale.photos.upload",
    "POST /photos",
    tx="write",
    auth="customer",
    status=201,
    upload=True,
    summary="upload a photo for a claim (a customer; images only)",
)
def upload_claim_photo(ctx: Ctx, upload: Upload, session: Session = SESSION) -> FileOut:
    f = keep_upload(ctx, session, AftersaleFile, upload, allowed=IMAGE_TYPES, default_name="photo")
    return FileOut.model_validate(f)


@use_case("aftersale.files.get", "GET /files/{id}", tx="read", summary="download a proof of purchase (staff)")
def get_proof(ctx: Ctx, id: str) -> FileResult:
    with ctx.read() as s:
        f = get_or_404(s, AftersaleFile, id, what="file", message="{what} not found", key="id")
    return send_stored(ctx, f)

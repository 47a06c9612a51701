"""Rewards: files."""

from __future__ import annotations

from local_db.models.rewards import (
    RewardsFile,
)
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.files import FileResult, Upload
from services.core.storage import IMAGE_TYPES, keep_upload, send_stored
from services.rewards.accounts import is_dealer
from services.rewards.schemas import (
    FileOut,
)

RECEIPT_TYPES = IMAGE_TYPES | {"application/pdf"}


def _file_out(ctx: Ctx, f: RewardsFile) -> FileOut:
    slug = ctx.tenant.slug if ctx.tenant else ""
    return FileOut(
        id=f.id,
        filename=f.filename,
        content_type=f.content_type,
        size=f.size,
        url=f"/{slug}/rewards/api/files/{f.id}",
        created_at=f.created_at,
    )


@use_case(
    "rewards.files.upload",
    "POST /files/upload",
    tx="write",
    auth="customer",
    staff_too=True,
    status=201,
    limit="upload",
    upload=True,
    summary="upload a receipt image (JPEG, PNG, GIF, WebP, HEIC or PDF; multipart file)",
)
def upload_file(ctx: Ctx, upload: Upload) -> FileOut:
    with ctx.write() as s:
        dealer_id = ctx.principal.id if is_dealer(ctx) else None
        f = keep_upload(ctx, s, RewardsFile, upload, allowed=RECEIPT_TYPES, default_name="receipt", dealer_id=dealer_id)
        return _file_out(ctx, f)


@use_case(
    "rewards.files.get",
    "GET /files/{id}",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="download an uploaded file",
)
def get_file(ctx: Ctx, id: str) -> FileResult:
    with ctx.read() as s:
        f = s.get(RewardsFile, id)
        if f is None or (is_dealer(ctx) and f.dealer_id != ctx.principal.id):
            raise NotFound("file not found", {"id": id})
    return send_stored(ctx, f)

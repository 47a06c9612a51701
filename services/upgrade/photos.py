"""Upgrade: photos."""

from __future__ import annotations

import base64

from sqlalchemy import select

from local_db.models.upgrade import (
    UpgradePhoto,
    UpgradeSubmission,
)
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import NotFound, ValidationFailed
from services.core.files import FileResult, Upload
from services.core.storage import IMAGE_TYPES, keep_upload, send_stored, sniff_type, thumbnail
from services.upgrade.lookups import _customer_id, _is_customer
from services.upgrade.schemas import (
    PhotoOut,
    PhotoQuery,
    ThumbnailQuery,
    ThumbnailsOut,
)

THUMB_SIZE = 320


def make_thumbnail(content: bytes) -> bytes | None:
    return thumbnail(content, THUMB_SIZE)


def _photo_out(p: UpgradePhoto) -> PhotoOut:
    return PhotoOut(
        id=p.id,
        filename=p.filename,
        content_type=p.content_type,
        size=p.size,
        sha256=p.sha256,
        submission_id=p.submission_id,
        created_at=p.created_at,
    )


@use_case(
    "upgrade.photos.upload",
    "POST /photos",
    tx="write",
    auth="customer",
    status=201,
    limit="upload",
    upload=True,
    summary="upload a photo",
)
@use_case(
    "upgrade.admin.photos.upload",
    "POST /admin/photos",
    tx="write",
    status=201,
    limit="upload",
    upload=True,
    summary="attach inspection photos",
)
def upload_photo(ctx: Ctx, upload: Upload) -> PhotoOut:
    detected = sniff_type(upload.content)
    thumb = make_thumbnail(upload.content)
    if thumb is None and detected in IMAGE_TYPES and detected != "image/heic":
        # HEIC: Pillow has no decoder; kept without a thumbnail. Other types are refused by keep_upload.
        raise ValidationFailed("the image cannot be read", {"detected": detected})
    with ctx.write() as s:
        p = keep_upload(
            ctx,
            s,
            UpgradePhoto,
            upload,
            allowed=IMAGE_TYPES,  # 413 over the limit, 400 not an image
            default_name="photo",
            customer_id=_customer_id(ctx),
            uploaded_by=None if _is_customer(ctx) else ctx.principal.id,
            thumbnail=thumb,
        )
        return _photo_out(p)


@use_case(
    "upgrade.photos.get",
    "GET /photos/{id}",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="get a photo (?thumbnail=true for the small one)",
)
@use_case("upgrade.admin.photos.get", "GET /admin/photos/{id}", tx="read", summary="read any photo")
def get_photo(ctx: Ctx, id: str, query: PhotoQuery) -> FileResult:
    with ctx.read() as s:
        p = s.get(UpgradePhoto, id)
        if p is not None and _is_customer(ctx) and p.customer_id != ctx.principal.id:
            # A customer also sees the photos attached to their submission (the inspection's).
            sub = s.get(UpgradeSubmission, p.submission_id) if p.submission_id else None
            if sub is None or sub.customer_id != ctx.principal.id:
                p = None
        if p is None:
            raise NotFound("photo not found", {"id": id})
        if query.thumbnail:
            if p.thumbnail is None:
                raise NotFound("this photo has no thumbnail", {"id": id})
            return FileResult(p.thumbnail, "image/jpeg", f"{p.id}-thumb.jpg")
        return send_stored(ctx, p, what="photo")


@use_case(
    "upgrade.admin.thumbnails",
    "GET /admin/thumbnails",
    tx="read",
    summary="thumbnails of several photos (base64 JPEG)",
)
def thumbnails(ctx: Ctx, query: ThumbnailQuery) -> ThumbnailsOut:
    """Thumbnails of several photos in one read (the inspection bench's photo strip)."""
    ids = [x for x in (query.ids or "").split(",") if x][:50]
    if not ids:
        return ThumbnailsOut(items={})
    with ctx.read() as s:
        rows = s.execute(select(UpgradePhoto.id, UpgradePhoto.thumbnail).where(UpgradePhoto.id.in_(ids)))
        return ThumbnailsOut(items={pid: base64.b64encode(t).decode() for pid, t in rows if t is not None})

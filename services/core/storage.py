"""Uploaded files on disk under the data dir, addressed by content hash, with type sniffing."""

from __future__ import annotations

import hashlib
import io
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from local_db import new_id
from services.core.context import Ctx
from services.core.errors import NotFound, PayloadTooLarge, ValidationFailed
from services.core.files import FileResult, Upload
from services.core.filesafety import sniff

R = TypeVar("R")

IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp", "image/heic"})


def sniff_type(content: bytes) -> str | None:
    """The type the bytes are (the client's Content-Type is not trusted): a known signature or
    markup (services.core.filesafety.sniff), else ``text/plain`` for UTF-8 text, else None."""
    found = sniff(content)
    if found is not None:
        return found
    if content and b"\x00" not in content[:4096]:
        try:
            content[:4096].decode("utf-8")
            return "text/plain"
        except UnicodeDecodeError:
            return None
    return None


@dataclass(frozen=True)
class StoredBlob:
    sha256: str
    size: int
    content_type: str
    path: Path


def blob_dir(ctx: Ctx) -> Path:
    return blob_folder(ctx.runtime.data_dir, ctx.tenant_id)


def blob_folder(data_dir: Path, tenant_id: str) -> Path:
    return data_dir / "files" / tenant_id


def store_blob(ctx: Ctx, content: bytes, *, allowed: frozenset[str] | None = None) -> StoredBlob:
    """Check size and sniffed type, then write once under ``files/<tenant>/<sha256>``."""
    limit = ctx.runtime.upload_limit
    if len(content) > limit:
        raise PayloadTooLarge(f"file over {limit} bytes", {"limit": limit, "size": len(content)})
    if not content:
        raise ValidationFailed("the file is empty")
    ctype = sniff_type(content)
    if ctype is None or (allowed is not None and ctype not in allowed):
        raise ValidationFailed(
            "file type not accepted", {"detected": ctype, "allowed": sorted(allowed) if allowed else None}
        )
    digest, path = keep_blob(ctx, content)
    return StoredBlob(digest, len(content), ctype, path)


def keep_blob(ctx: Ctx, content: bytes) -> tuple[str, Path]:
    """Write bytes once under ``files/<tenant>/<sha256>`` (no checks: callers check first)."""
    digest = hashlib.sha256(content).hexdigest()
    folder = blob_dir(ctx)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / digest
    if not path.exists():
        # Write then rename: a kill mid-write never leaves a truncated blob under its hash.
        tmp = folder / f".{digest}.{os.getpid()}.{threading.get_ident()}.tmp"
        tmp.write_bytes(content)
        os.replace(tmp, path)
    return digest, path


def read_blob(ctx: Ctx, sha256: str) -> bytes:
    return (blob_dir(ctx) / sha256).read_bytes()


def keep_upload(
    ctx: Ctx,
    s: Session,
    model: type[R],
    upload: Upload,
    *,
    allowed: frozenset[str],
    default_name: str,
    **fields: Any,
) -> R:
    """An uploaded file kept: its bytes stored once (size and sniffed type checked first: 413, 400)
    and the module's row that names them (a receipt, a photo, an attachment, a proof of purchase)
    added with the columns every such row has, and the module's own ``fields``."""
    blob = store_blob(ctx, upload.content, allowed=allowed)
    make: Any = model  # each module's own table; the columns named here are common to all
    row: R = make(
        id=new_id(),
        filename=(upload.filename or default_name)[:255],
        content_type=blob.content_type,
        size=blob.size,
        sha256=blob.sha256,
        created_at=ctx.now(),
        **fields,
    )
    s.add(row)
    s.flush()
    return row


def send_stored(ctx: Ctx, row: Any, *, what: str = "file", inline: bool = True) -> FileResult:
    """The file a kept row names, or 404 when its bytes are gone (a data dir copied without files/)."""
    try:
        content = read_blob(ctx, row.sha256)
    except FileNotFoundError as exc:
        raise NotFound(f"the {what}'s content is missing on this server", {"id": row.id}) from exc
    return FileResult(content, row.content_type, row.filename, inline=inline)


def thumbnail(content: bytes, size: int = 320) -> bytes | None:
    """A small JPEG of an image (phone photos turned upright), or None when it cannot be decoded."""
    from PIL import Image, ImageOps

    try:
        with Image.open(io.BytesIO(content)) as opened:
            img = ImageOps.exif_transpose(opened) or opened
            img.thumbnail((size, size))
            out = io.BytesIO()
            img.convert("RGB").save(out, "JPEG", quality=80)
            return out.getvalue()
    except (OSError, ValueError, Image.DecompressionBombError):
        return None

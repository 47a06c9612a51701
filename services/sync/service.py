"""The platform's side of sync: the routes a station calls.

- ``registry``: registering, listing and revoking stations; authenticating their requests;
- ``push``: applying a batch of signed station changes in order;
- ``pull``: the change log since a cursor, records by id, counts per table, status;
- here: number leases and the files of uploads made on a station.
"""

from __future__ import annotations

import hashlib

from services.core.commands import LEASED_COUNTERS, next_counter, use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.files import Upload
from services.core.roles import ANYONE
from services.core.storage import keep_blob
from services.sync import protocol as p
from services.sync.pull import table_counts
from services.sync.push import resolve
from services.sync.registry import authenticate
from services.sync.schemas import FileStored, LeaseIn, LeaseOut

__all__ = ["lease", "put_file", "resolve", "table_counts"]

# --- number leases ---------------------------------------------------------------------------------


@use_case(
    "sync.leases",
    "POST /api/tenants/{tenant}/sync/leases",
    tx="own",
    auth="platform",
    roles=ANYONE,
    module="platform",
    limit="sync",
    headers=p.HEADERS,
    summary="lease a block of numbers (tracking numbers) to a station",
)
def lease(ctx: Ctx, body: LeaseIn, headers: dict[str, str | None]) -> LeaseOut:
    """A block of a counter's values for the calling station (the platform's own numbers skip it)."""
    authenticate(ctx, headers, f"lease:{body.counter}")
    block = LEASED_COUNTERS.get(body.counter)
    if block is None:
        raise ValidationFailed(f"{body.counter} is not a leased counter", {"allowed": sorted(LEASED_COUNTERS)})
    with ctx.db.transaction(ctx.tenant_id) as s:
        end = next_counter(s.connection(), ctx.tenant_id, body.counter, step=block)
    return LeaseOut(counter=body.counter, start=end - block + 1, end=end)


# --- files ---------------------------------------------------------------------------------------


@use_case(
    "sync.files.put",
    "PUT /api/tenants/{tenant}/sync/files/{sha256}",
    tx="own",
    auth="platform",
    roles=ANYONE,
    module="platform",
    limit="sync",
    upload=True,
    headers=p.HEADERS,
    summary="the bytes of a station's upload, sent before the change that names them",
)
def put_file(ctx: Ctx, sha256: str, upload: Upload, headers: dict[str, str | None]) -> FileStored:
    """Keep the bytes of a station's upload under their SHA-256, before the change that names them."""
    authenticate(ctx, headers, f"file:{sha256}")
    if hashlib.sha256(upload.content).hexdigest() != sha256:
        raise ValidationFailed("the file's content does not match its SHA-256", {"sha256": sha256})
    if len(upload.content) > ctx.runtime.upload_limit:
        raise ValidationFailed("file too large", {"limit": ctx.runtime.upload_limit})
    keep_blob(ctx, upload.content)
    return FileStored(sha256=sha256, size=len(upload.content))

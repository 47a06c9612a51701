"""Idempotency keys: the stored answer of a call already made under a key (a retry, a double
submit, a station's change replayed), and keeping it in the call's unit of work."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from sqlalchemy import insert, select

from local_db import new_id
from local_db.base import table_of
from local_db.engine import Prepared
from local_db.models import IdempotencyRecord
from services.core.context import Ctx
from services.core.errors import Conflict

if TYPE_CHECKING:
    from services.core.commands import Operation


def _request_hash(op: Operation, params: dict[str, str], body: BaseModel | None) -> str:
    payload = {"op": op.name, "params": params, "body": body.model_dump(mode="json") if body else None}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def replay(ctx: Ctx, op: Operation, key: str, params: dict[str, str], body: BaseModel | None) -> dict[str, Any] | None:
    """The stored answer of a call already done under this key (a retry, a double submit)."""
    s = ctx.uow.session
    rec = s.execute(select(IdempotencyRecord).where(IdempotencyRecord.key == key)).scalar_one_or_none()
    if rec is None:
        return None
    if rec.command != op.name or rec.request_hash != _request_hash(op, params, body):
        raise Conflict(
            "this Idempotency-Key was used for a different request", {"idempotency_key": key, "command": rec.command}
        )
    return rec.response or {"result": None}


def remember(ctx: Ctx, op: Operation, key: str, params: dict[str, str], body: BaseModel | None, result: Any) -> None:
    if isinstance(result, BaseModel):
        # Secrets shown once (a new API key) are never kept for a replay.
        stored: Any = result.model_dump(mode="json", exclude=set(getattr(result, "secret_fields", ())))
    elif result is None or isinstance(result, dict | list | str | int | float):
        stored = result
    else:  # files and pages are not commands' answers; keep the fact, not the bytes
        stored = None
    # Core insert: every keyed write (each replayed station change) makes one.
    _INSERT_IDEMPOTENCY.run(
        ctx.uow.connection(),
        {
            "id": new_id(),
            "key": key[:200],
            "command": op.name,
            "request_hash": _request_hash(op, params, body),
            "response": {"result": stored},
            "created_at": ctx.now(),
            "tenant_id": ctx.tenant_id,
        },
    )


_INSERT_IDEMPOTENCY = Prepared(insert(table_of(IdempotencyRecord)))

"""``python -m app call``: run one use case by name on a data dir, as a person, for people and scripts.

The same ``execute`` as the desktop and the HTTP door: the person's role and modules are checked,
the body is validated into the declared type, a write is one unit of work (on a station it is
queued in the outbox like a change made at the desk). The answer is printed as the HTTP door
answers it (``{"data": ...}``, with the list's ``meta``); a failure prints the door's error
envelope (``{"error", "code", "details"?}``) on stderr and exits 1.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from sqlalchemy import func, select

from app.station import open_station
from app.wiring import load_modules
from local_db.models import Membership, Tenant, User
from services.core import auth
from services.core.commands import REGISTRY, execute
from services.core.context import Ctx, Runtime, TenantInfo
from services.core.errors import Forbidden, NotFound, ServiceError, ValidationFailed
from services.core.files import FileResult
from services.core.logsafe import bare_traceback
from services.core.pagination import Page

log = logging.getLogger("app.call")


class BadParam(ValueError):
    """A ``--param`` not written KEY=VALUE (a usage error: exit 2, as argparse's)."""


def split_params(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise BadParam(f"--param takes KEY=VALUE, not {pair!r}")
        out[key.strip()] = value
    return out


def answer(result: Any) -> Any:
    """The result as the HTTP door's JSON body (a file: its name, type and size; ``--out`` keeps it)."""
    if isinstance(result, Page):
        items = [i.model_dump(mode="json") if isinstance(i, BaseModel) else i for i in result.items]
        return {"data": items, **result.meta()}
    if isinstance(result, BaseModel):
        return {"data": result.model_dump(mode="json")}
    if isinstance(result, FileResult):
        return {"data": {"filename": result.filename, "media_type": result.media_type, "size": len(result.content)}}
    return {"data": result}


def _person(rt: Runtime, email: str, slug: str | None) -> Ctx:
    """The call context of ``email`` in the tenant ``slug`` (or their only tenant)."""
    with rt.db.reading(None) as s:
        user = s.execute(select(User).where(func.lower(User.email) == email.strip().lower())).scalar_one_or_none()
        if user is None:
            raise NotFound(f"no user {email} on this data dir")
        slugs = list(
            s.execute(
                select(Tenant.slug)
                .join(Membership, Membership.tenant_id == Tenant.id)
                .where(Membership.user_id == user.id, Tenant.sandbox_of.is_(None))
                .order_by(Tenant.slug)
            ).scalars()
        )
        user_id = user.id
    if slug is None:
        if len(slugs) != 1:
            raise ValidationFailed(
                f"{email} belongs to {len(slugs)} tenants: name one with --tenant", {"tenants": slugs}
            )
        slug = slugs[0]
    elif slug not in slugs:
        raise Forbidden(f"{email} has no membership in tenant {slug!r}")
    tenant: TenantInfo = auth.load_tenant(rt.db, slug)
    return Ctx(rt, tenant, auth.user_principal(rt.db, user_id, tenant))


def run_call(
    data_dir: Path,
    email: str,
    slug: str | None,
    name: str,
    body: str | None,
    params: dict[str, str],
    out: Path | None = None,
) -> int:
    try:
        if not data_dir.is_dir():
            raise NotFound(f"no data dir {data_dir}", {"data_dir": str(data_dir)})
        load_modules()  # every module's use cases declared before the name is looked up
        op = REGISTRY.get(name)
        if op is None:
            raise NotFound(f"no use case named {name!r}", {"name": name})
        try:
            raw_body = json.loads(body) if body is not None else None
        except json.JSONDecodeError as exc:
            raise ValidationFailed(f"--body is not JSON: {exc.msg} at character {exc.pos}") from exc
        # A path parameter of the use case goes to the path; any other --param is a query parameter.
        path = {k: v for k, v in params.items() if k in op.path_params}
        query = {k: v for k, v in params.items() if k not in op.path_params}
        missing = [p for p in op.path_params if p not in path]
        if missing:
            raise ValidationFailed(
                f"{name} needs --param {missing[0]}=...",
                {"fields": [{"field": p, "message": "required"} for p in missing]},
            )
        if query and op.query is None:
            raise ValidationFailed(f"{name} takes no query parameters", {"unknown": sorted(query)})
        rt = open_station(data_dir)
        try:
            result = execute(_person(rt, email, slug), op, body=raw_body, query=query or None, headers=None, **path)
        finally:
            rt.db.dispose()
    except ServiceError as exc:
        print(json.dumps(exc.to_body(), default=str), file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - the door's answer to the unexpected, the class logged
        log.error("call %s failed: %s\n%s", name, type(exc).__name__, bare_traceback(exc))
        print(json.dumps({"error": "internal error", "code": "INTERNAL_ERROR"}), file=sys.stderr)
        return 1
    if out is not None and isinstance(result, FileResult):
        out.write_bytes(result.content)
    print(json.dumps(answer(result), default=str, indent=2))
    return 0

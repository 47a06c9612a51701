"""The helpdesk's e-mail domain and its DNS verification."""

from __future__ import annotations

import hmac
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.support import (
    SupportEmailDomain,
)
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound
from services.core.roles import MANAGERS
from services.support import schemas as sc
from services.support.dns import resolver_for
from services.support.helpdesk import TXT_PREFIX


def _domain_out(d: SupportEmailDomain) -> sc.EmailDomainOut:
    return sc.EmailDomainOut(
        domain=d.domain,
        status=d.status,
        txt_name=f"{TXT_PREFIX}.{d.domain}",  # type: ignore[arg-type]
        txt_value=f"platform-verification={d.token}",
        created_at=d.created_at,
        verified_at=d.verified_at,
        last_checked_at=d.last_checked_at,
    )


def _domain(s: Session) -> SupportEmailDomain:
    d = s.execute(select(SupportEmailDomain)).scalar_one_or_none()
    if d is None:
        raise NotFound("no e-mail domain registered")
    return d


@use_case(
    "support.email_domain.get",
    "GET /api/tenants/{tenant}/support/email-domain",
    tx="read",
    summary="read the e-mail domain status",
)
def get_email_domain(ctx: Ctx) -> sc.EmailDomainOut:
    """A status route answers a status: "none" while no domain is registered."""
    with ctx.read() as s:
        d = s.execute(select(SupportEmailDomain)).scalar_one_or_none()
        if d is None:
            return sc.EmailDomainOut(
                domain=None,
                status="none",
                txt_name=None,
                txt_value=None,
                created_at=None,
                verified_at=None,
                last_checked_at=None,
            )
        return _domain_out(d)


@use_case(
    "support.email_domain.register",
    "POST /api/tenants/{tenant}/support/email-domain",
    tx="write",
    roles=MANAGERS,
    status=201,
    summary="register an e-mail domain",
)
def register_email_domain(ctx: Ctx, body: sc.EmailDomainRegister) -> sc.EmailDomainOut:
    with ctx.write() as s:
        if s.execute(select(SupportEmailDomain)).scalar_one_or_none() is not None:
            raise Conflict("an e-mail domain is registered; remove it first")
        d = SupportEmailDomain(
            id=new_id(), domain=body.domain, token=secrets.token_hex(16), status="pending", created_at=ctx.now()
        )
        s.add(d)
        s.flush()
        return _domain_out(d)


@use_case(
    "support.email_domain.verify",
    "PUT /api/tenants/{tenant}/support/email-domain",
    tx="own",
    roles=MANAGERS,
    summary="verify the e-mail domain",
)
def verify_email_domain(ctx: Ctx) -> sc.EmailDomainOut:
    """Look the TXT record up (outside the write) and mark the domain verified, or 409."""
    with ctx.read() as s:
        d = _domain(s)
        if d.status == "verified":
            return _domain_out(d)
        name, expected = f"{TXT_PREFIX}.{d.domain}", f"platform-verification={d.token}"
    found = resolver_for(ctx.runtime).txt_records(name)
    ok = any(hmac.compare_digest(r.strip().encode(), expected.encode()) for r in found)
    with ctx.write() as s:
        d = _domain(s)
        d.last_checked_at = ctx.now()
        if not ok:
            out = _domain_out(d)
        else:
            d.status, d.verified_at = "verified", ctx.now()
            return _domain_out(d)
    raise Conflict(
        "the TXT record was not found", {"txt_name": out.txt_name, "txt_value": out.txt_value, "found": found[:10]}
    )


@use_case(
    "support.email_domain.delete",
    "DELETE /api/tenants/{tenant}/support/email-domain",
    tx="write",
    roles=MANAGERS,
    summary="remove the e-mail domain",
)
def delete_email_domain(ctx: Ctx) -> None:
    with ctx.write() as s:
        s.delete(_domain(s))


# --- triage ------------------------------------------------------------------------

"""Tickets seen from the person who asked: a signed-in user's own tickets in every tenant."""

from __future__ import annotations

from sqlalchemy import func, select

from local_db.models import Membership, Tenant
from local_db.models.support import SupportTicket
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.pagination import ListQuery, Page, page_spec
from services.core.roles import ANYONE
from services.support import schemas as sc


@use_case(
    "support.my_tickets",
    "GET /api/support/my-tickets",
    tx="read",
    auth="user",
    roles=ANYONE,
    summary="tickets the signed-in person opened",
)
def my_tickets(ctx: Ctx, query: ListQuery) -> Page[sc.MyTicketOut]:
    """Tickets whose requester is the signed-in person, in every tenant they belong to."""
    email = (ctx.principal.email or "").lower()
    with ctx.read() as s:
        tenants = select(Membership.tenant_id).where(Membership.user_id == ctx.principal.id)
        stmt = (
            select(SupportTicket, Tenant.slug)
            .join(Tenant, Tenant.id == SupportTicket.tenant_id)
            .where(SupportTicket.requester_email == email, SupportTicket.tenant_id.in_(tenants))
        )
        spec_cols = {"created_at": SupportTicket.created_at, "updated_at": SupportTicket.updated_at}
        spec = page_spec(query, sortable=list(spec_cols), default_sort="-updated_at")
        total = s.execute(select(func.count()).select_from(stmt.subquery())).scalar_one()
        col = spec_cols[spec.sort or "updated_at"]
        rows = s.execute(
            stmt.order_by(col.desc() if spec.descending else col.asc()).limit(spec.limit).offset(spec.offset)
        ).all()
    items = [
        sc.MyTicketOut(
            tenant=slug,
            number=t.number,
            subject=t.subject,
            state=t.state,
            priority=t.priority,
            created_at=t.created_at,
            updated_at=t.updated_at,
        )
        for t, slug in rows
    ]
    return Page(items, int(total), spec)

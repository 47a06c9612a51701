"""Ticket categories."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.support import (
    SupportCategory,
    SupportTicket,
)
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.support import schemas as sc
from services.support.helpdesk import corpus_changed


def _category_out(s: Session, c: SupportCategory) -> sc.CategoryOut:
    n = s.execute(select(func.count()).select_from(SupportTicket).where(SupportTicket.category_id == c.id))
    return sc.CategoryOut(
        id=c.id,
        name=c.name,
        description=c.description,
        keywords=list(c.keywords or []),
        ticket_count=int(n.scalar_one()),
    )


@use_case(
    "support.categories.list",
    "GET /api/tenants/{tenant}/support/categories",
    tx="read",
    summary="list categories",
)
def list_categories(ctx: Ctx) -> sc.CategoryList:
    with ctx.read() as s:
        counts = dict(
            s.execute(select(SupportTicket.category_id, func.count()).group_by(SupportTicket.category_id)).all()
        )
        rows = s.execute(select(SupportCategory).order_by(SupportCategory.name)).scalars()
        return sc.CategoryList(
            [
                sc.CategoryOut(
                    id=c.id,
                    name=c.name,
                    description=c.description,
                    keywords=list(c.keywords or []),
                    ticket_count=int(counts.get(c.id, 0)),
                )
                for c in rows
            ]
        )


def _name_taken(s: Session, name: str, but: str | None = None) -> None:
    # Compared in Python: SQLite's lower() folds ASCII only, so "Ärger" and "ärger" (or two
    # "Ärger") passed a lower() = lower() check and hit the unique constraint as a 500.
    wanted = name.casefold()
    for cid, existing in s.execute(select(SupportCategory.id, SupportCategory.name)):
        if cid != but and existing.casefold() == wanted:
            raise Conflict("a category with this name exists", {"name": name})


@use_case(
    "support.categories.create",
    "POST /api/tenants/{tenant}/support/categories",
    tx="write",
    status=201,
    summary="create categories",
)
def create_category(ctx: Ctx, body: sc.CategoryCreate) -> sc.CategoryOut:
    with ctx.write() as s:
        _name_taken(s, body.name)
        c = SupportCategory(
            id=new_id(),
            name=body.name,
            description=body.description,
            keywords=sorted({k.lower() for k in body.keywords}),
            created_at=ctx.now(),
        )
        s.add(c)
        s.flush()
        corpus_changed(ctx)
        return _category_out(s, c)


@use_case(
    "support.categories.update",
    "PATCH /api/tenants/{tenant}/support/categories/{category_id}",
    tx="write",
    summary="change categories",
)
def update_category(ctx: Ctx, category_id: str, body: sc.CategoryUpdate) -> sc.CategoryOut:
    with ctx.write() as s:
        c = s.get(SupportCategory, category_id)
        if c is None:
            raise NotFound("category not found")
        if body.name is not None:
            _name_taken(s, body.name, but=c.id)
            c.name = body.name
        if body.description is not None:
            c.description = body.description
        if body.keywords is not None:
            c.keywords = sorted({k.lower() for k in body.keywords})
        s.flush()
        corpus_changed(ctx)
        return _category_out(s, c)


@use_case(
    "support.categories.delete",
    "DELETE /api/tenants/{tenant}/support/categories/{category_id}",
    tx="write",
    summary="delete categories",
)
def delete_category(ctx: Ctx, category_id: str, query: sc.CategoryDeleteQuery) -> None:
    """409 while tickets use the category, unless ``reassign_to`` names where they move."""
    with ctx.write() as s:
        c = s.get(SupportCategory, category_id)
        if c is None:
            raise NotFound("category not found")
        used = list(s.execute(select(SupportTicket).where(SupportTicket.category_id == c.id)).scalars())
        if used:
            if query.reassign_to is None:
                raise Conflict(
                    "tickets use this category; pass reassign_to=<category id> to move them",
                    {"ticket_count": len(used)},
                )
            if query.reassign_to == c.id or s.get(SupportCategory, query.reassign_to) is None:
                raise ValidationFailed(
                    "reassign_to must be another existing category", {"reassign_to": query.reassign_to}
                )
            for t in used:
                t.category_id = query.reassign_to
            s.flush()
        s.delete(c)
        corpus_changed(ctx)


# --- attachments -----------------------------------------------------------------

"""Docs: categories."""

from __future__ import annotations

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.docs import DocCategory, DocDocument, DocTemplate
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.pagination import ListQuery, Page, page_spec
from services.core.roles import STAFF
from services.docs.schemas import (
    CategoryIn,
    CategoryOut,
)

CATEGORY = record_kind("docs.category", get="docs.categories.get", label="name")


def _tree(cats: list[DocCategory]) -> list[CategoryOut]:
    """Categories in tree order (parents before children, siblings by position and name), with paths."""
    by_parent: dict[str | None, list[DocCategory]] = {}
    ids = {c.id for c in cats}
    for c in cats:
        by_parent.setdefault(c.parent_id if c.parent_id in ids else None, []).append(c)
    out: list[CategoryOut] = []

    def walk(parent: str | None, path: list[str]) -> None:
        for c in sorted(by_parent.get(parent, []), key=lambda c: (c.position, c.name.lower())):
            out.append(CategoryOut.model_validate(c).model_copy(update={"path": [*path, c.name], "depth": len(path)}))
            walk(c.id, [*path, c.name])

    walk(None, [])
    return out


@use_case("docs.categories.list", "GET /doc-categories", tx="read", roles=STAFF, summary="the category tree, in order")
def list_categories(ctx: Ctx, query: ListQuery, session: Session = SESSION) -> Page[CategoryOut]:
    spec = page_spec(query, sortable=[], default_sort=None)
    rows = _tree(list(session.execute(select(DocCategory)).scalars()))
    return Page(rows[spec.offset : spec.offset + spec.limit], len(rows), spec)


@use_case("docs.categories.get", "GET /doc-categories/{id}", tx="read", roles=STAFF)
def get_category(ctx: Ctx, id: str, session: Session = SESSION) -> CategoryOut:
    c = session.get(DocCategory, id)
    if c is None:
        raise NotFound("category not found", {"id": id})
    return CategoryOut.model_validate(c)


@use_case(
    "docs.categories.create",
    "POST /doc-categories",
    tx="write",
    roles=STAFF,
    status=201,
    says="New category",
    record=CATEGORY,
)
def create_category(ctx: Ctx, body: CategoryIn, session: Session = SESSION) -> CategoryOut:
    if body.parent_id is not None and session.get(DocCategory, body.parent_id) is None:
        raise ValidationFailed("no such parent category", {"parent_id": body.parent_id})
    c = DocCategory(id=new_id(), name=body.name, parent_id=body.parent_id, position=body.position, created_at=ctx.now())
    session.add(c)
    session.flush()
    return CategoryOut.model_validate(c)


@use_case(
    "docs.categories.delete",
    "DELETE /doc-categories/{id}",
    tx="write",
    roles=STAFF,
    says="Delete category",
    record=CATEGORY,
    summary="remove an empty category (409 while it holds sub-categories or documents outside the trash)",
)
def delete_category(ctx: Ctx, id: str, session: Session = SESSION) -> None:
    c = session.get(DocCategory, id)
    if c is None:
        raise NotFound("category not found", {"id": id})
    children = session.execute(select(func.count()).where(DocCategory.parent_id == id)).scalar_one()
    documents = session.execute(
        select(func.count()).where(DocDocument.category_id == id, DocDocument.deleted_at.is_(None))
    ).scalar_one()
    if children or documents:
        raise Conflict(
            "the category is not empty: move or remove its sub-categories and documents first",
            {"id": id, "categories": children, "documents": documents},
        )
    # Templates filing new documents here file them nowhere now; documents in the trash keep the
    # id and come back without a category (the help centre lists them under "Other articles").
    session.execute(update(DocTemplate).where(DocTemplate.category_id == id).values(category_id=None))
    session.delete(c)
    session.flush()

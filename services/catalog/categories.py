"""Catalog: categories."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.orm import Session

from local_db.models.catalog import (
    CatalogCategory,
    CatalogProduct,
)
from services.catalog.schemas import (
    CategoryIn,
    CategoryOut,
    CategoryQuery,
    CategoryUpdate,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.pagination import Page, contains, paginate
from services.core.roles import STAFF

MAX_CATEGORY_DEPTH = 10


record_kind("catalog.category", get="catalog.categories.get", label="name")


def _category_rows(s: Session) -> dict[str, CatalogCategory]:
    return {c.id: c for c in s.execute(select(CatalogCategory)).scalars()}


def category_path(cats: dict[str, CatalogCategory], cid: str) -> list[str]:
    path: list[str] = []
    seen: set[str] = set()
    cur: str | None = cid
    while cur is not None and cur in cats and cur not in seen:
        seen.add(cur)
        path.append(cats[cur].name)
        cur = cats[cur].parent_id
    return list(reversed(path))


def descendants(cats: dict[str, CatalogCategory], roots: list[str]) -> set[str]:
    """The categories under ``roots``, the roots included (a catalog of "Clothing" has its shirts)."""
    children: dict[str | None, list[str]] = {}
    for c in cats.values():
        children.setdefault(c.parent_id, []).append(c.id)
    out: set[str] = set()
    todo = [r for r in roots if r in cats]
    while todo:
        cur = todo.pop()
        if cur not in out:
            out.add(cur)
            todo.extend(children.get(cur, []))
    return out


def _product_counts(s: Session) -> dict[str, int]:
    counts: dict[str, int] = {}
    for (cats,) in s.execute(select(CatalogProduct.category_ids).where(CatalogProduct.status != "archived")).all():
        for c in cats or []:
            counts[c] = counts.get(c, 0) + 1
    return counts


def _category_out(c: CatalogCategory, cats: dict[str, CatalogCategory], counts: dict[str, int]) -> CategoryOut:
    path = category_path(cats, c.id)
    return CategoryOut(
        id=c.id,
        name=c.name,
        parent_id=c.parent_id,
        position=c.position,
        path=path,
        depth=len(path) - 1,
        product_count=counts.get(c.id, 0),
        created_at=c.created_at,
        updated_at=c.updated_at,
    )


def _check_parent(cats: dict[str, CatalogCategory], cid: str | None, parent_id: str | None) -> None:
    if parent_id is None:
        return
    if parent_id not in cats:
        raise ValidationFailed(
            "unknown parent category",
            {"fields": [{"field": "parent_id", "message": f"no category {parent_id}", "type": "not_found"}]},
        )
    if cid is not None and parent_id in descendants(cats, [cid]):
        raise Conflict(
            "a category cannot move under itself or one of its own subcategories",
            {"reason": "cycle", "parent_id": parent_id},
        )
    if len(category_path(cats, parent_id)) >= MAX_CATEGORY_DEPTH:
        raise ValidationFailed(
            f"categories nest at most {MAX_CATEGORY_DEPTH} deep",
            {"fields": [{"field": "parent_id", "message": "too deep", "type": "depth"}]},
        )


@use_case(
    "catalog.categories.list",
    "GET /categories",
    tx="read",
    roles=STAFF,
    record="catalog.category",
    summary="the category tree, in tree order (filter by parent)",
)
def list_categories(ctx: Ctx, query: CategoryQuery) -> Page[CategoryOut]:
    stmt = select(CatalogCategory)
    if query.parent_id:
        stmt = stmt.where(CatalogCategory.parent_id == query.parent_id)
    if query.search:
        stmt = stmt.where(contains(CatalogCategory.name, query.search))
    with ctx.read() as s:
        cats = _category_rows(s)
        counts = _product_counts(s)
        if query.sort is None and query.order is None:
            # Tree order: each category after its parent, siblings by position then name.
            def key(c: CatalogCategory) -> list[tuple[int, str]]:
                chain, cur = [], c
                while cur is not None:
                    chain.append((cur.position, cur.name.lower()))
                    cur = cats.get(cur.parent_id) if cur.parent_id else None  # type: ignore[assignment]
                return list(reversed(chain))

            wanted = {c.id for c in s.execute(stmt).scalars()}
            ordered = sorted((cats[i] for i in wanted), key=key)
            spec_page = paginate(s, stmt, query, columns={"name": CatalogCategory.name}, default_sort=None)
            items = ordered[spec_page.spec.offset : spec_page.spec.offset + spec_page.spec.limit]
            return Page([_category_out(c, cats, counts) for c in items], len(ordered), spec_page.spec)
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "name": CatalogCategory.name,
                "created_at": CatalogCategory.created_at,
                "position": CatalogCategory.position,
            },
        )
        return page.map(lambda c: _category_out(c, cats, counts))


@use_case(
    "catalog.categories.get",
    "GET /categories/{id}",
    tx="read",
    roles=STAFF,
    record="catalog.category",
    summary="read a category",
)
def get_category(ctx: Ctx, id: str) -> CategoryOut:
    with ctx.read() as s:
        cats = _category_rows(s)
        if id not in cats:
            raise NotFound(f"no category {id}", {"category": id})
        return _category_out(cats[id], cats, _product_counts(s))


@use_case(
    "catalog.categories.create",
    "POST /categories",
    tx="write",
    roles=STAFF,
    status=201,
    says="New category {result.name}",
    record="catalog.category",
    summary="create a category",
)
def create_category(ctx: Ctx, body: CategoryIn) -> CategoryOut:
    now = ctx.now()
    with ctx.write() as s:
        cats = _category_rows(s)
        _check_parent(cats, None, body.parent_id)
        _check_sibling_name(cats, None, body.parent_id, body.name)
        c = CatalogCategory(
            name=body.name, parent_id=body.parent_id, position=body.position, created_at=now, updated_at=now
        )
        s.add(c)
        s.flush()
        cats[c.id] = c
        return _category_out(c, cats, {})


def _check_sibling_name(cats: dict[str, CatalogCategory], cid: str | None, parent_id: str | None, name: str) -> None:
    for c in cats.values():
        if c.id != cid and c.parent_id == parent_id and c.name.lower() == name.lower():
            raise Conflict("a category with this name already exists there", {"reason": "duplicate", "id": c.id})


@use_case(
    "catalog.categories.update",
    "PUT /categories/{id}",
    tx="write",
    roles=STAFF,
    says="Change to category {result.name}",
    record="catalog.category",
    summary="rename or move a category (never under itself)",
)
def update_category(ctx: Ctx, id: str, body: CategoryUpdate) -> CategoryOut:
    with ctx.write() as s:
        cats = _category_rows(s)
        c = cats.get(id)
        if c is None:
            raise NotFound(f"no category {id}", {"category": id})
        given = body.model_fields_set
        parent = body.parent_id if "parent_id" in given else c.parent_id
        if parent == c.id:
            raise Conflict("a category cannot move under itself", {"reason": "cycle", "parent_id": parent})
        _check_parent(cats, c.id, parent)
        _check_sibling_name(cats, c.id, parent, body.name or c.name)
        if body.name is not None:
            c.name = body.name
        c.parent_id = parent
        if body.position is not None:
            c.position = body.position
        c.updated_at = ctx.now()
        s.flush()
        return _category_out(c, cats, _product_counts(s))


def active_products(s: Session, category_ids: list[str] | None) -> list[CatalogProduct]:
    """The active products of the given categories and their subcategories (all when none), by name."""
    stmt = (
        select(CatalogProduct)
        .where(CatalogProduct.status == "active")
        .order_by(CatalogProduct.name, CatalogProduct.sku)
    )
    products = list(s.execute(stmt).scalars())
    if category_ids:
        wanted = descendants(_category_rows(s), category_ids)
        products = [p for p in products if wanted & set(p.category_ids or [])]
    return products


def mark_published(s: Session, product_ids: list[str], now: Any) -> None:
    """Printed or pushed: from now on deleting the product archives it."""
    for chunk in range(0, len(product_ids), 500):
        ids = product_ids[chunk : chunk + 500]
        s.execute(
            CatalogProduct.__table__.update()  # type: ignore[attr-defined]
            .where(and_(CatalogProduct.id.in_(ids), CatalogProduct.published_at.is_(None)))
            .values(published_at=now)
        )

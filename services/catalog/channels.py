"""Catalog: channels (what one shop or printed catalogue receives: the products of some categories,
in some languages), with how many products are complete for each (completeness.py)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.catalog import CatalogChannel
from services.catalog.completeness import channel_product_ids
from services.catalog.languages import tenant_languages
from services.catalog.products import _check_categories
from services.catalog.schemas import ChannelIn, ChannelOut, ChannelUpdate
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, ValidationFailed, find_ref
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.roles import MANAGERS, STAFF

record_kind("catalog.channel", get="catalog.channels.get", label="code")


def _out(s: Session, ctx: Ctx, c: CatalogChannel) -> ChannelOut:
    received = channel_product_ids(s, ctx.tenant_id, c.code, None)
    complete = channel_product_ids(s, ctx.tenant_id, c.code, True)
    return ChannelOut(
        id=c.id,
        code=c.code,
        name=c.name,
        languages=list(c.languages or []),
        category_ids=list(c.category_ids or []),
        products=len(received),
        complete_products=len(complete),
        created_at=c.created_at,
        updated_at=c.updated_at,
    )


def _find(s: Session, ref: str) -> CatalogChannel:
    return find_ref(s, CatalogChannel, ref, CatalogChannel.code, what="channel")


def _languages(s: Session, tenant_id: str, given: list[str]) -> list[str]:
    enabled = tenant_languages(s, tenant_id)
    wrong = [x for x in given if x not in enabled]
    if wrong:
        raise ValidationFailed(
            f"language {wrong[0]} is not enabled for this catalog",
            {"fields": [{"field": "languages", "message": f"enabled: {', '.join(enabled)}", "type": "language"}]},
        )
    if len(set(given)) != len(given):
        raise ValidationFailed(
            "each language once", {"fields": [{"field": "languages", "message": "each once", "type": "unique"}]}
        )
    return given


@use_case(
    "catalog.channels.list",
    "GET /channels",
    tx="read",
    roles=STAFF,
    record="catalog.channel",
    summary="channels: what each shop or catalogue receives, with how many products are complete for it",
)
def list_channels(ctx: Ctx, query: ListQuery) -> Page[ChannelOut]:
    stmt = select(CatalogChannel)
    if query.search:
        stmt = stmt.where(contains(CatalogChannel.code, query.search) | contains(CatalogChannel.name, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"code": CatalogChannel.code, "created_at": CatalogChannel.created_at})
        return page.map(lambda c: _out(s, ctx, c))


@use_case(
    "catalog.channels.get", "GET /channels/{id}", tx="read", roles=STAFF, record="catalog.channel", summary="a channel"
)
def get_channel(ctx: Ctx, id: str) -> ChannelOut:
    with ctx.read() as s:
        return _out(s, ctx, _find(s, id))


@use_case(
    "catalog.channels.create",
    "POST /channels",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="New channel",
    record="catalog.channel",
    summary="create a channel (its languages and categories; empty: all)",
)
def create_channel(ctx: Ctx, body: ChannelIn) -> ChannelOut:
    with ctx.write() as s:
        if s.execute(select(CatalogChannel.id).where(CatalogChannel.code == body.code)).first():
            raise Conflict(f"a channel {body.code} exists", {"reason": "code_taken", "code": body.code})
        c = CatalogChannel(
            code=body.code,
            name=body.name,
            languages=_languages(s, ctx.tenant_id, body.languages),
            category_ids=_check_categories(s, body.category_ids),
            created_at=ctx.now(),
            updated_at=ctx.now(),
        )
        s.add(c)
        s.flush()
        return _out(s, ctx, c)


@use_case(
    "catalog.channels.update",
    "PUT /channels/{id}",
    tx="write",
    roles=MANAGERS,
    says="Change to channel",
    record="catalog.channel",
    summary="rename a channel or change its languages and categories",
)
def update_channel(ctx: Ctx, id: str, body: ChannelUpdate) -> ChannelOut:
    with ctx.write() as s:
        c = _find(s, id)
        if body.name is not None:
            c.name = body.name
        if body.languages is not None:
            c.languages = _languages(s, ctx.tenant_id, body.languages)
        if body.category_ids is not None:
            c.category_ids = _check_categories(s, body.category_ids)
        c.updated_at = ctx.now()
        s.flush()
        return _out(s, ctx, c)


@use_case(
    "catalog.channels.delete",
    "DELETE /channels/{id}",
    tx="write",
    roles=MANAGERS,
    says="Remove channel",
    record="catalog.channel",
    summary="remove a channel (families' rules naming it are then ignored)",
)
def delete_channel(ctx: Ctx, id: str) -> None:
    with ctx.write() as s:
        s.delete(_find(s, id))

"""Campaign: lists."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.campaign import (
    CampaignContact,
    CampaignList,
    CampaignSegment,
)
from services.campaign import schemas as sc
from services.campaign import segments
from services.campaign.audience import segment_size
from services.campaign.lookups import _get
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.roles import MANAGERS, STAFF

record_kind("campaign.list", get="campaign.lists.get", label="name")


record_kind("campaign.segment", get="campaign.segments.get", label="name")


def _list_out(s: Session, lst: CampaignList) -> sc.ListOut:
    n = sum(1 for ids in s.scalars(select(CampaignContact.list_ids)) if lst.id in (ids or []))
    return sc.ListOut(
        id=lst.id, name=lst.name, description=lst.description, public=lst.public, contacts=n, created_at=lst.created_at
    )


@use_case("campaign.lists.list", "GET /lists", tx="read", roles=STAFF, record="campaign.list")
def list_lists(ctx: Ctx, query: ListQuery) -> Page[sc.ListOut]:
    stmt = select(CampaignList)
    if query.search:
        stmt = stmt.where(contains(CampaignList.name, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": CampaignList.created_at, "name": CampaignList.name})
        counts: dict[str, int] = {}
        for ids in s.scalars(select(CampaignContact.list_ids)):
            for i in ids or []:
                counts[i] = counts.get(i, 0) + 1
        return page.map(
            lambda x: sc.ListOut(
                id=x.id,
                name=x.name,
                description=x.description,
                public=x.public,
                contacts=counts.get(x.id, 0),
                created_at=x.created_at,
            )
        )


@use_case("campaign.lists.get", "GET /lists/{id}", tx="read", roles=STAFF, record="campaign.list")
def get_list(ctx: Ctx, id: str) -> sc.ListOut:
    with ctx.read() as s:
        return _list_out(s, _get(s, CampaignList, id, "list"))


@use_case(
    "campaign.lists.create", "POST /lists", tx="write", roles=STAFF, status=201, says="New list", record="campaign.list"
)
def create_list(ctx: Ctx, body: sc.ListIn) -> sc.ListOut:
    with ctx.write() as s:
        lst = CampaignList(name=body.name, description=body.description, public=body.public, created_at=ctx.now())
        s.add(lst)
        s.flush()
        return sc.ListOut(
            id=lst.id,
            name=lst.name,
            description=lst.description,
            public=lst.public,
            contacts=0,
            created_at=lst.created_at,
        )


@use_case("campaign.lists.update", "PUT /lists/{id}", tx="write", roles=STAFF, says="Edit list", record="campaign.list")
def update_list(ctx: Ctx, id: str, body: sc.ListIn) -> sc.ListOut:
    with ctx.write() as s:
        lst = _get(s, CampaignList, id, "list")
        lst.name, lst.description, lst.public = body.name, body.description, body.public
        s.flush()
        return _list_out(s, lst)


@use_case(
    "campaign.lists.delete",
    "DELETE /lists/{id}",
    tx="write",
    roles=MANAGERS,
    says="Delete list",
    record="campaign.list",
)
def delete_list(ctx: Ctx, id: str) -> None:
    """The list goes; its contacts stay (they leave the list)."""
    with ctx.write() as s:
        lst = _get(s, CampaignList, id, "list")
        for c in s.scalars(select(CampaignContact)):
            if id in (c.list_ids or []):
                c.list_ids = [x for x in c.list_ids if x != id]
        s.delete(lst)


def _segment_out(s: Session, ctx: Ctx, seg: CampaignSegment, count: bool = True) -> sc.SegmentOut:
    return sc.SegmentOut(
        id=seg.id,
        name=seg.name,
        rules=seg.rules,
        contacts=segment_size(s, seg.rules, ctx.now()) if count else None,
        created_at=seg.created_at,
    )


@use_case("campaign.segments.list", "GET /segments", tx="read", roles=STAFF, record="campaign.segment")
def list_segments(ctx: Ctx, query: ListQuery) -> Page[sc.SegmentOut]:
    stmt = select(CampaignSegment)
    if query.search:
        stmt = stmt.where(contains(CampaignSegment.name, query.search))
    with ctx.read() as s:
        page = paginate(
            s, stmt, query, columns={"created_at": CampaignSegment.created_at, "name": CampaignSegment.name}
        )
        return page.map(lambda x: _segment_out(s, ctx, x, count=False))


@use_case("campaign.segments.get", "GET /segments/{id}", tx="read", roles=STAFF, record="campaign.segment")
def get_segment(ctx: Ctx, id: str) -> sc.SegmentOut:
    """The segment with the number of contacts it matches now."""
    with ctx.read() as s:
        return _segment_out(s, ctx, _get(s, CampaignSegment, id, "segment"))


@use_case(
    "campaign.segments.create",
    "POST /segments",
    tx="write",
    roles=STAFF,
    status=201,
    says="New segment",
    record="campaign.segment",
)
def create_segment(ctx: Ctx, body: sc.SegmentIn) -> sc.SegmentOut:
    segments.check_rules(body.rules)
    with ctx.write() as s:
        seg = CampaignSegment(name=body.name, rules=body.rules, created_at=ctx.now())
        s.add(seg)
        s.flush()
        return _segment_out(s, ctx, seg)


@use_case(
    "campaign.segments.update",
    "PUT /segments/{id}",
    tx="write",
    roles=STAFF,
    says="Edit segment",
    record="campaign.segment",
)
def update_segment(ctx: Ctx, id: str, body: sc.SegmentIn) -> sc.SegmentOut:
    segments.check_rules(body.rules)
    with ctx.write() as s:
        seg = _get(s, CampaignSegment, id, "segment")
        seg.name, seg.rules = body.name, body.rules
        s.flush()
        return _segment_out(s, ctx, seg)

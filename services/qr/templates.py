"""Qr: templates."""

from __future__ import annotations

from sqlalchemy import select, update

from local_db import new_id
from local_db.models.qr import QrCode, QrTemplate
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.pagination import ListQuery, Page, contains, paginate
from services.qr.lookups import _logo
from services.qr.schemas import (
    TemplateCreate,
    TemplateOut,
    TemplateUpdate,
)

TEMPLATE = record_kind("qr.template", get="qr.templates.get", label="name")


def _template_out(t: QrTemplate) -> TemplateOut:
    return TemplateOut(id=t.id, name=t.name, style=t.style, created_at=t.created_at)


@use_case("qr.templates.list", "GET /templates", tx="read", record=TEMPLATE, summary="list templates")
def list_templates(ctx: Ctx, query: ListQuery) -> Page[TemplateOut]:
    with ctx.read() as s:
        stmt = select(QrTemplate)
        if query.search and query.search.strip():
            stmt = stmt.where(contains(QrTemplate.name, query.search.strip()))
        page = paginate(s, stmt, query, columns={"created_at": QrTemplate.created_at, "name": QrTemplate.name})
        return Page([_template_out(t) for t in page.items], page.total, page.spec)


@use_case("qr.templates.get", "GET /templates/{id}", tx="read", record=TEMPLATE, summary="a template")
def get_template(ctx: Ctx, id: str) -> TemplateOut:
    with ctx.read() as s:
        t = s.get(QrTemplate, id)
        if t is None:
            raise NotFound("template not found", {"id": id})
        return _template_out(t)


@use_case(
    "qr.templates.create",
    "POST /templates",
    tx="write",
    status=201,
    says="New template",
    record=TEMPLATE,
    summary="create a template",
)
def create_template(ctx: Ctx, body: TemplateCreate) -> TemplateOut:
    style = body.style.model_dump()
    _logo(ctx, style)
    with ctx.write() as s:
        t = QrTemplate(id=new_id(), tenant_id=ctx.tenant_id, name=body.name, style=style, created_at=ctx.now())
        s.add(t)
        s.flush()
        return _template_out(t)


@use_case(
    "qr.templates.update",
    "PATCH /templates/{id}",
    tx="write",
    says="Template changed",
    record=TEMPLATE,
    summary="update a template",
)
def update_template(ctx: Ctx, id: str, body: TemplateUpdate) -> TemplateOut:
    with ctx.write() as s:
        t = s.get(QrTemplate, id)
        if t is None:
            raise NotFound("template not found", {"id": id})
        if body.name is not None:
            t.name = body.name
        if body.style is not None:
            t.style = body.style.model_dump()
            _logo(ctx, t.style)
        s.flush()
        return _template_out(t)


@use_case(
    "qr.templates.delete",
    "DELETE /templates/{id}",
    tx="write",
    says="Template deleted",
    record=TEMPLATE,
    summary="delete a template (codes keep their style)",
)
def delete_template(ctx: Ctx, id: str) -> None:
    with ctx.write() as s:
        t = s.get(QrTemplate, id)
        if t is None:
            raise NotFound("template not found", {"id": id})
        s.execute(update(QrCode).where(QrCode.template_id == id).values(template_id=None))
        s.delete(t)

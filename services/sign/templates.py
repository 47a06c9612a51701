"""Sign: templates."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.sign import SignTemplate
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import NotFound, ValidationFailed
from services.core.files import Upload
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.storage import store_blob
from services.sign import schemas as sc
from services.sign import states
from services.sign.lookups import MAX_FIELDS, PDF_TYPES, _doc, _fields, _pdf_pages, _signers

TEMPLATE = record_kind("sign.template", get="sign.templates.get", label="name")


def _template(s: Session, tid: str) -> SignTemplate:
    t = s.get(SignTemplate, tid)
    if t is None:
        raise NotFound(f"no template {tid}", {"template": tid})
    return t


@use_case("sign.templates.list", "GET /templates", tx="read", record=TEMPLATE, summary="list templates")
def list_templates(ctx: Ctx, query: ListQuery) -> Page[sc.TemplateOut]:
    stmt = select(SignTemplate)
    if query.search:
        stmt = stmt.where(contains(SignTemplate.name, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": SignTemplate.created_at, "name": SignTemplate.name})
        return page.map(sc.TemplateOut.model_validate)


@use_case("sign.templates.get", "GET /templates/{id}", tx="read", record=TEMPLATE, summary="a template")
def get_template(ctx: Ctx, id: str) -> sc.TemplateOut:
    with ctx.read() as s:
        return sc.TemplateOut.model_validate(_template(s, id))


def _template_fields(raw: Any) -> list[dict[str, Any]]:
    from pydantic import TypeAdapter, ValidationError

    from services.core.errors import validation_details

    try:
        items = TypeAdapter(list[sc.TemplateField]).validate_python(raw)
    except ValidationError as exc:
        raise ValidationFailed("fields failed validation", validation_details(exc)) from exc
    if len(items) > MAX_FIELDS:
        raise ValidationFailed(f"at most {MAX_FIELDS} fields", {"field": "fields"})
    return [i.model_dump() for i in items]


@use_case(
    "sign.templates.create",
    "POST /templates",
    tx="write",
    status=201,
    upload=True,
    says="New template",
    record=TEMPLATE,
    summary="create a template from a PDF (multipart file + name + fields JSON) or a draft ({name, document_id})",
)
def create_template(ctx: Ctx, upload: Upload) -> sc.TemplateOut:
    import json

    from services.core.bodies import parse_json, validate_body

    now = ctx.now()
    if upload.content_type.startswith("application/json"):
        body = validate_body(sc.TemplateFromDocument, parse_json(upload.content))
        with ctx.write() as s:
            d = _doc(s, body.document_id)
            states.DOCUMENT.check(d.status, "edit", verb="make a template of")
            signers = {g.id: i + 1 for i, g in enumerate(_signers(s, d.id))}
            fields = [
                sc.TemplateField(
                    slot=signers.get(f.signer_id or "", f.slot or 1),
                    type=f.type,  # type: ignore[arg-type]
                    page=f.page,
                    x=f.x,
                    y=f.y,
                    width=f.width,
                    height=f.height,
                    required=f.required,
                ).model_dump()
                for f in _fields(s, d.id)
            ]
            t = SignTemplate(
                name=body.name, sha256=d.sha256, pages=d.pages, fields=fields, created_at=now, updated_at=now
            )
            s.add(t)
            s.flush()
            return sc.TemplateOut.model_validate(t)
    extra = dict(upload.fields)
    name = (extra.pop("name", "") or "").strip()
    raw_fields = extra.pop("fields", "[]")
    if extra:
        raise ValidationFailed("unknown fields", {"fields": [{"field": f, "message": "not allowed"} for f in extra]})
    if not name or len(name) > 200:
        raise ValidationFailed("name is required (1-200 characters)", {"field": "name"})
    try:
        parsed = json.loads(raw_fields)
    except ValueError as exc:
        raise ValidationFailed("fields must be JSON", {"field": "fields"}) from exc
    fields = _template_fields(parsed)
    blob = store_blob(ctx, upload.content, allowed=PDF_TYPES)
    pages = _pdf_pages(upload.content)
    if any(f["page"] > pages for f in fields):
        raise ValidationFailed(f"the PDF has {pages} pages", {"field": "fields"})
    with ctx.write() as s:
        t = SignTemplate(name=name, sha256=blob.sha256, pages=pages, fields=fields, created_at=now, updated_at=now)
        s.add(t)
        s.flush()
        return sc.TemplateOut.model_validate(t)


@use_case(
    "sign.templates.update",
    "PUT /templates/{id}",
    tx="write",
    says="Template changed",
    record=TEMPLATE,
    summary="rename a template or replace its fields",
)
def update_template(ctx: Ctx, id: str, body: sc.TemplateUpdate) -> sc.TemplateOut:
    with ctx.write() as s:
        t = _template(s, id)
        if body.name is not None:
            t.name = body.name
        if body.fields is not None:
            if any(f.page > t.pages for f in body.fields):
                raise ValidationFailed(f"the template has {t.pages} pages", {"field": "fields"})
            t.fields = [f.model_dump() for f in body.fields]
        t.updated_at = ctx.now()
        s.flush()
        return sc.TemplateOut.model_validate(t)


@use_case(
    "sign.templates.delete",
    "DELETE /templates/{id}",
    tx="write",
    says="Delete template",
    record=TEMPLATE,
    summary="delete a template (documents made from it stay)",
)
def delete_template(ctx: Ctx, id: str) -> None:
    with ctx.write() as s:
        s.delete(_template(s, id))

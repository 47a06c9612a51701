"""Docs: templates (docs/docs.md "Templates").

A template is a title and a Markdown body with ``{{name}}`` placeholders. A new document made
from it (``POST /documents {"from_template": id, "values": {...}}``) gets the template's title,
body, category and tags, with every placeholder named in ``values`` filled and the built-ins
(``{{date}}``, ``{{time}}``, ``{{author}}``) filled from the request; the rest stay as typed for
the author to fill in the editor, as Outline leaves its template placeholders. Named values are
Confluence's template variables; ``{{date}}``/``{{time}}`` follow Obsidian and Outline.
"""

from __future__ import annotations

import re

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.docs import DocCategory, DocDocument, DocTemplate
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import NotFound, ValidationFailed
from services.core.pagination import ListQuery, Page, paginate
from services.core.roles import STAFF
from services.docs.schemas import DocumentIn, TemplateIn, TemplateOut, TemplateUpdate

TEMPLATE = record_kind("docs.template", get="docs.templates.get", label="name")

# {{name}} with optional spaces inside the braces; a name as in schemas.PLACEHOLDER_NAME.
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_.-]{0,49})\s*\}\}")
BUILT_INS = ("date", "time", "author")


def placeholders(*texts: str) -> list[str]:
    """The placeholder names in ``texts``, in order of first use."""
    out: list[str] = []
    for text in texts:
        for m in PLACEHOLDER.finditer(text):
            if m.group(1) not in out:
                out.append(m.group(1))
    return out


def fill(text: str, values: dict[str, str]) -> str:
    """``text`` with the placeholders named in ``values`` replaced; the others kept as written.
    One pass: a value that itself reads ``{{x}}`` is text, never filled again."""
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def _out(t: DocTemplate) -> TemplateOut:
    return TemplateOut.model_validate(t).model_copy(update={"placeholders": placeholders(t.title, t.body)})


def _template(s: Session, tid: str) -> DocTemplate:
    t = s.get(DocTemplate, tid)
    if t is None:
        raise NotFound("template not found", {"id": tid})
    return t


def _category(s: Session, cid: str | None) -> None:
    if cid is not None and s.get(DocCategory, cid) is None:
        raise ValidationFailed("no such category", {"category_id": cid})


def from_template(ctx: Ctx, s: Session, body: DocumentIn) -> tuple[str, str, str | None, list[str]]:
    """Title, body, category and tags of a new document made from ``body.from_template``: the
    request's own fields win, then the template's; placeholders filled as the module says."""
    assert body.from_template is not None
    t = s.get(DocTemplate, body.from_template)
    if t is None:  # a field of the request naming nothing: 400, like an unknown category
        raise ValidationFailed("no such template", {"from_template": body.from_template})
    names = placeholders(t.title, t.body)
    unknown = sorted(set(body.values) - set(names))
    if unknown:
        raise ValidationFailed("the template has no such placeholder", {"values": unknown, "placeholders": names})
    now = ctx.now()
    p = ctx.principal
    values = {"date": now.date().isoformat(), "time": now.strftime("%H:%M"), "author": p.name or p.email or ""}
    values.update(body.values)
    fields = body.model_fields_set
    title = body.title if body.title is not None else fill(t.title, values)
    text = body.body if body.body is not None else fill(t.body, values)
    category = body.category_id if "category_id" in fields else t.category_id
    tags = body.tags if body.tags is not None else list(t.tags or [])
    return title[:300], text, category, tags


@use_case("docs.templates.list", "GET /templates", tx="read", roles=STAFF, summary="the document templates, by name")
def list_templates(ctx: Ctx, query: ListQuery, session: Session = SESSION) -> Page[TemplateOut]:
    page = paginate(
        session,
        select(DocTemplate),
        query,
        columns={"name": DocTemplate.name, "updated_at": DocTemplate.updated_at},
        default_sort="name",
    )
    return page.map(_out)


@use_case("docs.templates.get", "GET /templates/{id}", tx="read", roles=STAFF)
def get_template(ctx: Ctx, id: str, session: Session = SESSION) -> TemplateOut:
    return _out(_template(session, id))


@use_case(
    "docs.templates.create",
    "POST /templates",
    tx="write",
    roles=STAFF,
    status=201,
    says="New template",
    record=TEMPLATE,
    summary="a template of its own fields, or of a document's (from_document)",
)
def create_template(ctx: Ctx, body: TemplateIn, session: Session = SESSION) -> TemplateOut:
    title, text, category, tags = body.title, body.body, body.category_id, body.tags
    if body.from_document is not None:
        d = session.get(DocDocument, body.from_document)
        if d is None or d.deleted_at is not None:
            raise ValidationFailed("no such document", {"from_document": body.from_document})
        title = title if title is not None else d.title
        text = text if text is not None else d.body
        category = category if "category_id" in body.model_fields_set else d.category_id
        tags = tags if tags is not None else list(d.tags or [])
    _category(session, category)
    now = ctx.now()
    t = DocTemplate(
        id=new_id(),
        name=body.name,
        description=body.description,
        title=title or "",
        body=text or "",
        category_id=category,
        tags=tags or [],
        created_by=ctx.principal.id,
        created_at=now,
        updated_at=now,
    )
    session.add(t)
    session.flush()
    return _out(t)


@use_case(
    "docs.templates.update", "PUT /templates/{id}", tx="write", roles=STAFF, says="Change template", record=TEMPLATE
)
def update_template(ctx: Ctx, id: str, body: TemplateUpdate, session: Session = SESSION) -> TemplateOut:
    t = _template(session, id)
    fields = body.model_dump(exclude_unset=True)
    if "category_id" in fields:
        _category(session, body.category_id)
        t.category_id = body.category_id
    for f in ("name", "description", "title", "body", "tags"):
        if fields.get(f) is not None:
            setattr(t, f, fields[f])
    t.updated_at = ctx.now()
    session.flush()
    return _out(t)


@use_case(
    "docs.templates.delete",
    "DELETE /templates/{id}",
    tx="write",
    roles=STAFF,
    says="Delete template",
    record=TEMPLATE,
    summary="remove a template (documents made from it stay as they are)",
)
def delete_template(ctx: Ctx, id: str, session: Session = SESSION) -> None:
    session.delete(_template(session, id))
    session.flush()

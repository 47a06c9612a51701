"""Campaign use cases: lists, contacts and imports, segments, templates, campaigns and their
stats, flows, surveys, and the public routes a recipient uses (unsubscribe, open, click, answer).
"""

from __future__ import annotations

import csv
import html
import io
import json
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.campaign import (
    Campaign,
    CampaignContact,
    CampaignEmailTemplate,
    CampaignFlow,
    CampaignFlowRun,
    CampaignList,
    CampaignMessage,
    CampaignSegment,
    CampaignSmsTemplate,
    CampaignSurvey,
    CampaignSurveyResponse,
)
from services.campaign import render, segments, tokens
from services.campaign import schemas as sc
from services.campaign.sending import enroll, parse_duration, segment_size, start
from services.campaign.states import (
    CAMPAIGN,
    CAMPAIGN_TARGETS,
    EDITABLE,
    FLOW,
    FLOW_TARGETS,
    SURVEY,
    SURVEY_TARGETS,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed, conflict_state
from services.core.events import emit
from services.core.files import FileResult, Redirect, Upload
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.roles import MANAGERS, STAFF

MODULE = "campaign"
record_kind("campaign.list", get="campaign.lists.get", label="name")
record_kind("campaign.contact", get="campaign.contacts.get", label="email")
record_kind("campaign.segment", get="campaign.segments.get", label="name")
record_kind("campaign.email_template", get="campaign.templates.email.get", label="name")
record_kind("campaign.sms_template", get="campaign.templates.sms.get", label="name")
record_kind("campaign.campaign", get="campaign.campaigns.get", label="name")
record_kind("campaign.flow", get="campaign.flows.get", label="name")
record_kind("campaign.survey", get="campaign.surveys.get", label="name")
IMPORT_MAX_ROWS = 200_000


def _get(s: Session, model: Any, id: str, what: str) -> Any:
    row = s.get(model, id)  # another tenant's row reads as None
    if row is None:
        raise NotFound(f"{what} not found", {"id": id})
    return row


def _require_module(ctx: Ctx) -> None:
    """Public routes skip the central module check: the tenant must still have Campaign."""
    if ctx.tenant is None or MODULE not in ctx.tenant.modules:
        raise Forbidden("campaign is not enabled for this tenant")


# --- lists ---------------------------------------------------------------------------------


def _list_out(s: Session, lst: CampaignList) -> sc.ListOut:
    n = sum(1 for ids in s.scalars(select(CampaignContact.list_ids)) if lst.id in (ids or []))
    return sc.ListOut(id=lst.id, name=lst.name, description=lst.description, contacts=n, created_at=lst.created_at)


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
                id=x.id, name=x.name, description=x.description, contacts=counts.get(x.id, 0), created_at=x.created_at
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
        lst = CampaignList(name=body.name, description=body.description, created_at=ctx.now())
        s.add(lst)
        s.flush()
        return sc.ListOut(id=lst.id, name=lst.name, description=lst.description, contacts=0, created_at=lst.created_at)


@use_case("campaign.lists.update", "PUT /lists/{id}", tx="write", roles=STAFF, says="Edit list", record="campaign.list")
def update_list(ctx: Ctx, id: str, body: sc.ListIn) -> sc.ListOut:
    with ctx.write() as s:
        lst = _get(s, CampaignList, id, "list")
        lst.name, lst.description = body.name, body.description
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


# --- contacts ------------------------------------------------------------------------------


def _check_lists(s: Session, list_ids: list[str]) -> None:
    if not list_ids:
        return
    have = set(s.scalars(select(CampaignList.id).where(CampaignList.id.in_(list_ids))))
    missing = [i for i in list_ids if i not in have]
    if missing:
        raise ValidationFailed("unknown list", {"field": "list_ids", "missing": missing})


def _consent(ctx: Ctx, consent: sc.Consent | None) -> dict[str, Any] | None:
    if consent is None:
        return None
    at = consent.at or ctx.now()
    return {"source": consent.source, "at": at.isoformat(), "ip": consent.ip or ctx.ip, "text": consent.text}


def _email_taken(s: Session, key: str, but: str | None = None) -> None:
    other = s.scalar(select(CampaignContact.id).where(CampaignContact.email_key == key))
    if other is not None and other != but:
        raise Conflict("a contact with this e-mail exists", {"email": key, "contact_id": other})


def _unsubscribed(ctx: Ctx, c: CampaignContact, source: str, message: CampaignMessage | None = None) -> None:
    emit(
        ctx,
        "contact.unsubscribed",
        {
            "contact_id": c.id,
            "email": c.email,
            "source": source,
            "campaign_id": message.campaign_id if message else None,
        },
    )


@use_case("campaign.contacts.list", "GET /contacts", tx="read", roles=STAFF, record="campaign.contact")
def list_contacts(ctx: Ctx, query: sc.ContactQuery) -> Page[sc.ContactOut]:
    stmt = select(CampaignContact)
    if query.status:
        stmt = stmt.where(CampaignContact.status == query.status)
    if query.search:
        stmt = stmt.where(contains(CampaignContact.email, query.search) | contains(CampaignContact.name, query.search))
    if query.list_id:
        # JSON membership: matched in SQL as text on both backends (ids are UUIDs, quoted in the JSON).
        stmt = stmt.where(
            contains(func.cast(CampaignContact.list_ids, type_=CampaignContact.email.type), f'"{query.list_id}"')
        )
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "created_at": CampaignContact.created_at,
                "email": CampaignContact.email,
                "name": CampaignContact.name,
            },
        )
        return page.map(sc.ContactOut.model_validate)


@use_case("campaign.contacts.get", "GET /contacts/{id}", tx="read", roles=STAFF, record="campaign.contact")
def get_contact(ctx: Ctx, id: str) -> sc.ContactOut:
    with ctx.read() as s:
        return sc.ContactOut.model_validate(_get(s, CampaignContact, id, "contact"))


@use_case(
    "campaign.contacts.create",
    "POST /contacts",
    tx="write",
    roles=STAFF,
    status=201,
    says="New contact",
    record="campaign.contact",
    summary="add a contact with the consent it gave (e-mail unique per tenant, case-insensitive)",
)
def create_contact(ctx: Ctx, body: sc.ContactIn) -> sc.ContactOut:
    now = ctx.now()
    key = body.email.strip().lower()
    with ctx.write() as s:
        _email_taken(s, key)
        _check_lists(s, body.list_ids)
        c = CampaignContact(
            email=body.email.strip(),
            email_key=key,
            name=body.name,
            phone=body.phone,
            attributes=body.attributes,
            status=body.status,
            consent=_consent(ctx, body.consent),
            list_ids=list(dict.fromkeys(body.list_ids)),
            created_at=now,
            updated_at=now,
        )
        s.add(c)
        s.flush()
        if c.list_ids and c.status == "active":
            enroll(ctx, s, [c.id], list_ids=c.list_ids)
        return sc.ContactOut.model_validate(c)


@use_case(
    "campaign.contacts.update",
    "PUT /contacts/{id}",
    tx="write",
    roles=STAFF,
    says="Edit contact",
    record="campaign.contact",
)
def update_contact(ctx: Ctx, id: str, body: sc.ContactUpdate) -> sc.ContactOut:
    with ctx.write() as s:
        c = _get(s, CampaignContact, id, "contact")
        fields = body.model_fields_set
        if "email" in fields and body.email:
            key = body.email.strip().lower()
            _email_taken(s, key, but=c.id)
            c.email, c.email_key = body.email.strip(), key
        if "name" in fields and body.name is not None:
            c.name = body.name
        if "phone" in fields:
            c.phone = body.phone
        if "attributes" in fields and body.attributes is not None:
            c.attributes = body.attributes
        if "consent" in fields and body.consent is not None:
            c.consent = _consent(ctx, body.consent)
        joined: list[str] = []
        if "list_ids" in fields and body.list_ids is not None:
            _check_lists(s, body.list_ids)
            joined = [x for x in body.list_ids if x not in (c.list_ids or [])]
            c.list_ids = list(dict.fromkeys(body.list_ids))
        if "status" in fields and body.status is not None and body.status != c.status:
            was = c.status
            c.status = body.status
            if body.status == "unsubscribed" and was != "unsubscribed":
                _unsubscribed(ctx, c, "staff")
        c.updated_at = ctx.now()
        s.flush()
        if joined and c.status == "active":
            enroll(ctx, s, [c.id], list_ids=joined)
        return sc.ContactOut.model_validate(c)


@use_case(
    "campaign.contacts.delete",
    "DELETE /contacts/{id}",
    tx="write",
    roles=STAFF,
    says="Delete contact",
    record="campaign.contact",
    summary="erase a contact (GDPR erasure): its messages and flow runs go too",
)
def delete_contact(ctx: Ctx, id: str) -> None:
    with ctx.write() as s:
        c = _get(s, CampaignContact, id, "contact")
        s.execute(delete(CampaignFlowRun).where(CampaignFlowRun.contact_id == c.id))
        # The messages stay (the campaign's figures count them) but point at no contact: each takes
        # its own id, so two deleted recipients of one campaign keep the recipient key unique.
        s.execute(
            update(CampaignMessage).where(CampaignMessage.contact_id == c.id).values(contact_id=CampaignMessage.id)
        )
        s.delete(c)


_IMPORT_FIELDS = ("email", "name", "phone", "status")


def parse_import(upload: Upload) -> list[dict[str, Any]]:
    """Rows of a CSV (RFC 4180, header row; other columns become attributes) or a JSON array."""
    raw = upload.content
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationFailed("the file must be UTF-8", {"position": exc.start}) from exc
    stripped = text.lstrip()
    if upload.content_type.endswith("json") or stripped.startswith("["):
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise ValidationFailed("the JSON does not parse", {"error": str(exc)[:200]}) from exc
        if not isinstance(data, list):
            raise ValidationFailed("a JSON import is an array of contacts")
        return [r if isinstance(r, dict) else {"__bad__": "a row must be an object"} for r in data]
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader)
    except StopIteration:
        raise ValidationFailed("the CSV is empty: it needs a header row") from None
    except csv.Error as exc:
        raise ValidationFailed(f"the CSV header does not parse: {exc}") from exc
    cols = [h.strip().lower() for h in header]
    if "email" not in cols:
        raise ValidationFailed("the CSV header needs an 'email' column", {"header": cols[:20]})
    rows: list[dict[str, Any]] = []
    while True:
        try:
            rec = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            rows.append({"__bad__": f"does not parse: {exc}"})
            continue
        if not rec:
            continue
        if len(rec) != len(cols):
            rows.append({"__bad__": f"has {len(rec)} fields, the header has {len(cols)}"})
            continue
        row: dict[str, Any] = {}
        attrs: dict[str, Any] = {}
        for k, v in zip(cols, rec, strict=True):
            if k in _IMPORT_FIELDS:
                row[k] = v
            elif k == "list_ids":
                row[k] = [x for x in v.replace(";", ",").split(",") if x.strip()] if v else []
            elif k:
                attrs[k] = v
        row["attributes"] = attrs
        rows.append(row)
    return rows


def import_rows(ctx: Ctx, rows: list[dict[str, Any]], list_id: str | None, consent_source: str | None) -> sc.ImportOut:
    """Insert new contacts, update existing ones (same e-mail), skip duplicates within the file."""
    from pydantic import ValidationError

    now = ctx.now()
    errors: list[sc.ImportError_] = []
    imported = updated = skipped = 0
    consent = {"source": consent_source or "import", "at": now.isoformat(), "ip": ctx.ip, "text": None}
    with ctx.write() as s:
        if list_id:
            _check_lists(s, [list_id])
        lists = set(s.scalars(select(CampaignList.id)))
        existing = {k: i for k, i in s.execute(select(CampaignContact.email_key, CampaignContact.id))}
        seen: set[str] = set()
        new: list[dict[str, Any]] = []
        changed: dict[str, dict[str, Any]] = {}
        for n, row in enumerate(rows, start=1):
            if "__bad__" in row:
                errors.append(sc.ImportError_(row=n, error=str(row["__bad__"])))
                continue
            try:
                body = sc.ContactIn.model_validate(
                    {
                        "email": str(row.get("email") or "").strip(),
                        "name": row.get("name") or "",
                        "phone": row.get("phone") or None,
                        "status": row.get("status") or "active",
                        "attributes": row.get("attributes") or {},
                        "list_ids": row.get("list_ids") or [],
                    }
                )
            except ValidationError as exc:
                first = exc.errors()[0]
                errors.append(sc.ImportError_(row=n, error=f"{'.'.join(map(str, first['loc']))}: {first['msg']}"))
                continue
            key = body.email.lower()
            if key in seen:
                skipped += 1  # the same e-mail twice in one file: the first row counts
                continue
            seen.add(key)
            bad = [x for x in body.list_ids if x not in lists]
            if bad:
                errors.append(sc.ImportError_(row=n, error=f"list_ids: unknown list {bad[0]}"))
                continue
            lids = list(dict.fromkeys(body.list_ids + ([list_id] if list_id else [])))
            if key in existing:
                changed[existing[key]] = {
                    "name": body.name,
                    "phone": body.phone,
                    "attributes": body.attributes,
                    "lids": lids,
                }
                updated += 1
            else:
                new.append(
                    {
                        "id": new_id(),
                        "tenant_id": ctx.tenant_id,
                        "email": body.email,
                        "email_key": key,
                        "name": body.name,
                        "phone": body.phone,
                        "attributes": body.attributes,
                        "status": body.status,
                        "consent": consent,
                        "list_ids": lids,
                        "created_at": now,
                        "updated_at": now,
                    }
                )
                imported += 1
        from sqlalchemy import insert

        from local_db.base import table_of

        for i in range(0, len(new), 5000):
            s.connection().execute(insert(table_of(CampaignContact)), new[i : i + 5000])
        if changed:
            ids = list(changed)
            for i in range(0, len(ids), 900):
                for c in s.scalars(select(CampaignContact).where(CampaignContact.id.in_(ids[i : i + 900]))):
                    ch = changed[c.id]
                    if ch["name"]:
                        c.name = ch["name"]
                    if ch["phone"]:
                        c.phone = ch["phone"]
                    if ch["attributes"]:
                        c.attributes = {**(c.attributes or {}), **ch["attributes"]}
                    if ch["lids"]:
                        c.list_ids = list(dict.fromkeys((c.list_ids or []) + ch["lids"]))
                    c.updated_at = now
        s.flush()
        joined = {lid for r in new for lid in r["list_ids"]} | {lid for ch in changed.values() for lid in ch["lids"]}
        if joined:
            enroll(ctx, s, [r["id"] for r in new if r["status"] == "active"] + list(changed), list_ids=joined)
    return sc.ImportOut(imported=imported, updated=updated, skipped=skipped, errors=errors[:1000])


@use_case(
    "campaign.contacts.import",
    "POST /contacts/import",
    tx="write",
    roles=STAFF,
    upload=True,
    limit="upload",
    says="Import contacts",
    record="campaign.contact",
    summary="bulk import: CSV (RFC 4180, header row) or a JSON array; a text/csv body or a multipart file",
)
def import_contacts(ctx: Ctx, query: sc.ImportQuery, upload: Upload) -> sc.ImportOut:
    rows = parse_import(upload)
    if len(rows) > IMPORT_MAX_ROWS:
        raise ValidationFailed(f"at most {IMPORT_MAX_ROWS} rows per import", {"rows": len(rows)})
    return import_rows(ctx, rows, query.list_id, query.consent_source)


# --- segments ------------------------------------------------------------------------------


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


# --- templates -----------------------------------------------------------------------------


def _sms_out(t: CampaignSmsTemplate) -> sc.SmsTemplateOut:
    n, enc, chars = render.sms_segments(t.body)
    return sc.SmsTemplateOut(
        id=t.id,
        name=t.name,
        body=t.body,
        segments=n,
        encoding=enc,
        characters=chars,
        created_at=t.created_at,  # type: ignore[arg-type]
    )


@use_case(
    "campaign.templates.email.list", "GET /templates/email", tx="read", roles=STAFF, record="campaign.email_template"
)
def list_email_templates(ctx: Ctx, query: ListQuery) -> Page[sc.EmailTemplateOut]:
    stmt = select(CampaignEmailTemplate)
    if query.search:
        stmt = stmt.where(contains(CampaignEmailTemplate.name, query.search))
    with ctx.read() as s:
        page = paginate(
            s, stmt, query, columns={"created_at": CampaignEmailTemplate.created_at, "name": CampaignEmailTemplate.name}
        )
        return page.map(sc.EmailTemplateOut.model_validate)


@use_case(
    "campaign.templates.email.get",
    "GET /templates/email/{id}",
    tx="read",
    roles=STAFF,
    record="campaign.email_template",
)
def get_email_template(ctx: Ctx, id: str) -> sc.EmailTemplateOut:
    with ctx.read() as s:
        return sc.EmailTemplateOut.model_validate(_get(s, CampaignEmailTemplate, id, "template"))


@use_case(
    "campaign.templates.email.create",
    "POST /templates/email",
    tx="write",
    roles=STAFF,
    status=201,
    says="New e-mail template",
    record="campaign.email_template",
    summary="an e-mail template ({{ contact.name }}, {{ unsubscribe_url }}), rendered in a sandbox",
)
def create_email_template(ctx: Ctx, body: sc.EmailTemplateIn) -> sc.EmailTemplateOut:
    if not body.html and not body.text:
        raise ValidationFailed("a template needs html or text", {"field": "text"})
    render.check(body.subject, "subject")
    render.check(body.html, "html", html=True)
    render.check(body.text, "text")
    with ctx.write() as s:
        t = CampaignEmailTemplate(
            name=body.name, subject=body.subject, html=body.html, text=body.text, created_at=ctx.now()
        )
        s.add(t)
        s.flush()
        return sc.EmailTemplateOut.model_validate(t)


@use_case("campaign.templates.sms.list", "GET /templates/sms", tx="read", roles=STAFF, record="campaign.sms_template")
def list_sms_templates(ctx: Ctx, query: ListQuery) -> Page[sc.SmsTemplateOut]:
    stmt = select(CampaignSmsTemplate)
    if query.search:
        stmt = stmt.where(contains(CampaignSmsTemplate.name, query.search))
    with ctx.read() as s:
        page = paginate(
            s, stmt, query, columns={"created_at": CampaignSmsTemplate.created_at, "name": CampaignSmsTemplate.name}
        )
        return page.map(_sms_out)


@use_case(
    "campaign.templates.sms.get", "GET /templates/sms/{id}", tx="read", roles=STAFF, record="campaign.sms_template"
)
def get_sms_template(ctx: Ctx, id: str) -> sc.SmsTemplateOut:
    with ctx.read() as s:
        return _sms_out(_get(s, CampaignSmsTemplate, id, "template"))


@use_case(
    "campaign.templates.sms.create",
    "POST /templates/sms",
    tx="write",
    roles=STAFF,
    status=201,
    says="New SMS template",
    record="campaign.sms_template",
    summary="an SMS template; answers its segments and encoding (GSM-7 160/153, UCS-2 70/67)",
)
def create_sms_template(ctx: Ctx, body: sc.SmsTemplateIn) -> sc.SmsTemplateOut:
    render.check(body.body, "body")
    with ctx.write() as s:
        t = CampaignSmsTemplate(name=body.name, body=body.body, created_at=ctx.now())
        s.add(t)
        s.flush()
        return _sms_out(t)


# --- campaigns -----------------------------------------------------------------------------


def campaign_out(c: Campaign) -> sc.CampaignOut:
    progress = 100 if c.status == "finished" else (int(100 * c.recipients / c.total) if c.total else 0)
    return sc.CampaignOut(
        id=c.id,
        name=c.name,
        channel=c.channel,  # type: ignore[arg-type]
        list_ids=list(c.list_ids or []),
        segment_id=c.segment_id,
        template_id=c.template_id,
        status=c.status,  # type: ignore[arg-type]
        send_at=c.send_at,
        rate=c.rate,
        job_id=c.job_id,
        progress=progress,
        total=c.total,
        sent=c.sent,
        recipients=c.recipients,
        failed=c.failed,
        bounced=c.bounced,
        opened=c.opened,
        clicked=c.clicked,
        unsubscribed=c.unsubscribed,
        started_at=c.started_at,
        finished_at=c.finished_at,
        created_at=c.created_at,
        updated_at=c.updated_at,
    )


def _check_refs(s: Session, channel: str, template_id: str | None, segment_id: str | None, list_ids: list[str]) -> None:
    if template_id is not None:
        model = CampaignEmailTemplate if channel == "email" else CampaignSmsTemplate
        if s.get(model, template_id) is None:
            raise ValidationFailed(f"no {channel} template {template_id}", {"field": "template_id"})
    if segment_id is not None and s.get(CampaignSegment, segment_id) is None:
        raise ValidationFailed(f"no segment {segment_id}", {"field": "segment_id"})
    _check_lists(s, list_ids)


@use_case("campaign.campaigns.list", "GET /campaigns", tx="read", roles=STAFF, record="campaign.campaign")
def list_campaigns(ctx: Ctx, query: sc.CampaignQuery) -> Page[sc.CampaignOut]:
    stmt = select(Campaign)
    if query.status:
        stmt = stmt.where(Campaign.status == query.status)
    if query.channel:
        stmt = stmt.where(Campaign.channel == query.channel)
    if query.search:
        stmt = stmt.where(contains(Campaign.name, query.search))
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={"created_at": Campaign.created_at, "name": Campaign.name, "send_at": Campaign.send_at},
        )
        return page.map(campaign_out)


@use_case("campaign.campaigns.get", "GET /campaigns/{id}", tx="read", roles=STAFF, record="campaign.campaign")
def get_campaign(ctx: Ctx, id: str) -> sc.CampaignOut:
    with ctx.read() as s:
        return campaign_out(_get(s, Campaign, id, "campaign"))


@use_case(
    "campaign.campaigns.create",
    "POST /campaigns",
    tx="write",
    roles=STAFF,
    status=201,
    says="New campaign",
    record="campaign.campaign",
)
def create_campaign(ctx: Ctx, body: sc.CampaignIn) -> sc.CampaignOut:
    now = ctx.now()
    with ctx.write() as s:
        _check_refs(s, body.channel, body.template_id, body.segment_id, body.list_ids)
        c = Campaign(
            name=body.name,
            channel=body.channel,
            list_ids=list(dict.fromkeys(body.list_ids)),
            segment_id=body.segment_id,
            template_id=body.template_id,
            status="draft",
            send_at=body.send_at,
            rate=body.rate,
            created_at=now,
            updated_at=now,
        )
        s.add(c)
        s.flush()
        return campaign_out(c)


@use_case(
    "campaign.campaigns.update",
    "PATCH /campaigns/{id}",
    tx="write",
    roles=STAFF,
    says="Edit campaign",
    record="campaign.campaign",
    summary="edit a draft, scheduled or paused campaign; {status} moves it as the state table allows",
)
def update_campaign(ctx: Ctx, id: str, body: sc.CampaignUpdate) -> sc.CampaignOut:
    fields = body.model_fields_set - {"status"}
    with ctx.write() as s:
        c = _get(s, Campaign, id, "campaign")
        if fields:
            if c.status not in EDITABLE:
                raise conflict_state("campaign", c.status, "edit")
            _check_refs(
                s,
                c.channel,
                body.template_id if "template_id" in fields else None,
                body.segment_id if "segment_id" in fields else None,
                body.list_ids or [],
            )
            for f in fields:
                if f == "name" and body.name is None:
                    continue
                setattr(c, f, getattr(body, f) if f != "list_ids" else list(dict.fromkeys(body.list_ids or [])))
        if body.status is not None and body.status != c.status:
            action = CAMPAIGN_TARGETS.get(body.status)
            if action is None:
                raise conflict_state("campaign", c.status, f"move to {body.status}")
            if action == "schedule" and c.send_at is None:
                raise ValidationFailed("scheduling needs send_at", {"field": "send_at"})
            if action == "resume" and c.status == "paused":
                start(ctx, s, c, "resume")
            else:
                c.status = CAMPAIGN.check(c.status, action)
        c.updated_at = ctx.now()
        s.flush()
        return campaign_out(c)


@use_case(
    "campaign.campaigns.send",
    "POST /campaigns/{id}/send",
    tx="write",
    roles=STAFF,
    says="Send campaign",
    record="campaign.campaign",
    summary="{} sends now (a job: status and progress on the campaign), {send_at} schedules",
)
def send_campaign(ctx: Ctx, id: str, body: sc.SendIn) -> sc.CampaignOut:
    with ctx.write() as s:
        c = _get(s, Campaign, id, "campaign")
        if not c.template_id:
            raise ValidationFailed("the campaign has no template", {"field": "template_id"})
        if body.send_at is not None and body.send_at > ctx.now():
            CAMPAIGN.check(c.status, "schedule")
            c.send_at = body.send_at
            c.status = "scheduled"
            c.updated_at = ctx.now()
        else:
            start(ctx, s, c, "resume" if c.status == "paused" else "start")
        s.flush()
        return campaign_out(c)


def _rate(n: int, d: int) -> float:
    return round(n / d, 4) if d else 0.0


@use_case("campaign.campaigns.stats", "GET /campaigns/{id}/stats", tx="read", roles=STAFF, record="campaign.campaign")
def campaign_stats(ctx: Ctx, id: str) -> sc.StatsOut:
    """Counts of the send; opens and clicks are unique per recipient."""
    with ctx.read() as s:
        c = _get(s, Campaign, id, "campaign")
        return sc.StatsOut(
            recipients=c.recipients,
            sent=c.sent,
            failed=c.failed,
            bounced=c.bounced,
            opened=c.opened,
            clicked=c.clicked,
            unsubscribed=c.unsubscribed,
            open_rate=_rate(c.opened, c.sent),
            click_rate=_rate(c.clicked, c.sent),
        )


@use_case("campaign.analytics", "GET /analytics", tx="read", roles=STAFF, summary="the tenant's campaign totals")
def overview(ctx: Ctx) -> sc.OverviewOut:
    with ctx.read() as s:
        contacts = dict(s.execute(select(CampaignContact.status, func.count()).group_by(CampaignContact.status)).all())
        campaigns = dict(s.execute(select(Campaign.status, func.count()).group_by(Campaign.status)).all())
        sums = s.execute(
            select(
                func.coalesce(func.sum(Campaign.recipients), 0),
                func.coalesce(func.sum(Campaign.sent), 0),
                func.coalesce(func.sum(Campaign.bounced), 0),
                func.coalesce(func.sum(Campaign.opened), 0),
                func.coalesce(func.sum(Campaign.clicked), 0),
                func.coalesce(func.sum(Campaign.unsubscribed), 0),
            )
        ).one()
    return sc.OverviewOut(
        contacts={str(k): int(v) for k, v in contacts.items()},
        campaigns={str(k): int(v) for k, v in campaigns.items()},
        recipients=int(sums[0]),
        sent=int(sums[1]),
        bounced=int(sums[2]),
        opened=int(sums[3]),
        clicked=int(sums[4]),
        unsubscribed=int(sums[5]),
    )


# --- flows ---------------------------------------------------------------------------------


def _check_flow(s: Session, trigger: dict[str, Any], steps: list[dict[str, Any]]) -> None:
    if set(trigger) not in ({"event_type"}, {"list_id"}):
        raise ValidationFailed("trigger is {event_type} or {list_id}", {"field": "trigger"})
    if "list_id" in trigger:
        _check_lists(s, [str(trigger["list_id"])])
    elif not isinstance(trigger["event_type"], str) or not trigger["event_type"]:
        raise ValidationFailed("trigger.event_type is an event type", {"field": "trigger.event_type"})
    for i, step in enumerate(steps):
        at = f"steps[{i}]"
        if set(step) == {"wait"}:
            if parse_duration(str(step["wait"])) is None:
                raise ValidationFailed("wait is an ISO 8601 duration (P1D, PT2H)", {"field": at})
        elif set(step) == {"send_template_id"}:
            if s.get(CampaignEmailTemplate, str(step["send_template_id"])) is None:
                raise ValidationFailed("no e-mail template with that id", {"field": at})
        else:
            raise ValidationFailed("a step is {wait} or {send_template_id}", {"field": at})


def _flow_out(s: Session, f: CampaignFlow) -> sc.FlowOut:
    counts = dict(
        s.execute(
            select(CampaignFlowRun.status, func.count())
            .where(CampaignFlowRun.flow_id == f.id)
            .group_by(CampaignFlowRun.status)
        ).all()
    )
    return sc.FlowOut(
        id=f.id,
        name=f.name,
        trigger=f.trigger,
        steps=f.steps,
        status=f.status,  # type: ignore[arg-type]
        enrolled=sum(int(v) for v in counts.values()),
        completed=int(counts.get("done", 0)),
        created_at=f.created_at,
        updated_at=f.updated_at,
    )


@use_case("campaign.flows.list", "GET /flows", tx="read", roles=STAFF, record="campaign.flow")
def list_flows(ctx: Ctx, query: ListQuery) -> Page[sc.FlowOut]:
    stmt = select(CampaignFlow)
    if query.search:
        stmt = stmt.where(contains(CampaignFlow.name, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": CampaignFlow.created_at, "name": CampaignFlow.name})
        return page.map(lambda f: _flow_out(s, f))


@use_case("campaign.flows.get", "GET /flows/{id}", tx="read", roles=STAFF, record="campaign.flow")
def get_flow(ctx: Ctx, id: str) -> sc.FlowOut:
    with ctx.read() as s:
        return _flow_out(s, _get(s, CampaignFlow, id, "flow"))


@use_case(
    "campaign.flows.create",
    "POST /flows",
    tx="write",
    roles=STAFF,
    status=201,
    says="New flow",
    record="campaign.flow",
    summary="an automation: trigger {event_type|list_id}, steps [{wait: ISO 8601} | {send_template_id}]",
)
def create_flow(ctx: Ctx, body: sc.FlowIn) -> sc.FlowOut:
    now = ctx.now()
    with ctx.write() as s:
        _check_flow(s, body.trigger, body.steps)
        f = CampaignFlow(
            name=body.name, trigger=body.trigger, steps=body.steps, status=body.status, created_at=now, updated_at=now
        )
        s.add(f)
        s.flush()
        return _flow_out(s, f)


@use_case("campaign.flows.update", "PUT /flows/{id}", tx="write", roles=STAFF, says="Edit flow", record="campaign.flow")
def update_flow(ctx: Ctx, id: str, body: sc.FlowUpdate) -> sc.FlowOut:
    with ctx.write() as s:
        f = _get(s, CampaignFlow, id, "flow")
        trigger = body.trigger if body.trigger is not None else f.trigger
        steps = body.steps if body.steps is not None else f.steps
        _check_flow(s, trigger, steps)
        if body.name is not None:
            f.name = body.name
        f.trigger, f.steps = trigger, steps
        if body.status is not None and body.status != f.status:
            f.status = FLOW.check(f.status, FLOW_TARGETS[body.status])
            if f.status == "live":
                f.cursor_at = ctx.now()  # events from now on enroll
        f.updated_at = ctx.now()
        s.flush()
        return _flow_out(s, f)


# --- surveys -------------------------------------------------------------------------------


def _survey_out(s: Session, v: CampaignSurvey) -> sc.SurveyOut:
    n = s.scalar(
        select(func.count()).select_from(CampaignSurveyResponse).where(CampaignSurveyResponse.survey_id == v.id)
    )
    return sc.SurveyOut(
        id=v.id,
        name=v.name,
        questions=v.questions,
        status=v.status,
        responses=int(n or 0),
        created_at=v.created_at,  # type: ignore[arg-type]
    )


@use_case("campaign.surveys.list", "GET /surveys", tx="read", roles=STAFF, record="campaign.survey")
def list_surveys(ctx: Ctx, query: ListQuery) -> Page[sc.SurveyOut]:
    stmt = select(CampaignSurvey)
    if query.search:
        stmt = stmt.where(contains(CampaignSurvey.name, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": CampaignSurvey.created_at, "name": CampaignSurvey.name})
        return page.map(lambda v: _survey_out(s, v))


@use_case("campaign.surveys.get", "GET /surveys/{id}", tx="read", roles=STAFF, record="campaign.survey")
def get_survey(ctx: Ctx, id: str) -> sc.SurveyOut:
    with ctx.read() as s:
        return _survey_out(s, _get(s, CampaignSurvey, id, "survey"))


@use_case(
    "campaign.surveys.create",
    "POST /surveys",
    tx="write",
    roles=STAFF,
    status=201,
    says="New survey",
    record="campaign.survey",
)
def create_survey(ctx: Ctx, body: sc.SurveyIn) -> sc.SurveyOut:
    ids = [q.id for q in body.questions]
    if len(set(ids)) != len(ids):
        raise ValidationFailed("question ids must be unique", {"field": "questions"})
    for q in body.questions:
        if q.type == "choice" and len(q.options) < 2:
            raise ValidationFailed("a choice question needs at least two options", {"field": f"questions.{q.id}"})
    with ctx.write() as s:
        v = CampaignSurvey(
            name=body.name, questions=[q.model_dump() for q in body.questions], status=body.status, created_at=ctx.now()
        )
        s.add(v)
        s.flush()
        return _survey_out(s, v)


class SurveyStatusIn(sc.Strict):
    status: sc.SurveyStatus


@use_case(
    "campaign.surveys.update",
    "PATCH /surveys/{id}",
    tx="write",
    roles=STAFF,
    says="Open or close survey",
    record="campaign.survey",
    summary="open or close a survey: {status: open|closed}",
)
def update_survey(ctx: Ctx, id: str, body: SurveyStatusIn) -> sc.SurveyOut:
    with ctx.write() as s:
        v = _get(s, CampaignSurvey, id, "survey")
        if body.status != v.status:
            action = SURVEY_TARGETS.get(body.status)
            if action is None:
                raise conflict_state("survey", v.status, f"move to {body.status}")
            v.status = SURVEY.check(v.status, action)
        s.flush()
        return _survey_out(s, v)


@use_case(
    "campaign.surveys.responses",
    "GET /surveys/{id}/responses",
    tx="read",
    roles=STAFF,
    record="campaign.survey",
)
def list_responses(ctx: Ctx, id: str, query: ListQuery) -> Page[sc.ResponseOut]:
    with ctx.read() as s:
        _get(s, CampaignSurvey, id, "survey")
        stmt = select(CampaignSurveyResponse).where(CampaignSurveyResponse.survey_id == id)
        page = paginate(s, stmt, query, columns={"created_at": CampaignSurveyResponse.created_at})
        return page.map(sc.ResponseOut.model_validate)


def _check_answers(questions: list[dict[str, Any]], answers: dict[str, Any]) -> None:
    known = {q["id"]: q for q in questions}
    unknown = [k for k in answers if k not in known]
    if unknown:
        raise ValidationFailed("unknown question", {"questions": unknown[:10]})
    for qid, value in answers.items():
        q = known[qid]
        if q["type"] == "text" and (not isinstance(value, str) or len(value) > 5000):
            raise ValidationFailed("a text answer is a string of at most 5000 characters", {"question": qid})
        if q["type"] == "choice" and value not in q.get("options", []):
            raise ValidationFailed("not one of the options", {"question": qid, "options": q.get("options", [])})
        if q["type"] == "rating" and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10):
            raise ValidationFailed("a rating is a whole number from 1 to 10", {"question": qid})


@use_case(
    "campaign.public.survey",
    "GET /p/surveys/{id}",
    tx="read",
    auth="public",
    summary="a survey's questions while it is open (public)",
)
def public_survey(ctx: Ctx, id: str) -> sc.SurveyOut:
    _require_module(ctx)
    with ctx.read() as s:
        v = s.get(CampaignSurvey, id)
        if v is None or v.status != "open":
            raise NotFound("survey not found or not open", {"id": id})
        return sc.SurveyOut(
            id=v.id, name=v.name, questions=v.questions, status="open", responses=0, created_at=v.created_at
        )


@use_case(
    "campaign.public.answer",
    "POST /p/surveys/{id}/responses",
    tx="write",
    auth="public",
    status=201,
    limit="public_events",
    summary="answer a survey while it is open (public, rate-limited)",
)
def answer_survey(ctx: Ctx, id: str, body: sc.AnswerIn) -> sc.ResponseOut:
    _require_module(ctx)
    with ctx.write() as s:
        v = s.get(CampaignSurvey, id)
        if v is None:
            raise NotFound("survey not found", {"id": id})
        if v.status != "open":
            raise conflict_state("survey", v.status, "answer")
        _check_answers(v.questions, body.answers)
        r = CampaignSurveyResponse(survey_id=v.id, answers=body.answers, email=body.email, created_at=ctx.now())
        s.add(r)
        s.flush()
        return sc.ResponseOut.model_validate(r)


# --- the recipient's public routes ---------------------------------------------------------


def _mask(email: str) -> str:
    name, _, domain = email.partition("@")
    return f"{name[:1]}***@{domain}"


def _message(s: Session, ctx: Ctx, purpose: str, token: str) -> CampaignMessage:
    message_id = tokens.read(ctx.runtime, purpose, token)
    m = s.get(CampaignMessage, message_id) if message_id else None
    if m is None:
        raise NotFound("link not found", {})
    return m


def unsubscribe_by(ctx: Ctx, token: str) -> sc.UnsubscribeOut:
    now = ctx.now()
    with ctx.write() as s:
        m = _message(s, ctx, "unsubscribe", token)
        c = s.get(CampaignContact, m.contact_id)
        if c is None:
            raise NotFound("link not found", {})
        if c.status != "unsubscribed":
            was = c.status
            c.status, c.updated_at = "unsubscribed", now
            if was == "active":
                _unsubscribed(ctx, c, "link", m)
        if m.unsubscribed_at is None:
            m.unsubscribed_at = now
            if m.campaign_id:
                s.execute(
                    update(Campaign).where(Campaign.id == m.campaign_id).values(unsubscribed=Campaign.unsubscribed + 1)
                )
        return sc.UnsubscribeOut(unsubscribed=True, email=_mask(c.email))


@use_case(
    "campaign.public.unsubscribe",
    "POST /p/unsubscribe/{token}",
    tx="own",
    auth="public",
    summary="one-click unsubscribe (RFC 8058): no sign-in, the signed link is the proof",
)
def unsubscribe(ctx: Ctx, token: str) -> sc.UnsubscribeOut:
    _require_module(ctx)
    return unsubscribe_by(ctx, token)


_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unsubscribe</title>
<meta name="viewport" content="width=device-width"></head><body style="font-family:sans-serif;max-width:32em;margin:3em auto">
<h1>Unsubscribe</h1><p>Stop receiving these messages at {email}?</p>
<form method="post"><button type="submit" style="font-size:1.2em">Unsubscribe</button></form></body></html>"""


@use_case(
    "campaign.public.unsubscribe_page",
    "GET /p/unsubscribe/{token}",
    tx="read",
    auth="public",
    summary="the unsubscribe page (a GET changes nothing: mail scanners follow links)",
)
def unsubscribe_page(ctx: Ctx, token: str) -> FileResult:
    _require_module(ctx)
    with ctx.read() as s:
        m = _message(s, ctx, "unsubscribe", token)
        c = s.get(CampaignContact, m.contact_id)
        if c is None:
            raise NotFound("link not found", {})
        page = _PAGE.format(email=html.escape(_mask(c.email)))  # the page is made here: its text escaped here
        return FileResult(page.encode(), "text/html; charset=utf-8", page=True)


_GIF = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")


def _track(ctx: Ctx, m: CampaignMessage, s: Session, click: bool) -> None:
    now = ctx.now()
    bump: dict[str, Any] = {}
    if m.opened_at is None:  # a click proves the open too (images are often blocked)
        m.opened_at = now
        bump["opened"] = Campaign.opened + 1
    if click and m.clicked_at is None:
        m.clicked_at = now
        bump["clicked"] = Campaign.clicked + 1
    if bump and m.campaign_id:
        s.execute(update(Campaign).where(Campaign.id == m.campaign_id).values(**bump))


@use_case("campaign.public.open", "GET /p/o/{token}", tx="own", auth="public", summary="open tracking pixel")
def track_open(ctx: Ctx, token: str) -> FileResult:
    if ctx.tenant is not None and MODULE in ctx.tenant.modules:
        with ctx.write() as s:
            message_id = tokens.read(ctx.runtime, "open", token)
            m = s.get(CampaignMessage, message_id) if message_id else None
            if m is not None:
                _track(ctx, m, s, click=False)
    return FileResult(_GIF, "image/gif")  # the same pixel whatever the token: nothing to probe


@use_case(
    "campaign.public.click",
    "GET /p/c/{token}",
    tx="own",
    auth="public",
    summary="click tracking: 302 to the link the message carried (the token signs the address)",
)
def track_click(ctx: Ctx, token: str, query: sc.TrackQuery) -> Redirect:
    _require_module(ctx)
    url = query.url or ""
    message_id = tokens.read(ctx.runtime, "click:" + url, token)
    if not message_id or not url.startswith(("http://", "https://")):
        raise NotFound("link not found", {})
    with ctx.write() as s:
        m = s.get(CampaignMessage, message_id)
        if m is None:  # another tenant's message (its token under this slug): unknown here
            raise NotFound("link not found", {})
        _track(ctx, m, s, click=True)
    return Redirect(url)

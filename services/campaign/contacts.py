"""Campaign: contacts."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.campaign import (
    CampaignContact,
    CampaignFlowRun,
    CampaignList,
    CampaignMessage,
)
from services.campaign import schemas as sc
from services.campaign.flowsteps import enroll
from services.campaign.lookups import _check_lists, _get, _unsubscribed
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, ValidationFailed
from services.core.files import Upload
from services.core.pagination import Page, contains, paginate
from services.core.roles import STAFF

record_kind("campaign.contact", get="campaign.contacts.get", label="email")


IMPORT_MAX_ROWS = 200_000

# What each import column takes, said to the person importing (issue 35: never the schema's regex).
_EXPECTED = {
    "email": "an e-mail address such as name@example.com",
    "phone": "a phone number of 3 to 40 digits, spaces and + ( ) . / -",
    "status": "one of active, pending, unsubscribed, bounced, blocked",
    "name": "a name of at most 200 characters",
    "list_ids": "list ids separated by commas",
    "attributes": "an object of attributes",
}


def import_error(exc: Any) -> str:
    """``column <name>: expected <what>`` for a row's first problem (a pydantic ValidationError),
    without the value itself: it may be personal data and is in the importer's file anyway."""
    first = exc.errors()[0]
    loc = [str(x) for x in first.get("loc", ())]
    column = loc[0] if loc else "row"
    expected = _EXPECTED.get(column)
    if expected is None or (column == "attributes" and len(loc) > 1):
        ctx = first.get("ctx") or {}
        kind = str(first.get("type", ""))
        expected = {
            "string_too_long": f"at most {ctx.get('max_length')} characters",
            "string_too_short": f"at least {ctx.get('min_length')} characters",
            "string_type": "text",
            "list_type": "a list",
            "dict_type": "an object",
            "literal_error": f"one of {ctx.get('expected')}",
        }.get(kind, "a valid value")
        column = ".".join(loc) or column
    empty = first.get("input") in ("", None)
    return f"column {column}: expected {expected}" + (" (the cell is empty)" if empty else "")


def _consent(ctx: Ctx, consent: sc.Consent | None) -> dict[str, Any] | None:
    if consent is None:
        return None
    at = consent.at or ctx.now()
    return {"source": consent.source, "at": at.isoformat(), "ip": consent.ip or ctx.ip, "text": consent.text}


def _email_taken(s: Session, key: str, but: str | None = None) -> None:
    other = s.scalar(select(CampaignContact.id).where(CampaignContact.email_key == key))
    if other is not None and other != but:
        raise Conflict("a contact with this e-mail exists", {"email": key, "contact_id": other})


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
        return [r if isinstance(r, dict) else {"__bad__": "expected an object with an email key"} for r in data]
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
            rows.append({"__bad__": f"expected a CSV row (RFC 4180): {exc}"})
            continue
        if not rec:
            continue
        if len(rec) != len(cols):
            rows.append({"__bad__": f"expected {len(cols)} columns as in the header, the row has {len(rec)}"})
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
                errors.append(sc.ImportError_(row=n, error=import_error(exc)))
                continue
            key = body.email.lower()
            if key in seen:
                skipped += 1  # the same e-mail twice in one file: the first row counts
                continue
            seen.add(key)
            bad = [x for x in body.list_ids if x not in lists]
            if bad:
                errors.append(
                    sc.ImportError_(row=n, error=f"column list_ids: expected ids of existing lists, not {bad[0]}")
                )
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

"""Sign: signers."""

from __future__ import annotations

from sqlalchemy import func, select

from local_db.models.sign import SignDocument, SignField, SignSigner
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import NotFound, ValidationFailed
from services.core.pagination import Page
from services.sign import schemas as sc
from services.sign import states
from services.sign.documents import DOCUMENT
from services.sign.lookups import MAX_FIELDS, _doc, _fields, _signers

MAX_SIGNERS = 50


def _editable(d: SignDocument) -> None:
    states.DOCUMENT.check(d.status, "edit", verb="change signers or fields of")


@use_case(
    "sign.signers.list", "GET /documents/{id}/signers", tx="read", record=DOCUMENT, summary="signers of a document"
)
def list_signers(ctx: Ctx, id: str) -> Page[sc.SignerOut]:
    from services.core.pagination import PageSpec

    with ctx.read() as s:
        _doc(s, id)
        rows = [sc.SignerOut.model_validate(g) for g in _signers(s, id)]
    return Page(rows, len(rows), PageSpec("A", 1, max(len(rows), 1), 0, None, False))


@use_case(
    "sign.signers.add",
    "POST /documents/{id}/signers",
    tx="write",
    status=201,
    says="Add signer",
    record=DOCUMENT,
    summary="add a signer (draft only)",
)
def add_signer(ctx: Ctx, id: str, body: sc.SignerIn) -> sc.SignerOut:
    now = ctx.now()
    with ctx.write() as s:
        d = _doc(s, id)
        _editable(d)
        if not body.in_person and not body.email:
            raise ValidationFailed("an e-mail address is needed (or in_person)", {"field": "email"})
        signers = _signers(s, d.id)
        if len(signers) >= MAX_SIGNERS:
            raise ValidationFailed(f"at most {MAX_SIGNERS} signers", {"field": "signers"})
        order = body.order or (max((g.order for g in signers), default=0) + 1)
        g = SignSigner(
            document_id=d.id,
            name=body.name,
            email=body.email,
            role=body.role,
            order=order,
            status="pending",
            in_person=body.in_person,
            created_at=now,
        )
        s.add(g)
        s.flush()
        # A template's fields wait for the n-th signer added.
        slot = len(signers) + 1
        for f in _fields(s, d.id):
            if f.signer_id is None and f.slot == slot:
                f.signer_id = g.id
        d.updated_at = now
        return sc.SignerOut.model_validate(g)


@use_case(
    "sign.signers.delete",
    "DELETE /documents/{id}/signers/{sid}",
    tx="write",
    says="Remove signer",
    record=DOCUMENT,
    summary="remove a signer and their fields (draft only)",
)
def delete_signer(ctx: Ctx, id: str, sid: str) -> None:
    with ctx.write() as s:
        d = _doc(s, id)
        g = s.get(SignSigner, sid)
        if g is None or g.document_id != d.id:
            raise NotFound(f"no signer {sid}", {"signer": sid})
        _editable(d)
        for f in _fields(s, d.id):
            if f.signer_id == g.id:
                s.delete(f)
        s.delete(g)
        d.updated_at = ctx.now()


@use_case("sign.fields.list", "GET /documents/{id}/fields", tx="read", record=DOCUMENT, summary="fields of a document")
def list_fields(ctx: Ctx, id: str) -> Page[sc.FieldOut]:
    from services.core.pagination import PageSpec

    with ctx.read() as s:
        _doc(s, id)
        rows = [sc.FieldOut.model_validate(f) for f in _fields(s, id)]
    return Page(rows, len(rows), PageSpec("A", 1, max(len(rows), 1), 0, None, False))


@use_case(
    "sign.fields.add",
    "POST /documents/{id}/fields",
    tx="write",
    status=201,
    says="Place field",
    record=DOCUMENT,
    summary="place a field on a page (draft only)",
)
def add_field(ctx: Ctx, id: str, body: sc.FieldIn) -> sc.FieldOut:
    with ctx.write() as s:
        d = _doc(s, id)
        _editable(d)
        g = s.get(SignSigner, body.signer_id)
        if g is None or g.document_id != d.id:
            raise ValidationFailed("no such signer on this document", {"field": "signer_id"})
        if body.page > d.pages:
            raise ValidationFailed(f"the document has {d.pages} pages", {"field": "page", "pages": d.pages})
        if body.x + body.width > 1.0001 or body.y + body.height > 1.0001:
            raise ValidationFailed("the field runs off the page", {"field": "x"})
        count = s.execute(select(func.count()).where(SignField.document_id == d.id)).scalar_one()
        if count >= MAX_FIELDS:
            raise ValidationFailed(f"at most {MAX_FIELDS} fields", {"field": "fields"})
        f = SignField(document_id=d.id, created_at=ctx.now(), **body.model_dump())
        s.add(f)
        s.flush()
        d.updated_at = ctx.now()
        return sc.FieldOut.model_validate(f)


@use_case(
    "sign.fields.delete",
    "DELETE /documents/{id}/fields/{fid}",
    tx="write",
    says="Remove field",
    record=DOCUMENT,
    summary="remove a field (draft only)",
)
def delete_field(ctx: Ctx, id: str, fid: str) -> None:
    with ctx.write() as s:
        d = _doc(s, id)
        f = s.get(SignField, fid)
        if f is None or f.document_id != d.id:
            raise NotFound(f"no field {fid}", {"field": fid})
        _editable(d)
        s.delete(f)
        d.updated_at = ctx.now()

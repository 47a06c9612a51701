"""The signer's page: ``/{tenant}/sign/p/{token}``, the link every signing mail carries.

The document's pages as images rendered here (pdfium), the signer's fields in order, consent,
a typed signature (works without JavaScript) or a drawn one (a small nonce'd script fills a hidden
field from a canvas), sign or decline with a reason; afterwards, whenever the link is opened again,
the PDF (sealed once complete) and the audit trail. Signing and declining run the API's own use
case (``sign.public.act``), so the rules (order, consent, required fields) are one copy.
"""

from __future__ import annotations

import threading
from typing import Any

from sqlalchemy import select

from local_db.models.sign import SignDocument, SignSigner
from services.core.commands import execute
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.files import FileResult, Redirect
from services.core.pages import N_, Page, PageCall, page
from services.core.pdf import NoSuchPage, render_page_png
from services.core.signing import token_hash
from services.core.storage import read_blob
from services.sign.lookups import _utc
from services.sign.signing import _by_token

MAX_RENDER_PAGES = 50
_RENDERED: dict[tuple[str, int], bytes] = {}
_RENDERED_LOCK = threading.Lock()
# Signer and document states as the page names them.
STATE_NAMES = (N_("signed"), N_("declined"), N_("completed"), N_("sent"), N_("viewed"), N_("created"), N_("voided"))
FIELD_NAMES = (N_("Name"), N_("Email"), N_("Date"), N_("Text"))
_INPUT = {"name": "text", "email": "email", "date": "date", "text": "text", "checkbox": "checkbox"}


def _gone(call: PageCall, token: str) -> Page | None:
    """A voided or expired document said plainly; an unknown token is the plain 404."""
    ctx = call.ctx()
    with ctx.read() as s:
        g = None
        if 20 <= len(token) <= 100:
            g = s.execute(select(SignSigner).where(SignSigner.token_hash == token_hash(token))).scalar_one_or_none()
        d = s.get(SignDocument, g.document_id) if g is not None else None
        if d is None:
            raise NotFound("no such signing link")
        expired = d.status == "expired" or (
            d.status == "sent" and d.expires_at is not None and _utc(d.expires_at) <= _utc(ctx.now())  # type: ignore[operator]
        )
    if d.status == "voided":
        msg = call.gettext("The sender voided this document. There is nothing to sign.")
    elif expired:
        msg = call.gettext("This signing link has expired. Please ask the sender for a new one.")
    else:
        return None
    return Page("error.html", {"message": msg}, status=410, title=d.title)


def _form_values(call: PageCall, fields: list[Any]) -> dict[str, str | bool]:
    out: dict[str, str | bool] = {}
    for f in fields:
        if f.type in ("signature", "initials"):
            continue
        if f.type == "checkbox":
            out[f.id] = call.form.get(f"f_{f.id}") == "true"
        elif call.form.get(f"f_{f.id}", "").strip():
            # Left empty: the use case fills name, e-mail and date, and says a required one is missing.
            out[f.id] = call.form[f"f_{f.id}"].strip()
    return out


def _errors(call: PageCall, exc: ValidationFailed) -> dict[str, str]:
    d = exc.details or {}
    where = str(d.get("field") or "")
    required = call.gettext("This field is required.")
    if where == "consent":
        return {"consent": call.gettext("Please agree to sign electronically.")}
    if where == "reason":
        return {"reason": call.gettext("Please say why you decline.")}
    if where.startswith("signature"):
        return {"signature_text": call.gettext("Please type or draw your signature.")}
    listed = d.get("fields") if isinstance(d.get("fields"), list) else []
    if listed and isinstance(listed[0], str):  # the use case's required fields, by id
        return {f"f_{i}": required for i in listed}
    if listed and isinstance(listed[0], dict):  # the body's validation (a value too long, ...)
        where = str(listed[0].get("field", ""))
        if where.startswith("values."):
            return {f"f_{where.split('.', 1)[1]}": call.gettext("Please check this value.")}
    if where:
        return {f"f_{where}": call.gettext("Please check this value.")}
    return {"form": call.gettext("Please check this value.")}


def _document(call: PageCall, ctx: Ctx, token: str, headers: dict[str, str | None]) -> Any:
    """The signer's view of the document, or the page saying it is voided or expired. The use case
    answers both as 404 (an API caller learns nothing from a dead link), so the page asks why only
    then: a live link costs one read, not two (issue 33: the pages' speed)."""
    try:
        return execute(ctx, "sign.public.get", token=token, headers=headers)
    except NotFound:
        gone = _gone(call, token)
        if gone is None:
            raise
        return gone


@page("sign.signer", "/{token}", methods=("GET", "POST"), limit="public_sign")
def signer_page(call: PageCall, token: str) -> Page | Redirect:
    ctx = call.ctx()
    headers: dict[str, str | None] = {"user-agent": call.user_agent}
    errors: dict[str, str] = {}
    values: dict[str, str] = {}
    if call.method == "POST":
        doc = _document(call, ctx, token, headers)
        if isinstance(doc, Page):
            return doc
        action = "decline" if call.form.get("action") == "decline" else "sign"
        image = call.form.get("signature_image", "").strip()
        text = call.form.get("signature_text", "").strip()
        body: dict[str, Any] = {"action": action, "consent": call.form.get("consent") == "yes"}
        if action == "decline":
            body["reason"] = call.form.get("reason", "").strip()[:1000]
        else:
            body["values"] = _form_values(call, doc.fields)
            # A drawn signature when the canvas was used (needs JavaScript), else the typed one.
            body["signature"] = {"type": "drawn", "image": image} if image else {"type": "typed", "text": text}
        # Said together, beside their fields, before the use case (which stops at the first).
        if action == "sign" and not body["consent"]:
            errors["consent"] = call.gettext("Please agree to sign electronically.")
        if action == "sign" and not (image or text):
            errors["signature_text"] = call.gettext("Please type or draw your signature.")
        if action == "decline" and not body["reason"]:
            errors["reason"] = call.gettext("Please say why you decline.")
        try:
            if not errors:
                execute(ctx, "sign.public.act", token=token, body=body, headers=headers)
                return Redirect(f"/{call.tenant.slug}/sign/p/{token}")
        except ValidationFailed as exc:
            errors = _errors(call, exc)
        except Conflict:
            errors = {"form": call.gettext("This document cannot be signed now: earlier signers have not signed yet.")}
        values = {k: v for k, v in call.form.items() if k != "signature_image"}
    doc = _document(call, ctx, token, headers)
    if isinstance(doc, Page):
        return doc
    fields = sorted(doc.fields, key=lambda f: (f.page, f.y, f.x))
    return Page(
        "sign/signer.html",
        {
            "doc": doc,
            "token": token,
            "fields": fields,
            "inputs": _INPUT,
            "errors": errors,
            "values": values,
            "can_act": doc.status == "sent" and doc.signer_status in ("sent", "viewed"),
        },
        status=400 if errors else 200,
        title=doc.title,
    )


@page("sign.page_image", "/{token}/page/{number}", limit="public_sign")
def page_image(call: PageCall, token: str, number: str) -> FileResult:
    """One page of the document as a PNG, rendered here: no PDF viewer needed in the browser."""
    if not number.isdigit() or not 1 <= int(number) <= MAX_RENDER_PAGES:
        raise NotFound("no such page")
    ctx = call.ctx()
    # The link's PDF is the blob of this hash (the original, or the sealed one once complete), so
    # a page rendered before is answered without reading or hashing the PDF (issue 33).
    with ctx.read() as s:
        d, _signer = _by_token(ctx, s, token)
        sha = d.signed_sha256 or d.sha256
    key = (sha, int(number))
    png = _RENDERED.get(key)
    if png is None:
        try:
            png = render_page_png(read_blob(ctx, sha), int(number))
        except NoSuchPage:
            raise NotFound("no such page") from None
        # The same bytes render the same page: kept by content hash (a sealed PDF is another hash).
        # Under the lock: threads evicting at once would pop the same key (a KeyError).
        with _RENDERED_LOCK:
            if len(_RENDERED) >= 64:
                _RENDERED.pop(next(iter(_RENDERED)), None)
            _RENDERED[key] = png
    return FileResult(png, "image/png", f"page-{number}.png")


@page("sign.download", "/{token}/document.pdf", limit="public_sign")
def download(call: PageCall, token: str) -> FileResult:
    return execute(call.ctx(), "sign.public.download", token=token)  # type: ignore[no-any-return]


@page("sign.audit", "/{token}/audit", limit="public_sign")
def audit_trail(call: PageCall, token: str) -> Page:
    gone = _gone(call, token)
    if gone is not None:
        return gone
    trail = execute(call.ctx(), "sign.public.audit", token=token).items
    doc = execute(call.ctx(), "sign.public.get", token=token, headers={"user-agent": call.user_agent})
    return Page("sign/audit.html", {"doc": doc, "trail": trail, "token": token}, title=doc.title)

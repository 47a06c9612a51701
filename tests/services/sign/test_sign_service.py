"""Sign use cases through ``execute``: documents, signers in order, fields, templates, token signing,
the audit trail, the sealed PDF checked by two independent validators, expiry and reminders, in person."""

from __future__ import annotations

import base64
import json
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, update

from local_db.models.events import Event
from local_db.models.sign import SignCertificate, SignDocument, SignSigner
from services.core.commands import execute
from services.core.context import Runtime
from services.core.demo import demo_id
from services.core.errors import Conflict, Forbidden, NotFound, PayloadTooLarge, ValidationFailed
from services.core.files import Upload
from services.core.sealing import is_sealed
from services.core.signing import token_hash
from tests.services.sign.sign_helpers import ctx_for, drawn_png, links, make_pdf, pdfsig, public_ctx, pyhanko_validate


def _upload(rt: Runtime, title: str = "Lease", pages: int = 2, **fields: str) -> str:
    up = Upload("lease.pdf", "application/pdf", make_pdf(pages), {"title": title, **fields})
    return execute(ctx_for(rt), "sign.documents.create", upload=up, query={}).id


def _events(rt: Runtime, doc_id: str) -> list[str]:
    with rt.db.reading(None) as s:
        rows = s.execute(select(Event).order_by(Event.created_at)).scalars()
        return [e.type for e in rows if (e.data or {}).get("document_id") == doc_id]


def test_sequential_signing_to_a_sealed_pdf_two_validators_accept(runtime: Runtime, tmp_path: Path) -> None:
    rt = runtime
    doc = _upload(rt, "Lease 2026", signing_order="sequential")
    first = execute(ctx_for(rt), "sign.signers.add", id=doc, body={"name": "Ann First", "email": "ann@example.test"})
    second = execute(ctx_for(rt), "sign.signers.add", id=doc, body={"name": "Bob Second", "email": "BOB@example.test"})
    execute(
        ctx_for(rt), "sign.signers.add", id=doc, body={"name": "Carl Copy", "email": "carl@example.test", "role": "cc"}
    )
    assert (first.order, second.order, second.email) == (1, 2, "bob@example.test")
    f1 = execute(
        ctx_for(rt),
        "sign.fields.add",
        id=doc,
        body={"signer_id": first.id, "type": "signature", "page": 1, "x": 0.1, "y": 0.7, "width": 0.4, "height": 0.08},
    )
    txt = execute(
        ctx_for(rt),
        "sign.fields.add",
        id=doc,
        body={"signer_id": first.id, "type": "text", "page": 2, "x": 0.1, "y": 0.2, "width": 0.5, "height": 0.04},
    )
    execute(
        ctx_for(rt),
        "sign.fields.add",
        id=doc,
        body={"signer_id": second.id, "type": "signature", "page": 2, "x": 0.5, "y": 0.8, "width": 0.4, "height": 0.08},
    )
    with pytest.raises(ValidationFailed):  # off the page, or past the last page
        execute(
            ctx_for(rt),
            "sign.fields.add",
            id=doc,
            body={"signer_id": first.id, "type": "text", "page": 3, "x": 0.1, "y": 0.1, "width": 0.1, "height": 0.1},
        )
    sent = execute(ctx_for(rt), "sign.documents.send", id=doc, body={})
    assert sent.status == "sent" and sent.expires_at is not None
    with pytest.raises(Conflict) as locked:  # signers and fields change only in draft
        execute(ctx_for(rt), "sign.signers.add", id=doc, body={"name": "Late", "email": "late@example.test"})
    assert locked.value.details["current_state"] == "sent"

    # Sequential: Ann (and the cc) got a link; Bob not yet. No staff answer carries a token.
    got = links(rt)
    assert "ann@example.test" in got and "bob@example.test" not in got and "carl@example.test" in got
    ann = got["ann@example.test"][-1]
    listed = execute(ctx_for(rt), "sign.signers.list", id=doc)
    staff_json = json.dumps([i.model_dump(mode="json") for i in listed.items])
    assert ann not in staff_json and "token" not in staff_json
    with rt.db.reading(None) as s:
        kept = s.execute(select(SignSigner.token_hash).where(SignSigner.id == first.id)).scalar_one()
    assert kept == token_hash(ann) and ann not in kept
    # Kept mail (no SMTP) is listed for managers, but a message carrying a signing link is not shown.
    kept_mail = execute(ctx_for(rt), "platform.mail.list", query={"search": "ann@example.test"}).items
    assert kept_mail
    with pytest.raises(Forbidden):
        execute(ctx_for(rt), "platform.mail.get", id=kept_mail[0].id)

    view = execute(public_ctx(rt), "sign.public.get", token=ann, headers={"user-agent": "Firefox/130"})
    assert view.pages == 2 and [f.id for f in view.fields] == [f1.id, txt.id] and view.signer_status == "viewed"
    execute(public_ctx(rt), "sign.public.get", token=ann)  # a second open emits nothing more
    with pytest.raises(ValidationFailed):  # no consent
        execute(
            public_ctx(rt),
            "sign.public.act",
            token=ann,
            body={"action": "sign", "signature": {"type": "typed", "text": "Ann"}},
        )
    with pytest.raises(ValidationFailed) as missing:  # the required text field
        execute(
            public_ctx(rt),
            "sign.public.act",
            token=ann,
            body={"action": "sign", "signature": {"type": "typed", "text": "Ann"}, "consent": True},
        )
    assert missing.value.details["fields"] == [txt.id]
    with pytest.raises(ValidationFailed):  # not a PNG
        execute(
            public_ctx(rt),
            "sign.public.act",
            token=ann,
            body={
                "action": "sign",
                "values": {txt.id: "x"},
                "signature": {"type": "drawn", "image": "bm90IGEgcG5n"},
                "consent": True,
            },
        )
    png = base64.b64encode(drawn_png()).decode()
    done = execute(
        public_ctx(rt),
        "sign.public.act",
        token=ann,
        body={
            "action": "sign",
            "values": {txt.id: "Flat 4, Elm Street"},
            "signature": {"type": "drawn", "image": png},
            "consent": True,
        },
        headers={"user-agent": "Firefox/130"},
    )
    assert (done.document_status, done.signer_status) == ("sent", "signed")
    with pytest.raises(Conflict):  # a signer who already acted
        execute(public_ctx(rt), "sign.public.act", token=ann, body={"action": "decline", "reason": "changed my mind"})

    bob = links(rt)["bob@example.test"][-1]  # now Bob's turn
    done = execute(
        public_ctx(rt),
        "sign.public.act",
        token=bob,
        body={"action": "sign", "signature": {"type": "typed", "text": "Bob Second"}, "consent": True},
    )
    assert done.document_status == "completed"
    assert _events(rt, doc) == ["document.sent", "document.viewed", "document.signed"]

    trail = execute(public_ctx(rt), "sign.public.audit", token=bob).items
    assert [a.action for a in trail] == ["created", "sent", "viewed", "signed", "signed", "completed"]
    assert trail[2].ip == "203.0.113.7" and trail[2].user_agent == "Firefox/130"
    original = execute(ctx_for(rt), "sign.documents.get", id=doc)
    assert trail[1].document_sha256 == original.sha256 and trail[-1].document_sha256 == original.signed_sha256

    # The sealed PDF: values stamped, an audit page appended, one PAdES signature over the whole file.
    sealed = execute(public_ctx(rt), "sign.public.download", token=ann).content
    assert sealed == execute(ctx_for(rt), "sign.documents.download", id=doc).content
    from services.sign.pdf import page_boxes

    assert len(page_boxes(sealed)) == 3
    with rt.db.reading(None) as s:
        cert = s.execute(select(SignCertificate).where(SignCertificate.active.is_(True))).scalars().first()
        assert cert is not None and is_sealed(cert.key_sealed) and "PRIVATE KEY" not in cert.key_sealed
        pem = cert.cert_pem
    (tmp_path / "seal.pem").write_text(pem)
    good = tmp_path / "signed.pdf"
    good.write_bytes(sealed)
    report = pyhanko_validate(good, tmp_path / "seal.pem")
    assert "The signature is cryptographically sound" in report, report
    assert "The signature covers the entire file" in report, report
    assert "The signature is judged VALID" in report, report
    poppler = pdfsig(good)
    if poppler is None:
        pytest.skip("poppler-utils (pdfsig) not installed: scripts/system-deps.sh installs it as root")
    assert "Signature is Valid" in poppler and "Total document signed" in poppler, poppler
    assert "ETSI.CAdES.detached" in poppler and poppler.count("Signature #") == 1, poppler

    # One byte changed after signing: both validators say so.
    bad = bytearray(sealed)
    at = sealed.index(b"Agreement, page") if b"Agreement, page" in sealed else len(sealed) // 3
    at = sealed.index(b"/Producer") if b"/Producer" in sealed else at
    bad[at + 2] ^= 0x01
    tampered = tmp_path / "tampered.pdf"
    tampered.write_bytes(bytes(bad))
    report = pyhanko_validate(tampered, tmp_path / "seal.pem")
    assert "judged VALID" not in report, report
    assert "Signature is Valid" not in (pdfsig(tampered) or "")


def test_decline_void_expiry_and_reminders(runtime: Runtime) -> None:
    rt = runtime
    # Decline: the document is declined; the decliner's link now answers 409 (already acted).
    d1 = _upload(rt, "Quote")
    execute(ctx_for(rt), "sign.signers.add", id=d1, body={"name": "Dee", "email": "dee@example.test"})
    execute(ctx_for(rt), "sign.documents.send", id=d1, body={})
    dee = links(rt)["dee@example.test"][-1]
    with pytest.raises(ValidationFailed):
        execute(public_ctx(rt), "sign.public.act", token=dee, body={"action": "decline"})
    r = execute(public_ctx(rt), "sign.public.act", token=dee, body={"action": "decline", "reason": "price too high"})
    assert r.document_status == "declined" and _events(rt, d1) == ["document.sent", "document.declined"]
    with pytest.raises(Conflict):
        execute(public_ctx(rt), "sign.public.act", token=dee, body={"action": "decline", "reason": "again"})

    # Void: the link is gone (404, as an unknown one); a voided document cannot be voided again.
    d2 = _upload(rt, "Offer")
    execute(ctx_for(rt), "sign.signers.add", id=d2, body={"name": "Eve", "email": "eve@example.test"})
    execute(ctx_for(rt), "sign.documents.send", id=d2, body={})
    eve = links(rt)["eve@example.test"][-1]
    execute(ctx_for(rt), "sign.documents.delete", id=d2, body={"reason": "wrong price"})
    assert execute(ctx_for(rt), "sign.documents.get", id=d2).status == "voided"
    for token in (eve, "x" * 43, "short"):
        with pytest.raises(NotFound) as gone:
            execute(public_ctx(rt), "sign.public.get", token=token)
        assert not gone.value.details
    with pytest.raises(Conflict):
        execute(ctx_for(rt), "sign.documents.delete", id=d2)

    # A draft is deleted outright.
    d3 = _upload(rt, "Scratch")
    execute(ctx_for(rt), "sign.documents.delete", id=d3)
    with pytest.raises(NotFound):
        execute(ctx_for(rt), "sign.documents.get", id=d3)

    # Reminders after the tenant's first delay, then expiry past expires_at (the sweep the worker runs).
    execute(
        ctx_for(rt),
        "sign.settings.update",
        body={"expiry_days": 30, "reminders": True, "first_reminder_days": 3, "reminder_every_days": 1},
    )
    d4 = _upload(rt, "Renewal")
    execute(ctx_for(rt), "sign.signers.add", id=d4, body={"name": "Fay", "email": "fay@example.test"})
    execute(ctx_for(rt), "sign.documents.send", id=d4, body={})
    old = rt.clock.now() - timedelta(days=4)
    with rt.db.session(None, write=True) as s:
        s.execute(update(SignSigner).where(SignSigner.document_id == d4).values(sent_at=old))
        s.commit()
    out = execute(ctx_for(rt), "sign.documents.sweep")
    assert out.reminded >= 1 and len(links(rt)["fay@example.test"]) == 2
    assert execute(ctx_for(rt), "sign.documents.sweep").reminded == 0  # not again the same day
    with rt.db.session(None, write=True) as s:
        s.execute(update(SignDocument).where(SignDocument.id == d4).values(expires_at=old))
        s.commit()
    fay = links(rt)["fay@example.test"][-1]
    with pytest.raises(NotFound):  # past its date the link is gone even before the sweep
        execute(public_ctx(rt), "sign.public.get", token=fay)
    assert execute(ctx_for(rt), "sign.documents.sweep").expired >= 1
    assert execute(ctx_for(rt), "sign.documents.get", id=d4).status == "expired"
    with pytest.raises(Forbidden):  # settings and the sweep are for managers
        execute(ctx_for(rt, "operator@demo.test"), "sign.settings.update", body={"expiry_days": 1})


def test_templates_from_a_pdf_and_from_a_draft(runtime: Runtime) -> None:
    rt = runtime
    fields = [
        {"slot": 1, "type": "signature", "page": 1, "x": 0.1, "y": 0.8, "width": 0.3, "height": 0.06},
        {"slot": 2, "type": "date", "page": 1, "x": 0.6, "y": 0.8, "width": 0.2, "height": 0.04},
    ]
    up = Upload("nda.pdf", "application/pdf", make_pdf(1), {"name": "NDA", "fields": json.dumps(fields)})
    t = execute(ctx_for(rt), "sign.templates.create", upload=up)
    assert t.pages == 1 and [f.slot for f in t.fields] == [1, 2]
    body = json.dumps({"template_id": t.id, "title": "NDA with Acme"}).encode()
    doc = execute(ctx_for(rt), "sign.documents.create", upload=Upload("b", "application/json", body), query={})
    assert doc.template_id == t.id and doc.sha256 == t.sha256
    with pytest.raises(ValidationFailed):  # the second slot has no signer yet
        execute(ctx_for(rt), "sign.signers.add", id=doc.id, body={"name": "A", "email": "a@example.test"}) and execute(
            ctx_for(rt), "sign.documents.send", id=doc.id, body={}
        )
    b = execute(ctx_for(rt), "sign.signers.add", id=doc.id, body={"name": "B", "email": "b@example.test"})
    placed = execute(ctx_for(rt), "sign.fields.list", id=doc.id).items
    assert {f.signer_id for f in placed} >= {b.id} and all(f.signer_id for f in placed)
    again = json.dumps({"name": "NDA copy", "document_id": doc.id}).encode()
    t2 = execute(ctx_for(rt), "sign.templates.create", upload=Upload("b", "application/json", again))
    assert len(t2.fields) == 2
    renamed = execute(ctx_for(rt), "sign.templates.update", id=t2.id, body={"name": "NDA v2", "fields": fields[:1]})
    assert renamed.name == "NDA v2" and len(renamed.fields) == 1
    execute(ctx_for(rt), "sign.templates.delete", id=t2.id)
    with pytest.raises(NotFound):
        execute(ctx_for(rt), "sign.templates.get", id=t2.id)
    # Bad input: not a PDF, a broken PDF, bad fields JSON, an oversized file, unknown form fields.
    for bad in (
        Upload("x.pdf", "application/pdf", b"hello there", {"name": "x"}),
        Upload("x.pdf", "application/pdf", b"%PDF-1.4 garbage", {"name": "x"}),
        Upload("x.pdf", "application/pdf", make_pdf(1), {"name": "x", "fields": "[{"}),
        Upload("x.pdf", "application/pdf", make_pdf(1), {"name": "x", "fields": '[{"type": "stamp"}]'}),
    ):
        with pytest.raises(ValidationFailed):
            execute(ctx_for(rt), "sign.templates.create", upload=bad)
    with pytest.raises(ValidationFailed):
        execute(
            ctx_for(rt),
            "sign.documents.create",
            upload=Upload("x.pdf", "application/pdf", make_pdf(1), {"title": "x", "colour": "red"}),
            query={},
        )
    with pytest.raises(PayloadTooLarge):
        big = b"%PDF-1.4\n" + b"0" * (rt.upload_limit + 1)
        execute(
            ctx_for(rt),
            "sign.documents.create",
            upload=Upload("x.pdf", "application/pdf", big, {"title": "x"}),
            query={},
        )


def test_trade_in_agreement_signed_in_person(runtime: Runtime, tmp_path: Path) -> None:
    rt = runtime
    sub = demo_id("upgrade", "demo", "submission", "1")
    doc = execute(ctx_for(rt), "sign.documents.trade_in", body={"submission_id": sub})
    assert doc.status == "sent" and doc.pages == 1
    signer = execute(ctx_for(rt), "sign.signers.list", id=doc.id).items[0]
    assert signer.in_person and signer.status == "pending"
    fields = {f.type: f.id for f in execute(ctx_for(rt), "sign.fields.list", id=doc.id).items}
    png = base64.b64encode(drawn_png()).decode()
    body = {
        "signer_id": signer.id,
        "signature": {"type": "drawn", "image": png},
        "consent": True,
        "values": {fields["checkbox"]: True},
    }
    with pytest.raises(Forbidden):  # a warehouse device is not Sign staff
        execute(ctx_for(rt, "device@demo.test"), "sign.documents.sign_in_person", id=doc.id, body=body)
    with pytest.raises(NotFound):  # another tenant
        execute(
            ctx_for(rt, "owner@other.test", "other"),
            "sign.documents.sign_in_person",
            id=doc.id,
            body=body,
        )
    with pytest.raises(ValidationFailed):  # the consent box is required
        execute(ctx_for(rt), "sign.documents.sign_in_person", id=doc.id, body={**body, "values": {}})
    r = execute(ctx_for(rt), "sign.documents.sign_in_person", id=doc.id, body=body)
    assert r.document_status == "completed"
    assert not links(rt).get(signer.email)  # never e-mailed
    with rt.db.reading(None) as s:
        assert s.execute(select(SignSigner.token_hash).where(SignSigner.id == signer.id)).scalar_one() is None
    trail = execute(ctx_for(rt), "sign.documents.audit", id=doc.id).items
    assert trail[-2].action == "signed" and "witnessed by owner@demo.test" in (trail[-2].user_agent or "")
    with pytest.raises(Conflict):
        execute(ctx_for(rt), "sign.documents.sign_in_person", id=doc.id, body=body)
    # A signer with a link cannot be signed for at a station.
    d = _upload(rt, "Remote")
    g = execute(ctx_for(rt), "sign.signers.add", id=d, body={"name": "Gil", "email": "gil@example.test"})
    execute(ctx_for(rt), "sign.documents.send", id=d, body={})
    with pytest.raises(Conflict):
        execute(ctx_for(rt), "sign.documents.sign_in_person", id=d, body={**body, "signer_id": g.id})


def test_owner_installs_their_own_certificate(runtime: Runtime) -> None:
    from datetime import datetime

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    from services.sign.pdf import self_signed

    rt = runtime
    mine = self_signed("Other Ltd seal", datetime(2026, 1, 1))
    body = {"certificate_pem": mine.cert_pem.decode(), "private_key_pem": mine.key_pem.decode()}
    with pytest.raises(Forbidden):
        execute(ctx_for(rt, "admin@demo.test"), "sign.certificate.install", body=body)
    wrong = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    with pytest.raises(ValidationFailed):
        execute(
            ctx_for(rt, "owner@other.test", "other"),
            "sign.certificate.install",
            body={**body, "private_key_pem": wrong.decode()},
        )
    out = execute(ctx_for(rt, "owner@other.test", "other"), "sign.certificate.install", body=body)
    assert out.self_signed is False and "Other Ltd seal" in out.subject
    assert (
        execute(ctx_for(rt, "owner@other.test", "other"), "sign.certificate.get").fingerprint_sha256
        == out.fingerprint_sha256
    )
    assert "PRIVATE" not in json.dumps(out.model_dump(mode="json"))


def test_demo_and_strangers(runtime: Runtime) -> None:
    rt = runtime
    page = execute(ctx_for(rt), "sign.documents.list", query={})
    assert {"draft", "sent", "completed"} <= {d.status for d in page.items}
    assert execute(ctx_for(rt, "owner@other.test", "other"), "sign.documents.list", query={}).total == 0
    done = demo_id("sign-doc", "done")
    with pytest.raises(NotFound):
        execute(ctx_for(rt, "owner@other.test", "other"), "sign.documents.get", id=done)
    with pytest.raises(Forbidden):  # the operator's modules leave out Sign
        execute(ctx_for(rt, "operator@demo.test"), "sign.documents.list", query={})
    with pytest.raises(Conflict):
        execute(ctx_for(rt), "sign.documents.send", id=done, body={})


def test_sealing_works_inside_a_running_event_loop() -> None:
    """The desktop's qasync loop (and async callers such as a demo seeded in one) seal too."""
    import asyncio
    from datetime import UTC, datetime

    from services.sign import pdf

    pair = pdf.self_signed("Loop seal", datetime.now(UTC))
    cert = pdf.Certificate("Loop", "id", "0" * 64, [("A", "a@example.test", "signer", "signed")])
    stamped = pdf.stamp_and_append(make_pdf(1), [pdf.Stamp(1, 0.1, 0.1, 0.3, 0.05, "name", "A")], cert, "Loop seal")

    async def seal() -> bytes:
        return pdf.seal(stamped, pair, reason="loop")

    assert b"/ByteRange" in asyncio.run(seal())


def test_a_station_upload_waits_in_the_outbox_with_its_fields(station: Runtime) -> None:
    up = Upload("lease.pdf", "application/pdf", make_pdf(1), {"title": "Offline lease", "message": "hi"})
    doc = execute(ctx_for(station), "sign.documents.create", upload=up, query={})
    from local_db.models import OutboxEntry

    with station.db.reading(None) as s:
        entry = s.execute(select(OutboxEntry).where(OutboxEntry.command == "sign.documents.create")).scalar_one()
    assert entry.method == "POST" and entry.path.startswith("/demo/sign/api/documents?")
    assert "title=Offline+lease" in entry.path and "message=hi" in entry.path
    assert entry.file and entry.file["content_type"] == "application/pdf" and doc.id in entry.ids

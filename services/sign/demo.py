"""Demo content of Sign (CONTRACT.md): a template, a draft, a sent and a completed document.

Deterministic ids (``demo_id``), so it is idempotent. The sent document's links are never shown:
the demo's mail folder holds the e-mails they went out in.
"""

from datetime import timedelta

from local_db.models.sign import SignDocument
from services.core.context import Ctx
from services.core.demo import demo_id, demo_seeder
from services.core.storage import keep_blob
from services.sign import lookups
from services.sign.sealing import seal_document
from services.sign.tradein import agreement_pdf


def _pdf(title: str) -> bytes:
    return agreement_pdf(
        tenant="Demo Store",
        customer="Casey Customer",
        email="customer@demo.test",
        product=title,
        serial="DEMO-0001",
        condition="good",
        credit="250.00 EUR",
        number="DEMO",
    )


def _add(ctx: Ctx, key: str, title: str, signers: list[tuple[str, str, bool]]) -> str:
    """A document with signers (name, email, in person) and one signature field each."""
    from local_db.models.sign import SignField, SignSigner

    doc_id = demo_id("sign-doc", key)
    now = ctx.now()
    digest, _ = keep_blob(ctx, _pdf(title))
    with ctx.write() as s:
        s.add(
            SignDocument(id=doc_id, title=title, status="draft", pages=1, sha256=digest, created_at=now, updated_at=now)
        )
        for i, (name, email, in_person) in enumerate(signers):
            sid = demo_id("sign-signer", key, str(i))
            s.add(
                SignSigner(
                    id=sid, document_id=doc_id, name=name, email=email, order=1, in_person=in_person, created_at=now
                )
            )
            s.add(
                SignField(
                    id=demo_id("sign-field", key, str(i)),
                    document_id=doc_id,
                    signer_id=sid,
                    type="signature",
                    page=1,
                    x=0.12,
                    y=0.70 + 0.1 * i,
                    width=0.45,
                    height=0.08,
                    created_at=now,
                )
            )
    return doc_id


@demo_seeder
def seed_sign(ctx: Ctx) -> None:
    """Rows written directly, no events (the demo's event list stays the events modules' own);
    the sent document's e-mail goes to the mail folder, the completed one is sealed."""
    from local_db.models.sign import SignField, SignSigner

    if ctx.tenant is None or ctx.tenant.slug != "demo":
        return
    with ctx.read() as s:
        if s.get(SignDocument, demo_id("sign-doc", "draft")) is not None:
            return
    _add(ctx, "draft", "Service contract (draft)", [("Dana Dealer", "dana@example.test", False)])
    sent = _add(ctx, "sent", "Partner agreement", [("Sam Signer", "sam@example.test", False)])
    done = _add(ctx, "done", "Trade-in agreement iPhone 13", [("Casey Customer", "customer@demo.test", True)])
    now = ctx.now()
    with ctx.write() as s:
        for doc_id in (sent, done):
            d = s.get(SignDocument, doc_id)
            assert d is not None
            d.status, d.sent_at, d.expires_at = "sent", now, now + timedelta(days=30)
            lookups.audit(ctx, s, d, "created", actor="Demo", email=None)
            lookups.audit(ctx, s, d, "sent", actor="Demo", email=None)
        g = s.get(SignSigner, demo_id("sign-signer", "sent", "0"))
        d = s.get(SignDocument, sent)
        assert g is not None and d is not None
        g.status, g.sent_at = "sent", now
        lookups._invite(ctx, d, g)  # the link exists only in the e-mail
        d = s.get(SignDocument, done)
        g = s.get(SignSigner, demo_id("sign-signer", "done", "0"))
        assert g is not None and d is not None
        g.status, g.acted_at, g.signature_type, g.signature_text = "signed", now, "typed", "Casey Customer"
        f = s.get(SignField, demo_id("sign-field", "done", "0"))
        assert f is not None
        f.value = "Casey Customer"
        lookups.audit(ctx, s, d, "signed", actor=g.name, email=g.email, user_agent="station, witnessed by Demo")
        d.status, d.completed_at = "completed", now
        s.flush()
        seal_document(ctx, s, d, [g], [f])

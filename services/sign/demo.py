"""Demo content of Sign (CONTRACT.md): a template, a draft, a sent and a completed document.

Deterministic ids (``demo_id``), so it is idempotent. The sent document's links are never shown:
the demo's mail folder holds the e-mails they went out in.
"""

from datetime import timedelta

from local_db.models.sign import SignDocument
from services.core.context import Ctx
from services.core.demo import demo_id, demo_seeder
from services.core.storage import keep_blob
from services.sign import schemas as sc
from services.sign import service
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
    if ctx.tenant is None or ctx.tenant.slug != "demo":
        return
    with ctx.read() as s:
        if s.get(SignDocument, demo_id("sign-doc", "draft")) is not None:
            return
    _add(ctx, "draft", "Service contract (draft)", [("Dana Dealer", "dana@example.test", False)])
    sent = _add(ctx, "sent", "Partner agreement", [("Sam Signer", "sam@example.test", False)])
    service.send_document(ctx, sent, sc.SendRequest(expires_at=ctx.now() + timedelta(days=30)))
    done = _add(ctx, "done", "Trade-in agreement iPhone 13", [("Casey Customer", "customer@demo.test", True)])
    service.send_document(ctx, done, sc.SendRequest())
    service.sign_in_person(
        ctx,
        done,
        sc.InPersonSign(
            signer_id=demo_id("sign-signer", "done", "0"),
            signature=sc.SignatureIn(type="typed", text="Casey Customer"),
            consent=True,
        ),
    )

"""The trade-in agreement: a PDF made from an Upgrade submission, with the customer as an in-person
signer, sent at once so the station can hand the screen to the customer (no link, no e-mail)."""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from local_db.models.sign import SignDocument, SignField, SignSigner
from local_db.models.upgrade import UpgradeCustomer, UpgradeSubmission
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.events import emit
from services.core.pdf import BOLD, FONT, register_fonts
from services.core.storage import keep_blob
from services.sign import schemas as sc
from services.sign.documents import DOCUMENT, _out

# Where the customer's fields sit on the agreement (fractions of the page, origin top left).
from services.sign.lookups import audit
from services.sign.sealing import load_settings

# Where the customer's fields sit on the agreement (fractions of the page, origin top left).
SIGNATURE_BOX = (0.12, 0.70, 0.45, 0.08)
DATE_BOX = (0.62, 0.72, 0.25, 0.04)
CONSENT_BOX = (0.12, 0.62, 0.03, 0.021)


def agreement_pdf(
    *, tenant: str, customer: str, email: str, product: str, serial: str, condition: str, credit: str, number: str
) -> bytes:
    register_fonts()
    buf = io.BytesIO()
    w, h = A4
    c = canvas.Canvas(buf, pagesize=A4, invariant=1)
    c.setTitle(f"Trade-in agreement {number}")
    c.setFont(BOLD, 18)
    c.drawString(20 * mm, h - 25 * mm, "Trade-in agreement")
    c.setFont(FONT, 10)
    y = h - 38 * mm
    for label, value in (
        ("Dealer", tenant),
        ("Customer", f"{customer} <{email}>" if email else customer),
        ("Device", product),
        ("Serial number", serial),
        ("Graded condition", condition),
        ("Trade-in credit", credit),
        ("Reference", number),
    ):
        c.setFont(BOLD, 10)
        c.drawString(20 * mm, y, label)
        c.setFont(FONT, 10)
        c.drawString(65 * mm, y, value[:80])
        y -= 7 * mm
    y -= 4 * mm
    text = c.beginText(20 * mm, y)
    text.setFont(FONT, 9.5)
    for line in (
        "I confirm that I own the device above, that it is not reported lost or stolen, and that I",
        "have removed my accounts and data from it. I transfer ownership of the device to the dealer",
        "for the trade-in credit shown. The credit is final once this agreement is signed.",
    ):
        text.textLine(line)
    c.drawText(text)
    # The consent box, the signature line and the date, where the fields are placed.
    cx, cy, cw, ch = CONSENT_BOX
    c.setFont(FONT, 9.5)
    c.drawString((cx + cw + 0.01) * w, h - (cy + ch) * h + 2, "I have read and accept this agreement.")
    sx, sy, sw, sh = SIGNATURE_BOX
    c.line(sx * w, h - (sy + sh) * h, (sx + sw) * w, h - (sy + sh) * h)
    c.drawString(sx * w, h - (sy + sh) * h - 12, "Customer signature")
    dx, dy, dw, dh = DATE_BOX
    c.line(dx * w, h - (dy + dh) * h, (dx + dw) * w, h - (dy + dh) * h)
    c.drawString(dx * w, h - (dy + dh) * h - 12, "Date")
    c.showPage()
    c.save()
    return buf.getvalue()


@use_case(
    "sign.documents.trade_in",
    "POST /documents/trade-in",
    tx="write",
    status=201,
    says="Trade-in agreement",
    record=DOCUMENT,
    summary="make the trade-in agreement of a submission, ready to sign in person at the counter",
)
def trade_in_agreement(ctx: Ctx, body: sc.TradeInAgreement) -> sc.DocumentOut:
    from datetime import timedelta

    now = ctx.now()
    with ctx.write() as s:
        sub = s.get(UpgradeSubmission, body.submission_id)
        if sub is None:
            raise NotFound(f"no trade-in submission {body.submission_id}", {"submission": body.submission_id})
        cust = s.get(UpgradeCustomer, sub.customer_id)
        name = cust.name if cust else "Customer"
        email = cust.email if cust else ""
        cents = sub.credit_cents
        credit = f"{cents // 100}.{cents % 100:02d} {sub.currency or ''}".strip() if cents is not None else "as offered"
        content = agreement_pdf(
            tenant=ctx.tenant.name if ctx.tenant else "",
            customer=name,
            email=email,
            product=sub.product_id,
            serial=sub.serial_number,
            condition=sub.graded_condition or sub.condition,
            credit=credit,
            number=sub.id[:8].upper(),
        )
        digest, _ = keep_blob(ctx, content)
        d = SignDocument(
            title=f"Trade-in agreement {sub.product_id} {sub.serial_number}"[:200],
            status="sent",
            signing_order="parallel",
            message="Signed at the counter.",
            pages=1,
            sha256=digest,
            created_by=ctx.principal.user_id,
            created_at=now,
            sent_at=now,
            updated_at=now,
            expires_at=now + timedelta(days=load_settings(s).expiry_days),
        )
        s.add(d)
        s.flush()
        g = SignSigner(
            document_id=d.id,
            name=name,
            email=email,
            role="signer",
            order=1,
            status="pending",
            in_person=True,
            created_at=now,
        )
        s.add(g)
        s.flush()
        for kind, box, required in (
            ("signature", SIGNATURE_BOX, True),
            ("date", DATE_BOX, True),
            ("checkbox", CONSENT_BOX, True),
        ):
            x, y, w, h = box
            s.add(
                SignField(
                    document_id=d.id,
                    signer_id=g.id,
                    type=kind,
                    page=1,
                    x=x,
                    y=y,
                    width=w,
                    height=h,
                    required=required,
                    created_at=now,
                )
            )
        audit(ctx, s, d, "created")
        audit(ctx, s, d, "sent")
        emit(ctx, "document.sent", {"document_id": d.id, "title": d.title, "signers": 1, "in_person": True})
        return _out(d)

"""Upgrade: the data erasure certificate of an inspected trade-in (a PDF for the customer).

The inspector records the erasure in the checklist (``erasure``: method, tool, verified); the
certificate is drawn from that record whenever it is asked for, so it always says what was
recorded and nothing is stored twice. A trade-in without a recorded, verified erasure has none.
"""

from __future__ import annotations

import io
from typing import Any

from reportlab.lib.units import mm
from sqlalchemy import select

from local_db.models.upgrade import UpgradeInspection
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.files import FileResult
from services.core.pdf import BOLD, FONT, canvas
from services.upgrade.lookups import _submission, _valuation

METHODS = {
    "nist-800-88-clear": "NIST SP 800-88 Rev. 1: Clear",
    "nist-800-88-purge": "NIST SP 800-88 Rev. 1: Purge",
    "cryptographic-erase": "Cryptographic erase (NIST SP 800-88 Purge)",
    "factory-reset": "Factory reset",
}


def certificate_pdf(fields: list[tuple[str, str]], issuer: str) -> bytes:
    out = io.BytesIO()
    c = canvas(out)
    c.setTitle("Data erasure certificate")
    width, height = c._pagesize
    y = height - 30 * mm
    c.setFont(BOLD, 18)
    c.drawString(25 * mm, y, "Data erasure certificate")
    y -= 9 * mm
    c.setFont(FONT, 10)
    c.drawString(25 * mm, y, issuer)
    y -= 14 * mm
    for label, value in fields:
        c.setFont(BOLD, 10)
        c.drawString(25 * mm, y, label)
        c.setFont(FONT, 10)
        c.drawString(75 * mm, y, value[:80])
        y -= 7 * mm
    y -= 8 * mm
    c.setFont(FONT, 9)
    c.drawString(25 * mm, y, "The data stored on the device above was erased by the method named and the")
    c.drawString(25 * mm, y - 5 * mm, "erasure was verified by the inspector named before the device was accepted.")
    c.showPage()
    c.save()
    return out.getvalue()


@use_case(
    "upgrade.submissions.erasure_certificate",
    "GET /submissions/{id}/erasure-certificate",
    tx="read",
    auth="customer",
    staff_too=True,
    record="upgrade.submission",
    summary="the data erasure certificate of an inspected trade-in (PDF)",
)
@use_case(
    "upgrade.admin.submissions.erasure_certificate",
    "GET /admin/submissions/{id}/erasure-certificate",
    tx="read",
    record="upgrade.submission",
    summary="a trade-in's data erasure certificate (PDF)",
)
def erasure_certificate(ctx: Ctx, id: str) -> FileResult:
    with ctx.read() as s:
        sub = _submission(s, ctx, id)
        insp = s.execute(
            select(UpgradeInspection).where(
                UpgradeInspection.submission_id == sub.id, UpgradeInspection.status == "completed"
            )
        ).scalar_one_or_none()
        erasure: dict[str, Any] = (insp.checklist or {}).get("erasure") or {} if insp else {}
        if insp is None or not erasure.get("verified"):
            raise NotFound("no verified data erasure is recorded for this trade-in", {"id": id})
        val = _valuation(s, sub.product_id)
    assert insp.completed_at is not None
    fields = [
        ("Certificate", insp.id),
        ("Device", val.product_name if val else sub.product_id),
        ("Serial number", sub.serial_number),
        ("IMEI", sub.imei or "-"),
        ("Method", METHODS.get(str(erasure.get("method")), str(erasure.get("method")))),
        ("Tool", str(erasure.get("tool") or "-")),
        ("Verified", "yes"),
        ("Erased and checked", insp.completed_at.strftime("%Y-%m-%d %H:%M UTC")),
        ("Inspector", insp.inspector_name or "-"),
    ]
    issuer = ctx.tenant.name if ctx.tenant else ""
    return FileResult(certificate_pdf(fields, issuer), "application/pdf", f"erasure-{sub.id}.pdf")

"""The packing slip: what is in the box, for the customer, printed with the order's shipping label.

Page 1 (A4) lists the order's lines with the quantities ordered and packed, the ship-to address, box,
weight and, once shipped, carrier and tracking number; page 2 is the shipping label (4x6 inches), the
same image ``GET /labels/{id}`` prints, so one print job gives the packer both.
"""

from __future__ import annotations

import io

from reportlab.graphics import renderPDF
from reportlab.graphics.barcode import createBarcodeDrawing
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import inch, mm
from reportlab.lib.utils import ImageReader
from sqlalchemy.orm import Session

from local_db.models.fulfillment import FulfillmentLine, FulfillmentOrder, ShippingLabel
from services.core import labels
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.files import FileResult
from services.core.pdf import BOLD, FONT, canvas
from services.core.roles import ANYONE
from services.fulfillment.orders import _find_with_lines

_ADDRESS = ("name", "company", "address1", "address2")


def _address_lines(o: FulfillmentOrder) -> list[str]:
    a = o.shipping_address or {}
    out = [str(a[k]) for k in _ADDRESS if a.get(k)] or [o.customer_name]
    out.append(" ".join(str(a[k]) for k in ("zip", "city", "province") if a.get(k)))
    if a.get("country"):
        out.append(str(a["country"]))
    return [ln for ln in out if ln.strip()]


def packing_slip_pdf(
    shop: str, o: FulfillmentOrder, lines: list[FulfillmentLine], label: ShippingLabel | None
) -> bytes:
    out = io.BytesIO()
    c = canvas(out, A4, pageCompression=1)
    c.setTitle(f"Packing slip {o.order_number}")
    width, height = A4
    left, y = 20 * mm, height - 25 * mm
    c.setFont(BOLD, 18)
    c.drawString(left, y, "Packing slip")
    c.setFont(FONT, 11)
    c.drawRightString(width - left, y, shop)
    y -= 10 * mm
    c.setFont(BOLD, 12)
    c.drawString(left, y, f"Order {o.order_number}")
    bars = createBarcodeDrawing("Code128", value=o.order_number, barHeight=10 * mm, humanReadable=False)
    renderPDF.draw(bars, c, width - left - bars.width, y - 4 * mm)
    c.setFont(FONT, 10)
    y -= 6 * mm
    c.drawString(left, y, f"Date: {o.created_at:%Y-%m-%d}")
    y -= 10 * mm
    c.setFont(BOLD, 10)
    c.drawString(left, y, "Ship to")
    c.setFont(FONT, 10)
    for text in _address_lines(o):
        y -= 5 * mm
        c.drawString(left, y, text[:80])
    y -= 10 * mm
    c.setFont(BOLD, 10)
    cols = (left, left + 45 * mm, width - left - 30 * mm, width - left)
    c.drawString(cols[0], y, "SKU")
    c.drawString(cols[1], y, "Item")
    c.drawRightString(cols[2], y, "Ordered")
    c.drawRightString(cols[3], y, "Packed")
    c.line(left, y - 2 * mm, width - left, y - 2 * mm)
    c.setFont(FONT, 10)
    for ln in lines:
        y -= 7 * mm
        if y < 40 * mm:  # a long order goes on: the header of the table is not repeated
            c.showPage()
            c.setFont(FONT, 10)
            y = height - 25 * mm
        c.drawString(cols[0], y, ln.sku[:24])
        c.drawString(cols[1], y, ln.name[:48])
        c.drawRightString(cols[2], y, str(ln.quantity))
        c.drawRightString(cols[3], y, str(ln.picked_quantity))
    y -= 12 * mm
    facts = [f"Items: {sum(ln.picked_quantity for ln in lines)}"]
    if o.box:
        facts.append(f"Box: {o.box}")
    if o.weight_grams:
        facts.append(f"Weight: {o.weight_grams / 1000:.2f} kg")
    c.drawString(left, y, "   ".join(facts))
    if o.tracking_number:
        y -= 6 * mm
        c.drawString(left, y, f"Carrier: {o.carrier}   Tracking: {o.tracking_number}")
    c.setFont(FONT, 8)
    c.drawString(left, 15 * mm, "Thank you for your order. Returns: contact us with your order number.")
    c.showPage()
    if label is not None:
        c.setPageSize((4 * inch, 6 * inch))
        image = labels.label_image(label.title, list(label.lines), label.tracking_number)
        c.drawImage(ImageReader(image), 0, 0, 4 * inch, 6 * inch)
        c.showPage()
    c.save()
    return out.getvalue()


@use_case(
    "fulfillment.orders.packing_slip",
    "GET /orders/{id}/packing-slip",
    tx="read",
    roles=ANYONE,
    record="fulfillment.order",
    summary="the packing slip PDF (what is in the box), with the shipping label as its second page once shipped",
)
def packing_slip(ctx: Ctx, id: str, session: Session = SESSION) -> FileResult:
    o, lines = _find_with_lines(session, id)
    label = session.get(ShippingLabel, o.label_id) if o.label_id else None
    shop = ctx.tenant.name if ctx.tenant else ""
    pdf = packing_slip_pdf(shop, o, lines, label)
    return FileResult(pdf, "application/pdf", f"packing-slip-{o.order_number}.pdf")

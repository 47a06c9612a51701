"""The packing slip PDF, read back as text: the order's lines, address, box and tracking; the label after."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import NotFound
from tests.services.fulfillment.fulfillment_helpers import ctx_for, order_in


def _pages(content: bytes) -> list[tuple[str, tuple[float, float]]]:
    doc = pdfium.PdfDocument(content)
    try:
        return [(page.get_textpage().get_text_range(), page.get_size()) for page in doc]
    finally:
        doc.close()


def test_the_packing_slip_lists_the_box_and_carries_the_label(runtime: Runtime) -> None:
    ctx = ctx_for(runtime, "owner@demo.test")
    shipped = execute(ctx, "fulfillment.orders.get", id=order_in(runtime, "shipped").id)
    slip = execute(ctx, "fulfillment.orders.packing_slip", id=shipped.order_number)
    assert slip.media_type == "application/pdf" and slip.filename == f"packing-slip-{shipped.order_number}.pdf"
    pages = _pages(slip.content)
    assert len(pages) == 2
    text, size = pages[0]
    assert "Packing slip" in text and f"Order {shipped.order_number}" in text
    for ln in shipped.lines:
        assert ln.sku in text and ln.name[:48] in text
    assert f"Tracking: {shipped.tracking_number}" in text and f"Box: {shipped.box}" in text
    assert str(shipped.shipping_address.get("city")) in text
    assert pages[1][1] == pytest.approx((288, 432))  # the 4x6 inch label
    # Before it ships: the slip alone, nothing packed yet.
    pending = execute(ctx, "fulfillment.orders.get", id=order_in(runtime, "pending").id)
    (only,) = _pages(execute(ctx, "fulfillment.orders.packing_slip", id=pending.id).content)
    assert "Tracking" not in only[0] and f"Items: {sum(ln.picked_quantity for ln in pending.lines)}" in only[0]
    with pytest.raises(NotFound):
        execute(ctx, "fulfillment.orders.packing_slip", id="SO-404404")

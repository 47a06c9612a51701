"""Fulfillment shipping labels and the command sheet."""

from __future__ import annotations

from local_db.models.fulfillment import ShippingLabel
from services.core import labels
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.files import FileResult
from services.core.roles import ANYONE
from services.fulfillment.orders import _find
from services.fulfillment.schemas import (
    LabelQuery,
)

# --- labels ------------------------------------------------------------------------


@use_case("fulfillment.labels.get", "GET /labels/{id}", tx="read", roles=ANYONE, summary="download a shipping label")
def get_label(ctx: Ctx, id: str, query: LabelQuery) -> FileResult:
    """A label by its id; an order's id or number gives that order's label (404 when it has none)."""
    with ctx.read() as s:
        label = s.get(ShippingLabel, id)
        if label is None:
            try:
                o = _find(s, id)
            except NotFound:
                raise NotFound(f"no label {id}", {"label": id}) from None
            if o.label_id is None:
                raise NotFound(
                    f"order {o.order_number} has no label (it is {o.status})",
                    {"order_number": o.order_number, "status": o.status},
                )
            label = s.get(ShippingLabel, o.label_id)
            assert label is not None
    name = f"label-{label.tracking_number}"
    if query.format == "zpl":
        zpl = labels.label_zpl(label.title, list(label.lines), label.tracking_number)
        return FileResult(zpl.encode(), "text/plain; charset=utf-8", f"{name}.zpl")
    if query.format == "png":
        import io

        buf = io.BytesIO()
        labels.label_image(label.title, list(label.lines), label.tracking_number, query.size).save(buf, "PNG")
        return FileResult(buf.getvalue(), "image/png", f"{name}.png")
    return FileResult(
        labels.label_pdf(label.title, list(label.lines), label.tracking_number, query.size),
        "application/pdf",
        f"{name}.pdf",
    )


@use_case(
    "fulfillment.command_sheet",
    "GET /command-sheet",
    tx="read",
    roles=ANYONE,
    summary="print the sheet of command barcodes",
)
def command_sheet(ctx: Ctx) -> FileResult:
    """A 4x6 sheet of the command barcodes a packer scans instead of pressing keys."""
    from services.fulfillment.scan_commands import command_sheet_pdf

    return FileResult(command_sheet_pdf(), "application/pdf", "command-barcodes.pdf")

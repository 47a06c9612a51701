"""Command barcodes: what a packer scans instead of pressing a key, and the printable sheet of them."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from services.core.labels import _font, code128_image

# code -> (action, argument, caption). Box codes pack in that box size.
COMMAND_CODES: dict[str, tuple[str, str | None, str]] = {
    "BOX-S": ("pack", "S", "Pack in box S (F1)"),
    "BOX-M": ("pack", "M", "Pack in box M (F2)"),
    "BOX-L": ("pack", "L", "Pack in box L (F3)"),
    "BOX-XL": ("pack", "XL", "Pack in box XL (F4)"),
    "CMD-SHIP": ("ship", None, "Ship: create the label (F5)"),
    "CMD-PRINT": ("print", None, "Print the label again (F6)"),
    "CMD-NEXT": ("next", None, "Open the next order (F8)"),
    "CMD-UNDO": ("undo", None, "Take back the last scan (Ctrl+Z)"),
    "CMD-CANCEL": ("cancel", None, "Cancel the order (supervisors)"),
}


def command_sheet_pdf() -> bytes:
    """An A4 page (150 dpi) with one Code 128 barcode per command and its caption."""
    dpi = 150
    page = Image.new("L", (int(8.27 * dpi), int(11.69 * dpi)), 255)
    draw = ImageDraw.Draw(page)
    draw.text((60, 40), "Scanner commands", font=_font(48), fill=0)
    y = 130
    for code, (_action, _arg, caption) in COMMAND_CODES.items():
        bc = code128_image(code, module_width=0.33, height_mm=12)
        bc = bc.resize((bc.width * dpi // 203, bc.height * dpi // 203))
        page.paste(bc, (60, y))
        draw.text((80 + bc.width, y + 10), code, font=_font(34), fill=0)
        draw.text((80 + bc.width, y + 55), caption, font=_font(26), fill=0)
        y += max(bc.height, 100) + 45
    out = io.BytesIO()
    page.save(out, "PDF", resolution=dpi)
    return out.getvalue()

"""Drawing a QR code (PNG, SVG, PDF) and the barcodes, from the module matrix of ``qrcode``.

One matrix, three writers: PNG via Pillow, SVG as one path of squares, PDF as vector
rectangles with reportlab, so every format shows the same modules. A logo sits in the
middle on a background pad, covering at most ~20% of the area (error correction H
restores up to 30%).
"""

from __future__ import annotations

import io
from typing import Any

import qrcode
from qrcode.constants import ERROR_CORRECT_H, ERROR_CORRECT_L, ERROR_CORRECT_M, ERROR_CORRECT_Q

EC = {"L": ERROR_CORRECT_L, "M": ERROR_CORRECT_M, "Q": ERROR_CORRECT_Q, "H": ERROR_CORRECT_H}
# Share of the side the logo may cover.
LOGO_SHARE = 0.22
MEDIA = {"png": "image/png", "svg": "image/svg+xml", "pdf": "application/pdf"}


def matrix(data: str, style: dict[str, Any]) -> list[list[bool]]:
    qr = qrcode.QRCode(error_correction=EC[style.get("error_correction", "M")], border=int(style.get("border", 4)))
    qr.add_data(data)
    qr.make(fit=True)
    return qr.get_matrix()


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def png(data: str, style: dict[str, Any], size: int = 512, logo: bytes | None = None) -> bytes:
    from PIL import Image, ImageOps

    m = matrix(data, style)
    n = len(m)
    # Dark modules 255 in a mask, scaled by whole pixels so module edges stay sharp.
    mask = Image.new("L", (n, n), 0)
    mask.putdata([255 if cell else 0 for row in m for cell in row])
    scale = max(1, size // n)
    mask = mask.resize((n * scale, n * scale), Image.Resampling.NEAREST)
    fg, bg = _rgb(style.get("fg", "#000000")), _rgb(style.get("bg", "#ffffff"))
    if (fg, bg) == ((0, 0, 0), (255, 255, 255)) and not logo:
        out = ImageOps.invert(mask)
    else:
        out = Image.new("RGB", mask.size, bg)
        out.paste(fg, (0, 0, *mask.size), mask)
        if logo:
            _paste_logo(out, logo, bg)
    buf = io.BytesIO()
    out.save(buf, "PNG", optimize=False)
    return buf.getvalue()


def _paste_logo(img: Any, logo: bytes, bg: tuple[int, int, int]) -> None:
    from PIL import Image

    side = int(img.size[0] * LOGO_SHARE)
    with Image.open(io.BytesIO(logo)) as opened:
        mark = opened.convert("RGBA")
        mark.thumbnail((side, side))
    pad = Image.new("RGB", (side + 8, side + 8), bg)
    x = (img.size[0] - pad.size[0]) // 2
    img.paste(pad, (x, x))
    img.paste(mark, ((img.size[0] - mark.size[0]) // 2, (img.size[1] - mark.size[1]) // 2), mark)


def svg(data: str, style: dict[str, Any], size: int = 512, logo: bytes | None = None) -> bytes:
    import base64

    m = matrix(data, style)
    n = len(m)
    path = "".join(f"M{x} {y}h1v1h-1z" for y, row in enumerate(m) for x, cell in enumerate(row) if cell)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{size}" '
        f'height="{size}" viewBox="0 0 {n} {n}" shape-rendering="crispEdges">',
        f'<rect width="{n}" height="{n}" fill="{style.get("bg", "#ffffff")}"/>',
        f'<path fill="{style.get("fg", "#000000")}" d="{path}"/>',
    ]
    if logo:
        side = n * LOGO_SHARE
        o = (n - side) / 2
        href = "data:image/png;base64," + base64.b64encode(_as_png(logo)).decode()
        parts.append(
            f'<rect x="{o - 0.25:.2f}" y="{o - 0.25:.2f}" width="{side + 0.5:.2f}" '
            f'height="{side + 0.5:.2f}" fill="{style.get("bg", "#ffffff")}"/>'
        )
        parts.append(f'<image x="{o:.2f}" y="{o:.2f}" width="{side:.2f}" height="{side:.2f}" xlink:href="{href}"/>')
    parts.append("</svg>")
    return "".join(parts).encode()


def _as_png(content: bytes) -> bytes:
    from PIL import Image

    with Image.open(io.BytesIO(content)) as img:
        buf = io.BytesIO()
        img.convert("RGBA").save(buf, "PNG")
        return buf.getvalue()


def pdf(data: str, style: dict[str, Any], size: int = 512, logo: bytes | None = None) -> bytes:
    from reportlab.lib.colors import HexColor
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    m = matrix(data, style)
    n = len(m)
    side = float(size) * 0.75  # px at 96 dpi to points
    cell = side / n
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(side, side))
    c.setFillColor(HexColor(style.get("bg", "#ffffff")))
    c.rect(0, 0, side, side, stroke=0, fill=1)
    c.setFillColor(HexColor(style.get("fg", "#000000")))
    for y, row in enumerate(m):
        x = 0
        while x < n:
            if row[x]:
                start = x
                while x < n and row[x]:
                    x += 1
                # One rectangle per run: smaller files, no hairline seams between modules.
                c.rect(start * cell, side - (y + 1) * cell, (x - start) * cell, cell, stroke=0, fill=1)
            else:
                x += 1
    if logo:
        ls = side * LOGO_SHARE
        o = (side - ls) / 2
        c.setFillColor(HexColor(style.get("bg", "#ffffff")))
        c.rect(o - 2, o - 2, ls + 4, ls + 4, stroke=0, fill=1)
        c.drawImage(ImageReader(io.BytesIO(logo)), o, o, ls, ls, mask="auto", preserveAspectRatio=True)
    c.showPage()
    c.save()
    return buf.getvalue()


WRITERS = {"png": png, "svg": svg, "pdf": pdf}


def render(fmt: str, data: str, style: dict[str, Any], size: int = 512, logo: bytes | None = None) -> bytes:
    return WRITERS[fmt](data, style, size, logo)


def contrast(fg: str, bg: str) -> float:
    """WCAG contrast ratio of two #rrggbb colours (1 to 21): under ~3 phone cameras start to miss modules."""

    def lum(c: str) -> float:
        parts = [v / 255 for v in _rgb(c)]
        r, g, b = (p / 12.92 if p <= 0.03928 else ((p + 0.055) / 1.055) ** 2.4 for p in parts)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    hi, lo = sorted((lum(fg), lum(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def read_back(png_bytes: bytes) -> list[str]:
    """What a reader finds in a PNG (zxing-cpp, the decoder the tests and benchmark use): the
    designer's check that a style or logo did not make the code unreadable. Light-on-dark codes
    are tried inverted too, as phone apps do."""
    import zxingcpp
    from PIL import Image, ImageOps

    with Image.open(io.BytesIO(png_bytes)) as img:
        grey = img.convert("L")
    found = [r.text for r in zxingcpp.read_barcodes(grey)]
    if not found:
        found = [r.text for r in zxingcpp.read_barcodes(ImageOps.invert(grey))]
    return found


# --- barcodes -----------------------------------------------------------------

# python-barcode's names for our types.
BARCODE_NAMES = {
    "code128": "code128",
    "ean13": "ean13",
    "ean8": "ean8",
    "upca": "upca",
    "itf14": "itf",
    "code39": "code39",
}  # noqa: E501


def barcode_image(kind: str, value: str, fmt: str) -> bytes:
    import barcode
    from barcode.writer import ImageWriter, SVGWriter

    cls = barcode.get_barcode_class(BARCODE_NAMES[kind])
    writer = ImageWriter() if fmt == "png" else SVGWriter()
    options: dict[str, Any] = {}
    if kind == "code39":
        code = cls(value, writer=writer, add_checksum=False)
    elif kind in ("ean13", "ean8", "upca"):
        # The value already carries its verified check digit: drop it, the library adds it back.
        code = cls(value[:-1], writer=writer)
    else:
        code = cls(value, writer=writer)
    buf = io.BytesIO()
    code.write(buf, options)
    return buf.getvalue()

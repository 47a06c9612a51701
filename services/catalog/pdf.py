"""PDF catalogs with reportlab: DejaVu fonts embedded (subset), barcodes drawn as vector bars.

A page holds a header and five product blocks: image, name, SKU, price, description, a few
attributes and the barcode of the product's GTIN (EAN-13, UPC-A, EAN-8, ITF-14) or, without one,
a Code 128 of its SKU.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from reportlab.graphics import renderPDF
from reportlab.graphics.barcode import createBarcodeDrawing
from reportlab.graphics.shapes import Drawing
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader, simpleSplit
from reportlab.pdfgen.canvas import Canvas

from services.core.pdf import BOLD, FONT, canvas

PER_PAGE = 5
MARGIN = 15 * mm
HEADER = 22 * mm
IMAGE = 38 * mm


@dataclass
class Entry:
    """One product as printed: text already in the catalog's language."""

    sku: str
    name: str
    description: str
    price: str | None  # "12.50" or "9.90 - 14.90"
    gtin: str | None
    attributes: list[tuple[str, str]] = field(default_factory=list)
    variants: int = 0
    image: bytes | None = None  # a JPEG or PNG, already made small


def barcode(gtin: str | None, sku: str) -> tuple[Drawing, str, str]:
    """The vector drawing of a product's code, with its symbology and value."""
    if gtin and len(gtin) == 13:
        kind, value = "EAN13", gtin
    elif gtin and len(gtin) == 12:
        kind, value = "UPCA", gtin
    elif gtin and len(gtin) == 8:
        kind, value = "EAN8", gtin
    elif gtin and len(gtin) == 14:
        kind, value = "I2of5", gtin  # ITF-14: the GTIN-14 carrier of GS1
    else:
        kind, value = "Code128", sku
    if kind == "I2of5":
        d = createBarcodeDrawing(
            kind,
            value=value,
            barHeight=14 * mm,
            barWidth=0.33 * mm,
            checksum=0,
            bearers=0,
            humanReadable=True,
            fontName=FONT,
            quiet=1,
        )
    elif kind == "Code128":
        d = createBarcodeDrawing(
            kind, value=value, barHeight=14 * mm, barWidth=0.33 * mm, humanReadable=True, fontName=FONT, quiet=1
        )
    else:
        # EAN/UPC take the data digits and draw the check digit themselves (it was verified on input).
        d = createBarcodeDrawing(
            kind, value=value[:-1], barHeight=14 * mm, barWidth=0.33 * mm, fontName=FONT, humanReadable=True, quiet=1
        )
    # reportlab's renderer starts every drawing in its default font (Helvetica, never embedded) unless
    # the drawing names its own initial font: the catalogue then lists a font it does not embed.
    d.initialFontName = FONT
    return d, kind, value


def render(
    title: str,
    language: str,
    entries: Iterable[Entry],
    total: int,
    generated_at: datetime,
    labels: dict[str, str],
    progress: Callable[[int], None] | None = None,
) -> tuple[bytes, int]:
    """The PDF's bytes and its page count; ``progress(n)`` after every page."""
    buf = io.BytesIO()
    c = canvas(buf, A4, pageCompression=1)
    c.setTitle(title)
    c.setAuthor("Catalog")
    c.setSubject(f"{title} ({language})")
    width, height = A4
    block = (height - 2 * MARGIN - HEADER) / PER_PAGE
    pages, done, slot = 0, 0, PER_PAGE
    for e in entries:
        if slot == PER_PAGE:
            if pages:
                _footer(c, pages, width)
                c.showPage()
                if progress:
                    progress(done)
            pages += 1
            _header(c, title, language, generated_at, width, height, labels)
            slot = 0
        top = height - MARGIN - HEADER - slot * block
        _entry(c, e, MARGIN, top, width - 2 * MARGIN, block, labels)
        slot += 1
        done += 1
    if pages == 0:
        pages = 1
        _header(c, title, language, generated_at, width, height, labels)
        c.setFont(FONT, 11)
        c.drawString(MARGIN, height - MARGIN - HEADER - 10 * mm, labels.get("empty", "No products."))
    _footer(c, pages, width)
    c.showPage()
    c.save()
    if progress:
        progress(done)
    return buf.getvalue(), pages


def _header(
    c: Canvas, title: str, language: str, at: datetime, width: float, height: float, labels: dict[str, str]
) -> None:
    c.setFont(BOLD, 18)
    c.drawString(MARGIN, height - MARGIN - 8 * mm, title[:80])
    c.setFont(FONT, 9)
    c.setFillGray(0.35)
    c.drawRightString(width - MARGIN, height - MARGIN - 8 * mm, f"{language} · {at:%Y-%m-%d}")
    c.setFillGray(0)
    c.setLineWidth(0.5)
    c.line(MARGIN, height - MARGIN - 12 * mm, width - MARGIN, height - MARGIN - 12 * mm)


def _footer(c: Canvas, page: int, width: float) -> None:
    c.setFont(FONT, 8)
    c.setFillGray(0.35)
    c.drawCentredString(width / 2, MARGIN / 2, str(page))
    c.setFillGray(0)


def _entry(c: Canvas, e: Entry, x: float, top: float, w: float, h: float, labels: dict[str, str]) -> None:
    pad = 3 * mm
    if e.image is not None:
        try:
            img = ImageReader(io.BytesIO(e.image))
            iw, ih = img.getSize()
            scale = min(IMAGE / iw, (h - 2 * pad) / ih)
            # The images are our own opaque JPEG thumbnails: no transparency mask to look for.
            c.drawImage(img, x, top - pad - ih * scale, iw * scale, ih * scale)
        except Exception:  # noqa: BLE001 - an unreadable image leaves its box empty, the catalog still prints
            pass
    else:
        c.setStrokeGray(0.8)
        c.rect(x, top - pad - IMAGE * 0.8, IMAGE, IMAGE * 0.8)
        c.setStrokeGray(0)
    tx = x + IMAGE + 5 * mm
    tw = w - IMAGE - 5 * mm - 48 * mm
    c.setFont(BOLD, 12)
    y = top - pad - 4 * mm
    for line in simpleSplit(e.name, BOLD, 12, tw)[:2]:
        c.drawString(tx, y, line)
        y -= 5 * mm
    c.setFont(FONT, 8.5)
    c.setFillGray(0.35)
    sku_line = f"{labels.get('sku', 'SKU')} {e.sku}"
    if e.variants > 1:
        sku_line += f" · {e.variants} {labels.get('variants', 'variants')}"
    c.drawString(tx, y, sku_line)
    c.setFillGray(0)
    y -= 5 * mm
    if e.price:
        c.setFont(BOLD, 10)
        c.drawString(tx, y, e.price)
        y -= 5 * mm
    c.setFont(FONT, 9)
    lines = simpleSplit(e.description, FONT, 9, tw)
    room = max(0, int((y - (top - h + pad)) // (4 * mm)) - (1 if e.attributes else 0))
    for line in lines[:room]:
        c.drawString(tx, y, line)
        y -= 4 * mm
    if e.attributes and y > top - h + pad:
        c.setFont(FONT, 8)
        c.setFillGray(0.35)
        text = " · ".join(f"{k}: {v}" for k, v in e.attributes)
        c.drawString(tx, y, simpleSplit(text, FONT, 8, tw)[0] if text else "")
        c.setFillGray(0)
    d, _, _ = barcode(e.gtin, e.sku)
    bw, bh = d.width, d.height
    scale = min(1.0, 46 * mm / bw)
    c.saveState()
    c.translate(x + w - bw * scale, top - pad - bh * scale)
    c.scale(scale, scale)
    renderPDF.draw(d, c, 0, 0)
    c.restoreState()
    c.setStrokeGray(0.85)
    c.line(x, top - h + 1 * mm, x + w, top - h + 1 * mm)
    c.setStrokeGray(0)

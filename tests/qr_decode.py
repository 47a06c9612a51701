"""Reading QR images back as a phone would: SVG rendered by cairosvg, PDF by pdfium, decoded by zxing-cpp."""

from __future__ import annotations

import io

from PIL import Image

from tests.barcodes import pdf_to_image


def to_image(content: bytes, fmt: str) -> Image.Image:
    if fmt == "png":
        return Image.open(io.BytesIO(content)).convert("L")
    if fmt == "svg":
        import cairosvg

        return Image.open(io.BytesIO(cairosvg.svg2png(bytestring=content))).convert("L")
    return pdf_to_image(content, dpi=150)


def decode(content: bytes, fmt: str) -> list[str]:
    """Every symbol zxing-cpp finds (QR codes and barcodes)."""
    import zxingcpp

    return [r.text for r in zxingcpp.read_barcodes(to_image(content, fmt))]

"""Reading labels back as a scanner would: render the PDF, decode the barcode."""

from __future__ import annotations

from PIL import Image


def pdf_to_image(pdf: bytes, dpi: int = 203) -> Image.Image:
    """Render the first page of a PDF with a real PDF renderer (pdfium)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[0].render(scale=dpi / 72).to_pil().convert("L")
    finally:
        doc.close()


def decode_code128(img: Image.Image) -> str | None:
    """Decode the Code 128 symbol of an image with zxing-cpp (an independent reader)."""
    import zxingcpp

    found = [r for r in zxingcpp.read_barcodes(img) if r.format == zxingcpp.BarcodeFormat.Code128]
    return found[0].text if found else None

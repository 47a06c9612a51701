"""PDF fonts and documents every module writes with (catalogs, safety data sheets, signatures).

One place registers the embedded fonts and sets reportlab's process-wide options, so every PDF
the platform writes uses the same fonts and the same encoding whichever module wrote first.
"""

from __future__ import annotations

import io
import threading
from functools import cache
from pathlib import Path
from typing import IO, Any

from reportlab import rl_config
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

import resources

FONT, BOLD = "DejaVuSans", "DejaVuSans-Bold"
FONT_DIR = Path(resources.__file__).parent / "fonts"
# Images as binary streams, not ASCII85 text: a quarter smaller, and reportlab's pure-Python
# encoder was a third of a catalog's time.
rl_config.useA85 = 0
# Barcode drawings are built by reportlab's own widgets: checking every shape attribute as it is set
# cost more than drawing them.
rl_config.shapeChecking = 0


@cache
def register_fonts() -> None:
    """TrueType fonts are embedded (as subsets) in every PDF that uses them (PDF/A asks for it)."""
    pdfmetrics.registerFont(TTFont(FONT, str(FONT_DIR / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(FONT_DIR / "DejaVuSans-Bold.ttf")))


def canvas(out: IO[bytes], pagesize: tuple[float, float] = A4, **options: Any) -> Canvas:
    """A canvas writing to ``out`` with the platform's fonts registered and the body font set."""
    register_fonts()
    return Canvas(out, pagesize=pagesize, initialFontName=FONT, **options)


# PDFium is not thread-safe: no two of its calls may run at once in a process, not even on
# different documents (pypdfium2's documentation says so). The server answers pages from a thread
# pool, and ten first visits of a signing page's images at once crashed it (a segmentation fault in
# FPDF_RenderPageBitmap, a "double free" in an earlier run). Every pdfium call on the server goes
# through this lock; a page is rendered once and kept by its callers, so the wait is short.
PDFIUM_LOCK = threading.Lock()


class NoSuchPage(LookupError):
    """The PDF has fewer pages than the one asked for."""


def render_page_png(pdf: bytes, number: int, scale: float = 1.0) -> bytes:
    """Page ``number`` (from 1) of ``pdf`` as a greyscale PNG, rendered by pdfium under its lock."""
    import pypdfium2 as pdfium  # loaded by the first render: most processes never render a page

    with PDFIUM_LOCK:
        doc = pdfium.PdfDocument(pdf)
        try:
            if not 1 <= number <= len(doc):
                raise NoSuchPage(number)
            page = doc[number - 1]
            bitmap = page.render(scale=scale)
            # A copy in Pillow's memory; the bitmap and page are closed here, under the lock, not
            # by their finalizers whenever (and in whichever thread) the garbage collector runs them.
            img = bitmap.to_pil().convert("L")
            bitmap.close()
            page.close()
        finally:
            doc.close()
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)  # Pillow's own memory: no pdfium call, outside the lock
    return buf.getvalue()

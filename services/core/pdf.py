"""PDF fonts and documents every module writes with (catalogs, safety data sheets, signatures).

One place registers the embedded fonts and sets reportlab's process-wide options, so every PDF
the platform writes uses the same fonts and the same encoding whichever module wrote first.
"""

from __future__ import annotations

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

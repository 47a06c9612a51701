"""The SDS module's PDFs with reportlab (the project's one PDF library; DejaVu fonts embedded as
Catalog embeds them): a compliance certificate, and a safety data sheet with its 16 sections and
every numbered subheading, where an empty subheading says "No data available" (DOMAIN §2)."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.fonts import addMapping
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from services.core.pdf import BOLD, FONT, register_fonts
from services.sds.chem import sds_sections

NO_DATA = "No data available"

_BODY = ParagraphStyle("body", fontName=FONT, fontSize=9, leading=12)
_SUB = ParagraphStyle("sub", fontName=BOLD, fontSize=9.5, leading=13, spaceBefore=4)
_HEAD = ParagraphStyle(
    "head",
    fontName=BOLD,
    fontSize=11,
    leading=15,
    spaceBefore=8,
    textColor=colors.white,
    backColor=colors.HexColor("#2b4c7e"),
    borderPadding=(2, 3, 2, 3),
)
_TITLE = ParagraphStyle("title", fontName=BOLD, fontSize=16, leading=20, spaceAfter=6)


@dataclass
class Sheet:
    """What a safety data sheet says: per subheading (``"1.1"``), paragraphs or table rows."""

    product: str
    code: str
    revision: int
    version: int
    issued_at: datetime
    supplier: str
    text: dict[str, list[str]] = field(default_factory=dict)
    tables: dict[str, list[list[str]]] = field(default_factory=dict)
    pictograms: dict[str, list[str]] = field(default_factory=dict)  # subheading -> GHS codes, drawn


def _pictogram_row(codes: list[str]) -> Table:
    """The pictograms side by side as vector drawings (services/sds/pictograms.py), 22 mm each."""
    from services.sds.pictograms import drawing

    t = Table([[drawing(c, 22 * mm) for c in codes], [_p(c) for c in codes]], hAlign="LEFT")
    t.setStyle(TableStyle([("ALIGN", (0, 0), (-1, -1), "CENTER"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))
    return t


def _p(text: str, style: ParagraphStyle = _BODY) -> Paragraph:
    return Paragraph(escape(text), style)


def _table(rows: list[list[str]]) -> Table:
    t = Table([[_p(c) for c in r] for r in rows], repeatRows=1, hAlign="LEFT")
    t.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8edf5")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return t


@cache
def _fonts() -> None:
    """Catalog's DejaVu fonts, and the family Paragraph needs to find the bold of the regular."""
    register_fonts()
    # Italic first, so the regular and bold faces keep their own entries in the reverse map.
    addMapping(FONT, 0, 1, FONT)
    addMapping(FONT, 1, 1, BOLD)
    addMapping(FONT, 0, 0, FONT)
    addMapping(FONT, 1, 0, BOLD)


def _build(title: str, subject: str, story: list[object]) -> tuple[bytes, int]:
    _fonts()
    buf = io.BytesIO()
    pages = [0]

    def footer(canvas: object, doc: object) -> None:
        c = canvas  # reportlab's canvas
        c.saveState()  # type: ignore[attr-defined]
        c.setFont(FONT, 7.5)  # type: ignore[attr-defined]
        n = c.getPageNumber()  # type: ignore[attr-defined]
        pages[0] = max(pages[0], n)
        c.drawString(18 * mm, 10 * mm, f"{subject} — page {n}")  # type: ignore[attr-defined]
        c.restoreState()  # type: ignore[attr-defined]

    doc = SimpleDocTemplate(
        buf,
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=16 * mm,
        bottomMargin=18 * mm,
        title=title,
        author="SDS",
        subject=subject,
    )
    doc.build(story, onFirstPage=footer, onLaterPages=footer)  # type: ignore[arg-type]
    return buf.getvalue(), pages[0]


def render_sds(sheet: Sheet) -> tuple[bytes, int]:
    """The PDF and its page count: every section and subheading, in order."""
    _fonts()
    story: list[object] = [
        _p("SAFETY DATA SHEET", _TITLE),
        _p(f"{sheet.product} ({sheet.code}) — formula revision {sheet.revision}, version {sheet.version}"),
        _p(
            f"According to Regulation (EC) No 1907/2006 (REACH) Annex II as amended by (EU) 2020/878. "
            f"Issued {sheet.issued_at:%Y-%m-%d}."
        ),
        Spacer(1, 4 * mm),
    ]
    for section in sds_sections():
        story.append(_p(f"SECTION {section['number']}: {section['title']}", _HEAD))
        for sub in section["subheadings"]:
            number = sub.split(" ", 1)[0]
            story.append(_p(sub, _SUB))
            paras = sheet.text.get(number) or []
            rows = sheet.tables.get(number)
            pics = sheet.pictograms.get(number)
            if not paras and not rows:
                story.append(_p(NO_DATA))
            if pics:
                story.append(_pictogram_row(pics))
            for t in paras:
                story.append(_p(t))
            if rows:
                story.append(_table(rows))
    return _build(f"Safety data sheet {sheet.code}", f"SDS {sheet.code} rev. {sheet.revision} v{sheet.version}", story)


def render_certificate(
    product: str,
    code: str,
    revision: int,
    product_type: str,
    issued_at: datetime,
    issuer: str,
    declarable: list[list[str]],
    checked: list[str],
) -> tuple[bytes, int]:
    _fonts()
    story: list[object] = [
        _p("CERTIFICATE OF CONFORMITY", _TITLE),
        _p(f"Product: {product} ({code}), formula revision {revision}, {product_type.replace('_', '-')} use."),
        _p(f"Issued {issued_at:%Y-%m-%d} by {issuer}."),
        Spacer(1, 4 * mm),
        _p(
            "We certify that this formula, as computed through every sub-formula, contains none of the "
            "substances of Regulation (EC) No 1223/2009 Annex II listed below and no Annex III substance "
            "above its maximum for this product type.",
        ),
        Spacer(1, 3 * mm),
        _p("Checked against", _SUB),
        *[_p("• " + c) for c in checked],
        Spacer(1, 3 * mm),
        _p("Allergens to declare on the label", _SUB),
    ]
    if declarable:
        story.append(_table([["Allergen", "CAS", "Percent", "Threshold"], *declarable]))
    else:
        story.append(_p("None above the labelling threshold."))
    return _build(f"Certificate {code}", f"Certificate {code} rev. {revision}", story)

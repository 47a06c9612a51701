"""Docs: PDF layout of Markdown documents, and the export of a whole category (docs/docs.md
"Revisions and export").

A category exports with its sub-categories and their documents (not the trash): as Markdown, a
ZIP holding one folder per category and one ``.md`` file per document with an ``index.md``
table of contents (BookStack's and Outline's Markdown export of a book or collection); as PDF,
one file with a table of contents and PDF bookmarks, categories and documents in tree order,
laid out by reportlab's platypus (its TableOfContents, filled by a second pass) in the
platform's embedded fonts.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass, field
from typing import Any, Literal
from xml.sax.saxutils import escape

from pydantic import BaseModel, ConfigDict
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import CondPageBreak, Flowable, PageBreak, Paragraph, SimpleDocTemplate, Spacer, TableStyle
from reportlab.platypus.tableofcontents import TableOfContents
from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from local_db.models.docs import DocCategory, DocDocument
from services.core import pdf
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import NotFound, PayloadTooLarge
from services.core.files import FileResult
from services.core.filesafety import clean_filename
from services.core.roles import STAFF
from services.docs.schemas import DocStatus

# What one export holds at most: a PDF of thousands of articles is not read, and the answer is
# built in memory. Past these the request is refused (413) and names the limit.
MAX_DOCUMENTS = 2000
MAX_CHARACTERS = 20_000_000


class CategoryExportQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")

    format: Literal["md", "pdf"] = "md"
    # Only documents of this status (all but the trash when not given).
    status: DocStatus | None = None


_INLINE = [
    (re.compile(r"\*\*(.+?)\*\*"), r"<b>\1</b>"),
    (re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])"), r"<i>\1</i>"),
    (re.compile(r"`([^`]+)`"), r"<i>\1</i>"),
]


def _inline(text: str) -> str:
    out = escape(text)
    for pattern, repl in _INLINE:
        out = pattern.sub(repl, out)
    return out


class _Canvas(Canvas):
    """Reportlab's page canvas starting in the embedded body font, not its built-in Helvetica (a
    font a PDF would name without embedding it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["initialFontName"] = pdf.FONT  # the template hands its own default (None) in
        super().__init__(*args, **kwargs)


@dataclass
class _Styles:
    base: ParagraphStyle
    heads: dict[int, ParagraphStyle]
    code: ParagraphStyle


def _styles() -> _Styles:
    pdf.register_fonts()
    # <b> and <i> of the body font map to the embedded faces (no italic face: the regular one),
    # never to a built-in font that a PDF names without embedding.
    pdfmetrics.registerFontFamily(pdf.FONT, normal=pdf.FONT, bold=pdf.BOLD, italic=pdf.FONT, boldItalic=pdf.BOLD)
    base = ParagraphStyle("body", fontName=pdf.FONT, fontSize=10.5, leading=14, spaceAfter=6)
    heads = {
        n: ParagraphStyle(f"h{n}", parent=base, fontName=pdf.BOLD, fontSize=18 - 2 * n, leading=22 - 2 * n)
        for n in range(1, 6)
    }
    code = ParagraphStyle("code", parent=base, fontName=pdf.FONT, fontSize=9, leading=12, leftIndent=8 * mm)
    return _Styles(base, heads, code)


def _body(body: str, st: _Styles, shift: int = 0) -> list[Flowable]:
    """The Markdown people write in the editor (headings, paragraphs, lists, bold, code blocks) as
    flowables; ``shift`` moves its headings down a level (under a document title in a category)."""
    story: list[Flowable] = []
    para: list[str] = []
    fenced = False

    def flush() -> None:
        if para:
            story.append(Paragraph(_inline(" ".join(para)), st.base))
            para.clear()

    for line in body.splitlines():
        if line.strip().startswith("```"):
            flush()
            fenced = not fenced
            continue
        if fenced:
            story.append(Paragraph(_inline(line) or "&nbsp;", st.code))
            continue
        m = re.match(r"^(#{1,4})\s+(.*)$", line)
        if m:
            flush()
            story.append(Paragraph(_inline(m.group(2)), st.heads[min(5, len(m.group(1)) + shift)]))
        elif re.match(r"^\s*([-*+]|\d+[.)])\s+", line):
            flush()
            story.append(Paragraph("• " + _inline(re.sub(r"^\s*([-*+]|\d+[.)])\s+", "", line)), st.base))
        elif not line.strip():
            flush()
        else:
            para.append(line.strip())
    flush()
    return story


def render_pdf(title: str, body: str) -> bytes:
    """One document as a PDF: its title, then its body, in the platform's embedded fonts."""
    st = _styles()
    out = io.BytesIO()
    story: list[Flowable] = [Paragraph(_inline(title), st.heads[1]), Spacer(1, 4 * mm), *_body(body, st)]
    doc = SimpleDocTemplate(out, pagesize=A4, title=title, leftMargin=20 * mm, rightMargin=20 * mm)
    doc.build(story, canvasmaker=_Canvas)  # type: ignore[arg-type]
    return out.getvalue()


@dataclass
class _Node:
    category: DocCategory
    children: list[_Node] = field(default_factory=list)
    documents: list[DocDocument] = field(default_factory=list)


def _subtree(s: Session, root: DocCategory, status: str | None) -> tuple[_Node, int]:
    """The category with its sub-categories (by position and name) and their documents (by title),
    and how many documents that is; 413 past the export's limits."""
    cats = list(s.execute(select(DocCategory)).scalars())
    kids: dict[str | None, list[DocCategory]] = {}
    for c in cats:
        kids.setdefault(c.parent_id, []).append(c)
    nodes: dict[str, _Node] = {}

    def build(c: DocCategory, seen: frozenset[str]) -> _Node:
        n = nodes[c.id] = _Node(c)
        for k in sorted(kids.get(c.id, []), key=lambda k: (k.position, k.name.lower())):
            if k.id not in seen:  # a cycle written by hand in the table ends here
                n.children.append(build(k, seen | {k.id}))
        return n

    tree = build(root, frozenset({root.id}))
    D = DocDocument
    where: list[ColumnElement[bool]] = [D.category_id.in_(list(nodes)), D.deleted_at.is_(None)]
    if status is not None:
        where.append(D.status == status)
    count, chars = s.execute(select(func.count(), func.coalesce(func.sum(func.length(D.body)), 0)).where(*where)).one()
    if count > MAX_DOCUMENTS or chars > MAX_CHARACTERS:
        raise PayloadTooLarge(
            "the category holds too much to export at once: export its sub-categories",
            {"documents": count, "max_documents": MAX_DOCUMENTS, "max_characters": MAX_CHARACTERS},
        )
    for d in s.execute(select(D).where(*where)).scalars():
        nodes[d.category_id or ""].documents.append(d)
    for n in nodes.values():
        n.documents.sort(key=lambda d: (d.title.lower(), d.created_at))
    return tree, count


def _name(text: str, taken: set[str]) -> str:
    """A file or folder name from a title: letters, digits, spaces and ``.-_`` only (never a path
    or ``..``), unique in its folder whatever the case."""
    base = re.sub(r"[^\w .-]+", "-", text).strip(" .-")[:80].strip(" .-") or "untitled"
    name, n = base, 2
    while name.lower() in taken:
        name, n = f"{base} ({n})", n + 1
    taken.add(name.lower())
    return name


def _markdown_zip(tree: _Node) -> bytes:
    out = io.BytesIO()
    index = [f"# {tree.category.name}", ""]
    stamp = (1980, 1, 1, 0, 0, 0)  # the same export gives the same bytes (no clock in the ZIP)

    def write(z: zipfile.ZipFile, path: str, text: str) -> None:
        info = zipfile.ZipInfo(path, date_time=stamp)
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, text.encode())

    def walk(z: zipfile.ZipFile, n: _Node, folder: str, depth: int) -> None:
        taken: set[str] = {"index.md"} if depth == 0 else set()
        for d in n.documents:
            file = _name(d.title, taken) + ".md"
            write(z, f"{folder}/{file}", f"# {d.title}\n\n{d.body}\n")
            rel = f"{folder.split('/', 1)[1]}/{file}" if "/" in folder else file
            index.append(f"{'  ' * depth}- [{d.title}](<{rel}>)")
        for k in n.children:
            sub = _name(k.category.name, taken)
            index.append(f"{'  ' * depth}- {k.category.name}")
            walk(z, k, f"{folder}/{sub}", depth + 1)

    root = _name(tree.category.name, set())
    with zipfile.ZipFile(out, "w") as z:
        walk(z, tree, root, 0)
        write(z, f"{root}/index.md", "\n".join(index) + "\n")
    return out.getvalue()


class _TocDoc(SimpleDocTemplate):
    """Headings marked with a TOC level go into the table of contents and the PDF's bookmarks."""

    def afterFlowable(self, flowable: Flowable) -> None:
        level = getattr(flowable, "toc_level", None)
        if level is None or not isinstance(flowable, Paragraph):
            return
        key = f"toc{id(flowable)}"
        text = flowable.getPlainText()
        self.canv.bookmarkPage(key)
        self.canv.addOutlineEntry(text, key, level=level, closed=level > 0)
        self.notify("TOCEntry", (level, escape(text), self.page, key))


def _category_pdf(tree: _Node) -> bytes:
    st = _styles()
    toc = TableOfContents()
    toc.levelStyles = [
        ParagraphStyle(
            f"toc{n}",
            fontName=pdf.BOLD if n == 0 else pdf.FONT,
            fontSize=11 - min(n, 2),
            leading=14,
            leftIndent=6 * mm * n,
            firstLineIndent=0,
        )
        for n in range(5)
    ]
    # The contents are a table whose cells name reportlab's default font (Helvetica, never
    # embedded) even when every paragraph in them uses another.
    toc.tableStyle = TableStyle([*toc.tableStyle.getCommands(), ("FONTNAME", (0, 0), (-1, -1), pdf.FONT)])
    story: list[Flowable] = [Paragraph(_inline(tree.category.name), st.heads[1]), Spacer(1, 4 * mm), toc, PageBreak()]

    def marked(text: str, style: ParagraphStyle, level: int) -> Paragraph:
        p = Paragraph(_inline(text), style)
        p.toc_level = level  # type: ignore[attr-defined]
        return p

    def walk(n: _Node, level: int) -> None:
        if level > 0:
            story.append(CondPageBreak(40 * mm))
            story.append(marked(n.category.name, st.heads[min(5, level + 1)], level - 1))
        for d in n.documents:
            story.append(CondPageBreak(60 * mm))
            # The exported category is the file's title: its documents are the contents' first level.
            story.append(marked(d.title, st.heads[min(5, level + 2)], level))
            story.extend(_body(d.body, st, shift=min(3, level + 2)))
        for k in n.children:
            walk(k, level + 1)

    walk(tree, 0)
    out = io.BytesIO()
    doc = _TocDoc(out, pagesize=A4, title=tree.category.name, leftMargin=20 * mm, rightMargin=20 * mm)
    doc.multiBuild(story, canvasmaker=_Canvas)  # type: ignore[arg-type]  # twice: the contents learn their pages
    return out.getvalue()


@use_case(
    "docs.categories.export",
    "GET /doc-categories/{id}/export",
    tx="read",
    roles=STAFF,
    record="docs.category",
    summary="a category with its sub-categories and documents: a ZIP of Markdown (?format=md) or one PDF",
)
def export_category(ctx: Ctx, id: str, query: CategoryExportQuery, session: Session = SESSION) -> FileResult:
    c = session.get(DocCategory, id)
    if c is None:
        raise NotFound("category not found", {"id": id})
    tree, _ = _subtree(session, c, query.status)
    name = clean_filename(re.sub(r"[^\w.-]+", "-", c.name).strip("-") or "category")
    if query.format == "md":
        return FileResult(_markdown_zip(tree), "application/zip", f"{name}.zip", inline=False)
    return FileResult(_category_pdf(tree), "application/pdf", f"{name}.pdf")

"""The public help centre: ``/{tenant}/docs/p/`` (published documents by category, a search box
on every page), ``/p/search?q=`` (the API search's ranking) and ``/p/d/{id}`` (a document and its
media). Only published documents outside the trash are ever read: drafts, archived and trashed
documents answer 404 like unknown ones."""

from __future__ import annotations

import html
import re
from typing import Any

from sqlalchemy import select

from local_db.models.docs import DocCategory, DocDocument, DocMedia
from services.core.errors import NotFound
from services.core.files import FileResult
from services.core.pages import Page, PageCall, page
from services.core.storage import send_stored
from services.docs import search as fts

PAGE_SIZE = 20


def _published(s: Any, did: str) -> DocDocument:
    d = s.get(DocDocument, did[:36])
    if d is None or d.status != "published" or d.deleted_at is not None:
        raise NotFound("document not found")
    return d


_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MD_MARKS = re.compile(r"\*\*|__|`+|(?:^|(?<=\s))#{1,6}\s+|^\s*[-*]\s+")


def _plain(text: str) -> str:
    """A snippet of the Markdown source read as text: headings' #, emphasis and code marks, and
    link targets left out (a reader of the results sees words, not syntax)."""
    return _MD_MARKS.sub("", _MD_LINK.sub(r"\1", text))


def _segments(snippet: str) -> list[tuple[str, bool]]:
    """A search snippet (escaped HTML with ``<mark>``) as (text, marked) pieces, so the template
    escapes the text itself and no markup from the index reaches the page."""
    out: list[tuple[str, bool]] = []
    rest = snippet
    while rest:
        start = rest.find(fts.MARK)
        if start < 0:
            out.append((_plain(html.unescape(rest)), False))
            break
        end = rest.find(fts.END, start)
        end = len(rest) if end < 0 else end
        if start:
            out.append((_plain(html.unescape(rest[:start])), False))
        out.append((html.unescape(rest[start + len(fts.MARK) : end]), True))
        rest = rest[end + len(fts.END) :]
    return out


@page("docs.home", "/", limit="public_events")
def home(call: PageCall) -> Page:
    ctx = call.ctx()
    with ctx.read() as s:
        cats = list(s.scalars(select(DocCategory).order_by(DocCategory.position, DocCategory.name)))
        docs = list(
            s.scalars(
                select(DocDocument)
                .where(DocDocument.status == "published", DocDocument.deleted_at.is_(None))
                .order_by(DocDocument.title)
            )
        )
    by_cat: dict[str | None, list[dict[str, str]]] = {}
    for d in docs:
        by_cat.setdefault(d.category_id, []).append({"id": d.id, "title": d.title})
    groups = [{"name": c.name, "docs": by_cat.pop(c.id)} for c in cats if c.id in by_cat]
    # A published document whose category is gone or unset is still reachable from the front page.
    rest = [x for docs_ in by_cat.values() for x in docs_]
    if rest:
        groups.append({"name": call.gettext("Other articles"), "docs": rest})
    return Page("docs/home.html", {"groups": groups, "q": ""}, title=call.gettext("Help centre"))


@page("docs.search", "/search", limit="public_events")
def search(call: PageCall) -> Page:
    ctx = call.ctx()
    q = call.query.get("q", "").strip()[:200]
    hits: list[dict[str, Any]] = []
    total = 0
    if q:
        with ctx.read() as s:
            found, total = fts.search(ctx, s, q, status="published", category_id=None, limit=PAGE_SIZE, offset=0)
        hits = [{"id": h.id, "title": h.title, "snippet": _segments(h.snippet)} for h in found]
    view = {"q": q, "hits": hits, "total": min(total, fts.TOTAL_CAP)}
    return Page("docs/search.html", view, title=call.gettext("Search"))


@page("docs.document", "/d/{document_id}", limit="public_events")
def document(call: PageCall, document_id: str) -> Page:
    ctx = call.ctx()
    with ctx.read() as s:
        d = _published(s, document_id)
        media = [
            {"id": m.id, "filename": m.filename, "image": m.content_type.startswith("image/")}
            for m in s.scalars(select(DocMedia).where(DocMedia.document_id == d.id).order_by(DocMedia.created_at))
        ]
        cat = s.get(DocCategory, d.category_id) if d.category_id else None
        view = {
            "doc": {"id": d.id, "title": d.title, "paragraphs": [p for p in d.body.split("\n\n") if p.strip()]},
            "category": cat.name if cat else None,
            "media": media,
            "q": "",
        }
        return Page("docs/document.html", view, title=d.title)


@page("docs.media", "/d/{document_id}/media/{media_id}", limit="public_events")
def media(call: PageCall, document_id: str, media_id: str) -> FileResult:
    ctx = call.ctx()
    with ctx.read() as s:
        d = _published(s, document_id)
        m = s.get(DocMedia, media_id[:36])
        if m is None or m.document_id != d.id:
            raise NotFound("media not found")
        return send_stored(ctx, m)

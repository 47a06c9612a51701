"""Documentation syncs: a document written, published and illustrated offline; one moved twice."""

from __future__ import annotations

from typing import Any

from services.core.files import Upload
from tests.sync.modules.kit import PNG, Move, Platform, applied_once, conflict, offline, row, sync_a_then_b


def test_docs(platform: Platform, pair: Any) -> None:
    a, b = pair
    with offline(a):
        d = a.do("docs.documents.create", body={"title": "Dock checklist", "body": "Sweep."})
        a.do("docs.documents.update", id=d.id, body={"body": "Sweep and lock."})
        a.do("docs.documents.update", id=d.id, body={"status": "published"})
        media = a.do("docs.media.upload", id=d.id, upload=Upload("dock.png", "image/png", PNG))
    applied_once(platform, a, b, [
        row("docs_documents", d.id, body="Sweep and lock.", status="published"),
        row("docs_media", media.id, document_id=d.id),
    ])  # fmt: skip
    d2 = a.do("docs.documents.create", body={"title": "Second", "body": "x"})
    sync_a_then_b(a, b)
    conflict(
        platform, a, b,
        theirs=Move("docs.documents.delete", {"id": d2.id, "query": {}}),
        mine=Move("docs.documents.update", {"id": d2.id}, {"status": "published"}),
        state=row("docs_documents", d2.id, status="draft"),
        current="trashed",
        behind=lambda s: row("docs_documents", s.do("docs.documents.create", body={"title": "Behind"}).id),
    )  # fmt: skip

"""Documents with history: every save a revision (newest first, with its author and time), a diff
against the previous, restore as a new revision; a revision of another document, of a trashed or
a removed one is refused; export as Markdown and as a PDF with embedded fonts."""

from __future__ import annotations

import subprocess

import pypdfium2 as pdfium
import pytest

from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.docs import search as fts
from tests.services.docs.test_docs_service import ctx_for


def test_every_save_is_a_revision_and_a_restore_is_one_more(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    d = execute(ctx, "docs.documents.create", body={"title": "Returns", "body": "Send it back within 14 days."})
    execute(ctx, "docs.documents.update", id=d.id, body={"body": "Send it back within 30 days.\n\nKeep the box."})
    execute(ctx, "docs.documents.update", id=d.id, body={"title": "Returns policy"})
    execute(ctx, "docs.documents.update", id=d.id, body={"title": "Returns policy"})  # no change: no revision
    revs = execute(ctx, "docs.revisions.list", id=d.id, query={}).items
    assert [r.number for r in revs] == [3, 2, 1]  # newest first
    assert [r.title for r in revs] == ["Returns policy", "Returns", "Returns"]
    assert all(r.author and r.at for r in revs)
    second = execute(ctx, "docs.revisions.get", id=d.id, revision_id=revs[1].id)
    assert "-Send it back within 14 days." in second.diff and "+Send it back within 30 days." in second.diff
    assert "+Keep the box." in second.diff
    assert execute(ctx, "docs.revisions.get", id=d.id, revision_id=revs[2].id).diff == ""

    back = execute(ctx, "docs.revisions.restore", id=d.id, revision_id=revs[2].id)
    assert (back.title, back.body) == ("Returns", "Send it back within 14 days.")
    after = execute(ctx, "docs.revisions.list", id=d.id, query={}).items
    assert [r.number for r in after] == [4, 3, 2, 1] and after[0].restored_from == 1

    other = execute(ctx, "docs.documents.create", body={"title": "Other"})
    with pytest.raises(NotFound):  # a revision of another document
        execute(ctx, "docs.revisions.restore", id=other.id, revision_id=revs[0].id)
    with pytest.raises(NotFound):
        execute(ctx, "docs.revisions.restore", id=d.id, revision_id="no-such-revision")
    execute(ctx, "docs.documents.delete", id=d.id, query={})
    with pytest.raises(Conflict):  # in the trash: restore the document first
        execute(ctx, "docs.revisions.restore", id=d.id, revision_id=revs[1].id)
    execute(ctx, "docs.documents.delete", id=d.id, query={"permanent": True})
    with pytest.raises(NotFound):  # removed for good, its revisions with it
        execute(ctx, "docs.revisions.restore", id=d.id, revision_id=revs[1].id)


def test_a_document_saved_before_history_keeps_its_first_state(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    demo = execute(ctx, "docs.documents.list", query={"limit": 1}).items[0]
    assert execute(ctx, "docs.revisions.list", id=demo.id, query={}).items == []
    execute(ctx, "docs.documents.update", id=demo.id, body={"body": demo.body + "\n\nAdded."})
    revs = execute(ctx, "docs.revisions.list", id=demo.id, query={}).items
    assert [r.number for r in revs] == [2, 1]
    first = execute(ctx, "docs.revisions.get", id=demo.id, revision_id=revs[1].id)
    assert first.body == demo.body


def test_export_as_markdown_and_pdf_with_embedded_fonts(runtime: Runtime, tmp_path: object) -> None:
    ctx = ctx_for(runtime)
    body = "## Steps\n\n1. Unpack **carefully**\n2. Check the `serial`\n\nMüller & Söhne <b>not a tag</b>\n\n```\ncode line\n```"
    d = execute(ctx, "docs.documents.create", body={"title": "Set-up / guide", "body": body})
    md = execute(ctx, "docs.documents.export", id=d.id, query={"format": "md"})
    assert md.media_type.startswith("text/markdown") and md.filename == "Set-up-guide.md"
    assert md.content.decode() == f"# Set-up / guide\n\n{body}"
    got = execute(ctx, "docs.documents.export", id=d.id, query={"format": "pdf"})
    assert got.media_type == "application/pdf" and got.content.startswith(b"%PDF")
    text = "\n".join(p.get_textpage().get_text_range() for p in pdfium.PdfDocument(got.content))
    assert "Unpack carefully" in text and "Müller & Söhne <b>not a tag</b>" in text and "code line" in text
    path = tmp_path / "doc.pdf"  # type: ignore[operator]
    path.write_bytes(got.content)
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    assert fonts and all(line.split()[-5] == "yes" for line in fonts), fonts  # the "emb" column
    with pytest.raises(ValidationFailed):
        execute(ctx, "docs.documents.export", id=d.id, query={"format": "docx"})


def test_a_quoted_phrase_finds_the_words_in_that_order(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    near = {"title": "Shipping", "body": "We ship parcels within two days.", "status": "published"}
    apart = {"title": "Parcels", "body": "Two parcels ship within a week, days apart.", "status": "published"}
    a = execute(ctx, "docs.documents.create", body=near).id
    b = execute(ctx, "docs.documents.create", body=apart).id

    def found(q: str) -> set[str]:
        return {h.id for h in execute(ctx, "docs.documents.search", query={"q": q}).items} & {a, b}

    assert found("parcels within") == {a, b}  # words: anywhere
    assert found('"parcels within two"') == {a}  # a phrase: in that order
    assert found('"PARCELS  within"') == {a}  # any case, any spacing typed
    assert found('"within two" ship') == {a}  # a phrase and a word
    assert found('"within a week"') == {b}
    assert found('"two parcels within"') == set()
    hit = execute(ctx, "docs.documents.search", query={"q": '"parcels within two"'}).items[0]
    assert "<mark>parcels within two</mark>" in hit.snippet
    with runtime.db.reading(ctx.tenant_id) as s:  # the search without the index matches the same
        hits, _ = fts._like_search(ctx, s, fts.terms_of('"parcels within two"'), None, None, 10, 0, False)
    assert {h.id for h in hits} & {a, b} == {a}

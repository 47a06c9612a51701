"""Templates (placeholders filled from values and built-ins, the rest left for the author; bad
values refused, nothing stored) and the export of a whole category as a ZIP of Markdown and as one
PDF with a table of contents in embedded fonts."""

from __future__ import annotations

import io
import subprocess
import zipfile
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from sqlalchemy import func, select

from local_db.models.docs import DocDocument
from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import Conflict, NotFound, ValidationFailed
from tests.services.docs.test_docs_service import ctx_for


def _count(rt: Runtime) -> int:
    with rt.db.reading(None) as s:
        return int(s.execute(select(func.count()).select_from(DocDocument)).scalar_one())


def test_a_document_from_a_template_fills_what_it_is_given(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    cat = execute(ctx, "docs.categories.create", body={"name": "Meetings"})
    t = execute(
        ctx,
        "docs.templates.create",
        body={
            "name": "Meeting notes",
            "title": "{{team}} meeting {{date}}",
            "body": "Notes by {{author}}\n\n## Decisions\n\n{{ decisions }}\n\nNext: {{next}}",
            "category_id": cat.id,
            "tags": ["meeting"],
        },
    )
    assert t.placeholders == ["team", "date", "author", "decisions", "next"]
    assert t.id in {x.id for x in execute(ctx, "docs.templates.list", query={}).items}
    d = execute(
        ctx,
        "docs.documents.create",
        body={"from_template": t.id, "values": {"team": "Press", "decisions": "Buy {{oil}} & dies"}},
    )
    today = ctx.now().date().isoformat()
    assert d.title == f"Press meeting {today}" and d.category_id == cat.id and d.tags == ["meeting"]
    assert d.body.startswith("Notes by ") and "{{author}}" not in d.body
    # A value is text (never filled again); a placeholder without a value stays for the author.
    assert "Buy {{oil}} & dies" in d.body and d.body.endswith("Next: {{next}}")
    assert d.status == "draft"
    revs = execute(ctx, "docs.revisions.list", id=d.id, query={}).items
    assert len(revs) == 1  # the document's history starts with what the template made
    own = execute(ctx, "docs.documents.create", body={"from_template": t.id, "title": "Own title", "category_id": None})
    assert own.title == "Own title" and own.category_id is None and "{{ decisions }}" in own.body
    # A template from a document, a change, and its removal (documents made from it stay).
    copy = execute(ctx, "docs.templates.create", body={"name": "Like Press", "from_document": d.id})
    assert copy.title == d.title and copy.body == d.body and copy.placeholders == ["oil", "next"]
    changed = execute(ctx, "docs.templates.update", id=t.id, body={"description": "weekly"})
    assert changed.description == "weekly" and changed.title == t.title
    execute(ctx, "docs.templates.delete", id=t.id)
    with pytest.raises(NotFound):
        execute(ctx, "docs.templates.get", id=t.id)
    assert execute(ctx, "docs.documents.get", id=d.id).title == d.title


def test_bad_template_requests_store_nothing(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    t = execute(ctx, "docs.templates.create", body={"name": "Incident", "title": "Incident {{id}}"})
    before = _count(runtime)
    with pytest.raises(ValidationFailed) as e:  # a value for a placeholder the template has not
        execute(ctx, "docs.documents.create", body={"from_template": t.id, "values": {"machine": "P1"}})
    assert e.value.details["values"] == ["machine"]
    with pytest.raises(ValidationFailed):
        execute(ctx, "docs.documents.create", body={"from_template": "no-such-template"})
    with pytest.raises(ValidationFailed):
        execute(ctx, "docs.documents.create", body={"from_template": t.id, "values": {"bad name": "x"}})
    with pytest.raises(ValidationFailed):  # values without a template
        execute(ctx, "docs.documents.create", body={"title": "x", "values": {"id": "1"}})
    with pytest.raises(ValidationFailed):  # neither a title nor a template
        execute(ctx, "docs.documents.create", body={"body": "text"})
    with pytest.raises(ValidationFailed):
        execute(ctx, "docs.templates.create", body={"name": "x", "title": "t", "category_id": "nope"})
    with pytest.raises(ValidationFailed):
        execute(ctx, "docs.templates.create", body={"name": "x"})
    assert _count(runtime) == before
    other = ctx_for(runtime, "owner@other.test", "other")
    with pytest.raises(NotFound):  # another tenant's template
        execute(other, "docs.templates.get", id=t.id)
    with pytest.raises(ValidationFailed):
        execute(other, "docs.documents.create", body={"from_template": t.id})


def _tree(ctx: object) -> tuple[str, str]:
    root = execute(ctx, "docs.categories.create", body={"name": "Machines"})  # type: ignore[arg-type]
    sub = execute(ctx, "docs.categories.create", body={"name": "Presses / hydraulic", "parent_id": root.id})  # type: ignore[arg-type]
    for title, body, cat in [
        ("Start-up", "# Check\n\nOil **level** first.", root.id),
        ("Press E42", "Die change in 10 steps.", sub.id),
        ("Press E42", "A second article of the same title.", sub.id),
        ("Old", "Trashed.", sub.id),
    ]:
        d = execute(ctx, "docs.documents.create", body={"title": title, "body": body, "category_id": cat})  # type: ignore[arg-type]
        if title == "Old":
            execute(ctx, "docs.documents.delete", id=d.id, query={})  # type: ignore[arg-type]
    return root.id, sub.id


def test_a_category_exports_as_markdown_files_in_its_tree(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    root, _ = _tree(ctx)
    got = execute(ctx, "docs.categories.export", id=root, query={"format": "md"})
    assert got.media_type == "application/zip" and got.filename == "Machines.zip"
    z = zipfile.ZipFile(io.BytesIO(got.content))
    assert sorted(z.namelist()) == [
        "Machines/Presses - hydraulic/Press E42 (2).md",
        "Machines/Presses - hydraulic/Press E42.md",
        "Machines/Start-up.md",
        "Machines/index.md",
    ]
    assert z.read("Machines/Start-up.md").decode() == "# Start-up\n\n# Check\n\nOil **level** first.\n"
    index = z.read("Machines/index.md").decode()
    assert "- [Start-up](<Start-up.md>)" in index and "  - [Press E42](<Presses - hydraulic/Press E42.md>)" in index
    assert execute(ctx, "docs.categories.export", id=root, query={"format": "md"}).content == got.content


def test_a_category_exports_as_one_pdf_with_contents(runtime: Runtime, tmp_path: Path) -> None:
    ctx = ctx_for(runtime)
    root, sub = _tree(ctx)
    got = execute(ctx, "docs.categories.export", id=root, query={"format": "pdf"})
    assert got.media_type == "application/pdf"
    pages = ["".join(p.get_textpage().get_text_range()) for p in pdfium.PdfDocument(got.content)]
    contents = pages[0]
    for line in ("Start-up", "Presses / hydraulic", "Press E42"):
        assert line in contents
    body = "\n".join(pages[1:])
    assert "Oil level first." in body and "Die change in 10 steps." in body and "Trashed." not in body
    path = tmp_path / "cat.pdf"
    path.write_bytes(got.content)
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    assert fonts and all(line.split()[-5] == "yes" for line in fonts), fonts  # the "emb" column

    with pytest.raises(ValidationFailed):  # an unknown format
        execute(ctx, "docs.categories.export", id=root, query={"format": "docx"})
    with pytest.raises(Conflict):  # not empty: not removed
        execute(ctx, "docs.categories.delete", id=root)
    empty = execute(ctx, "docs.categories.create", body={"name": "Empty", "parent_id": sub}).id
    execute(ctx, "docs.categories.delete", id=empty)
    with pytest.raises(NotFound):  # a deleted category
        execute(ctx, "docs.categories.export", id=empty, query={"format": "md"})
    with pytest.raises(NotFound):  # another tenant's category
        execute(ctx_for(runtime, "owner@other.test", "other"), "docs.categories.export", id=root, query={})

"""Documentation: Markdown documents with draft/published/archived and a trash, a category tree,
media, and ranked full-text search (docs/docs.md, the module guide).

Importing the package imports the modules that declare its use cases, event types and demo
content; the composition root imports every services/<module> package.
"""

from services.core.modules import Module
from services.docs import categories, demo, documents, events, export, media, pages, revisions, templates  # noqa: F401 - declarations and demo seeders register on import

MODULE = Module(
    name="docs",
    events=(
        "docs.document_published",
        "docs.document_unpublished",
        "docs.document_archived",
        "docs.document_trashed",
        "docs.document_restored",
        "docs.document_deleted",
        "docs.revision_restored",
    ),
    records=("docs.document", "docs.category", "docs.template"),
    seeders=(demo.seed_docs,),
    position=160,
    title="Documentation",
)

"""Documentation event types (the spec lists none): a document's status changes and its trash."""

from services.core.events import register_event_type

M = "docs"

for _name, _desc in [
    ("docs.document_published", "a knowledge-base document was published"),
    ("docs.document_unpublished", "a published or archived document went back to draft"),
    ("docs.document_archived", "a document was archived"),
    ("docs.document_trashed", "a document was moved to the trash"),
    ("docs.document_restored", "a document came back from the trash"),
    ("docs.document_deleted", "a document was removed for good"),
    ("docs.revision_restored", "an earlier revision of a document was made the document again"),
]:
    register_event_type(_name, M, _desc)

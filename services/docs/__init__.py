"""Documentation: Markdown documents with draft/published/archived and a trash, a category tree,
media, and ranked full-text search (docs/docs.md, the module guide).

Importing the package imports the modules that declare its use cases, event types and demo
content; the composition root imports every services/<module> package.
"""

from services.docs import demo, events, service  # noqa: F401 - declarations and demo seeders register on import

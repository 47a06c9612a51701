"""Knowledge base: read the published articles on the desktop; search them as you type.

The search is the module's ranked full-text search (words inside words, snippets); without a
search the list shows the articles of the chosen category, newest first. The article is shown
from its Markdown. Ctrl+F goes to the search, Enter or a click opens the article.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QLocale, Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from services.core.context import CommitInfo
from services.core.pagination import ListQuery, Page
from services.core.roles import STAFF
from services.docs.categories import list_categories
from services.docs.documents import get_document, list_documents, search_documents
from services.docs.schemas import CategoryOut, DocumentOut, DocumentQuery, SearchHit, SearchQuery
from views.base import StationSession, Workspace
from views.ops import Newest, error_message

TYPING_PAUSE_MS = 250  # search when typing pauses, not on every key


class KnowledgeBaseWorkspace(Workspace):
    name = "kb"
    title = "Knowledge base"
    modules = frozenset({"docs"})
    shows = frozenset({"docs.*"})
    roles = STAFF
    position = 35  # after the helpdesk

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setObjectName("workspace-kb")
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        self.search = QLineEdit()
        self.search.setObjectName("kb-search")
        self.search.setPlaceholderText(self.tr("Search the knowledge base (Ctrl+F)"))
        self.search.setClearButtonEnabled(True)
        self.category = QComboBox()
        self.category.setObjectName("kb-category")
        self.category.addItem(self.tr("All categories"), None)
        row.addWidget(self.search, 3)
        row.addWidget(self.category, 1)
        lay.addLayout(row)
        self.status = QLabel("")
        self.status.setObjectName("kb-status")
        lay.addWidget(self.status)
        split = QSplitter()
        self.results = QListWidget()
        self.results.setObjectName("kb-results")
        self.results.setWordWrap(True)
        self.reader = QTextBrowser()
        self.reader.setObjectName("kb-reader")
        self.reader.setOpenExternalLinks(True)
        split.addWidget(self.results)
        split.addWidget(self.reader)
        split.setStretchFactor(1, 2)
        lay.addWidget(split, 1)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(TYPING_PAUSE_MS)
        self._timer.timeout.connect(self.refresh)
        self.search.textChanged.connect(lambda _t: self._timer.start())
        self.search.returnPressed.connect(self._open_first)
        self.category.currentIndexChanged.connect(lambda _i: self.refresh())
        self.results.currentItemChanged.connect(lambda item, _prev: self.open_item(item))
        QShortcut(QKeySequence("Ctrl+F"), self).activated.connect(self.search.setFocus)
        self.lists = Newest()
        self.session.ops.run(
            self.session.call(list_categories, query=ListQuery(limit=100)),
            on_success=self._got_categories,
            parent=self,
        )
        self.refresh()

    def focus_primary(self) -> None:
        self.search.setFocus()

    def on_changed(self, change: CommitInfo) -> None:
        self.refresh()

    def _got_categories(self, page: Page[CategoryOut]) -> None:
        for c in page.items:
            self.category.addItem("    " * c.depth + c.name, c.id)

    def refresh(self) -> None:
        asked = self.lists.ask()  # the search typed last wins over a late answer
        q = self.search.text().strip()
        cat = self.category.currentData()

        @asked.only
        def show(page: Page[SearchHit] | Page[DocumentOut]) -> None:
            self.show_results(page, searched=bool(q))

        def failed(e: BaseException) -> None:
            self.status.setText(error_message(e))

        if q:
            search = self.session.call(search_documents, query=SearchQuery(q=q, limit=50, category_id=cat or None))
            self.session.ops.run(search, on_success=show, on_failure=failed, parent=self)
        else:
            query = DocumentQuery(status="published", limit=100, category_id=cat or None)
            self.session.ops.run(
                self.session.call(list_documents, query=query), on_success=show, on_failure=failed, parent=self
            )

    def show_results(self, page: Page[SearchHit] | Page[DocumentOut], *, searched: bool) -> None:
        self.results.blockSignals(True)
        self.results.clear()
        for row in page.items:
            snippet = getattr(row, "snippet", "")
            # The snippet is HTML (escaped text and <mark> tags); shown here as plain text.
            plain = html.unescape(snippet.replace("<mark>", "").replace("</mark>", "")).replace("\n", " ")
            item = QListWidgetItem(row.title + (f"\n{plain[:140]}" if plain else ""))
            item.setData(Qt.ItemDataRole.UserRole, row.id)
            self.results.addItem(item)
        self.results.blockSignals(False)
        n = page.total
        more = "+" if getattr(page, "capped", False) else ""  # a search counts to its cap and stops
        counted = self.tr("%n articles found", "", n) if searched else self.tr("%n articles", "", n)
        self.status.setText(counted.replace(str(n), f"{QLocale().toString(n)}{more}", 1))
        if page.items and not searched:
            self.results.setCurrentRow(0)

    def _open_first(self) -> None:
        if self.results.count():
            self.results.setCurrentRow(0)
            self.open_item(self.results.item(0))

    def open_item(self, item: QListWidgetItem | None) -> None:
        if item is None:
            return
        self.session.ops.run(
            self.session.call(get_document, id=str(item.data(Qt.ItemDataRole.UserRole))),
            on_success=self.show_article,
            on_failure=lambda e: self.status.setText(error_message(e)),
            parent=self,
        )

    def show_article(self, doc: DocumentOut) -> None:
        self.current = doc
        self.reader.setMarkdown(doc.body if doc.body.lstrip().startswith("#") else f"# {doc.title}\n\n{doc.body}")


WORKSPACE = KnowledgeBaseWorkspace

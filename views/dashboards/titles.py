"""The demo's dashboards in the desktop's language; a person's own titles as typed.

A dashboard's name and its cards' titles are stored data (the API returns them as stored), and the
demo seeds them in English. The desktop translates a title only while it is the seeded one: the
dashboard's id is a seeded demo id (``services.analytics.demo.DASHBOARDS``) and the stored text is
still the seeded English. A renamed dashboard or an edited card shows what the person typed, and a
dashboard a person made is never translated, even when its name happens to be "Sales".
(docs/DECISIONS.md, "Seeded dashboard titles": why no stored key.)
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from services.analytics.demo import DASHBOARDS
from services.core.demo import demo_id
from views.i18n import QT_TRANSLATE_NOOP

CONTEXT = "DashboardTitles"

# lupdate reads these literals; tests/views/dashboards/test_dashboard_titles.py fails when a seeded
# title is missing here (the demo gained a card) or has no German.
WORDS = (
    QT_TRANSLATE_NOOP("DashboardTitles", "Operations"),
    QT_TRANSLATE_NOOP("DashboardTitles", "Sales"),
    QT_TRANSLATE_NOOP("DashboardTitles", "Orders shipped per day"),
    QT_TRANSLATE_NOOP("DashboardTitles", "Tickets opened"),
    QT_TRANSLATE_NOOP("DashboardTitles", "Trade-ins accepted"),
    QT_TRANSLATE_NOOP("DashboardTitles", "QR scans per week"),
    QT_TRANSLATE_NOOP("DashboardTitles", "Revenue (30 days)"),
    QT_TRANSLATE_NOOP("DashboardTitles", "Revenue per day"),
    QT_TRANSLATE_NOOP("DashboardTitles", "Revenue by channel"),
)

# a seeded dashboard's id -> (its seeded name, its seeded card titles)
SEEDED: dict[str, tuple[str, frozenset[str]]] = {
    demo_id("analytics-dashboard", key): (name, frozenset(str(w["title"]) for w in widgets))
    for key, name, widgets in DASHBOARDS
}


def _shown(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


def dashboard_name(board_id: str, name: str) -> str:
    """The name a person reads: the seeded name translated, any other as stored."""
    seeded = SEEDED.get(board_id)
    return _shown(name) if seeded is not None and name == seeded[0] else name


def card_title(board_id: str, title: str) -> str:
    """A card's title a person reads: a seeded card's title translated, any other as stored."""
    seeded = SEEDED.get(board_id)
    return _shown(title) if seeded is not None and title in seeded[1] else title

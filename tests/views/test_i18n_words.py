"""German for the words made in code: the sync pill and panel (services.sync.words said through
views.shell.sync_words), the service errors the desktop shows (views.wording), and Records' states
and dates. Each is checked in German and, where it must stay, in English."""

from __future__ import annotations

import csv
import datetime as dt
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QApplication

from services.core.errors import Conflict, NotFound, ValidationFailed, conflict_state
from services.sync import words
from services.sync.engine import SyncStatus
from services.sync.station import Issue
from tests.views.german import german
from views.records import catalogue
from views.records.model import plain_of, text_of
from views.records.words import value_word
from views.shell import sync_words
from views.wording import say

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def deutsch(*packages: str) -> Iterator[None]:
    """The packages' German and the German locale (numbers, dates), for the duration."""
    before = QLocale()
    QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
    try:
        with german(*packages):
            yield
    finally:
        QLocale.setDefault(before)


@pytest.fixture(autouse=True)
def qt_voice(qapp: QApplication) -> Iterator[None]:
    sync_words.install()
    yield
    sync_words.install()


def test_the_sync_pill_in_german_with_plural_forms() -> None:
    with deutsch("shell", "records", "common"):
        assert words.status_text(SyncStatus("offline", pending=3)) == ("Offline · 3 Änderungen warten", "offline")
        assert words.status_text(SyncStatus("offline", pending=1))[0] == "Offline · 1 Änderung wartet"
        assert words.offline_text(0) == "Offline · nichts ausstehend"
        assert words.reachable_text(2) == "Online · 2 Änderungen warten"
        assert words.status_text(SyncStatus("syncing", pulled=1200, to_pull=50000))[0] == (
            "Synchronisierung… 1.200 von 50.000"
        )
        assert words.issues_text(1) == "1 Synchronisierungsproblem" and words.more_text(4).endswith(
            "4 weitere Änderungen"
        )
        day = dt.datetime(2026, 3, 3, 10, 42).astimezone()
        assert words.clock_text(day, now=day + dt.timedelta(days=2)) == "Di. 3. März 10:42"
        issue = Issue("i1", 1, "fulfillment.orders.ship", "POST", "/orders/x/ship", "conflict", "CONFLICT",
                      "cannot ship a order that is shipped", {"current_state": "shipped"}, dt.datetime.now(dt.UTC))  # fmt: skip
        why = words.why_text(issue)
        assert why.startswith("Die Plattform hat es abgelehnt: Auftrag im Status „versendet“ kann nicht versendet")
        assert "auf der Plattform ist es jetzt „versendet“" in why
    # The same voice without a translator is the English the API and the command line say.
    assert words.status_text(SyncStatus("offline", pending=1))[0] == "Offline · 1 change waiting"
    assert words.waiting_text(37) == "37 changes waiting"
    words.set_voice()
    assert words.status_text(SyncStatus("syncing", pulled=1200, to_pull=50000))[0] == "Syncing… 1,200 of 50,000"


def test_every_sync_template_is_listed_for_lupdate() -> None:
    said = set(re.findall(r'\b_\(\s*"([^"]+)"', (ROOT / "services/sync/words.py").read_text("utf-8")))
    listed = set(
        re.findall(r'translate\(\s*"SyncWords",\s*"([^"]+)"', (ROOT / "views/shell/sync_words.py").read_text("utf-8"))
    )
    assert said and said <= listed, sorted(said - listed)


@pytest.mark.parametrize(
    ("error", "german_text"),
    [
        (conflict_state("order", "picked", "ship"), "Auftrag im Status „kommissioniert“ kann nicht versendet werden. Zuerst ist ein anderer Schritt nötig: Sehen Sie nach, welche Schritte jetzt möglich sind."),
        (NotFound("no order SO-1", {"order": "SO-1"}), "Auftrag SO-1 wurde nicht gefunden. Prüfen Sie die Angabe und versuchen Sie es erneut."),
        (ValidationFailed("bad", {"fields": [{"field": "email", "message": "Field required", "type": "missing"}]}), "Die E-Mail-Adresse fehlt. Füllen Sie es aus und versuchen Sie es erneut."),
        (ValidationFailed("bad", {"fields": [{"field": "items.0.quantity", "message": "Input should be less than or equal to 10000", "type": "less_than_equal"}]}), "Die Menge darf höchstens 10.000 sein. Geben Sie eine kleinere Zahl ein."),
        (ValidationFailed("bad", {"fields": [{"field": "customer_name", "message": "Field required", "type": "missing"}]}), "Das Feld „Kundenname“ fehlt. Füllen Sie es aus und versuchen Sie es erneut."),
        (RuntimeError("secret detail"), "Etwas ist schiefgegangen; es wurde protokolliert. Versuchen Sie es erneut und informieren Sie einen Administrator, wenn es wieder passiert."),
    ],
)  # fmt: skip
def test_service_errors_read_in_german(error: BaseException, german_text: str) -> None:
    with deutsch("common", "records"):
        assert say(error) == german_text


def test_an_unknown_service_message_stays_as_said_and_english_is_unchanged() -> None:
    with deutsch("common", "records"):
        # No shape and no translation known: the service's words, with the German advice.
        assert say(Conflict("the lot is held elsewhere")) == (
            "The lot is held elsewhere. Jemand oder etwas hat es inzwischen geändert: Sehen Sie es sich erneut an,"
            " bevor Sie weitermachen."
        )
    assert say(conflict_state("order", "picked", "ship")).startswith("Cannot ship an order that is picked.")


def test_records_states_and_dates_in_the_locale_and_iso_kept() -> None:
    when = dt.datetime(2026, 11, 27, 14, 5)
    with deutsch("records"):
        assert value_word("in_progress") == "in Bearbeitung" and value_word("picked") == "kommissioniert"
        assert text_of("in_progress", "status") == "in Bearbeitung"
        assert text_of("in_progress", "name") == "in_progress"  # only a state field's value is a state
        assert text_of(when) == "27.11.26 14:05" and text_of(when.date()) == "27.11.26"
        assert plain_of(when) == "2026-11-27T14:05:00" and plain_of("in_progress") == "in_progress"
    # English says it in words too (the list showed "in_progress"); the data keeps the value.
    assert value_word("in_progress") == "in progress" and text_of("in_progress", "status") == "in progress"
    assert plain_of("in_progress") == "in_progress"
    assert text_of([], "photo_ids") == "—" and text_of(None) == "—"  # an empty list is not a blank
    assert text_of(when).replace("\u202f", " ") == "11/27/26 2:05 PM"  # en_US: Qt spaces AM/PM narrowly


def test_every_declared_state_action_and_record_is_listed_and_translated() -> None:
    from app.wiring import load_modules
    from tests.views.german import entries

    load_modules()
    listed = catalogue.listed_machine_words()
    for context, found in catalogue.machine_words().items():
        assert found <= listed.get(context, set()), (
            f"run python -m views.records.catalogue: {sorted(found - listed.get(context, set()))[:10]}"
        )
    done = {(c, s) for c, s, _forms, finished in entries("records") if finished}
    missing = [(c, w) for c, ws in listed.items() for w in ws if (c, w) not in done]
    assert missing == [], missing[:10]


def test_csv_export_keeps_iso_dates_and_stored_states(tmp_path: Path) -> None:
    from views.records.files import write_csv

    class Row:
        status, created_at = "in_progress", dt.datetime(2026, 11, 27, 14, 5)

    class Model:
        columns, rows, pinned = ["status", "created_at"], [Row()], True

    with deutsch("records"):
        write_csv(Model(), tmp_path / "x.csv")  # type: ignore[arg-type]
    rows = list(csv.reader((tmp_path / "x.csv").open(encoding="utf-8")))
    assert rows[-1] == ["in_progress", "2026-11-27T14:05:00"]


def test_field_errors_beside_a_field_in_german() -> None:
    from views.shell.forms import field_messages

    bad = ValidationFailed("bad", {"fields": [
        {"field": "email", "message": "Value error, not a valid e-mail address", "type": "value_error"},
        {"field": "name", "message": "Field required", "type": "missing"},
    ]})  # fmt: skip
    with deutsch("shell"):
        assert field_messages(bad) == {"email": "keine gültige E-Mail-Adresse", "name": "Pflichtfeld."}
    assert field_messages(bad) == {"email": "not a valid e-mail address", "name": "Required."}


def test_the_helpdesk_queues_and_ticket_words_in_german(station: Any, qtbot: Any) -> None:
    from tests.views.workspaces import workspace_factory
    from views.helpdesk.workspace import HelpdeskWorkspace

    with deutsch("helpdesk"):
        factory = workspace_factory(station, qtbot, HelpdeskWorkspace, "owner@demo.test", (1280, 800))
        ws = next(factory)()
        qtbot.waitUntil(lambda: ws.table.rowCount() > 0 and "(" in ws.queues.item(0).text(), timeout=30_000)
        queues = [ws.queues.item(i).text() for i in range(ws.queues.count())]
        assert queues[0].startswith("Neu (") and any(q.startswith("Alle Tickets (") for q in queues), queues
        shown = {ws.table.item(r, c).text() for r in range(ws.table.rowCount()) for c in (3, 4)}
        assert "offen" in shown and not shown & {"open", "low", "normal", "high", "urgent"} - {"normal"}, shown
        for _ in factory:  # teardown: the workspace's calls finished
            pass

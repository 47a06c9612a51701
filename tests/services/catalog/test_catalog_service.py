"""Catalog use cases through ``execute``: the example note, to grow with the module."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from local_db.models import OutboxEntry
from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed

OWNER = "owner@demo.test"


def ctx_for(rt: Runtime, email: str = OWNER, slug: str = "demo") -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant))


def test_demo_notes_belong_to_the_demo_tenant(runtime: Runtime) -> None:
    page = execute(ctx_for(runtime), "catalog.notes.list", query={})
    assert page.total >= 2 and {n.status for n in page.items} == {"open", "archived"}
    assert execute(ctx_for(runtime), "catalog.notes.list", query={"status": "archived"}).total >= 1
    assert execute(ctx_for(runtime, "owner@other.test", "other"), "catalog.notes.list", query={}).total == 0


def test_create_read_and_archive_a_note(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    note = execute(ctx, "catalog.notes.create", body={"title": "Check the shelves", "body": "aisle 4"})
    assert note.status == "open" and note.title == "Check the shelves"
    assert execute(ctx_for(runtime), "catalog.notes.get", id=note.id) == note
    archived = execute(ctx_for(runtime), "catalog.notes.archive", id=note.id)
    assert archived.status == "archived"
    with pytest.raises(Conflict) as again:
        execute(ctx_for(runtime), "catalog.notes.archive", id=note.id)
    assert again.value.details["current_state"] == "archived"


def test_bad_input_and_strangers(runtime: Runtime) -> None:
    with pytest.raises(ValidationFailed):
        execute(ctx_for(runtime), "catalog.notes.create", body={"title": ""})
    with pytest.raises(ValidationFailed):
        execute(ctx_for(runtime), "catalog.notes.create", body={"title": "x", "colour": "red"})
    with pytest.raises(NotFound):
        execute(ctx_for(runtime), "catalog.notes.get", id="no-such-note")
    mine = execute(ctx_for(runtime), "catalog.notes.create", body={"title": "mine"})
    with pytest.raises(NotFound):  # another tenant's record does not exist for them
        execute(ctx_for(runtime, "owner@other.test", "other"), "catalog.notes.get", id=mine.id)
    with pytest.raises(Forbidden):  # a warehouse device is not staff of this module
        execute(ctx_for(runtime, "device@demo.test"), "catalog.notes.list", query={})


def test_a_station_change_waits_in_the_outbox(station: Runtime) -> None:
    note = execute(ctx_for(station), "catalog.notes.create", body={"title": "offline note"})
    with station.db.reading(None) as s:
        entry = s.execute(select(OutboxEntry).where(OutboxEntry.command == "catalog.notes.create")).scalar_one()
    assert (entry.method, entry.path, entry.body) == ("POST", "/demo/catalog/api/notes", {"title": "offline note"})
    assert note.id in entry.ids

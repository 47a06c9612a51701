"""``python -m app new-module NAME``: the files of a new module in the one shape.

It writes new files only (never edits one): the module's service package with its
manifest (``MODULE = Module(...)`` in its ``__init__``), its tables and migration branch,
its tests, its page in docs/ and, with ``--workspace``, a workspace package. The list of
modules is derived from the manifests, so the composition root, the tenants' module lists,
the models package, the HTTP door, the records workspace and the shell find it by themselves. The files hold one small
working example record (a note: list, create, get, archive) to replace with the
module's own; docs/DEVELOPING.md has the checklist that follows.
"""

from __future__ import annotations

import keyword
import re
from datetime import UTC, datetime
from pathlib import Path
from string import Template

ROOT = Path(__file__).resolve().parent.parent
# Packages of services/ that are not modules of the platform.
RESERVED = frozenset({"core", "events", "sync", "api", "static", "health", "platform"})
_NAME = re.compile(r"^[a-z][a-z0-9_]{1,29}$")


class ScaffoldError(Exception):
    """A bad name or a file that exists already (one line, said as it is)."""


def check_name(name: str) -> None:
    if not _NAME.match(name) or keyword.iskeyword(name):
        raise ScaffoldError(f"{name!r} is not a module name (lower-case letters, digits and _, starting with a letter)")
    if name in RESERVED:
        raise ScaffoldError(f"{name!r} is reserved")


def _next_revision(versions: Path) -> int:
    """The next free hundred after the newest migration (module branches are numbered by hundreds)."""
    numbers = [int(p.name[:4]) for p in versions.glob("[0-9][0-9][0-9][0-9]_*.py")] if versions.is_dir() else []
    return (max(numbers, default=0) // 100 + 1) * 100


def plan(name: str, root: Path, workspace: bool) -> dict[Path, str]:
    """The files to write (path relative to ``root`` -> text)."""
    from local_db.revise import CORE_HEAD

    check_name(name)
    camel = "".join(part.capitalize() for part in name.split("_"))
    rev = f"{_next_revision(root / 'local_db' / 'migrations' / 'versions'):04d}_{name}"
    values = {
        "name": name,
        "Title": name.upper() if len(name) <= 3 else name.replace("_", " ").capitalize(),
        "Camel": camel,
        "rev": rev,
        "core_head": CORE_HEAD,
        "created": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S"),
    }
    values["init_imports"] = _sorted_imports(
        {
            f"services.{name}": "demo, service  # noqa: F401 - declarations and demo seeders register on import",
            "services.core.modules": "Module",
        }
    )
    values["service_imports"] = _sorted_imports(
        {
            f"services.{name}": "states",
            f"services.{name}.schemas": "NoteIn, NoteOut, NoteQuery",
            "services.core.commands": "record_kind, use_case",
            "services.core.roles": "MANAGERS, STAFF",
            "services.core.context": "Ctx",
            "services.core.errors": "NotFound",
            "services.core.pagination": "Page, paginate",
        }
    )
    values["workspace_imports"] = _sorted_imports(
        {
            f"services.{name}.schemas": "NoteIn, NoteOut, NoteQuery",
            f"services.{name}.service": "create_note, list_notes",
            "services.core.context": "CommitInfo",
            "services.core.pagination": "Page",
            "services.core.roles": "STAFF",
        }
    )
    files = {
        f"services/{name}/__init__.py": INIT,
        f"services/{name}/schemas.py": SCHEMAS,
        f"services/{name}/service.py": SERVICE,
        f"services/{name}/states.py": STATES,
        f"services/{name}/demo.py": DEMO,
        f"local_db/models/{name}.py": MODELS,
        f"local_db/migrations/versions/{rev}_{name}_tables.py": MIGRATION,
        f"tests/services/{name}/test_{name}_service.py": SERVICE_TESTS,
        f"tests/api/{name}/test_{name}_routes.py": ROUTE_TESTS,
        f"docs/{name}.md": DOC,
    }
    if workspace:
        files[f"views/{name}/__init__.py"] = VIEWS_INIT
        files[f"views/{name}/workspace.py"] = WORKSPACE
        files[f"tests/views/{name}/test_{name}_workspace.py"] = WORKSPACE_TESTS
    return {Path(rel): Template(text).substitute(values) for rel, text in files.items()}


def _sorted_imports(imports: dict[str, str]) -> str:
    """``from`` lines in the order ruff's isort wants: the module's own name may sort before ``core``."""
    return "\n".join(f"from {mod} import {names}" for mod, names in sorted(imports.items()))


def new_module(name: str, root: Path = ROOT, workspace: bool = False) -> list[Path]:
    """Write the files of module ``name`` under ``root``; refuses when any of them exists."""
    files = plan(name, root, workspace)
    taken = [rel for rel in files if (root / rel).exists()]
    taken += [Path(f"services/{name}")] if (root / "services" / name).exists() else []
    taken += [Path(f"views/{name}")] if workspace and (root / "views" / name).exists() else []
    versions = root / "local_db" / "migrations" / "versions"
    if versions.is_dir():
        label = re.compile(rf"^branch_labels = \(['\"]{name}['\"],\)", re.M)
        taken += [p.relative_to(root) for p in versions.glob("*.py") if label.search(p.read_text())]
    if taken:
        raise ScaffoldError(f"{taken[0]} exists already; new-module writes new files only, nothing was written")
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return list(files)


# --- the templates ($name, $Title, $Camel, $rev, $core_head, $created) --------------------

INIT = '''"""$Title: what the module does, in one line (docs/$name.md).

Importing the package imports the files that declare its use cases and its demo content.
``MODULE`` is the module's manifest: the composition root reads it, and the platform's list
of modules is derived from the manifests (services/core/modules.py).
"""

$init_imports

MODULE = Module(
    name="$name",
    # The modules this one imports (only their __init__ or the files they name public).
    depends=(),
    events=(),  # the event types it registers with register_event_type(..., "$name", ...)
    records=("$name.note",),
    seeders=(demo.seed_$name,),
)
'''

SCHEMAS = '''"""Requests and responses of $Title: the one definition the HTTP door, the desktop and sync use."""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from services.core.pagination import ListQuery
from services.core.schemas import Strict

NoteStatus = Literal["open", "archived"]


class NoteIn(Strict):
    """Create a note (unknown fields are refused)."""

    title: str = Field(min_length=1, max_length=200)
    body: str = Field(default="", max_length=10_000)


class NoteOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    title: str
    body: str
    status: NoteStatus
    created_at: datetime
    updated_at: datetime


class NoteQuery(ListQuery):
    """Filters of the note list, beside the paging, sort and search every list takes."""

    status: NoteStatus | None = None
'''

SERVICE = '''"""$Title use cases: one function each, declared where it is written (docs/ARCHITECTURE.md)."""

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.$name import ${Camel}Note
$service_imports

# The record kind the note's changes name: "New note Check the shelves" in sync issues and history.
record_kind("$name.note", get="$name.notes.get", label="title")


def _find(s: Session, note_id: str) -> ${Camel}Note:
    note = s.get(${Camel}Note, note_id)  # another tenant's row reads as None
    if note is None:
        raise NotFound(f"no note {note_id}", {"note": note_id})
    return note


@use_case("$name.notes.list", "GET /notes", tx="read", roles=STAFF)
def list_notes(ctx: Ctx, query: NoteQuery) -> Page[NoteOut]:
    stmt = select(${Camel}Note)
    if query.status:
        stmt = stmt.where(${Camel}Note.status == query.status)
    if query.search:
        stmt = stmt.where(${Camel}Note.title.ilike(f"%{query.search}%"))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": ${Camel}Note.created_at, "title": ${Camel}Note.title})
        return page.map(NoteOut.model_validate)


@use_case("$name.notes.get", "GET /notes/{id}", tx="read", roles=STAFF)
def get_note(ctx: Ctx, id: str) -> NoteOut:
    with ctx.read() as s:
        return NoteOut.model_validate(_find(s, id))


@use_case(
    "$name.notes.create",
    "POST /notes",
    tx="write",
    roles=STAFF,
    status=201,
    says="New note",
    record="$name.note",
)
def create_note(ctx: Ctx, body: NoteIn) -> NoteOut:
    now = ctx.now()
    with ctx.write() as s:
        note = ${Camel}Note(title=body.title, body=body.body, status="open", created_at=now, updated_at=now)
        s.add(note)
        s.flush()
        return NoteOut.model_validate(note)


@use_case(
    "$name.notes.archive",
    "POST /notes/{id}/archive",
    tx="write",
    roles=MANAGERS,
    says="Archive note",
    record="$name.note",
)
def archive_note(ctx: Ctx, id: str) -> NoteOut:
    with ctx.write() as s:
        note = _find(s, id)
        note.status = states.check(note.status, "archive")
        note.updated_at = ctx.now()
        s.flush()
        return NoteOut.model_validate(note)
'''

STATES = '''"""The note's state machine as data (services/core/states.py): open -> archived."""

from services.core.states import machine, move

STATES: tuple[str, ...] = ("open", "archived")

NOTE = machine("note", STATES, [move("open", "archive", "archived")], terminal=("archived",))
check = NOTE.check
'''

DEMO = '''"""Demo content of $Title (CONTRACT.md): deterministic ids, so it is idempotent."""

from local_db.models.$name import ${Camel}Note
from services.core.context import Ctx
from services.core.demo import demo_id, demo_seeder

# (key, title, status)
NOTES: tuple[tuple[str, str, str], ...] = (
    ("welcome", "Welcome to $Title", "open"),
    ("old-plan", "Last year's plan", "archived"),
)


@demo_seeder
def seed_$name(ctx: Ctx) -> None:
    if ctx.tenant is None or ctx.tenant.slug != "demo":
        return
    now = ctx.now()
    with ctx.write() as s:
        for key, title, status in NOTES:
            note_id = demo_id("$name-note", key)
            if s.get(${Camel}Note, note_id) is None:
                s.add(${Camel}Note(id=note_id, title=title, status=status, created_at=now, updated_at=now))
'''

MODELS = '''"""$Title tables (every tenant row has the TenantScoped mixin)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String, Text
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class ${Camel}Note(TenantScoped, Base):
    __tablename__ = "${name}_notes"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    title: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(20), default="open", index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
'''

# As `python -m local_db.revise "$name tables" --branch $name --rev-id $rev` writes it.
MIGRATION = '''"""$name tables

Revision ID: $rev
Revises: $core_head
Create Date: $created
"""
from alembic import op
import sqlalchemy as sa
import local_db.base


revision = '$rev'
down_revision = '$core_head'
branch_labels = ('$name',)
depends_on = None


def upgrade() -> None:
    op.create_table('${name}_notes',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('created_at', local_db.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('updated_at', local_db.base.UTCDateTime(timezone=True), nullable=False),
    sa.Column('tenant_id', sa.String(length=36), nullable=False),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_${name}_notes_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_${name}_notes'))
    )
    with op.batch_alter_table('${name}_notes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_${name}_notes_status'), ['status'], unique=False)
        batch_op.create_index(batch_op.f('ix_${name}_notes_tenant_id'), ['tenant_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('${name}_notes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_${name}_notes_tenant_id'))
        batch_op.drop_index(batch_op.f('ix_${name}_notes_status'))

    op.drop_table('${name}_notes')
'''

SERVICE_TESTS = '''"""$Title use cases through ``execute``: the example note, to grow with the module."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from local_db.models import OutboxEntry
from services.core import auth
from services.core.commands import execute
from services.core.context import MODULES, Ctx, Runtime
from services.core.demo import demo_id
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed
from services.core.records import resources

OWNER = "owner@demo.test"


def ctx_for(rt: Runtime, email: str = OWNER, slug: str = "demo") -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant))


def test_demo_notes_belong_to_the_demo_tenant(runtime: Runtime) -> None:
    page = execute(ctx_for(runtime), "$name.notes.list", query={})
    assert page.total >= 2 and {n.status for n in page.items} == {"open", "archived"}
    assert execute(ctx_for(runtime), "$name.notes.list", query={"status": "archived"}).total >= 1
    assert execute(ctx_for(runtime, "owner@other.test", "other"), "$name.notes.list", query={}).total == 0


def test_create_read_and_archive_a_note(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    note = execute(ctx, "$name.notes.create", body={"title": "Check the shelves", "body": "aisle 4"})
    assert note.status == "open" and note.title == "Check the shelves"
    assert execute(ctx_for(runtime), "$name.notes.get", id=note.id) == note
    archived = execute(ctx_for(runtime), "$name.notes.archive", id=note.id)
    assert archived.status == "archived"
    with pytest.raises(Conflict) as again:
        execute(ctx_for(runtime), "$name.notes.archive", id=note.id)
    assert again.value.details["current_state"] == "archived"


def test_bad_input_and_strangers(runtime: Runtime) -> None:
    with pytest.raises(ValidationFailed):
        execute(ctx_for(runtime), "$name.notes.create", body={"title": ""})
    with pytest.raises(ValidationFailed):
        execute(ctx_for(runtime), "$name.notes.create", body={"title": "x", "colour": "red"})
    with pytest.raises(NotFound):
        execute(ctx_for(runtime), "$name.notes.get", id="no-such-note")
    mine = execute(ctx_for(runtime), "$name.notes.create", body={"title": "mine"})
    with pytest.raises(NotFound):  # another tenant's record does not exist for them
        execute(ctx_for(runtime, "owner@other.test", "other"), "$name.notes.get", id=mine.id)
    with pytest.raises(Forbidden):  # a warehouse device is not staff of this module
        execute(ctx_for(runtime, "device@demo.test"), "$name.notes.list", query={})


def test_the_module_is_a_platform_module_with_records(runtime: Runtime) -> None:
    """Derived from its manifest: in the list of modules, the demo tenant's modules, the records' resources."""
    assert "$name" in MODULES and "$name" in auth.load_tenant(runtime.db, "demo").modules
    assert "$name" in ctx_for(runtime).principal.modules
    assert "$name:/notes" in {r.key for r in resources({"$name"})}


def test_a_station_change_waits_in_the_outbox(station: Runtime) -> None:
    note = execute(ctx_for(station), "$name.notes.create", body={"title": "offline note"})
    with station.db.reading(None) as s:
        entry = s.execute(select(OutboxEntry).where(OutboxEntry.command == "$name.notes.create")).scalar_one()
    assert (entry.method, entry.path, entry.body) == ("POST", "/demo/$name/api/notes", {"title": "offline note"})
    assert note.id in entry.ids
'''

ROUTE_TESTS = '''"""$Title routes against a real uvicorn server: the example note over HTTP."""

from __future__ import annotations

import httpx

from tests.conftest import auth_headers

BASE = "/demo/$name/api"


def test_notes_over_http(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    r = client.post(f"{BASE}/notes", json={"title": "Route note"}, headers=h)
    assert r.status_code == 201, r.text
    note = r.json()["data"]
    listed = client.get(f"{BASE}/notes", params={"search": "Route note"}, headers=h)
    assert listed.status_code == 200, listed.text
    assert [n["id"] for n in listed.json()["data"]] == [note["id"]]
    assert listed.json()["meta"]["total"] == 1 and listed.json()["pagination"]["total"] == 1
    assert client.get(f"{BASE}/notes/{note['id']}", headers=h).json()["data"]["title"] == "Route note"
    archived = client.post(f"{BASE}/notes/{note['id']}/archive", headers=h)
    assert archived.status_code == 200 and archived.json()["data"]["status"] == "archived"
    again = client.post(f"{BASE}/notes/{note['id']}/archive", headers=h)
    assert again.status_code == 409 and again.json()["code"] == "CONFLICT"


def test_the_api_document_describes_the_notes(client: httpx.Client) -> None:
    doc = client.get("/openapi.json").json()
    ops = {o["operationId"] for item in doc["paths"].values() for o in item.values() if isinstance(o, dict)}
    assert {"$name.notes.list", "$name.notes.create", "$name.notes.get", "$name.notes.archive"} <= ops
    assert "$name" in {t["name"] for t in doc["tags"]}


def test_errors_answer_in_the_envelope(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    bad = client.post(f"{BASE}/notes", json={"title": ""}, headers=h)
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    assert client.get(f"{BASE}/notes/no-such-note", headers=h).status_code == 404
    assert client.get(f"{BASE}/notes").status_code == 401
    assert client.get(f"{BASE}/notes", headers=auth_headers(client, "device@demo.test")).status_code == 403
'''

DOC = """# $Title

What the module does and for whom, in a few lines (replace this page's example with the module's
records as they are built). Code: [services/$name](../services/$name/service.py),
tables: [local_db/models/$name.py](../local_db/models/$name.py), tests:
[tests/services/$name](../tests/services/$name/test_${name}_service.py).

## Records and states

| record | fields | states |
|---|---|---|
| note | `id, title, body, status, created_at, updated_at` | `open -> archived` ([states.py](../services/$name/states.py)) |

## Routes

Base address `/<tenant>/$name/api` ([DECISIONS.md](DECISIONS.md#addresses)). Lists take both
pagination forms; errors answer in the spec's envelope.

| use case | route | who | answer |
|---|---|---|---|
| `$name.notes.list` | `GET /notes?status=&search=` | owner, admin, operator | the notes, newest first |
| `$name.notes.create` | `POST /notes {"title", "body"?}` | owner, admin, operator | 201, the note |
| `$name.notes.get` | `GET /notes/{id}` | owner, admin, operator | the note; 404 when unknown |
| `$name.notes.archive` | `POST /notes/{id}/archive` | owner, admin | the archived note; 409 when already archived |

## Demo data

In tenant `demo`: two notes, one open and one archived.

## Decisions

Where the spec is silent, the choices this module made (and why), one line each.
"""

VIEWS_INIT = '''"""The $Title workspace (views/$name/workspace.py defines WORKSPACE; the shell finds it)."""
'''

WORKSPACE = '''"""$Title workspace: the module's notes in a list, and a line to add one."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QListWidget, QPushButton, QVBoxLayout, QWidget

$workspace_imports
from views.base import StationSession, Workspace


class ${Camel}Workspace(Workspace):
    name = "$name"
    title = "$Title"
    modules = frozenset({"$name"})
    shows = frozenset({"$name.*"})  # the record kinds it shows: a commit (or a pull) of one refreshes it
    roles = STAFF
    position = 50  # place in the switcher (warehouse 10 ... admin 90)

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        self.title_input = QLineEdit()
        self.title_input.setPlaceholderText("New note")
        self.title_input.setAccessibleName("New note title")
        self.title_input.returnPressed.connect(self.add)
        self.add_button = QPushButton("Add")
        self.add_button.clicked.connect(self.add)
        row.addWidget(self.title_input, 1)
        row.addWidget(self.add_button)
        lay.addLayout(row)
        self.notes = QListWidget()
        self.notes.setAccessibleName("Notes")
        lay.addWidget(self.notes, 1)
        self.refresh()

    def focus_primary(self) -> None:
        self.title_input.setFocus()

    def refresh(self) -> None:
        # The use case by its function, off the UI thread (views/ops.py); the typed result comes back here.
        listing = self.session.call(list_notes, query=NoteQuery(limit=100))
        self.session.ops.run(listing, on_success=self._show, parent=self)

    def _show(self, page: Page[NoteOut]) -> None:
        self.notes.clear()
        for note in page.items:
            self.notes.addItem(f"{note.title} ({note.status})")

    def add(self) -> None:
        title = self.title_input.text().strip()
        body = self.session.request(NoteIn, {"title": title}, parent=self.title_input) if title else None
        if body is not None:
            self.session.ops.run(self.session.call(create_note, body=body), on_success=self._added, parent=self)

    def _added(self, note: NoteOut) -> None:
        self.title_input.clear()
        self.session.notify(True, f"Added {note.title}")
        self.refresh()

    def on_changed(self, change: CommitInfo) -> None:
        self.refresh()


WORKSPACE = ${Camel}Workspace
'''

WORKSPACE_TESTS = '''"""The $Title workspace with real widgets: the demo notes shown, a note added."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from tests.views.workspaces import settle, workspace_factory
from views.$name.workspace import ${Camel}Workspace
from views.records.workspace import RecordsWorkspace


@pytest.fixture
def make(runtime: Runtime, qtbot: QtBot) -> Iterator[Callable[..., ${Camel}Workspace]]:
    yield from workspace_factory(runtime, qtbot, ${Camel}Workspace, "owner@demo.test", (900, 600))


def test_notes_listed_and_one_added(make: Callable[..., ${Camel}Workspace], qtbot: QtBot) -> None:
    ws = make()
    assert ws.notes.count() >= 2
    before = ws.notes.count()
    qtbot.keyClicks(ws.title_input, "Count the pallets")
    qtbot.keyClick(ws.title_input, Qt.Key.Key_Return)
    settle(qtbot, ws)
    qtbot.waitUntil(lambda: ws.notes.count() == before + 1)
    assert any("Count the pallets" in ws.notes.item(i).text() for i in range(ws.notes.count()))


@pytest.fixture
def records(station: Runtime, qtbot: QtBot) -> Iterator[Callable[..., RecordsWorkspace]]:
    yield from workspace_factory(station, qtbot, RecordsWorkspace, "owner@demo.test", (1280, 800))


def test_the_notes_are_a_resource_of_the_records_workspace(
    records: Callable[..., RecordsWorkspace], qtbot: QtBot
) -> None:
    ws = records()
    assert "$name:/notes" in {r.key for r in ws.resources}
    ws.show_resource("$name:/notes")
    qtbot.waitUntil(lambda: ws.model is not None and not ws.model._busy and ws.model.rowCount() >= 2)
'''

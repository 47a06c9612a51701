"""Facts declared once and derived: a declaration's words are checked when it is read, defaults
come from the module, a handler receives its session, a list is declared once, a transition names
what it stamps, emits and whether it can be taken back."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.wiring import load_modules
from local_db.models import User
from services.core import auth
from services.core.commands import REGISTRY, execute, use_case
from services.core.context import Ctx, Runtime
from services.core.declaring import DEFAULTS, check_says, declare_defaults
from services.core.demo import demo_id
from services.core.errors import Conflict, NotFound, ValidationFailed, get_or_404
from services.core.pagination import Listing, ListQuery, any_equals, one_of
from services.core.records import irreversible, title_of
from services.core.roles import MANAGERS, OWNER, STAFF
from services.core.schemas import Out, StatefulOut, Strict
from services.core.states import machine, move


def _ctx(rt: Runtime, email: str = "owner@demo.test") -> Ctx:
    tenant = auth.load_tenant(rt.db, "demo")
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant))


class Rename(Strict):
    name: str


def test_every_declared_says_names_real_fields_and_no_button_shows_a_placeholder() -> None:
    load_modules()  # every module's declarations: a wrong placeholder would have raised here
    assert len(REGISTRY) > 300
    for op in REGISTRY.values():
        check_says(op.name, op.says, op.body, op.path)
        for action in (*(op.moves.actions if op.moves else ()), None):
            words = title_of(op, action)
            assert words and "{" not in words and "}" not in words, (op.name, words)
    # A use case acting on a state the body names reads as that action; never "{action} claim".
    claim = REGISTRY["aftersale.claims.act"]
    assert [title_of(claim, a) for a in claim.moves.actions] == ["Start claim", "Close claim", "Cancel claim"]  # type: ignore[union-attr]
    assert title_of(REGISTRY["catalog.products.create"]) == "New product"


def test_a_placeholder_that_names_no_field_fails_when_declared() -> None:
    with pytest.raises(ValueError, match=r"\{nmae\}"):

        @use_case("inventory.facts_test.typo", "POST /facts-test/{id}", tx="write", says="Rename {nmae}")
        def typo(ctx: Ctx, id: str, body: Rename) -> None: ...

    with pytest.raises(ValueError, match="plainly"):

        @use_case("inventory.facts_test.result", "POST /facts-test", tx="write", says="New {result.sku}")
        def result(ctx: Ctx, body: Rename) -> None: ...

    assert "inventory.facts_test.typo" not in REGISTRY and "inventory.facts_test.result" not in REGISTRY
    # Body fields and path parameters are the words a declaration may use.
    check_says("x", "Rename {name} of {id}", Rename, "/things/{id}")


def test_module_defaults_fill_roles_and_record_and_the_longest_prefix_wins() -> None:
    declare_defaults("facts_mod", roles=MANAGERS)
    declare_defaults("facts_mod.widgets", record="facts_mod.widget")
    try:

        @use_case("facts_mod.widgets.list", "GET /widgets", tx="read")
        def widgets(ctx: Ctx) -> None: ...

        @use_case("facts_mod.gadgets.list", "GET /gadgets", tx="read", roles=OWNER, record="facts_mod.gadget")
        def gadgets(ctx: Ctx) -> None: ...

        @use_case("facts_none.things.list", "GET /things", tx="read")
        def things(ctx: Ctx) -> None: ...

        assert (REGISTRY["facts_mod.widgets.list"].roles, REGISTRY["facts_mod.widgets.list"].record) == (
            MANAGERS,
            "facts_mod.widget",
        )
        assert (REGISTRY["facts_mod.gadgets.list"].roles, REGISTRY["facts_mod.gadgets.list"].record) == (
            OWNER,
            "facts_mod.gadget",
        )
        assert (REGISTRY["facts_none.things.list"].roles, REGISTRY["facts_none.things.list"].record) == (STAFF, None)
    finally:
        for name in ("facts_mod.widgets.list", "facts_mod.gadgets.list", "facts_none.things.list"):
            REGISTRY.pop(name, None)
        DEFAULTS.pop("facts_mod", None)
        DEFAULTS.pop("facts_mod.widgets", None)


def test_a_write_handler_receives_the_unit_of_works_session(runtime: Runtime) -> None:
    seen: list[Session] = []

    @use_case("inventory.facts_test.rename", "POST /facts-test/rename", tx="write", roles=OWNER)
    def rename(ctx: Ctx, body: Rename, session: Session) -> None:
        seen.append(session)
        assert session is ctx.uow.session  # the unit of work's own: no second ctx.write() inside
        user = session.get(User, ctx.principal.id)
        assert user is not None
        user.name = body.name

    @use_case("inventory.facts_test.read", "GET /facts-test/me", tx="read", roles=OWNER)
    def read(ctx: Ctx, session: Session) -> Rename:
        user = session.get(User, ctx.principal.id)
        assert user is not None
        return Rename(name=user.name)

    try:
        ctx = _ctx(runtime)
        execute(ctx, "inventory.facts_test.rename", body={"name": "Renamed Owner"})
        assert len(seen) == 1 and execute(ctx, "inventory.facts_test.read").name == "Renamed Owner"
    finally:
        REGISTRY.pop("inventory.facts_test.rename", None)
        REGISTRY.pop("inventory.facts_test.read", None)


class UserOut(Out):
    id: str
    email: str
    name: str


class UserQuery(ListQuery):
    email: str | None = None
    role: str | None = None
    code: str | None = None


USERS = Listing(
    User,
    filters={"email": User.email, "code": any_equals(User.email, User.name), "role": one_of(User.name, ("x", "y"))},
    search=(User.email, User.name),
    sort={"email": User.email},
    default_sort="email",
)


def test_a_list_declared_once_filters_searches_sorts_and_reads_rows(runtime: Runtime) -> None:
    with runtime.db.reading(None) as s:
        everyone = USERS.page(s, UserQuery(), UserOut)
        emails = [u.email for u in everyone.items]
        assert emails == sorted(emails) and everyone.total >= 3
        one = USERS.page(s, UserQuery(email=" owner@demo.test "), UserOut)
        assert [u.email for u in one.items] == ["owner@demo.test"] and isinstance(one.items[0], UserOut)
        assert [u.email for u in USERS.page(s, UserQuery(code="owner@demo.test"), UserOut).items] == ["owner@demo.test"]
        found = USERS.page(s, UserQuery(search="OWNER@DEMO"), UserOut)
        assert [u.email for u in found.items] == ["owner@demo.test"]
        assert USERS.page(s, UserQuery(sort="-email")).items[0].email == emails[-1]
        with pytest.raises(ValidationFailed) as bad:
            USERS.page(s, UserQuery(role="x,zz"))
        assert bad.value.details == {"role": ["zz"], "allowed": ["x", "y"]}
        with pytest.raises(ValidationFailed):
            USERS.page(s, UserQuery(sort="name"))  # not declared sortable
        user = s.execute(select(User)).scalars().first()
        assert user is not None
        assert get_or_404(s, User, user.id, what="user") is user
        with pytest.raises(NotFound) as missing:
            get_or_404(s, User, "nope", what="user")
        assert (missing.value.message, missing.value.details) == ("no user nope", {"user": "nope"})
        with pytest.raises(NotFound) as worded:
            get_or_404(s, User, "nope", what="user", message="{what} not found", key="id")
        assert (worded.value.message, worded.value.details) == ("user not found", {"id": "nope"})


KEEPER = "keeper"
DOOR = machine(
    "door",
    ("shut", "open", "locked"),
    [
        move("shut", "open", "open", stamps="opened_at", emits="door.opened"),
        move("open", "shut", "shut"),
        move("shut", "lock", "locked", KEEPER, irreversible=True),
    ],
    actor_of=lambda ctx: KEEPER if ctx.principal.role == "owner" else "guest",
)


class DoorOut(StatefulOut):
    machine = DOOR
    status: str


def test_a_transition_stamps_and_names_its_event_and_a_response_carries_what_its_state_allows(
    runtime: Runtime,
) -> None:
    row: Any = SimpleNamespace(status="shut", opened_at=None)
    ctx = _ctx(runtime)
    before = ctx.now()
    t = DOOR.apply(ctx, row, "open")
    assert (row.status, t.emits) == ("open", "door.opened")
    assert isinstance(row.opened_at, datetime) and before <= row.opened_at <= ctx.now()
    with pytest.raises(Conflict):
        DOOR.apply(ctx, row, "lock")
    # No caller: the table alone; a caller: the actors of the table too.
    assert DoorOut(status="shut").allowed_actions == ["open", "lock"]
    assert DOOR.allowed_for(_ctx(runtime, "operator@demo.test"), "shut") == ["open"]
    assert DOOR.allowed_for(ctx, "shut") == ["open", "lock"]
    assert DoorOut(status="locked").allowed_actions == []
    with pytest.raises(ValueError, match="no actions"):
        DOOR.moves("fly")


def test_a_linked_use_case_asks_first_from_its_transitions_fact() -> None:
    load_modules()
    claim = REGISTRY["aftersale.claims.act"]
    assert claim.moves is not None and claim in claim.moves.machine.performed_by("cancel")
    assert irreversible(claim, "cancel") and irreversible(claim, "close") and not irreversible(claim, "start")


def test_every_declared_transition_emits_a_registered_event() -> None:
    import importlib
    import pkgutil

    import services
    from services.core.events import EVENT_TYPES
    from services.core.states import Machine

    load_modules()
    machines = []
    for info in pkgutil.iter_modules(services.__path__):
        if importlib.util.find_spec(f"services.{info.name}.states") is not None:
            mod = importlib.import_module(f"services.{info.name}.states")
            machines += [m for m in vars(mod).values() if isinstance(m, Machine)]
    assert len(machines) >= 5
    emitted = {t.emits for m in machines for t in m.transitions if t.emits}
    assert emitted and emitted <= set(EVENT_TYPES), emitted - set(EVENT_TYPES)

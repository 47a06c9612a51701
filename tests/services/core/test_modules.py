"""Module manifests: the list of modules derived from them, checked against what packages register,
and reactions to events run inside the emitting unit of work."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import func, select

from app.wiring import install_module
from local_db.models import Event
from services.core import auth
from services.core.context import MODULES, Ctx, Runtime
from services.core.demo import demo_id
from services.core.events import HANDLERS, EmittedEvent, emit, subscribe
from services.core.modules import ManifestError, Module, module_names
from services.inventory import MODULE as INVENTORY

SPEC_ORDER = ("qr", "fulfillment", "rewards", "sign", "support", "inventory", "campaign", "analytics", "events")


def test_the_modules_are_the_manifests_in_the_specs_order() -> None:
    assert len(MODULES) == 16 and MODULES[: len(SPEC_ORDER)] == SPEC_ORDER and MODULES[-1] == "docs"


def test_a_package_without_a_manifest_is_no_module_and_a_wrong_one_is_refused(tmp_path: Path) -> None:
    (tmp_path / "sync").mkdir()
    (tmp_path / "sync" / "__init__.py").write_text('"""not a module"""\n')
    (tmp_path / "zeta").mkdir()
    (tmp_path / "zeta" / "__init__.py").write_text('MODULE = Module(name="zeta")\n')
    (tmp_path / "alpha").mkdir()
    (tmp_path / "alpha" / "__init__.py").write_text('MODULE = Module(name="alpha", position=5)\n')
    assert module_names(tmp_path) == ("alpha", "zeta")
    (tmp_path / "beta").mkdir()
    (tmp_path / "beta" / "__init__.py").write_text('MODULE = Module(name="gamma")\n')
    with pytest.raises(ManifestError, match="not its package's"):
        module_names(tmp_path)


def test_a_manifest_that_disagrees_with_its_package_fails_at_start_up() -> None:
    with pytest.raises(ManifestError, match="event types"):
        install_module(replace(INVENTORY, events=INVENTORY.events[1:]))
    with pytest.raises(ManifestError, match="record kinds"):
        install_module(replace(INVENTORY, records=(*INVENTORY.records, "inventory.nothing")))
    with pytest.raises(ManifestError, match="not modules"):
        install_module(replace(INVENTORY, depends=("moon",)))
    with pytest.raises(ValueError, match="itself"):
        Module(name="qr", depends=("qr",))


@pytest.fixture
def reactions() -> Iterator[list[str]]:
    seen: list[str] = []

    def react(ctx: Ctx, ev: EmittedEvent) -> None:
        seen.append(ev.type)
        if ev.data.get("fail"):
            raise RuntimeError("the reaction failed")

    subscribe("qr.scanned", react)
    subscribe("qr.scanned", react)  # once is enough
    yield seen
    HANDLERS["qr.scanned"].remove(react)


def test_a_reaction_runs_in_the_emitting_unit_and_its_error_undoes_it(runtime: Runtime, reactions: list[str]) -> None:
    tenant = auth.load_tenant(runtime.db, "demo")
    ctx = Ctx(runtime, tenant, auth.user_principal(runtime.db, demo_id("user", "owner@demo.test"), tenant))

    def count() -> int:
        with runtime.db.reading(None) as s:
            return int(
                s.execute(select(func.count()).select_from(Event).where(Event.type == "qr.scanned")).scalar_one()
            )

    before = count()
    with ctx.write():
        emit(ctx, "qr.scanned", {"code": "x"})
    assert reactions == ["qr.scanned"] and count() == before + 1
    with pytest.raises(RuntimeError), ctx.write():
        emit(ctx, "qr.scanned", {"fail": True})
    assert reactions == ["qr.scanned", "qr.scanned"] and count() == before + 1
    with pytest.raises(ValueError, match="unknown event type"):
        subscribe("no.such.type", lambda ctx, ev: None)

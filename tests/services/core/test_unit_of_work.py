"""Events and outbox entries commit with the change, or not at all."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from local_db.models import Event, OutboxEntry, User
from services.core import auth
from services.core.commands import REGISTRY, execute, use_case
from services.core.context import Ctx, Runtime
from services.core.demo import DEMO_PASSWORD
from services.core.errors import ValidationFailed
from services.core.events import EVENT_TYPES, emit, event_signing_payload, sign
from services.core.roles import OWNER
from services.core.schemas import Strict


class Rename(Strict):
    name: str
    fail: bool = False


@use_case("test.rename", "POST /_test/rename", tx="write", module="inventory", roles=OWNER)
def _rename(ctx: Ctx, body: Rename) -> dict[str, Any]:
    with ctx.write() as s:
        user = s.get(User, ctx.principal.id)
        assert user is not None
        user.name = body.name
        emit(ctx, "stock.adjusted", {"sku": "A", "delta": 1})
        if body.fail:
            raise ValidationFailed("asked to fail after writing")
    return {"name": body.name}


RENAME = REGISTRY["test.rename"]


def _ctx(rt: Runtime) -> Ctx:
    tenant = auth.load_tenant(rt.db, "demo")
    user = auth.authenticate_password(rt.db, "owner@demo.test", DEMO_PASSWORD)
    return Ctx(rt, tenant, auth.user_principal(rt.db, user.id, tenant))


def _counts(rt: Runtime) -> tuple[int, int]:
    with rt.db.reading(None) as s:
        return (
            s.execute(select(func.count()).select_from(Event)).scalar_one(),
            s.execute(select(func.count()).select_from(OutboxEntry)).scalar_one(),
        )


def test_every_spec_event_type_is_registered() -> None:
    spec_types = [
        "order.created",
        "order.picked",
        "order.packed",
        "order.shipped",
        "order.delivered",
        "sale.recorded",
        "sale.approved",
        "redemption.created",
        "document.sent",
        "document.viewed",
        "document.signed",
        "document.declined",
        "ticket.created",
        "ticket.replied",
        "ticket.resolved",
        "stock.low",
        "stock.adjusted",
        "transfer.completed",
        "campaign.sent",
        "campaign.completed",
        "contact.unsubscribed",
        "qr.scanned",
        "qr.threshold_reached",
        "certificate.uploaded",
        "certificate.expiring",
        "warranty.registered",
        "claim.submitted",
        "tradein.submitted",
        "tradein.approved",
        "catalog.generated",
        "ecommerce.sync_completed",
        "machine.alarm",
        "machine.status_changed",
        "production.run_completed",
    ]
    assert set(spec_types) <= set(EVENT_TYPES)
    assert EVENT_TYPES["order.shipped"].schema is not None


def test_platform_write_commits_event_but_no_outbox(runtime: Runtime) -> None:
    before = _counts(runtime)
    execute(_ctx(runtime), RENAME, body={"name": "Olivia O."})
    assert _counts(runtime) == (before[0] + 1, before[1])


def test_station_write_records_outbox_entry(station: Runtime) -> None:
    ctx = _ctx(station)
    execute(ctx, RENAME, body={"name": "A"}, idempotency_key="key-1")
    execute(ctx, RENAME, body={"name": "B"})
    with station.db.reading(None) as s:
        entries = s.execute(select(OutboxEntry).order_by(OutboxEntry.seq)).scalars().all()
        ev = s.execute(select(Event).order_by(Event.created_at.desc())).scalars().first()
    assert [e.seq for e in entries] == [1, 2]
    assert entries[0].method == "POST" and entries[0].path == "/demo/inventory/api/_test/rename"
    assert entries[0].body == {"name": "A"} and entries[0].idempotency_key == "key-1"
    assert entries[1].idempotency_key and entries[1].station_id == "station-test"
    # Station events are signed with the station key over their canonical form.
    assert ev is not None and ev.origin == "station-test"
    assert ev.signature == sign(station.station_key or b"", event_signing_payload(ev))


def test_rollback_leaves_no_row_event_or_outbox(station: Runtime) -> None:
    before = _counts(station)
    with pytest.raises(ValidationFailed):
        execute(_ctx(station), RENAME, body={"name": "Never", "fail": True})
    assert _counts(station) == before
    with station.db.reading(None) as s:
        assert s.execute(select(User).where(User.name == "Never")).first() is None


def test_emit_refuses_unknown_types_and_bad_data(runtime: Runtime) -> None:
    ctx = _ctx(runtime)
    with ctx.write():
        with pytest.raises(ValidationFailed):
            emit(ctx, "order.teleported", {})
        with pytest.raises(ValidationFailed):
            emit(ctx, "order.shipped", {"order_id": "o1"})
        ev = emit(ctx, "order.shipped", {"order_id": "o1", "tracking_number": "T1", "carrier": "UPS",
                                          "shipped_at": "2026-01-01T10:00:00Z"})  # fmt: skip
        assert ev.data["shipped_at"] == "2026-01-01T10:00:00Z"


def test_emit_outside_a_unit_of_work_is_an_error(runtime: Runtime) -> None:
    with pytest.raises(RuntimeError):
        emit(_ctx(runtime), "stock.adjusted", {})


def test_idempotency_key_replays_the_first_answer(station: Runtime) -> None:
    from services.core.errors import Conflict

    ctx = _ctx(station)
    before = _counts(station)
    first = execute(ctx, RENAME, body={"name": "Once"}, idempotency_key="idem-1")
    again = execute(_ctx(station), RENAME, body={"name": "Once"}, idempotency_key="idem-1")
    assert first == again == {"name": "Once"}
    # One change, one event, one outbox entry: the retry did nothing.
    assert _counts(station) == (before[0] + 1, before[1] + 1)
    with pytest.raises(Conflict):
        execute(_ctx(station), RENAME, body={"name": "Other"}, idempotency_key="idem-1")
    assert _counts(station) == (before[0] + 1, before[1] + 1)


def test_station_never_queues_a_password(station: Runtime) -> None:
    from services.core.errors import Conflict

    ctx = _ctx(station)
    before = _counts(station)
    body = {"email": "x@demo.test", "name": "X", "password": "long-enough-secret", "role": "operator"}
    with pytest.raises(Conflict) as e:
        execute(ctx, "platform.users.create", body=body)
    assert e.value.details and e.value.details["reason"] == "online_only"
    assert _counts(station) == before
    # The same change without a secret is queued as usual.
    execute(_ctx(station), "platform.users.update", body={"name": "Renamed"}, user_id=ctx.principal.id)
    assert _counts(station)[1] == before[1] + 1
    with station.db.reading(None) as s:
        assert "long-enough-secret" not in repr(s.execute(select(OutboxEntry.body)).all())


def test_a_failing_after_commit_listener_does_not_fail_the_committed_write(station: Runtime) -> None:
    def broken(_info: object) -> None:
        raise RuntimeError("listener bug")

    station.after_commit.append(broken)
    try:
        before = _counts(station)
        assert execute(_ctx(station), RENAME, body={"name": "Still saved"}) == {"name": "Still saved"}
        assert _counts(station) == (before[0] + 1, before[1] + 1)
    finally:
        station.after_commit.remove(broken)


def test_the_unit_of_work_looks_its_connection_up_once_and_again_once_closed(station: Runtime) -> None:
    ctx = _ctx(station)
    events_before = _counts(station)[0]
    with ctx.write() as s:
        conn = ctx.uow.connection()
        assert conn is s.connection() and ctx.uow.connection() is conn
        emit(ctx, "stock.adjusted", {"sku": "A", "delta": 1})
        assert ctx.uow.connection() is conn
        # A connection that was closed (the session's transaction ended) is not handed out again.
        ctx.uow._conn = station.db.engine.connect()
        ctx.uow._conn.close()
        assert ctx.uow.connection() is s.connection()
    with ctx.write():
        assert not ctx.uow.connection().closed
    assert _counts(station)[0] == events_before + 1  # the event went in on the cached connection, committed

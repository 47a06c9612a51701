"""The scan's Core path (services/fulfillment/scan.py): when it is taken, and that it answers and
writes what the ORM path does (the change log, the outbox and the stored counts included)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from local_db.models import OutboxEntry
from local_db.models.sync import SyncChange
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.errors import ValidationFailed
from services.fulfillment import scan
from services.fulfillment.orders import _find
from services.fulfillment.schemas import OperationRequest, PickOperation
from tests.services.fulfillment.fulfillment_helpers import ctx_for, op, order_in

DEVICE = "device@demo.test"


def _pick(codes: list[tuple[str, int]]) -> PickOperation:
    body = OperationRequest.model_validate(
        {"operation": "pick", "items": [{"code": c, "quantity": q} for c, q in codes]}
    )
    assert isinstance(body.root, PickOperation)
    return body.root


def _loads(ctx: Ctx, ref: str, body: PickOperation, touch: bool = False) -> bool:
    """Whether ``scan.load`` takes this pick (True) or leaves it to the ORM path; writes nothing."""
    with ctx.write() as s:
        held = _find(s, ref) if touch else None  # an order already in the session (held: the map is weak)
        taken = scan.load(ctx, s, ref, body) is not None
        del held
        s.rollback()
    ctx._uow = None
    return taken


def _logged(rt: Runtime, *ids: str) -> dict[tuple[str, str], int]:
    """The change log's (table, id) -> usn of these records (none deleted)."""
    with rt.db.reading(None) as s:
        rows = s.execute(select(SyncChange).where(SyncChange.row_id.in_(ids))).scalars().all()
    assert not any(r.deleted for r in rows)
    return {(r.table_name, r.row_id): r.usn for r in rows}


def _shown(res: Any) -> dict[str, Any]:
    return res.model_dump(exclude={"updated_at"})


def test_the_core_path_is_taken_only_where_it_cannot_differ(runtime: Runtime) -> None:
    ctx = ctx_for(runtime, DEVICE)
    order = order_in(runtime, "pending", skip=2)  # three lines, four units (the first: one line of one)
    lines = execute(ctx, "fulfillment.orders.get", id=order.id).lines
    first = lines[0]
    one = _pick([(first.barcode or first.sku, 1)])
    assert _loads(ctx, order.id, one)
    assert not _loads(ctx, order.order_number, one)  # by number: the ORM path finds it
    assert not _loads(ctx, order.id, one, touch=True)  # objects in the session would go stale
    assert not _loads(ctx, order_in(runtime, "picked").id, one)  # not pending: the ORM path refuses it
    left = sum(ln.quantity - ln.picked_quantity for ln in lines)
    assert not _loads(ctx, order.id, _pick([(first.sku, left)]))  # may complete it: the state move
    assert left > 1 and _loads(ctx, order.id, _pick([(first.sku, left - 1)]))


def test_a_core_path_pick_answers_and_stores_what_the_orm_path_does(runtime: Runtime) -> None:
    ctx = ctx_for(runtime, DEVICE)
    order = order_in(runtime, "pending", skip=1)
    ln = execute(ctx, "fulfillment.orders.get", id=order.id).lines[0]
    item = [{"code": ln.barcode or ln.sku, "quantity": 1}]
    logged = _logged(runtime, order.id, ln.id)
    fast = op(ctx, order.id, operation="pick", items=item)  # by id: the Core path
    # The platform's change log has the order and the line again, under one new usn, as a flush logs them.
    now = _logged(runtime, order.id, ln.id)
    assert now.keys() == {("fulfillment_orders", order.id), ("fulfillment_order_lines", ln.id)}
    assert len(set(now.values())) == 1 and all(now[k] > logged.get(k, -1) for k in now)
    stored = execute(ctx, "fulfillment.orders.get", id=order.id)
    assert _shown(stored) == {k: v for k, v in _shown(fast).items() if k in _shown(stored)}
    assert stored.updated_at == fast.updated_at > order.updated_at
    assert fast.matched_line_ids == [ln.id] and fast.status == "pending"
    assert next(x for x in fast.lines if x.id == ln.id).picked_quantity == ln.picked_quantity + 1
    op(ctx, order.id, operation="unpick", items=item)
    slow = op(ctx, order.order_number, operation="pick", items=item)  # by number: the ORM path
    assert _shown(slow) == _shown(fast)


def test_a_core_path_scan_on_a_station_queues_one_outbox_entry(station: Runtime) -> None:
    ctx = ctx_for(station, DEVICE)
    order = order_in(station, "pending", skip=1)
    ln = execute(ctx, "fulfillment.orders.get", id=order.id).lines[0]
    with station.db.reading(None) as s:
        before = len(s.execute(select(OutboxEntry.id)).all())
    res = op(ctx, order.id, operation="pick", items=[{"code": ln.barcode or ln.sku}])
    assert res.matched_line_ids == [ln.id]
    with station.db.reading(None) as s:
        entries = s.execute(select(OutboxEntry).order_by(OutboxEntry.seq)).scalars().all()
    assert len(entries) == before + 1
    assert entries[-1].command == "fulfillment.orders.operate" and entries[-1].body["operation"] == "pick"


def test_a_bad_scan_on_the_core_path_stores_nothing(runtime: Runtime) -> None:
    ctx = ctx_for(runtime, DEVICE)
    order = order_in(runtime, "pending", skip=2)
    ln = execute(ctx, "fulfillment.orders.get", id=order.id).lines[0]
    # A good item, then an unknown one: the second is refused and the first is not counted.
    with pytest.raises(ValidationFailed) as exc:
        op(ctx, order.id, operation="pick", items=[{"code": ln.barcode or ln.sku}, {"code": "NOPE-0"}])
    assert exc.value.details is not None and exc.value.details["reason"] == "unknown_code"
    after = execute(ctx, "fulfillment.orders.get", id=order.id)
    assert next(x for x in after.lines if x.id == ln.id).picked_quantity == ln.picked_quantity
    assert after.updated_at == order.updated_at

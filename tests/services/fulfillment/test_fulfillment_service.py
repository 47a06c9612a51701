"""Fulfillment use cases through ``execute``: every transition, every bad case, labels, settings, outbox."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from local_db.models import Event, OutboxEntry
from services.core.checkdigits import gs1_check_digit, has_valid_check_digit
from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import Conflict, Forbidden, NotFound, ServiceError, ValidationFailed
from services.fulfillment.demo import product_barcode
from tests.services.fulfillment.fulfillment_helpers import (
    ctx_for,
    decode_code128,
    op,
    order_in,
    pdf_to_image,
    pick_all,
)

OWNER, DEVICE = "owner@demo.test", "device@demo.test"


def _events(rt: Runtime, type_: str) -> list[dict[str, Any]]:
    with rt.db.reading(None) as s:
        return [e.data for e in s.execute(select(Event).where(Event.type == type_)).scalars()]


def test_check_digit_matches_the_gs1_example() -> None:
    assert gs1_check_digit("629104150021") == 3 and gs1_check_digit("03600024145") == 7
    assert has_valid_check_digit("036000241457") and not has_valid_check_digit("036000241458")


def test_demo_orders_in_mixed_states(runtime: Runtime) -> None:
    page = execute(ctx_for(runtime, OWNER), "fulfillment.orders.list", query={"limit": "100"})
    assert page.total >= 25
    assert {o.status for o in page.items} == {"pending", "picked", "packed", "shipped", "delivered", "cancelled"}
    assert all(o.order_number.startswith("SO-") and has_valid_check_digit(o.pick_barcode[2:]) for o in page.items)
    other = execute(ctx_for(runtime, "owner@other.test", "other"), "fulfillment.orders.list", query={})
    assert 1 <= other.total < 5 and not {o.id for o in other.items} & {o.id for o in page.items}


def test_a_whole_order_scan_by_scan(runtime: Runtime) -> None:
    ctx = ctx_for(runtime, DEVICE)
    order = order_in(runtime, "pending")
    detail = execute(ctx, "fulfillment.orders.get", id=order.pick_barcode)  # the pick-list barcode opens it
    assert detail.id == order.id and detail.lines
    for ln in detail.lines:
        for n in range(ln.quantity):
            res = op(ctx, order.id, operation="pick", items=[{"code": ln.barcode, "quantity": 1}])
            assert res.matched_line_ids == [ln.id]
            assert next(x for x in res.lines if x.id == ln.id).picked_quantity == n + 1
    assert res.status == "picked" and res.picked_at is not None
    assert _events(runtime, "order.picked")[-1]["order_id"] == order.id
    packed = op(ctx, order.order_number, operation="pack", box="M", weight_grams=900)
    assert packed.status == "packed" and packed.box == "M" and packed.weight_grams == 900
    assert _events(runtime, "order.packed")[-1]["box"] == "M"
    shipped = op(ctx, order.id, operation="ship")
    assert shipped.status == "shipped" and shipped.carrier == "local" and shipped.label_id
    assert shipped.tracking_number.startswith("LP") and has_valid_check_digit(shipped.tracking_number[2:])
    ev = _events(runtime, "order.shipped")[-1]
    assert {k: ev[k] for k in ("order_id", "tracking_number", "carrier")} == {
        "order_id": order.id, "tracking_number": shipped.tracking_number, "carrier": "local"}  # fmt: skip
    assert ev["shipped_at"].startswith(str(shipped.shipped_at.year))
    # The label: a PDF whose barcode reads back as the tracking number, and ZPL.
    pdf = execute(ctx, "fulfillment.labels.get", id=shipped.label_id, query={})
    assert pdf.media_type == "application/pdf" and pdf.content.startswith(b"%PDF")
    assert decode_code128(pdf_to_image(pdf.content)) == shipped.tracking_number
    zpl = execute(ctx, "fulfillment.labels.get", id=shipped.label_id, query={"format": "zpl"}).content.decode()
    assert zpl.startswith("^XA") and f"^FD{shipped.tracking_number}^FS" in zpl and "^BC" in zpl
    # Double ship: 409 with the current state.
    with pytest.raises(Conflict) as exc:
        op(ctx, order.id, operation="ship")
    assert exc.value.details == {"current_state": "shipped", "action": "ship"}


def test_pick_many_items_at_once_and_sku_codes(runtime: Runtime) -> None:
    ctx = ctx_for(runtime, OWNER)
    order = order_in(runtime, "pending", skip=2)
    detail = execute(ctx, "fulfillment.orders.get", id=order.id)
    items = [{"code": ln.sku, "quantity": ln.quantity} for ln in detail.lines]
    res = op(ctx, order.id, operation="pick", items=items)
    assert res.status == "picked" and all(ln.picked_quantity == ln.quantity for ln in res.lines)


@pytest.mark.parametrize(
    ("code", "reason"),
    [("9999999999994", "unknown_code"), ("NOPE", "unknown_code"), ("__other__", "not_on_order")],
)
def test_bad_scans_name_the_code(runtime: Runtime, code: str, reason: str) -> None:
    ctx = ctx_for(runtime, DEVICE)
    order = order_in(runtime, "pending")
    detail = execute(ctx, "fulfillment.orders.get", id=order.id)
    if code == "__other__":
        mine = {ln.barcode for ln in detail.lines}
        code = next(product_barcode(i) for i in range(10) if product_barcode(i) not in mine)
    with pytest.raises(ValidationFailed) as exc:
        op(ctx, order.id, operation="pick", items=[{"code": code}])
    assert exc.value.details is not None
    assert exc.value.details["code"] == code and exc.value.details["reason"] == reason


def test_over_pick_and_batches_are_all_or_nothing(runtime: Runtime) -> None:
    ctx = ctx_for(runtime, DEVICE)
    order = order_in(runtime, "pending", skip=1)
    detail = execute(ctx, "fulfillment.orders.get", id=order.id)
    ln = detail.lines[0]
    with pytest.raises(ValidationFailed) as exc:
        op(ctx, order.id, operation="pick", items=[{"code": ln.barcode, "quantity": ln.quantity + 1}])
    assert exc.value.details and exc.value.details["reason"] == "over_pick" and exc.value.details["code"] == ln.barcode
    # A good item and a bad one in one request: nothing is counted.
    with pytest.raises(ValidationFailed):
        op(ctx, order.id, operation="pick", items=[{"code": ln.barcode}, {"code": "NOPE"}])
    after = execute(ctx, "fulfillment.orders.get", id=order.id)
    assert [x.picked_quantity for x in after.lines] == [0] * len(after.lines)


def test_wrong_state_is_409_with_the_current_state(runtime: Runtime) -> None:
    ctx = ctx_for(runtime, OWNER)
    pending, shipped = order_in(runtime, "pending"), order_in(runtime, "shipped")
    cases = [(pending, {"operation": "pack", "box": "S"}, "pending"), (pending, {"operation": "ship"}, "pending"),
             (shipped, {"operation": "cancel"}, "shipped"), (order_in(runtime, "picked"),
             {"operation": "pick", "items": [{"code": "X"}]}, "picked"),
             (order_in(runtime, "cancelled"), {"operation": "cancel"}, "cancelled")]  # fmt: skip
    for order, body, state in cases:
        with pytest.raises(Conflict) as exc:
            op(ctx, order.id, **body)
        assert exc.value.details and exc.value.details["current_state"] == state


@pytest.mark.parametrize("state", ["pending", "picked", "packed"])
def test_cancel_from_open_states(runtime: Runtime, state: str) -> None:
    order = order_in(runtime, state)
    res = op(ctx_for(runtime, "admin@demo.test"), order.id, operation="cancel", reason="out of stock")
    assert res.status == "cancelled" and res.cancel_reason == "out of stock" and res.cancelled_at


def test_roles_and_tenants(runtime: Runtime) -> None:
    device, operator = ctx_for(runtime, DEVICE), ctx_for(runtime, "operator@demo.test")
    order = order_in(runtime, "pending")
    with pytest.raises(Forbidden):
        op(device, order.id, operation="cancel")
    with pytest.raises(Forbidden):  # operator has no fulfillment in userModules
        execute(operator, "fulfillment.orders.list", query={})
    with pytest.raises(Forbidden):
        execute(device, "fulfillment.settings.device.put", body={"sounds": False}, query={})
    with pytest.raises(Forbidden):
        execute(device, "platform.users.list", query={})
    # Another tenant's order is not found, by id or by number (numbers are per tenant: SO-1020 is only demo's).
    other = ctx_for(runtime, "owner@other.test", "other")
    for ref in (order.id, order_in(runtime, "pending", skip=13).order_number):
        with pytest.raises(NotFound):
            execute(other, "fulfillment.orders.get", id=ref)
        with pytest.raises(NotFound):
            op(other, ref, operation="cancel")


def test_malformed_operations(runtime: Runtime) -> None:
    ctx = ctx_for(runtime, OWNER)
    order = order_in(runtime, "pending")
    for body in ({}, {"operation": "dance"}, {"operation": "pick", "items": []},
                 {"operation": "pick", "items": [{"code": "A", "quantity": 0}]},
                 {"operation": "pack"}, {"operation": "ship", "surprise": 1}):  # fmt: skip
        with pytest.raises(ValidationFailed):
            execute(ctx, "fulfillment.orders.operate", id=order.id, body=body)
    packed = order_in(runtime, "packed")
    with pytest.raises(ValidationFailed):
        op(ctx, packed.id, operation="ship", carrier="pigeon")


def test_labels_bad_cases(runtime: Runtime) -> None:
    ctx = ctx_for(runtime, DEVICE)
    pending, shipped = order_in(runtime, "pending"), order_in(runtime, "shipped")
    with pytest.raises(NotFound) as exc:
        execute(ctx, "fulfillment.labels.get", id=pending.id, query={})
    assert "has no label" in exc.value.message
    with pytest.raises(NotFound):
        execute(ctx, "fulfillment.labels.get", id="no-such-label", query={})
    by_order = execute(ctx, "fulfillment.labels.get", id=shipped.order_number, query={"format": "png"})
    assert by_order.media_type == "image/png"
    with pytest.raises(ValidationFailed):
        execute(ctx, "fulfillment.labels.get", id=shipped.id, query={"format": "gif"})


def test_tracking_numbers_are_never_reused(runtime: Runtime) -> None:
    ctx = ctx_for(runtime, OWNER)
    seen = {order_in(runtime, "shipped", skip=i).tracking_number for i in range(4)}
    for i in range(3):
        order = order_in(runtime, "packed", skip=0)
        res = op(ctx, order.id, operation="ship")
        assert res.tracking_number not in seen
        seen.add(res.tracking_number)
        assert i >= 0
    # A number allocated elsewhere (a station) is checked, and used once only.
    order = order_in(runtime, "packed")
    with pytest.raises(ValidationFailed):
        op(ctx, order.id, operation="ship", tracking_number="LP0000000001")  # bad check digit
    with pytest.raises(Conflict):
        op(ctx, order.id, operation="ship", tracking_number=next(iter(seen)))


def test_list_filters_sort_and_both_pagination_forms(runtime: Runtime) -> None:
    ctx = ctx_for(runtime, DEVICE)
    pending = execute(ctx, "fulfillment.orders.list", query={"status": "pending", "sort": "created_at"})
    assert pending.total == 14 and {o.status for o in pending.items} == {"pending"}
    times = [o.created_at for o in pending.items]
    assert times == sorted(times)
    both = execute(ctx, "fulfillment.orders.list", query={"status": "packed,shipped"})
    assert both.total == 8
    newest = execute(ctx, "fulfillment.orders.list", query={"sort": "-created_at", "limit": "5", "offset": "5"})
    assert newest.spec.form == "B" and len(newest.items) == 5 and newest.spec.offset == 5
    page2 = execute(ctx, "fulfillment.orders.list", query={"page": "2", "limit": "10"})
    assert page2.spec.form == "A" and page2.items[0].id == newest.items[0].id or page2.total == newest.total
    cut = pending.items[5].created_at
    assert execute(ctx, "fulfillment.orders.list", query={"status": "pending", "to": cut.isoformat()}).total == 6
    assert execute(ctx, "fulfillment.orders.list", query={"status": "pending", "from": cut.isoformat()}).total == 9
    assert execute(ctx, "fulfillment.orders.list", query={"search": pending.items[0].order_number}).total == 1
    for bad in ({"status": "lost"}, {"sort": "colour"}, {"page": "0"}, {"from": "yesterday"}):
        with pytest.raises(ValidationFailed):
            execute(ctx, "fulfillment.orders.list", query=bad)
    stats = execute(ctx, "fulfillment.orders.stats")
    assert stats.counts["pending"] == 14 and stats.total >= 25


def test_device_settings(runtime: Runtime) -> None:
    owner, device = ctx_for(runtime, OWNER), ctx_for(runtime, DEVICE)
    first = execute(device, "fulfillment.settings.device.get", query={})
    assert first.device == device.principal.id and first.label_format == "pdf" and first.boxes == ["S", "M", "L", "XL"]
    execute(owner, "fulfillment.settings.device.put", body={"sounds": False}, query={})  # tenant default
    mine = execute(owner, "fulfillment.settings.device.put", body={"label_format": "zpl", "printer": "/dev/usb/lp0"},
                   query={"device": device.principal.id})  # fmt: skip
    assert mine.label_format == "zpl" and mine.sounds is False
    now = execute(device, "fulfillment.settings.device.get", query={})
    assert (now.label_format, now.printer, now.sounds) == ("zpl", "/dev/usb/lp0", False)
    with pytest.raises(Forbidden):
        execute(device, "fulfillment.settings.device.get", query={"device": owner.principal.id})
    for bad in ({"label_format": "png"}, {"sounds": None}, {"colour": "red"}):
        with pytest.raises(ValidationFailed):
            execute(owner, "fulfillment.settings.device.put", body=bad, query={})


def test_station_writes_one_outbox_entry_per_command_and_keeps_the_tracking_number(station: Runtime) -> None:
    ctx = ctx_for(station, DEVICE)
    order = order_in(station, "pending")
    pick_all(ctx, order.id)
    op(ctx, order.id, operation="pack", box="S")
    shipped = op(ctx, order.id, operation="ship")
    with pytest.raises(ServiceError):
        op(ctx, order.id, operation="ship")  # refused: no outbox entry
    with station.db.reading(None) as s:
        rows = list(s.execute(select(OutboxEntry).order_by(OutboxEntry.seq)).scalars())
    assert [r.command for r in rows] == ["fulfillment.orders.operate"] * 3
    assert rows[0].path == f"/demo/fulfillment/api/orders/{order.id}/operations"
    assert rows[2].body == {"operation": "ship", "carrier": "local", "tracking_number": shipped.tracking_number}


def test_inbound_webhook_secret_is_sealed_at_rest(runtime: Runtime) -> None:
    owner = ctx_for(runtime, "owner@demo.test")
    execute(owner, "fulfillment.settings.webhooks.put", body={"secret": "shopify-shared-secret-abcdef"})
    assert execute(owner, "fulfillment.settings.webhooks.get").configured
    from tests.conftest import dump_database

    dump = dump_database(runtime)
    assert "shopify-shared-secret-abcdef" not in dump and "sealed:v1:" in dump


def test_unpick_takes_a_wrong_scan_back(runtime: Runtime) -> None:
    ctx = ctx_for(runtime, DEVICE)
    order = order_in(runtime, "pending", skip=1)
    detail = execute(ctx, "fulfillment.orders.get", id=order.id)
    ln = detail.lines[0]
    op(ctx, order.id, operation="pick", items=[{"code": ln.barcode, "quantity": 1}])
    res = op(ctx, order.id, operation="unpick", items=[{"code": ln.barcode}])
    assert res.matched_line_ids == [ln.id] and res.lines[0].picked_quantity == 0
    with pytest.raises(ValidationFailed) as exc:  # nothing scanned to take back
        op(ctx, order.id, operation="unpick", items=[{"code": ln.barcode}])
    assert exc.value.details and exc.value.details["reason"] == "not_picked"
    # A fully picked order goes back to pending; a packed one is past taking back.
    pick_all(ctx, order.id)
    back = op(ctx, order.id, operation="unpick", items=[{"code": ln.barcode}])
    assert back.status == "pending"
    op(ctx, order.id, operation="pick", items=[{"code": ln.barcode}])
    op(ctx, order.id, operation="pack", box="S")
    with pytest.raises(Conflict):
        op(ctx, order.id, operation="unpick", items=[{"code": ln.barcode}])


def test_order_numbers_are_found_whatever_the_case(runtime: Runtime) -> None:
    ctx = ctx_for(runtime, DEVICE)
    order = order_in(runtime, "pending")
    assert execute(ctx, "fulfillment.orders.get", id=order.order_number.lower()).id == order.id
    assert execute(ctx, "fulfillment.orders.get", id=order.pick_barcode.lower()).id == order.id


def test_an_order_without_lines_is_read_and_scanned_like_any_other(runtime: Runtime) -> None:
    """The order and its lines come in one statement (an outer join): no lines is an order still."""
    from datetime import UTC, datetime

    from local_db.models.fulfillment import FulfillmentOrder

    ctx = ctx_for(runtime, OWNER)
    now = datetime(2026, 1, 6, tzinfo=UTC)
    with runtime.db.transaction(ctx.tenant_id) as s:
        s.add(FulfillmentOrder(id="empty-order", order_number="SO-EMPTY", pick_barcode="PLEMPTY", created_at=now,
                               updated_at=now))  # fmt: skip
    for ref in ("empty-order", "so-empty"):
        detail = execute(ctx, "fulfillment.orders.get", id=ref)
        assert (detail.id, detail.lines, detail.line_count) == ("empty-order", [], 0)
    with pytest.raises(ValidationFailed) as err:
        op(ctx, " empty-order ", operation="pick", items=[{"code": "4006381333931", "quantity": 1}])
    assert err.value.details["reason"] in ("unknown_code", "not_on_order")


def test_an_order_carries_the_operations_its_state_allows_the_caller(runtime: Runtime) -> None:
    pending = order_in(runtime, "pending")
    staff, device = ctx_for(runtime, OWNER), ctx_for(runtime, DEVICE)
    assert "cancel" in execute(staff, "fulfillment.orders.get", id=pending.id).allowed_actions
    seen = execute(device, "fulfillment.orders.get", id=pending.id)
    assert "pick" in seen.allowed_actions and "cancel" not in seen.allowed_actions  # devices do not cancel
    shipped = order_in(runtime, "shipped")
    assert execute(staff, "fulfillment.orders.get", id=shipped.id).allowed_actions == ["deliver"]
    listed = execute(staff, "fulfillment.orders.list", query={"status": "delivered,cancelled"}).items
    assert listed and all(o.allowed_actions == [] for o in listed)
    done = execute(staff, "fulfillment.orders.operate", id=pending.id, body={"operation": "cancel", "reason": "x"})
    assert (done.status, done.allowed_actions) == ("cancelled", [])
    assert done.cancelled_at is not None and done.created_at <= done.cancelled_at <= done.updated_at

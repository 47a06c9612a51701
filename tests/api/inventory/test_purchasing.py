"""Reorder rules and purchase orders over real HTTP: a run proposes orders per supplier, receipts by
scan move stock (partial, then whole), over-receipt is 409 unless the tenant's tolerance allows it."""

from __future__ import annotations

import httpx
from sqlalchemy import func, select

from local_db.models import Event, Tenant
from local_db.models.inventory import InventoryMovement
from services.core.demo import demo_id
from services.inventory.purchasing import reorder_all
from tests.conftest import LiveServer, auth_headers

BASE = "/demo/inventory/api"


def _qty(client: httpx.Client, h: dict[str, str], sku: str, loc: str = "MAIN") -> int:
    rows = client.get(f"{BASE}/stock", params={"sku": sku, "location_id": loc, "include_children": "false"},
                      headers=h).json()["data"]  # fmt: skip
    return int(rows[0]["quantity"]) if rows else 0


def test_reorder_run_and_receipt_by_scan(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    for sku, supplier, barcode in (("BOLT-1", "ACME", "4000000000011"), ("NUT-1", "ACME", None),
                                   ("WASHER-1", "BETA", None)):  # fmt: skip
        body = {"sku": sku, "supplier": supplier, **({"barcode": barcode} if barcode else {})}
        assert client.post(f"{BASE}/items", json=body, headers=h).status_code == 201
    client.post(f"{BASE}/stock", json={"sku": "BOLT-1", "location_id": "MAIN", "counted": 3}, headers=h)
    client.post(f"{BASE}/stock", json={"sku": "WASHER-1", "location_id": "MAIN", "counted": 50}, headers=h)
    for sku, lo, hi in (("BOLT-1", 10, 40), ("NUT-1", 5, 20), ("WASHER-1", 10, 60)):
        r = client.post(f"{BASE}/reorder-rules", json={"sku": sku, "location_id": "MAIN", "min_quantity": lo,
                                                       "max_quantity": hi}, headers=h)  # fmt: skip
        assert r.status_code == 200, r.text
    bad = client.post(f"{BASE}/reorder-rules", json={"sku": "NUT-1", "location_id": "MAIN", "min_quantity": 9,
                                                     "max_quantity": 9}, headers=h)  # fmt: skip
    assert bad.status_code == 400
    assert client.post(f"{BASE}/reorder-rules", json={"sku": "NUT-1", "location_id": "NOWHERE", "min_quantity": 1,
                                                      "max_quantity": 9}, headers=h).status_code == 404  # fmt: skip

    # The run: BOLT-1 (3 < 10) up to 40, NUT-1 (0 < 5) up to 20, both ACME: one order; WASHER-1 is fine.
    run = client.post(f"{BASE}/reorder-rules/run", headers=h)
    assert run.status_code == 200, run.text
    pos = run.json()["data"]["purchase_orders"]
    assert [(p["supplier"], p["status"], p["origin"]) for p in pos] == [("ACME", "draft", "reorder")]
    assert {ln["sku"]: ln["quantity"] for ln in pos[0]["lines"]} == {"BOLT-1": 37, "NUT-1": 20}
    # What is on order counts: the scheduler's run right after proposes nothing twice.
    assert reorder_all(server.runtime)["purchase_orders"] == 0
    po = pos[0]["number"]

    # A draft is not received; sent, it is received by scanning (a barcode or a SKU), in parts.
    early = client.post(f"{BASE}/purchase-orders/{po}/receive", json={"lines": [{"code": "BOLT-1", "quantity": 1}]},
                        headers=h)  # fmt: skip
    assert early.status_code == 409 and early.json()["details"]["current_state"] == "draft"
    sent = client.patch(f"{BASE}/purchase-orders/{po}", json={"status": "sent"}, headers=h)
    assert sent.status_code == 200 and sent.json()["data"]["status"] == "sent"
    assert client.get(f"{BASE}/purchase-orders/{po.lower()}", headers=h).json()["data"]["id"] == pos[0]["id"]

    def movements() -> int:
        with server.runtime.db.reading(None) as s:
            return int(s.execute(select(func.count()).select_from(InventoryMovement)).scalar_one())

    before = movements()
    over = client.post(f"{BASE}/purchase-orders/{po}/receive", json={"lines": [
        {"code": "4000000000011", "quantity": 30}, {"code": "BOLT-1", "quantity": 8}]}, headers=h)  # fmt: skip
    assert over.status_code == 409 and over.json()["details"]["lines"]["BOLT-1"]["asked"] == 38
    stranger = client.post(f"{BASE}/purchase-orders/{po}/receive", json={"lines": [{"code": "WASHER-1", "quantity": 1}]},
                           headers=h)  # fmt: skip
    assert stranger.status_code == 400 and stranger.json()["details"]["reason"] == "not_on_order"
    assert movements() == before and _qty(client, h, "BOLT-1") == 3

    part = client.post(f"{BASE}/purchase-orders/{po}/receive", json={"lines": [{"code": "4000000000011", "quantity": 30}]},
                       headers=h)  # fmt: skip
    assert part.status_code == 200, part.text
    assert part.json()["data"]["status"] == "partially_received" and _qty(client, h, "BOLT-1") == 33
    # The tenant allows 10 % over: 37 ordered, 30 in, up to 40 in all; 11 more is still too many.
    with server.runtime.db.transaction(None) as s:
        t = s.get(Tenant, demo_id("tenant", "demo"))
        assert t is not None
        t.settings = {**(t.settings or {}), "inventory": {"over_receipt_tolerance_pct": 10}}
    too = client.post(f"{BASE}/purchase-orders/{po}/receive", json={"lines": [{"code": "BOLT-1", "quantity": 11}]},
                      headers=h)  # fmt: skip
    assert too.status_code == 409
    rest = client.post(f"{BASE}/purchase-orders/{po}/receive", json={"lines": [
        {"code": "BOLT-1", "quantity": 10}, {"code": "NUT-1", "quantity": 20}]}, headers=h)  # fmt: skip
    assert rest.status_code == 200, rest.text
    done = rest.json()["data"]
    assert done["status"] == "received" and done["received_at"] is not None
    assert {ln["sku"]: ln["received"] for ln in done["lines"]} == {"BOLT-1": 40, "NUT-1": 20}
    assert (_qty(client, h, "BOLT-1"), _qty(client, h, "NUT-1")) == (43, 20)
    moved = client.get(f"{BASE}/movements", params={"reference": po}, headers=h).json()["data"]
    assert sorted(m["quantity"] for m in moved) == [10, 20, 30] and {m["kind"] for m in moved} == {"receipt"}
    assert client.patch(f"{BASE}/purchase-orders/{po}", json={"status": "cancelled"}, headers=h).status_code == 409
    with server.runtime.db.reading(None) as s:
        kinds = [t for (t,) in s.execute(select(Event.type).where(Event.type.like("purchase_order.%")))]
    assert sorted(set(kinds)) == ["purchase_order.receipt", "purchase_order.received", "purchase_order.sent"]

    # By hand: a draft for one supplier, cancelled; listed by status.
    made = client.post(f"{BASE}/purchase-orders", json={"supplier": "BETA", "location_id": "MAIN",
                                                       "lines": [{"sku": "WASHER-1", "quantity": 5}]}, headers=h)  # fmt: skip
    assert made.status_code == 201
    gone = client.patch(f"{BASE}/purchase-orders/{made.json()['data']['id']}", json={"status": "cancelled"}, headers=h)
    assert gone.status_code == 200 and gone.json()["data"]["status"] == "cancelled"
    listed = client.get(f"{BASE}/purchase-orders", params={"status": "received"}, headers=h).json()["data"]
    assert [p["number"] for p in listed] == [po]
    assert client.get(f"{BASE}/purchase-orders", params={"status": "lost"}, headers=h).status_code == 400
    assert (
        client.post(f"{BASE}/purchase-orders", json={"location_id": "MAIN", "lines": []}, headers=h).status_code == 400
    )


def test_tracked_lines_name_their_lot_or_serials(client: httpx.Client, server: LiveServer) -> None:
    """A lot-tracked item is received with its lot and expiry, a serial-tracked one with a serial a
    unit; a missing or wrong one is 400 and a lot's other expiry 409, with nothing stored."""
    h = auth_headers(client, "owner@demo.test")
    for sku, tracking in (("SYRUP-1", "lot"), ("DRILL-1", "serial"), ("RAG-1", "none")):
        assert client.post(f"{BASE}/items", json={"sku": sku, "tracking": tracking}, headers=h).status_code == 201
    made = client.post(f"{BASE}/purchase-orders", json={"location_id": "MAIN", "lines": [
        {"sku": "SYRUP-1", "quantity": 6}, {"sku": "DRILL-1", "quantity": 2}, {"sku": "RAG-1", "quantity": 5}]},
        headers=h)  # fmt: skip
    po = made.json()["data"]["number"]
    assert client.patch(f"{BASE}/purchase-orders/{po}", json={"status": "sent"}, headers=h).status_code == 200

    def receive(*lines: dict[str, object]) -> httpx.Response:
        return client.post(f"{BASE}/purchase-orders/{po}/receive", json={"lines": list(lines)}, headers=h)

    refused = [
        (receive({"code": "SYRUP-1", "quantity": 2}), 400, "lot_required"),
        (receive({"code": "DRILL-1", "quantity": 1}), 400, "serial_required"),
        (receive({"code": "RAG-1", "quantity": 1, "lot": "L1"}), 400, "not_lot_tracked"),
        (receive({"code": "DRILL-1", "quantity": 2, "serials": ["D-1"]}), 400, None),  # one serial a unit
        (receive({"code": "RAG-1", "quantity": 1, "expires_on": "2027-01-31"}), 400, None),  # an expiry is a lot's
    ]
    for r, status, reason in refused:
        assert r.status_code == status, r.text
        assert reason is None or r.json()["details"]["reason"] == reason
    good = receive({"code": "SYRUP-1", "quantity": 4, "lot": "l-27 01", "expires_on": "2027-01-31"},
                   {"code": "DRILL-1", "quantity": 2, "serials": ["D-1", "d-2"]}, {"code": "RAG-1", "quantity": 1})  # fmt: skip
    assert good.status_code == 200, good.text
    assert {ln["sku"]: ln["received"] for ln in good.json()["data"]["lines"]} == {
        "SYRUP-1": 4,
        "DRILL-1": 2,
        "RAG-1": 1,
    }
    lot = client.get(f"{BASE}/lots/L2701", headers=h).json()["data"]
    assert (lot["sku"], lot["on_hand"], lot["expires_on"]) == ("SYRUP-1", 4, "2027-01-31")
    serial = client.get(f"{BASE}/serials/D-2", headers=h).json()["data"]
    assert (serial["sku"], serial["status"]) == ("DRILL-1", "in_stock")
    # The same lot with another expiry: 409, and the plain line beside it is not received either.
    other = receive({"code": "SYRUP-1", "quantity": 1, "lot": "L2701", "expires_on": "2027-02-28"},
                    {"code": "RAG-1", "quantity": 1})  # fmt: skip
    assert other.status_code == 409 and other.json()["details"]["reason"] == "expiry_differs"
    after = client.get(f"{BASE}/purchase-orders/{po}", headers=h).json()["data"]
    assert after["status"] == "partially_received" and _qty(client, h, "RAG-1") == 1
    assert {ln["sku"]: ln["received"] for ln in after["lines"]}["SYRUP-1"] == 4

"""Inventory routes against a real uvicorn server: stock, locations, transfers, movements, alerts, shipping."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import func, select

from local_db.models import Event
from local_db.models.inventory import InventoryMovement, InventoryStock
from services.core.demo import demo_id
from tests.conftest import LiveServer, auth_headers

BASE = "/demo/inventory/api"
MAIN = demo_id("inventory-location", "demo", "MAIN")
STORE = demo_id("inventory-location", "demo", "STORE")
OTHER_MAIN = demo_id("inventory-location", "other", "MAIN")


def _owner(client: httpx.Client) -> dict[str, str]:
    return auth_headers(client, "owner@demo.test")


def _stock(client: httpx.Client, h: dict[str, str], sku: str, loc: str) -> dict[str, Any]:
    r = client.get(f"{BASE}/stock", params={"location_id": loc, "sku": sku}, headers=h)
    assert r.status_code == 200, r.text
    rows = r.json()["data"]
    return rows[0] if rows else {"quantity": 0, "available": 0}


def _events(server: LiveServer, type_: str) -> list[dict[str, Any]]:
    with server.runtime.db.reading(None) as s:
        return [
            e.data for e in s.execute(select(Event).where(Event.type == type_).order_by(Event.created_at)).scalars()
        ]


def _movements_add_up(server: LiveServer) -> None:
    """For every stock row: what came in minus what went out is its quantity."""
    with server.runtime.db.reading(None) as s:
        rows = s.execute(select(InventoryStock)).scalars().all()
        for r in rows:
            ins = s.execute(
                select(func.coalesce(func.sum(InventoryMovement.quantity), 0)).where(
                    InventoryMovement.tenant_id == r.tenant_id,
                    InventoryMovement.sku == r.sku,
                    InventoryMovement.to_location_id == r.location_id,
                )
            ).scalar_one()
            outs = s.execute(
                select(func.coalesce(func.sum(InventoryMovement.quantity), 0)).where(
                    InventoryMovement.tenant_id == r.tenant_id,
                    InventoryMovement.sku == r.sku,
                    InventoryMovement.from_location_id == r.location_id,
                )
            ).scalar_one()
            assert ins - outs == r.quantity, (r.sku, r.location_id, ins, outs, r.quantity)


# --- stock ---------------------------------------------------------------------------------


def test_stock_by_location_both_page_forms(client: httpx.Client) -> None:
    h = _owner(client)
    a = client.get(f"{BASE}/stock", params={"location_id": MAIN, "limit": 3, "page": 2}, headers=h).json()
    assert a["meta"] == {"page": 2, "limit": 3, "total": 10} and len(a["data"]) == 3
    assert [r["sku"] for r in a["data"]] == sorted(r["sku"] for r in a["data"])
    b = client.get(f"{BASE}/stock", params={"location_id": MAIN, "offset": 8}, headers=h).json()
    assert b["pagination"] == {"total": 10, "limit": 50, "offset": 8} and len(b["data"]) == 2
    row = _stock(client, h, "MUG-CER-01", MAIN)
    assert row["quantity"] == 60 and row["available"] == 60 and row["reserved"] == 0
    assert row["barcode"] == "2000000000039" and row["name"] == "Ceramic mug"
    low = client.get(f"{BASE}/stock", params={"below": 5}, headers=h).json()["data"]
    assert {(r["sku"], r["location_id"]) for r in low} >= {("HDP-USB-C", MAIN)}
    assert client.get(f"{BASE}/stock", params={"sort": "colour"}, headers=h).status_code == 400
    assert client.get(f"{BASE}/stock", params={"page": 0}, headers=h).status_code == 400


def test_adjust_delta_and_count_emit_and_add_up(client: httpx.Client, server: LiveServer) -> None:
    h = _owner(client)
    r = client.post(
        f"{BASE}/stock", json={"sku": "MUG-CER-01", "location_id": MAIN, "delta": -3, "reason": "broken"}, headers=h
    )
    assert r.status_code == 200, r.text
    d = r.json()["data"]
    assert d["quantity"] == 57 and d["available"] == 57 and d["delta"] == -3 and d["movement_id"]
    counted = client.post(
        f"{BASE}/stock", json={"sku": "MUG-CER-01", "location_id": MAIN, "counted": 61}, headers=h
    ).json()["data"]
    assert counted["quantity"] == 61 and counted["delta"] == 4 and counted["counted_at"]
    # A new item's first stock makes its row.
    new = client.post(f"{BASE}/stock", json={"sku": "NEW-1", "location_id": STORE, "delta": 7}, headers=h)
    assert new.status_code == 200 and new.json()["data"]["quantity"] == 7
    adjusted = _events(server, "stock.adjusted")
    assert [e["delta"] for e in adjusted] == [-3, 4, 7]
    assert adjusted[0]["sku"] == "MUG-CER-01" and adjusted[0]["quantity"] == 57 and adjusted[0]["kind"] == "adjustment"
    assert adjusted[1]["kind"] == "count"
    moves = client.get(f"{BASE}/movements", params={"sku": "MUG-CER-01", "location_id": MAIN}, headers=h).json()
    kinds = [m["kind"] for m in moves["data"]]
    assert kinds[:2] == ["count", "adjustment"] and all(m["quantity"] > 0 for m in moves["data"])
    assert moves["data"][1]["from_location_id"] == MAIN and moves["data"][1]["to_location_id"] is None
    assert moves["data"][1]["reason"] == "broken" and moves["data"][1]["actor"]
    _movements_add_up(server)


def test_negative_stock_refused_unless_the_location_allows_it(client: httpx.Client, server: LiveServer) -> None:
    h = _owner(client)
    r = client.post(f"{BASE}/stock", json={"sku": "HDP-USB-C", "location_id": MAIN, "delta": -3}, headers=h)
    assert r.status_code == 409 and r.json()["code"] == "CONFLICT"
    assert r.json()["details"]["quantity"] == 2 and r.json()["details"]["reason"] == "insufficient_stock"
    assert _stock(client, h, "HDP-USB-C", MAIN)["quantity"] == 2
    assert (
        client.post(f"{BASE}/stock", json={"sku": "NOPE", "location_id": MAIN, "delta": -1}, headers=h).status_code
        == 409
    )
    loc = client.post(
        f"{BASE}/locations", json={"code": "BACKORDER", "name": "Back orders", "allow_negative": True}, headers=h
    )
    assert loc.status_code == 201, loc.text
    lid = loc.json()["data"]["id"]
    neg = client.post(f"{BASE}/stock", json={"sku": "HDP-USB-C", "location_id": lid, "delta": -4}, headers=h)
    assert neg.status_code == 200 and neg.json()["data"]["quantity"] == -4
    _movements_add_up(server)


def test_bad_and_oversized_input(client: httpx.Client) -> None:
    h = _owner(client)
    bad: list[dict[str, Any]] = [
        {"sku": "MUG-CER-01", "location_id": MAIN},  # neither delta nor counted
        {"sku": "MUG-CER-01", "location_id": MAIN, "delta": 1, "counted": 3},  # both
        {"sku": "MUG-CER-01", "location_id": MAIN, "delta": 0},
        {"sku": "MUG-CER-01", "location_id": MAIN, "counted": -1},
        {"sku": "MUG-CER-01", "location_id": MAIN, "delta": "many"},
        {"sku": "MUG-CER-01", "location_id": MAIN, "delta": 1, "colour": "red"},  # unknown field
        {"sku": "", "location_id": MAIN, "delta": 1},
        {"sku": "MUG CER", "location_id": MAIN, "delta": 1},
        {"sku": "MUG-CER-01", "location_id": MAIN, "delta": 10**12},
        {"sku": "MUG-CER-01", "location_id": MAIN, "delta": 1, "reason": "x" * 501},
    ]
    for body in bad:
        r = client.post(f"{BASE}/stock", json=body, headers=h)
        assert r.status_code == 400 and r.json()["code"] == "VALIDATION_ERROR", (body, r.text)
    r = client.post(f"{BASE}/stock", content=b"[1, 2]", headers={**h, "Content-Type": "application/json"})
    assert r.status_code == 400
    missing = client.post(
        f"{BASE}/stock", json={"sku": "MUG-CER-01", "location_id": demo_id("x"), "delta": 1}, headers=h
    )
    assert missing.status_code == 404 and missing.json()["code"] == "NOT_FOUND"
    huge = client.post(
        f"{BASE}/stock",
        json={"sku": "MUG-CER-01", "location_id": MAIN, "delta": 1, "reason": "x" * (2 * 1024 * 1024)},
        headers=h,
    )
    assert huge.status_code == 413 and huge.json()["code"] == "PAYLOAD_TOO_LARGE"
    lines = [{"sku": f"S{i}", "quantity": 1} for i in range(501)]
    r = client.post(
        f"{BASE}/transfers", json={"from_location_id": MAIN, "to_location_id": STORE, "lines": lines}, headers=h
    )
    assert r.status_code == 400


def test_duplicate_submit_adjusts_once(client: httpx.Client, server: LiveServer) -> None:
    h = {**_owner(client), "Idempotency-Key": "count-shelf-7"}
    body = {"sku": "BAG-TOTE", "location_id": MAIN, "delta": 5}
    first = client.post(f"{BASE}/stock", json=body, headers=h)
    again = client.post(f"{BASE}/stock", json=body, headers=h)
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    assert _stock(client, h, "BAG-TOTE", MAIN)["quantity"] == 40
    other = client.post(f"{BASE}/stock", json={**body, "delta": 6}, headers=h)
    assert other.status_code == 409
    assert len(_events(server, "stock.adjusted")) == 1


# --- who may call -------------------------------------------------------------------------------


def test_wrong_tenant_and_wrong_role(client: httpx.Client) -> None:
    other = auth_headers(client, "owner@other.test")
    assert client.get(f"{BASE}/stock", headers=other).status_code == 403
    assert (
        client.post(
            f"{BASE}/stock", json={"sku": "MUG-CER-01", "location_id": MAIN, "delta": 1}, headers=other
        ).status_code
        == 403
    )
    # Another tenant's location is not found from demo, and demo's is not found from other.
    h = _owner(client)
    assert (
        client.post(
            f"{BASE}/stock", json={"sku": "TSH-BLK-M", "location_id": OTHER_MAIN, "delta": 1}, headers=h
        ).status_code
        == 404
    )
    r = client.post(
        "/other/inventory/api/stock", json={"sku": "TSH-BLK-M", "location_id": MAIN, "delta": 1}, headers=other
    )
    assert r.status_code == 404
    mine = client.get("/other/inventory/api/stock", headers=other).json()
    assert mine["meta"]["total"] == 2 and {x["location_id"] for x in mine["data"]} == {OTHER_MAIN}
    assert client.get(f"{BASE}/stock").status_code == 401
    device = auth_headers(client, "device@demo.test")  # fulfillment only
    assert client.get(f"{BASE}/stock", headers=device).status_code == 403
    op = auth_headers(client, "operator@demo.test")  # inventory, not a manager
    assert client.get(f"{BASE}/locations", headers=op).status_code == 200
    r = client.post(f"{BASE}/locations", json={"code": "X1", "name": "X"}, headers=op)
    assert r.status_code == 403 and r.json()["code"] == "FORBIDDEN"
    assert (
        client.post(
            f"{BASE}/stock", json={"sku": "MUG-CER-01", "location_id": MAIN, "delta": 1}, headers=op
        ).status_code
        == 200
    )


def test_locations(client: httpx.Client) -> None:
    h = _owner(client)
    listed = client.get(f"{BASE}/locations", headers=h).json()
    assert [x["code"] for x in listed["data"]] == ["LOSS", "MAIN", "STORE", "TRANSIT"]
    r = client.post(f"{BASE}/locations", json={"code": "MAIN-A1", "name": "Aisle 1", "parent_id": MAIN}, headers=h)
    assert r.status_code == 201 and r.json()["data"]["parent_id"] == MAIN and r.json()["data"]["kind"] == "internal"
    assert client.post(f"{BASE}/locations", json={"code": "MAIN-A1", "name": "again"}, headers=h).status_code == 409
    assert (
        client.post(f"{BASE}/locations", json={"code": "Z", "name": "z", "kind": "attic"}, headers=h).status_code == 400
    )
    assert (
        client.post(
            f"{BASE}/locations", json={"code": "Z", "name": "z", "parent_id": demo_id("none")}, headers=h
        ).status_code
        == 400
    )
    assert client.get(f"{BASE}/locations/MAIN", headers=h).json()["data"]["id"] == MAIN
    assert client.get(f"{BASE}/locations", params={"kind": "transit"}, headers=h).json()["meta"]["total"] == 1


# --- transfers ------------------------------------------------------------------------------------


def test_transfer_ship_complete_and_cancel(client: httpx.Client, server: LiveServer) -> None:
    h = _owner(client)
    r = client.post(
        f"{BASE}/transfers",
        json={
            "from_location_id": MAIN,
            "to_location_id": STORE,
            "lines": [{"sku": "TSH-BLK-M", "quantity": 4}, {"sku": "TSH-BLK-M", "quantity": 1}],
        },
        headers=h,
    )
    assert r.status_code == 201, r.text
    t = r.json()["data"]
    assert t["status"] == "draft" and t["lines"] == [{"sku": "TSH-BLK-M", "quantity": 5}]
    # Wrong state: a draft cannot complete.
    bad = client.patch(f"{BASE}/transfers/{t['id']}", json={"status": "completed"}, headers=h)
    assert bad.status_code == 409 and bad.json()["details"]["current_state"] == "draft"
    ship = client.patch(f"{BASE}/transfers", json={"id": t["id"], "status": "in_transit"}, headers=h)  # spec form
    assert ship.status_code == 200 and ship.json()["data"]["status"] == "in_transit"
    assert _stock(client, h, "TSH-BLK-M", MAIN)["quantity"] == 35
    transit = ship.json()["data"]["transit_location_id"]
    assert _stock(client, h, "TSH-BLK-M", transit)["quantity"] == 5
    done = client.patch(f"{BASE}/transfers/{t['id']}", json={"status": "completed"}, headers=h)
    assert done.status_code == 200 and done.json()["data"]["completed_at"]
    assert _stock(client, h, "TSH-BLK-M", STORE)["quantity"] == 11
    assert _stock(client, h, "TSH-BLK-M", transit)["quantity"] == 0
    completed = _events(server, "transfer.completed")
    assert completed == [
        {
            "transfer_id": t["id"],
            "from_location_id": MAIN,
            "to_location_id": STORE,
            "lines": [{"sku": "TSH-BLK-M", "quantity": 5}],
            "completed_at": completed[0]["completed_at"],
        }
    ]
    again = client.patch(f"{BASE}/transfers/{t['id']}", json={"status": "cancelled"}, headers=h)
    assert again.status_code == 409 and again.json()["details"]["current_state"] == "completed"
    back = client.patch(f"{BASE}/transfers/{t['id']}", json={"status": "draft"}, headers=h)
    assert back.status_code == 409

    # The demo's in-transit transfer cancelled: the mugs go back to MAIN.
    demo_t = demo_id("inventory-transfer", "demo", "1")
    c = client.patch(f"{BASE}/transfers/{demo_t}", json={"status": "cancelled"}, headers=h)
    assert c.status_code == 200 and c.json()["data"]["status"] == "cancelled"
    assert _stock(client, h, "MUG-CER-01", MAIN)["quantity"] == 65
    listed = client.get(f"{BASE}/transfers", params={"status": "draft,in_transit"}, headers=h).json()
    assert [x["status"] for x in listed["data"]] == ["draft"]
    assert client.get(f"{BASE}/transfers", params={"status": "lost"}, headers=h).status_code == 400
    assert client.get(f"{BASE}/transfers/{demo_id('nope')}", headers=h).status_code == 404
    _movements_add_up(server)


def test_transfer_short_of_stock_is_refused_whole(client: httpx.Client, server: LiveServer) -> None:
    h = _owner(client)
    t = client.post(
        f"{BASE}/transfers",
        json={
            "from_location_id": MAIN,
            "to_location_id": STORE,
            "lines": [{"sku": "CAP-NVY", "quantity": 3}, {"sku": "HDP-USB-C", "quantity": 9}],
        },
        headers=h,
    )
    assert t.status_code == 201  # a draft may exceed the stock
    r = client.patch(f"{BASE}/transfers/{t.json()['data']['id']}", json={"status": "in_transit"}, headers=h)
    assert r.status_code == 409
    assert r.json()["details"]["lines"] == [{"sku": "HDP-USB-C", "quantity": 9, "on_hand": 2}]
    assert _stock(client, h, "CAP-NVY", MAIN)["quantity"] == 18  # nothing moved
    assert client.get(f"{BASE}/transfers/{t.json()['data']['id']}", headers=h).json()["data"]["status"] == "draft"
    for body in (
        {"from_location_id": MAIN, "to_location_id": MAIN, "lines": [{"sku": "A", "quantity": 1}]},
        {"from_location_id": MAIN, "to_location_id": STORE, "lines": []},
        {"from_location_id": MAIN, "to_location_id": STORE, "lines": [{"sku": "A", "quantity": 0}]},
        {"from_location_id": MAIN, "to_location_id": OTHER_MAIN, "lines": [{"sku": "A", "quantity": 1}]},
    ):
        assert client.post(f"{BASE}/transfers", json=body, headers=h).status_code == 400, body
    _movements_add_up(server)


# --- alerts ---------------------------------------------------------------------------------------


def test_alert_rules_open_acknowledge_resolve(client: httpx.Client, server: LiveServer) -> None:
    h = _owner(client)
    listed = client.get(f"{BASE}/alerts", params={"state": "open"}, headers=h).json()["data"]
    assert [(a["sku"], a["threshold"], a["available"]) for a in listed] == [("HDP-USB-C", 5, 2)]
    rules = client.get(f"{BASE}/alerts", params={"rules": "true"}, headers=h).json()
    assert rules["meta"]["total"] == 2 and {r["sku"] for r in rules["data"]} == {"HDP-USB-C", "PEN-GEL-BLU"}
    # A rule already breached opens its alert at once.
    r = client.post(f"{BASE}/alerts", json={"sku": "SCK-GRY-3P", "location_id": STORE, "threshold": 10}, headers=h)
    assert r.status_code == 201 and r.json()["data"]["threshold"] == 10
    low = _events(server, "stock.low")
    assert [(e["sku"], e["available"], e["threshold"]) for e in low] == [("SCK-GRY-3P", 8, 10)]
    alert = client.get(f"{BASE}/alerts", params={"sku": "SCK-GRY-3P"}, headers=h).json()["data"][0]
    ack = client.patch(f"{BASE}/alerts", json={"id": alert["id"], "action": "acknowledge"}, headers=h)  # spec form
    assert ack.status_code == 200 and ack.json()["data"]["state"] == "acknowledged"
    assert client.patch(f"{BASE}/alerts/{alert['id']}", json={"action": "acknowledge"}, headers=h).status_code == 409
    # Falling further keeps the one alert; back above the threshold resolves it by itself.
    client.post(f"{BASE}/stock", json={"sku": "SCK-GRY-3P", "location_id": STORE, "delta": -2}, headers=h)
    assert len(_events(server, "stock.low")) == 1
    client.post(f"{BASE}/stock", json={"sku": "SCK-GRY-3P", "location_id": STORE, "delta": 10}, headers=h)
    got = client.get(f"{BASE}/alerts/{alert['id']}", headers=h).json()["data"]
    assert got["state"] == "resolved" and got["available"] == 16 and got["resolved_at"]
    # Below again: a new alert (the rule's last one is resolved).
    client.post(f"{BASE}/stock", json={"sku": "SCK-GRY-3P", "location_id": STORE, "delta": -8}, headers=h)
    assert len(_events(server, "stock.low")) == 2
    # The demo alert resolved by a person; resolving it twice is the wrong state.
    demo_alert = demo_id("inventory-alert", "demo", "HDP-USB-C")
    assert client.patch(f"{BASE}/alerts/{demo_alert}", json={"action": "resolve"}, headers=h).status_code == 200
    again = client.patch(f"{BASE}/alerts/{demo_alert}", json={"action": "resolve"}, headers=h)
    assert again.status_code == 409 and again.json()["details"]["current_state"] == "resolved"
    assert client.patch(f"{BASE}/alerts/{demo_alert}", json={"action": "snooze"}, headers=h).status_code == 400
    assert client.post(f"{BASE}/alerts", json={"sku": "A", "threshold": -1}, headers=h).status_code == 400
    assert (
        client.post(
            f"{BASE}/alerts", json={"sku": "A", "location_id": OTHER_MAIN, "threshold": 1}, headers=h
        ).status_code
        == 404
    )
    device = auth_headers(client, "device@demo.test")
    assert client.patch(f"{BASE}/alerts/{demo_alert}", json={"action": "resolve"}, headers=device).status_code == 403


# --- fulfillment ----------------------------------------------------------------------------------


def _ship_packed(client: httpx.Client, h: dict[str, str]) -> dict[str, Any]:
    orders = client.get(
        "/demo/fulfillment/api/orders", params={"status": "packed", "sort": "created_at"}, headers=h
    ).json()["data"]
    o = client.get(f"/demo/fulfillment/api/orders/{orders[0]['id']}", headers=h).json()["data"]
    r = client.post(f"/demo/fulfillment/api/orders/{o['id']}/operations", json={"operation": "ship"}, headers=h)
    assert r.status_code == 200, r.text
    return o


def test_shipping_takes_the_lines_out_of_stock(client: httpx.Client, server: LiveServer) -> None:
    h = _owner(client)
    o = client.get("/demo/fulfillment/api/orders", params={"status": "packed", "sort": "created_at"}, headers=h).json()[
        "data"
    ][0]
    lines = client.get(f"/demo/fulfillment/api/orders/{o['id']}", headers=h).json()["data"]["lines"]
    before = {ln["sku"]: _stock(client, h, ln["sku"], MAIN)["quantity"] for ln in lines}
    _ship_packed(client, h)
    wanted: dict[str, int] = {}
    for ln in lines:
        wanted[ln["sku"]] = wanted.get(ln["sku"], 0) + ln["quantity"]
    for sku, qty in wanted.items():
        assert _stock(client, h, sku, MAIN)["quantity"] == before[sku] - qty
    moves = client.get(
        f"{BASE}/movements", params={"kind": "shipment", "reference": o["order_number"]}, headers=h
    ).json()["data"]
    assert {(m["sku"], m["quantity"], m["from_location_id"]) for m in moves} == {
        (sku, q, MAIN) for sku, q in wanted.items()
    }
    _movements_add_up(server)


def test_short_stock_still_ships_and_opens_an_alert(client: httpx.Client, server: LiveServer) -> None:
    h = _owner(client)
    o = client.get("/demo/fulfillment/api/orders", params={"status": "packed", "sort": "created_at"}, headers=h).json()[
        "data"
    ][0]
    lines = client.get(f"/demo/fulfillment/api/orders/{o['id']}", headers=h).json()["data"]["lines"]
    sku = lines[0]["sku"]
    on_hand = _stock(client, h, sku, MAIN)["quantity"]
    # Empty the shelf first: the ship must take the row below zero, not be refused.
    client.post(f"{BASE}/stock", json={"sku": sku, "location_id": MAIN, "counted": 0}, headers=h)
    assert on_hand > 0
    _ship_packed(client, h)
    row = _stock(client, h, sku, MAIN)
    assert row["quantity"] < 0
    alerts = client.get(f"{BASE}/alerts", params={"sku": sku, "state": "open"}, headers=h).json()["data"]
    assert len(alerts) == 1 and alerts[0]["available"] == row["quantity"] and o["order_number"] in alerts[0]["reason"]
    assert any(e["sku"] == sku for e in _events(server, "stock.low"))
    # Restocking resolves it.
    client.post(f"{BASE}/stock", json={"sku": sku, "location_id": MAIN, "delta": 10}, headers=h)
    assert client.get(f"{BASE}/alerts/{alerts[0]['id']}", headers=h).json()["data"]["state"] == "resolved"
    _movements_add_up(server)

"""Repair orders over HTTP on a real server (issue 34 part 4): a claim becomes a repair order that
is diagnosed, repaired with parts taken from stock (or replaced by a unit from stock) and returned;
wrong states are 409 with the current state, parts beyond stock are 409 and store nothing."""

from __future__ import annotations

import httpx

from services.core.demo import demo_id
from tests.conftest import auth_headers

BASE = "/demo/aftersale/api"
INV = "/demo/inventory/api"


def on_hand(client: httpx.Client, staff: dict[str, str], sku: str) -> int:
    r = client.get(f"{INV}/stock", params={"location_id": "MAIN", "sku": sku, "include_children": "false"},
                   headers=staff)  # fmt: skip
    assert r.status_code == 200, r.text
    return sum(row["quantity"] for row in r.json()["data"])


def test_a_claim_repaired_with_parts_from_stock_then_returned(client: httpx.Client) -> None:
    staff = auth_headers(client, "admin@demo.test")
    claim = demo_id("aftersale-claim", "c1")  # open, on a T-shirt's warranty
    made = client.post(f"{BASE}/claims/{claim}/repairs", json={"note": "came in by post"}, headers=staff)
    assert made.status_code == 201, made.text
    ro = made.json()["data"]
    assert ro["status"] == "received" and ro["number"].startswith("RO-") and ro["serial_number"] == "SN-TSH-000101"
    assert set(ro["allowed_actions"]) == {"diagnose", "cancel"}
    assert client.get(f"{BASE}/claims/{claim}", headers=staff).json()["data"]["status"] == "in_progress"
    again = client.post(f"{BASE}/claims/{claim}/repairs", json={}, headers=staff)
    assert again.status_code == 409 and again.json()["details"]["number"] == ro["number"]
    act = f"{BASE}/repairs/{ro['id']}"
    early = client.post(act, json={"action": "repair"}, headers=staff)
    assert early.status_code == 409 and early.json()["details"]["current_state"] == "received"
    assert client.post(act, json={"action": "diagnose"}, headers=staff).status_code == 400  # no diagnosis
    d = client.post(act, json={"action": "diagnose", "diagnosis": "seam open, 10 cm"}, headers=staff)
    assert d.status_code == 200 and d.json()["data"]["status"] == "diagnosed"
    # Parts beyond stock: 409 with the figures, and nothing changes (state, stock).
    pens, phones = on_hand(client, staff, "PEN-GEL-BLU"), on_hand(client, staff, "HDP-USB-C")
    parts = [{"sku": "PEN-GEL-BLU", "quantity": 2}, {"sku": "HDP-USB-C", "quantity": phones + 1}]
    short = client.post(act, json={"action": "repair", "parts": parts, "location": "MAIN"}, headers=staff)
    assert short.status_code == 409, short.text
    assert short.json()["details"] == {**short.json()["details"], "reason": "insufficient_stock", "sku": "HDP-USB-C"}
    assert client.get(act, headers=staff).json()["data"]["status"] == "diagnosed"
    assert on_hand(client, staff, "PEN-GEL-BLU") == pens and on_hand(client, staff, "HDP-USB-C") == phones
    nowhere = client.post(act, json={"action": "repair", "parts": parts[:1]}, headers=staff)
    assert nowhere.status_code == 400 and "location" in nowhere.text
    fixed = client.post(act, json={"action": "repair", "parts": parts[:1], "location": "MAIN"}, headers=staff)
    assert fixed.status_code == 200, fixed.text
    used = fixed.json()["data"]["parts"]
    assert [(p["sku"], p["quantity"]) for p in used] == [("PEN-GEL-BLU", 2)] and used[0]["movement_id"]
    assert on_hand(client, staff, "PEN-GEL-BLU") == pens - 2
    moves = client.get(f"{INV}/movements", params={"sku": "PEN-GEL-BLU"}, headers=staff).json()["data"]
    assert any(m["id"] == used[0]["movement_id"] and ro["number"] in (m.get("reason") or "") for m in moves)
    back = client.post(act, json={"action": "return"}, headers=staff)
    assert back.json()["data"]["status"] == "returned" and back.json()["data"]["returned_at"]
    late = client.post(act, json={"action": "cancel"}, headers=staff)
    assert late.status_code == 409 and late.json()["details"]["current_state"] == "returned"
    by_number = client.get(f"{BASE}/repairs/{ro['number']}", headers=staff)
    assert by_number.json()["data"]["id"] == ro["id"]
    assert client.get(f"{BASE}/repairs", headers=auth_headers(client, "device@demo.test")).status_code == 403


def test_a_unit_replaced_from_stock_after_a_cancelled_repair(client: httpx.Client) -> None:
    staff = auth_headers(client, "admin@demo.test")
    claim = demo_id("aftersale-claim", "c2")  # in progress, on a mug's warranty
    first = client.post(f"{BASE}/claims/{claim}/repairs", json={}, headers=staff).json()["data"]
    gone = client.post(f"{BASE}/repairs/{first['id']}", json={"action": "cancel"}, headers=staff)
    assert gone.json()["data"]["status"] == "cancelled"
    ro = client.post(f"{BASE}/claims/{claim}/repairs", json={}, headers=staff).json()["data"]
    assert ro["number"].endswith("-2") and ro["number"] != first["number"]
    act = f"{BASE}/repairs/{ro['id']}"
    bad = client.post(act, json={"action": "diagnose", "diagnosis": "x", "parts": [{"sku": "MUG-CER-01",
                                                                                      "quantity": 1}]}, headers=staff)  # fmt: skip
    assert bad.status_code == 400
    client.post(act, json={"action": "diagnose", "diagnosis": "glaze cracked"}, headers=staff)
    mugs = on_hand(client, staff, "MUG-CER-01")
    new = client.post(act, json={"action": "replace", "location": "MAIN", "replacement_serial": "SN-MUG-900001"},
                      headers=staff)  # fmt: skip
    assert new.status_code == 200, new.text
    data = new.json()["data"]
    assert data["status"] == "replaced" and data["replacement_serial"] == "SN-MUG-900001"
    assert [(p["sku"], p["quantity"], p["replacement"]) for p in data["parts"]] == [("MUG-CER-01", 1, True)]
    assert on_hand(client, staff, "MUG-CER-01") == mugs - 1
    listed = client.get(f"{BASE}/repairs", params={"claim_id": claim}, headers=staff).json()
    assert {r["status"] for r in listed["data"]} == {"cancelled", "replaced"}
    closed = demo_id("aftersale-claim", "c3")
    refused = client.post(f"{BASE}/claims/{closed}/repairs", json={}, headers=staff)
    assert refused.status_code == 409 and refused.json()["details"]["current_state"] == "closed"


def test_a_lot_tracked_part_names_its_lot(client: httpx.Client) -> None:
    """Inventory refuses a tracked item's change without its code: a repair's part names its lot, and a
    part without one is 400 with nothing taken (the repair stays diagnosed)."""
    staff = auth_headers(client, "admin@demo.test")
    assert client.patch(f"{INV}/items/BTL-STL-750", json={"tracking": "lot"}, headers=staff).status_code == 200
    lot = {"sku": "BTL-STL-750", "code": "L-REP-1", "location_id": "MAIN", "quantity": 4}
    assert client.post(f"{INV}/lots", json=lot, headers=staff).status_code == 201
    claim = demo_id("aftersale-claim", "c1")
    ro = client.post(f"{BASE}/claims/{claim}/repairs", json={}, headers=staff).json()["data"]
    act = f"{BASE}/repairs/{ro['id']}"
    client.post(act, json={"action": "diagnose", "diagnosis": "cap lost"}, headers=staff)
    bare = {"action": "repair", "location": "MAIN", "parts": [{"sku": "BTL-STL-750", "quantity": 1}]}
    refused = client.post(act, json=bare, headers=staff)
    assert refused.status_code == 400 and "lot" in refused.text, refused.text
    assert client.get(act, headers=staff).json()["data"]["status"] == "diagnosed"
    two_serials = {**bare, "parts": [{"sku": "BTL-STL-750", "quantity": 2, "serial": "X1"}]}
    assert client.post(act, json=two_serials, headers=staff).status_code == 400
    named = {**bare, "parts": [{"sku": "BTL-STL-750", "quantity": 1, "lot": "L-REP-1"}]}
    done = client.post(act, json=named, headers=staff)
    assert done.status_code == 200, done.text
    assert [(p["sku"], p["quantity"]) for p in done.json()["data"]["parts"]] == [("BTL-STL-750", 1)]
    held = client.get(f"{INV}/lots/L-REP-1", headers=staff).json()["data"]
    assert held["on_hand"] == 3

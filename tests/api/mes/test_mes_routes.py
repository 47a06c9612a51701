"""MES routes against a real uvicorn server: every spec path, a gateway with an API key, wrong
state, wrong tenant and role, bad input and a repeated submit."""

from __future__ import annotations

import httpx

from services.core.demo import demo_id
from tests.conftest import auth_headers

B = "/demo/mes/api"
CNC1 = demo_id("mes-machine", "CNC-01")
PRS1 = demo_id("mes-machine", "PRS-01")


def test_machines_runs_and_gateway_events(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    listed = client.get(f"{B}/machines", params={"limit": 100}, headers=h)
    assert listed.status_code == 200 and listed.json()["meta"]["total"] >= 4
    assert client.get(f"{B}/machines", params={"offset": 0, "limit": 2}, headers=h).json()["pagination"]["limit"] == 2
    made = client.post(f"{B}/machines", json={"code": "lathe-9", "name": "Lathe", "ideal_cycle_seconds": 30}, headers=h)
    assert made.status_code == 201, made.text
    mid = made.json()["data"]["id"]
    assert made.json()["data"]["code"] == "LATHE-9" and made.json()["data"]["status"] == "offline"
    assert client.post(f"{B}/machines", json={"code": "LATHE-9", "name": "Twin"}, headers=h).status_code == 409
    put = client.put(f"{B}/machines/{mid}", json={"status": "down", "reason": "breakdown"}, headers=h)
    assert put.status_code == 200 and put.json()["data"]["reason"] == "breakdown"
    again = client.put(f"{B}/machines/{mid}", json={"status": "down"}, headers=h)
    assert again.status_code == 409 and again.json()["code"] == "CONFLICT"
    # A gateway with an API key of the module reports events; one event alone is a list of one.
    key = client.post("/api/tenants/demo/api-keys", json={"name": "gw", "modules": ["mes"]}, headers=h).json()["data"][
        "key"
    ]
    gw = {"X-API-Key": key}
    ev = client.post(
        f"{B}/machines/{mid}/events",
        json={"events": [{"type": "status", "status": "running"}, {"type": "count", "good": 9, "scrap": 1}]},
        headers={**gw, "Idempotency-Key": "gw-1"},
    )
    assert ev.status_code == 200, ev.text
    assert ev.json()["data"]["status_changes"] == 1 and ev.json()["data"]["machine"]["status"] == "running"
    twice = client.post(
        f"{B}/machines/{mid}/events",
        json={"events": [{"type": "status", "status": "running"}, {"type": "count", "good": 9, "scrap": 1}]},
        headers={**gw, "Idempotency-Key": "gw-1"},
    )
    assert twice.json() == ev.json()  # the repeat is answered from the first, counted once
    one = client.post(
        f"{B}/machines/{mid}/events", json={"type": "alarm", "code": "E1", "severity": "high"}, headers=gw
    )
    assert one.status_code == 200 and one.json()["data"]["alarms_raised"] == 1
    bad = client.post(f"{B}/machines/{mid}/events", json={"type": "alarm", "severity": "apocalyptic"}, headers=gw)
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    live = client.get(f"{B}/machines/{mid}/status", headers=h).json()["data"]
    assert live["status"] == "running" and live["today"]["good"] == 9 and live["alarms"][0]["code"] == "E1"
    # Runs: create, start, count, complete, then frozen.
    run = client.post(
        f"{B}/production/runs", json={"machine_id": mid, "product": "Pin", "planned_quantity": 50}, headers=h
    )
    assert run.status_code == 201 and run.json()["data"]["status"] == "planned"
    rid = run.json()["data"]["id"]
    assert (
        client.put(f"{B}/production/runs/{rid}", json={"status": "running"}, headers=h).json()["data"]["status"]
        == "running"
    )
    counted = client.put(f"{B}/production/runs/{rid}", json={"good": 4, "scrap": 1}, headers=h).json()["data"]
    assert (counted["good_count"], counted["scrap_count"]) == (4, 1)
    done = client.put(f"{B}/production/runs/{rid}", json={"status": "completed"}, headers=h)
    assert done.status_code == 200 and done.json()["data"]["ended_at"]
    frozen = client.put(f"{B}/production/runs/{rid}", json={"good": 1}, headers=h)
    assert frozen.status_code == 409 and frozen.json()["details"]["current"] == "completed"
    parts = client.get(f"{B}/production/runs/{rid}/parts", headers=h).json()
    assert parts["meta"]["total"] == 1 and parts["data"][0]["good"] == 4
    assert client.get(f"{B}/production/runs", params={"machine_id": mid}, headers=h).json()["meta"]["total"] == 1
    assert client.put(f"{B}/production/runs/nope", json={"good": 1}, headers=h).status_code == 404


def test_oee_alarms_shifts_and_strangers(client: httpx.Client) -> None:
    h = auth_headers(client, "admin@demo.test")
    overall = client.get(f"{B}/oee", headers=h)
    assert overall.status_code == 200, overall.text
    assert set(overall.json()["data"]) >= {
        "availability",
        "performance",
        "quality",
        "oee",
        "planned_seconds",
        "run_seconds",
        "total_count",
        "good_count",
    }
    by_machine = client.get(f"{B}/oee/by-machine", params={"limit": 100}, headers=h).json()
    assert CNC1 in {r["machine_id"] for r in by_machine["data"]} and by_machine["meta"]["total"] >= 4
    by_shift = client.get(f"{B}/oee/by-shift", params={"from": "2026-01-01", "to": "2026-01-02"}, headers=h).json()
    assert {r["name"] for r in by_shift["data"]} == {"Early", "Late", "Night"}
    assert client.get(f"{B}/oee", params={"from": "not-a-date"}, headers=h).status_code == 400
    active = client.get(f"{B}/alarms/active", headers=h).json()["data"]
    demo_alarm = next(a for a in active if a["machine_id"] == PRS1)
    assert demo_alarm["state"] == "active_unacknowledged"
    ack = client.put(f"{B}/alarms/{demo_alarm['id']}/acknowledge", headers=h)
    assert ack.status_code == 200 and ack.json()["data"]["state"] == "active_acknowledged"
    twice = client.put(f"{B}/alarms/{demo_alarm['id']}/acknowledge", headers=h)
    assert twice.status_code == 409
    assert client.get(f"{B}/alarms", params={"state": "active_acknowledged"}, headers=h).json()["meta"]["total"] >= 1
    shifts = client.get(f"{B}/shifts", headers=h).json()
    assert shifts["meta"]["total"] == 3
    made = client.post(f"{B}/shifts", json={"name": "Sat", "start": "07:00", "end": "12:00", "days": [6]}, headers=h)
    assert made.status_code == 201 and made.json()["data"]["days"] == [6]
    assert client.post(f"{B}/shifts", json={"name": "x", "start": "7am", "end": "12:00"}, headers=h).status_code == 400
    report = client.get(f"{B}/shifts/{demo_id('mes-shift', 'early')}/report", params={"date": "2026-01-05"}, headers=h)
    assert report.status_code == 200 and {"oee", "stops", "good_count", "scrap_count"} <= set(report.json()["data"])
    # Strangers: no credentials, a device, an operator without the module, another tenant.
    assert client.get(f"{B}/machines").status_code == 401
    assert client.get(f"{B}/machines", headers=auth_headers(client, "device@demo.test")).status_code == 403
    assert client.get(f"{B}/oee", headers=auth_headers(client, "operator@demo.test")).status_code == 403
    other = auth_headers(client, "owner@other.test")
    assert client.get(f"/other/mes/api/machines/{CNC1}", headers=other).status_code == 404
    assert client.put(f"/other/mes/api/alarms/{demo_alarm['id']}/acknowledge", headers=other).status_code == 404
    assert client.get(f"{B}/machines", headers=other).status_code in (401, 403)


def test_stop_reasons_over_http(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    got = client.get("/demo/mes/api/stop-reasons", headers=h)
    assert got.status_code == 200
    reasons = {r["reason"]: r for r in got.json()["data"]["reasons"]}
    assert reasons["break"]["category"] == "planned" and reasons["breakdown"]["category"] == "unplanned"
    mid = demo_id("mes-machine", "PKG-01")
    bad = client.put(f"/demo/mes/api/machines/{mid}", json={"status": "down", "reason": "coffee"}, headers=h)
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    ok = client.put(f"/demo/mes/api/machines/{mid}", json={"status": "down", "reason": "Breakdown"}, headers=h)
    assert ok.status_code == 200 and ok.json()["data"]["reason"] == "breakdown"
    oee = client.get("/demo/mes/api/oee", headers=h).json()["data"]
    assert {"unplanned_stop_seconds", "planned_stop_seconds", "offline_seconds", "unrecorded_seconds"} <= set(oee)

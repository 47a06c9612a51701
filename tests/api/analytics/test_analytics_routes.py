"""Analytics routes on a real server: metrics, dashboards (owner/admin create), report jobs and
their downloads, customer upserts (201 then 200), and the refusals."""

from __future__ import annotations

import time

import httpx

from tests.conftest import auth_headers

BASE = "/demo/analytics/api"


def test_metrics_dashboards_reports_customers(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    r = client.post(
        f"{BASE}/metrics",
        json={"name": "visits", "value": 3, "at": "2026-02-03T10:00:00Z", "dimensions": {"src": "ad"}},
        headers=h,
    )
    assert r.status_code == 201, r.text
    s = client.get(
        f"{BASE}/metrics",
        params={"name": "visits", "from": "2026-02-01", "to": "2026-02-07", "group_by": "src"},
        headers=h,
    )
    assert s.status_code == 200 and s.json()["data"] == [
        {"bucket": "2026-02-03", "value": 3.0, "count": 1, "group": "ad"}
    ]
    assert client.get(f"{BASE}/metrics", params={"name": "visits", "interval": "year"}, headers=h).status_code == 400
    assert client.post(f"{BASE}/metrics", json={"name": "visits", "value": "lots"}, headers=h).status_code == 400

    dash = {
        "name": "D",
        "widgets": [{"title": "V", "metric": "visits", "interval": "week", "chart": "bar", "filters": {"days": 28}}],
    }
    made = client.post(f"{BASE}/dashboards", json=dash, headers=auth_headers(client, "admin@demo.test"))
    assert made.status_code == 201
    data = client.get(f"{BASE}/dashboards/{made.json()['data']['id']}/data", headers=h).json()["data"]
    assert data["widgets"][0]["chart"] == "bar"
    assert client.get(f"{BASE}/dashboards", headers=h).json()["meta"]["total"] >= 3
    assert (
        client.post(f"{BASE}/dashboards", json=dash, headers=auth_headers(client, "operator@demo.test")).status_code
        == 403
    )
    assert client.get(f"{BASE}/dashboards").status_code == 401

    rep = client.post(
        f"{BASE}/reports",
        json={
            "name": "Weekly",
            "metrics": ["sales.revenue"],
            "from": "2026-01-01",
            "to": "2026-01-31",
            "format": "xlsx",
        },
        headers=h,
    )
    assert rep.status_code == 201 and rep.json()["data"]["status"] in ("queued", "running", "succeeded")
    rid = rep.json()["data"]["id"]
    deadline = time.monotonic() + 20
    while (got := client.get(f"{BASE}/reports/{rid}", headers=h).json()["data"])["status"] != "succeeded":
        assert time.monotonic() < deadline and got["status"] != "failed", got
        time.sleep(0.05)
    assert got["download_url"] == f"{BASE}/reports/{rid}/download" and got["from"] == "2026-01-01"
    f = client.get(got["download_url"], headers=h)
    assert (
        f.status_code == 200
        and f.headers["content-type"].startswith("application/vnd.openxmlformats")
        and f.content[:2] == b"PK"
    )
    listed = client.get(f"{BASE}/reports", headers=h).json()["data"]
    assert any(x["id"] == rid and x["download_url"] for x in listed)
    assert (
        client.post(
            f"{BASE}/reports", json={"name": "x", "metrics": [], "from": "2026-01-01", "to": "2026-01-02"}, headers=h
        ).status_code
        == 400
    )

    first = client.post(f"{BASE}/customers", json={"email": "z@shop.test", "set_once": {"src": "ad"}}, headers=h)
    second = client.post(
        f"{BASE}/customers", json={"email": "Z@shop.test", "set": {"plan": "pro"}, "set_once": {"src": "x"}}, headers=h
    )
    assert (first.status_code, second.status_code) == (201, 200)
    assert second.json()["data"]["attributes"] == {"src": "ad", "plan": "pro"}
    assert client.get(f"{BASE}/customers", headers=auth_headers(client, "owner@other.test")).status_code == 403


def test_alerts_schedules_and_a_dashboards_shared_range_over_http(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    assert client.post(f"{BASE}/metrics", json={"name": "signups", "value": 2}, headers=h).status_code == 201
    alert = {"name": "Signups", "metric": "signups", "threshold": 100, "window_days": 7, "recipients": ["a@b.example"]}
    made = client.post(f"{BASE}/alerts", json=alert, headers=h)
    assert made.status_code == 201 and made.json()["data"]["state"] == "ok", made.text
    bad = client.post(f"{BASE}/alerts", json={**alert, "metric": "nope"}, headers=h)
    assert bad.status_code == 400 and "unknown metric 'nope'" in bad.json()["error"]
    assert client.post(f"{BASE}/alerts", json={**alert, "window_days": 0}, headers=h).status_code == 400
    operator = auth_headers(client, "operator@demo.test")
    assert client.post(f"{BASE}/alerts", json=alert, headers=operator).status_code == 403
    assert [a["name"] for a in client.get(f"{BASE}/alerts", headers=h).json()["data"]] == ["Signups"]

    dash = {"name": "D", "widgets": [{"title": "S", "metric": "signups"}, {"title": "T", "metric": "signups"}]}
    d = client.post(f"{BASE}/dashboards", json=dash, headers=h).json()["data"]["id"]
    got = client.get(f"{BASE}/dashboards/{d}/data", params={"from": "2026-02-01", "to": "2026-02-10"}, headers=h)
    body = got.json()["data"]
    assert (body["from"], body["to"]) == ("2026-02-01", "2026-02-10")
    assert [len(w["series"]) for w in body["widgets"]] == [10, 10]
    assert (
        client.get(
            f"{BASE}/dashboards/{d}/data", params={"from": "2026-02-10", "to": "2026-02-01"}, headers=h
        ).status_code
        == 400
    )

    sched = {"name": "Weekly", "dashboard_id": d, "format": "csv", "recipients": ["a@b.example"]}
    r = client.post(f"{BASE}/scheduled-reports", json=sched, headers=h)
    assert r.status_code == 201 and r.json()["data"]["every"] == "week", r.text
    assert (
        client.post(f"{BASE}/scheduled-reports", json={**sched, "dashboard_id": "nope"}, headers=h).status_code == 400
    )
    assert client.delete(f"{BASE}/scheduled-reports/{r.json()['data']['id']}", headers=h).status_code in (200, 204)

"""Route lookup by table (api/routetable.py, issue 38 part 1): for every route of the real app, a
request to it finds, among the table's few candidates, the route the router's full scan finds."""

from __future__ import annotations

import re

import httpx
from starlette.routing import Match, Route

from api.app import create_app
from api.routetable import RouteTable
from services.core.context import Runtime
from tests.conftest import LiveServer, auth_headers


def first_match(routes: list, scope: dict) -> object | None:
    for r in routes:
        if r.matches(scope)[0] == Match.FULL:
            return r
    return None


def test_the_table_finds_what_the_scan_finds_for_every_route(runtime: Runtime) -> None:
    app = create_app(runtime, rate_limits="off")
    routes = list(app.router.routes)
    table = RouteTable(routes)
    checked = 0
    for route in routes:
        if not isinstance(route, Route):
            continue
        for value in ("demo", "x-1", "api"):  # a parameter may take a value another route spells out
            path = re.sub(r"\{[^}]+\}", value, route.path)
            for method in sorted(route.methods or {"GET"}):
                scope = {"type": "http", "path": path, "method": method, "root_path": ""}
                found = table.candidates(path)
                assert first_match(found, scope) is first_match(routes, scope), (method, path)
                assert len(found) < len(routes) / 4 or route.path.count("/") < 2, (path, len(found))
                checked += 1
    assert checked > 300


def test_answers_the_scan_gave_stay_the_same(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    assert client.get("/demo/fulfillment/api/orders", headers=h).status_code == 200
    assert client.get("/health").json() == {"status": "ok"}
    # No route: 404; a path a route has with another method: 405 with the allowed ones.
    assert client.get("/demo/fulfillment/api/no-such-thing", headers=h).status_code == 404
    r = client.delete("/demo/fulfillment/api/orders", headers=h)
    assert r.status_code == 405 and "GET" in r.headers["allow"]
    # The login route answers its POST, and a tenant named like a literal segment is a tenant.
    assert client.get("/api/auth/login").status_code == 405
    assert client.get("/api/fulfillment/api/orders", headers=h).status_code == 404

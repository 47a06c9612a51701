"""Route lookup by a table, not a scan of every route (issue 38, part 1).

The router tries its ~140 routes in order, a regular expression each (FastAPI's own checks on
top): about a tenth of a list request's CPU. The table groups the routes by the number of path
segments and the literal third segment (the module of ``/{tenant}/<module>/api/...``, the
``tenants`` of ``/api/tenants/...``), then keeps those whose literal segments equal the request's:
a handful, tried by the router's own code in their original order. Routes the table cannot reason
about (a ``:path`` parameter, a mount, a segment mixing text and a parameter) are kept in every
group, so the first route that matches is the one the full scan would find. A request that no
candidate matches (a 404, a redirect to the path with or without its slash) goes to the full scan,
so those answers do not change either.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

from starlette.routing import BaseRoute, Match, Route, get_route_path

Scope = MutableMapping[str, Any]
ASGI = Callable[[Scope, Any, Any], Awaitable[None]]
# (the route, its segment count or None (any), its literal segments: (position, text))
Entry = tuple[BaseRoute, int | None, tuple[tuple[int, str], ...]]


def _entry(route: BaseRoute) -> Entry:
    path = getattr(route, "path", None)
    if not isinstance(route, Route) or not isinstance(path, str) or ":path}" in path:
        return route, None, ()
    segments = path.split("/")
    literals = []
    for i, seg in enumerate(segments):
        if "{" not in seg:
            literals.append((i, seg))
        elif not (seg.startswith("{") and seg.endswith("}") and seg.count("{") == 1):
            return route, None, ()  # "file.{ext}": leave it to the router
    return route, len(segments), tuple(literals)


class RouteTable:
    def __init__(self, routes: Sequence[BaseRoute]) -> None:
        self.source = routes
        self.count = -1
        self._build()

    def _build(self) -> None:
        self.count = len(self.source)
        self.entries = [_entry(r) for r in self.source]
        # Third segments some route spells out; any other value is the same key.
        self.thirds = {dict(lits).get(2) for _r, _n, lits in self.entries} - {None}
        self.groups: dict[tuple[int, str], list[Entry]] = {}

    def _group(self, n: int, third: str) -> list[Entry]:
        known = third in self.thirds
        key = (n, third if known else "")
        group = self.groups.get(key)
        if group is None:
            # A route spelling out another third segment cannot match; one with a parameter there can.
            wanted = (None, third) if known else (None,)
            group = [e for e in self.entries if e[1] is None or (e[1] == n and dict(e[2]).get(2) in wanted)]
            self.groups[key] = group
        return group

    def candidates(self, path: str) -> list[BaseRoute]:
        if len(self.source) != self.count:  # a route added after start
            self._build()
        segments = path.split("/")
        group = self._group(len(segments), segments[2] if len(segments) > 2 else "")
        return [r for r, n, lits in group if n is None or all(segments[i] == text for i, text in lits)]


class _Narrowed:
    """The router with only some of its routes: its own ``app`` runs over them unchanged."""

    def __init__(self, router: Any, routes: list[BaseRoute]) -> None:
        self._router = router
        self.routes = routes

    def __getattr__(self, name: str) -> Any:
        return getattr(self._router, name)


def install(app: Any) -> bool:
    """Route ``app``'s requests through the table; False (and nothing changed) when the router is
    wrapped in router-level middleware, which the table would skip."""
    router = app.router
    if router.middleware_stack != router.app:
        return False
    table = RouteTable(router.routes)
    scan: ASGI = router.app
    run_over = type(router).app

    async def lookup(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            found = table.candidates(get_route_path(scope))
            if any(r.matches(scope)[0] != Match.NONE for r in found):
                scope.setdefault("router", router)
                await run_over(_Narrowed(router, found), scope, receive, send)
                return
        await scan(scope, receive, send)

    router.middleware_stack = lookup
    return True

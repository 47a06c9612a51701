"""Analytics syncs: a metric recorded and a dashboard made, changed and removed offline. Dashboards
have no states: two stations' changes of one dashboard both apply, in the order they arrive."""

from __future__ import annotations

from typing import Any

from tests.sync.modules.kit import Move, Platform, applied_once, assert_absent, both_apply, offline, row

WIDGET = {"title": "Shipped", "metric": "events.order.shipped", "interval": "day", "chart": "line",
          "filters": {"days": 14}}  # fmt: skip


def test_analytics(platform: Platform, pair: Any) -> None:
    a, b = pair
    with offline(a):
        d = a.do("analytics.dashboards.create", body={"name": "Sync board", "widgets": [WIDGET]})
        a.do("analytics.dashboards.update", id=d.id, body={"name": "Sync board 2", "widgets": [WIDGET]})
        gone = a.do("analytics.dashboards.create", body={"name": "Short-lived"})
        a.do("analytics.dashboards.delete", id=gone.id)
        a.do("analytics.metrics.record", body={"name": "sync.bench", "value": 2.0})
    applied_once(platform, a, b, [row("analytics_dashboards", d.id, name="Sync board 2")])
    assert_absent(platform.db, a.tenant.id, "analytics_dashboards", gone.id, "platform")
    assert_absent(b.rt.db, b.tenant.id, "analytics_dashboards", gone.id, "the other station")
    both_apply(
        platform, a, b,
        theirs=Move("analytics.dashboards.update", {"id": d.id}, {"name": "From b", "widgets": [WIDGET]}),
        mine=Move("analytics.dashboards.update", {"id": d.id}, {"name": "From a", "widgets": [WIDGET]}),
        want=row("analytics_dashboards", d.id, name="From a"),
    )  # fmt: skip

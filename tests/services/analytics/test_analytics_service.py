"""Analytics use cases through ``execute``: metrics and series, events counted, dashboards,
report jobs in three formats, customer profiles."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime, timedelta

import pytest

from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed
from services.core.events import emit
from services.core.jobs import JobWorker
from services.core.storage import read_blob

OWNER = "owner@demo.test"


def ctx_for(rt: Runtime, email: str = OWNER, slug: str = "demo") -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant))


def test_metrics_by_interval_and_dimension(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    mon = datetime(2026, 3, 2, 10, tzinfo=UTC)  # a Monday
    for days, value, region in [(0, 5, "eu"), (0, 1, "us"), (1, 2, "eu"), (6, 4, "us"), (7, 10, "eu"), (30, 3, None)]:
        dims = {"region": region} if region else {}
        execute(
            ctx_for(runtime),
            "analytics.metrics.record",
            body={
                "name": "orders.value",
                "value": value,
                "at": (mon + timedelta(days=days)).isoformat(),
                "dimensions": dims,
            },
        )
    q = {"name": "orders.value", "from": "2026-03-02", "to": "2026-03-09"}
    daily = execute(ctx, "analytics.metrics.query", query=q).items
    assert len(daily) == 8 and (daily[0].value, daily[0].count) == (6.0, 2) and daily[2].value == 0.0
    weekly = execute(ctx, "analytics.metrics.query", query={**q, "interval": "week"}).items
    assert [(w.bucket, w.value, w.count) for w in weekly] == [(date(2026, 3, 2), 12.0, 4), (date(2026, 3, 9), 10.0, 1)]
    monthly = execute(ctx, "analytics.metrics.query", query={**q, "to": "2026-04-30", "interval": "month"}).items
    assert [(m.bucket, m.value) for m in monthly] == [(date(2026, 3, 1), 22.0), (date(2026, 4, 1), 3.0)]
    grouped = execute(ctx, "analytics.metrics.query", query={**q, "interval": "week", "group_by": "region"}).items
    assert {(g.bucket, g.group): g.value for g in grouped} == {
        (date(2026, 3, 2), "eu"): 7.0,
        (date(2026, 3, 2), "us"): 5.0,
        (date(2026, 3, 9), "eu"): 10.0,
    }
    with pytest.raises(ValidationFailed):
        execute(ctx, "analytics.metrics.query", query={**q, "from": "2026-03-10"})
    with pytest.raises(ValidationFailed):
        execute(ctx, "analytics.metrics.record", body={"name": "bad name!", "value": 1})
    every = execute(ctx, "analytics.metrics.query", query={"from": "2026-03-01", "to": "2026-03-31"}).items
    assert {m.group: m.value for m in every}["orders.value"] == 22.0  # without a name: each metric's total
    # Another tenant sees none of it.
    other = execute(ctx_for(runtime, "owner@other.test", "other"), "analytics.metrics.query", query=q).items
    assert sum(p.value for p in other) == 0


def test_every_bus_event_is_counted(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    today = ctx.now().date().isoformat()
    before = execute(
        ctx, "analytics.metrics.query", query={"name": "events.ticket.created", "from": today, "to": today}
    ).items[0]
    with ctx.write():
        emit(ctx, "ticket.created", {"ticket_id": "t1"})
        emit(ctx, "ticket.created", {"ticket_id": "t2"})
    try:  # a rolled-back change counts nothing
        with ctx.write():
            emit(ctx, "ticket.created", {"ticket_id": "t3"})
            raise RuntimeError("undo")
    except RuntimeError:
        pass
    after = execute(
        ctx, "analytics.metrics.query", query={"name": "events.ticket.created", "from": today, "to": today}
    ).items[0]
    assert after.count - before.count == 2


def test_dashboards_owner_admin_create(runtime: Runtime) -> None:
    body = {
        "name": "Ops",
        "widgets": [
            {
                "title": "Shipped",
                "metric": "events.order.shipped",
                "interval": "day",
                "chart": "line",
                "filters": {"days": 14},
            }
        ],
    }
    with pytest.raises(Forbidden):  # staff without the manager role
        from services.core.context import Principal

        ctx = ctx_for(runtime)
        op = Ctx(runtime, ctx.tenant, Principal(kind="user", id="x", role="operator", modules=frozenset({"analytics"})))
        execute(op, "analytics.dashboards.create", body=body)
    d = execute(ctx_for(runtime, "admin@demo.test"), "analytics.dashboards.create", body=body)
    data = execute(ctx_for(runtime), "analytics.dashboards.data", id=d.id)
    assert len(data.widgets[0].series) == 14
    with pytest.raises(ValidationFailed):
        execute(
            ctx_for(runtime),
            "analytics.dashboards.create",
            body={"name": "x", "widgets": [{**body["widgets"][0], "chart": "pie"}]},
        )
    with pytest.raises(ValidationFailed):
        execute(
            ctx_for(runtime),
            "analytics.dashboards.create",
            body={"name": "x", "widgets": [{**body["widgets"][0], "filters": {"days": 0}}]},
        )
    with pytest.raises(NotFound):
        execute(ctx_for(runtime, "owner@other.test", "other"), "analytics.dashboards.get", id=d.id)
    demo = execute(ctx_for(runtime), "analytics.dashboards.data", id=demo_id("analytics-dashboard", "operations"))
    assert demo.widgets[0].total > 0


def test_reports_as_jobs_in_csv_xlsx_and_pdf(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    today = ctx.now().date()
    body = {
        "name": "Q",
        "metrics": ["events.order.shipped", "sales.revenue"],
        "from": (today - timedelta(days=29)).isoformat(),
        "to": today.isoformat(),
    }
    made = {
        fmt: execute(ctx_for(runtime), "analytics.reports.create", body={**body, "format": fmt})
        for fmt in ("csv", "xlsx", "pdf")
    }
    assert all(r.status == "queued" and r.download_url is None for r in made.values())
    with pytest.raises(Conflict):
        execute(ctx_for(runtime), "analytics.reports.download", id=made["csv"].id)
    worker = JobWorker(runtime)
    while worker.run_one():
        pass
    got = {fmt: execute(ctx_for(runtime), "analytics.reports.get", id=r.id) for fmt, r in made.items()}
    assert all(r.status == "succeeded" and r.download_url for r in got.values())
    f = execute(ctx_for(runtime), "analytics.reports.download", id=made["csv"].id)
    rows = list(csv.reader(io.StringIO(f.content.decode())))
    assert rows[0] == ["metric", "bucket", "value", "count"] and len(rows) == 1 + 2 * 30
    from openpyxl import load_workbook

    wb = load_workbook(io.BytesIO(execute(ctx_for(runtime), "analytics.reports.download", id=made["xlsx"].id).content))
    assert wb.sheetnames == ["Summary", "events.order.shipped", "sales.revenue"]
    assert wb["sales.revenue"].max_row == 31
    import pypdfium2 as pdfium

    pdf = execute(ctx_for(runtime), "analytics.reports.download", id=made["pdf"].id)
    assert pdf.media_type == "application/pdf"
    doc = pdfium.PdfDocument(pdf.content)
    words = "".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    assert "events.order.shipped" in words and "sales.revenue" in words
    assert execute(ctx_for(runtime), "analytics.reports.list", query={}).total == 3
    with pytest.raises(ValidationFailed):
        execute(ctx_for(runtime), "analytics.reports.create", body={**body, "to": "2000-01-01"})
    assert read_blob  # the files are blobs of the tenant


def test_customer_profiles_set_and_set_once(runtime: Runtime) -> None:
    ctx = ctx_for(runtime)
    made = execute(
        ctx,
        "analytics.customers.upsert",
        body={"email": "Ana@Shop.test", "set": {"plan": "basic"}, "set_once": {"first_seen": "2026-01-01"}},
    )
    assert made._http_status == 201 and made.attributes == {"plan": "basic", "first_seen": "2026-01-01"}
    again = execute(
        ctx_for(runtime),
        "analytics.customers.upsert",
        body={
            "email": "ana@shop.test",
            "external_id": "x-1",
            "set": {"plan": "gold"},
            "set_once": {"first_seen": "2026-05-05", "source": "ads"},
        },
    )
    assert again._http_status == 200 and again.id == made.id and again.external_id == "x-1"
    assert again.attributes == {"plan": "gold", "first_seen": "2026-01-01", "source": "ads"}
    by_ext = execute(ctx_for(runtime), "analytics.customers.upsert", body={"external_id": "x-1", "set": {"vip": True}})
    assert by_ext.id == made.id and by_ext.attributes["vip"] is True
    execute(ctx_for(runtime), "analytics.customers.upsert", body={"external_id": "x-2"})
    with pytest.raises(ValidationFailed):  # two known people are never merged
        execute(ctx_for(runtime), "analytics.customers.upsert", body={"email": "ana@shop.test", "external_id": "x-2"})
    with pytest.raises(ValidationFailed):
        execute(ctx_for(runtime), "analytics.customers.upsert", body={"set": {"a": 1}})

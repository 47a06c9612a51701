"""The records the declarations serve, and a call told in people's words."""

from __future__ import annotations

from services.core import auth
from services.core.commands import REGISTRY
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.core.records import path_params, record_label, record_of_call, resources, words_for

ORDER = "0e53b15f-2b2e-57bb-8a50-f04c6b372262"  # SO-1021 in the demo data


def test_resources_come_from_the_declarations() -> None:
    found = {r.key: r for r in resources()}
    orders = found["fulfillment:/orders"]
    assert orders.get is not None and orders.get.name == "fulfillment.orders.get"
    # An order's moves, and the return authorised against it (issue 34).
    assert [a.name for a in orders.actions] == [
        "fulfillment.orders.operate",
        "fulfillment.returns.create",
        "fulfillment.labels.buy",  # issue 34: a network carrier's label bought, then shipped
    ]
    subs = found["upgrade:/admin/submissions"]  # the spec's /submissions folds into the staff address
    assert "upgrade:/submissions" not in found and subs.alias == "/submissions"
    assert {a.name.rsplit(".", 1)[-1] for a in subs.actions} >= {"ship", "receive", "inspect", "reject"}
    assert subs.id_param(REGISTRY["upgrade.submissions.ship"]) == "id"
    subscriptions = found["events:/subscriptions"]
    assert [c[0].name for c in subscriptions.children] == ["events.subscriptions.deliveries"]
    assert found["platform:/api/tenants/{tenant}/api-keys"].title == "API keys"


def test_a_call_in_people_words(runtime: Runtime) -> None:
    op = REGISTRY["fulfillment.orders.operate"]
    assert words_for(op, {"operation": "ship"}) == "Ship order"
    path = f"/demo/fulfillment/api/orders/{ORDER}/operations"
    assert path_params(op, path) == {"tenant": "demo", "id": ORDER}
    assert path_params(op, "/demo/fulfillment/api/orders") == {}
    assert record_of_call(op, path) == ("fulfillment.order", ORDER)
    reply = REGISTRY["support.messages.create"]
    assert words_for(reply) == "Reply on ticket"
    assert record_of_call(reply, "/api/tenants/demo/support/tickets/abc/messages") == ("support.ticket", "abc")
    assert words_for(REGISTRY["events.subscriptions.test"]) == "Test subscription"
    tenant = auth.load_tenant(runtime.db, "demo")
    ctx = Ctx(runtime, tenant, auth.user_principal(runtime.db, demo_id("user", "owner@demo.test"), tenant))
    assert record_label(ctx, "fulfillment.order", ORDER) == "SO-1021"
    assert record_label(ctx, "fulfillment.order", "no-such-order") is None


def test_every_browsable_list_honours_its_search(runtime: Runtime) -> None:
    """The records finder (Ctrl+K) asks every list of a record kind with a ``search``: a list that
    ignored it listed all its records for any words (events, transfers, QR templates did)."""
    from services.core.commands import execute
    from services.core.errors import ServiceError

    tenant = auth.load_tenant(runtime.db, "demo")
    ctx = Ctx(runtime, tenant, auth.user_principal(runtime.db, demo_id("user", "owner@demo.test"), tenant))
    ignoring, asked = [], 0
    for res in resources():
        q = res.listing.query
        if q is None or "search" not in q.model_fields or res.listing.auth != "tenant" or res.listing.record is None:
            continue
        # Nonsense words; then LIKE's wildcards, which are text in a search (no demo record holds them).
        for words in ("zq-no-such-words-7", "%", "_"):
            try:
                page = execute(ctx, res.listing, query={"search": words, "limit": 5})
            except ServiceError:
                break  # not the owner's to list (a key-only API), or refuses the search outright
            asked += 1
            if page.total:
                ignoring.append(f"{res.key} {words!r}")
    assert asked > 90
    assert ignoring == [], "\n".join(ignoring)

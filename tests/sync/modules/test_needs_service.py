"""Use cases that reach an outside service (``needs`` on ``@use_case``) are refused on a station when
the person asks, with a 409 naming the service, and nothing is queued; the platform runs them."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from local_db.models import OutboxEntry
from services.core.commands import REGISTRY, execute
from services.core.context import Ctx, Runtime
from services.core.errors import Conflict


def _outbox(rt: Runtime) -> int:
    with rt.db.reading(None) as s:
        return int(s.execute(select(func.count()).select_from(OutboxEntry)).scalar_one())


def _ctx(rt: Runtime) -> Ctx:
    from services.core import auth
    from services.core.demo import demo_id

    tenant = auth.load_tenant(rt.db, "demo")
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", "owner@demo.test"), tenant))


CALLS: list[tuple[str, dict[str, Any]]] = [
    ("catalog.ecommerce.sync", {"body": {}}),
    ("tax.transactions.sync", {"body": {}}),
    ("tax.connections.tax_service.save", {"body": {"base_url": "https://tax.example.test", "api_key": "k"}}),
    ("events.subscriptions.test", {"sub_id": "00000000-0000-0000-0000-000000000000"}),
    (
        "tax.calculate",
        {
            "body": {
                "ship_from": {"state": "CA", "zip": "90012"},
                "ship_to": {"state": "CA", "zip": "90001"},
                "lines": [{"amount": "10.00"}],
            }
        },
    ),
]


def test_the_use_cases_that_reach_an_outside_service_say_so() -> None:
    declared = {n for n, op in REGISTRY.items() if op.needs}
    assert declared >= {c for c, _ in CALLS} | {"tax.connections.ecommerce.save"}


@pytest.mark.parametrize(("op", "kw"), CALLS, ids=[c for c, _ in CALLS])
def test_a_station_refuses_it_at_once_and_queues_nothing(station: Runtime, op: str, kw: dict[str, Any]) -> None:
    before = _outbox(station)
    with pytest.raises(Conflict) as exc:
        execute(_ctx(station), op, **kw)
    assert exc.value.details["reason"] == "needs_service" and exc.value.details["needs"] == list(REGISTRY[op].needs)
    assert REGISTRY[op].needs[0] in exc.value.message and "platform" in exc.value.message
    assert _outbox(station) == before


def test_the_platform_runs_it(runtime: Runtime) -> None:
    # On the platform the declaration refuses nothing: the use case itself answers (no shop connected).
    with pytest.raises(Conflict) as exc:
        execute(_ctx(runtime), "tax.transactions.sync", body={})
    assert exc.value.details.get("reason") != "needs_service"

"""Lists that only read are answered from rows, not ORM objects (issue 38, part 1): the same
responses as from the objects, still scoped to the tenant, and no object built."""

from __future__ import annotations

import dataclasses

from pydantic import BaseModel, ConfigDict
from sqlalchemy import select

from local_db.models import Tenant
from local_db.models.fulfillment import FulfillmentOrder
from local_db.models.inventory import InventoryItem
from services.core.auth import tenant_info
from services.core.commands import execute
from services.core.context import SYSTEM, Ctx, Runtime
from services.core.demo import demo_id
from services.core.pagination import ListQuery, reads_only_columns
from services.fulfillment import orders
from services.fulfillment.schemas import OrderOut, OrderQuery
from services.inventory import items
from services.inventory.schemas import ItemOut


def _ctx(rt: Runtime, slug: str) -> Ctx:
    with rt.db.reading(None) as s:
        t = s.get(Tenant, demo_id("tenant", slug))
        assert t is not None
        return Ctx(rt, tenant_info(t), SYSTEM)


class _WithExtra(BaseModel):
    model_config = ConfigDict(from_attributes=True)
    sku: str
    not_a_column: str = "x"


def test_a_model_of_columns_only_is_read_as_rows_and_one_with_more_is_not() -> None:
    assert reads_only_columns(InventoryItem, ItemOut)
    assert not reads_only_columns(InventoryItem, _WithExtra)
    assert not reads_only_columns(InventoryItem, lambda r: r)  # a function may read anything


def test_rows_answer_what_objects_answer_scoped_to_the_tenant_and_build_no_object(runtime: Runtime) -> None:
    demo, other = _ctx(runtime, "demo"), _ctx(runtime, "other")
    with runtime.db.transaction(other.tenant_id) as s:  # a row of another tenant that must not show
        s.add(FulfillmentOrder(id="o-other", order_number="OTHER-1", pick_barcode="OTHER1", status="pending",
                               source="manual", customer_name="Elsewhere", shipping_address={}))  # fmt: skip
    q = {"limit": "100", "sort": "order_number"}
    fast = execute(demo, "fulfillment.orders.list", query=q)
    assert fast.items and all(o.order_number != "OTHER-1" for o in fast.items)
    theirs = execute(other, "fulfillment.orders.list", query=q).items
    assert "OTHER-1" in [o.order_number for o in theirs]
    assert not {o.id for o in theirs} & {o.id for o in fast.items}

    # The same page through ORM objects: field for field the same responses.
    slow = dataclasses.replace(orders.ORDERS, rows=False)
    with runtime.db.reading(demo.tenant_id) as s:
        objects = slow.page(s, OrderQuery(**q)).items
        assert all(isinstance(o, FulfillmentOrder) for o in objects)
    assert [o.id for o in objects] == [o.id for o in fast.items]
    for o, out in zip(objects, fast.items, strict=True):
        assert OrderOut(**orders._out(o, (out.line_count, out.total_quantity, out.picked_quantity))) == out

    # Read as rows: the session's identity map stays empty (no object built, none tracked).
    for listing, query, out in ((orders.ORDERS, OrderQuery(**q), None), (items.ITEMS, ListQuery(limit=50), ItemOut)):
        with runtime.db.reading(demo.tenant_id) as s:
            page = listing.page(s, query, out)
            assert page.items and len(s.identity_map) == 0, listing.entity
    with runtime.db.reading(demo.tenant_id) as s:
        by_orm = [
            ItemOut.model_validate(i) for i in s.execute(select(InventoryItem).order_by(InventoryItem.sku)).scalars()
        ]
    with runtime.db.reading(demo.tenant_id) as s:
        by_rows = items.ITEMS.page(s, ListQuery(limit=100), ItemOut).items
    assert by_rows == by_orm[: len(by_rows)] and by_rows

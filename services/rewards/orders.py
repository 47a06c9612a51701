"""Rewards: orders."""

from __future__ import annotations

from sqlalchemy import select, update

from local_db.models.rewards import (
    RewardsOrder,
    RewardsProduct,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.events import emit
from services.core.pagination import Page, contains, paginate
from services.core.roles import STAFF
from services.rewards import points as ledger
from services.rewards import states
from services.rewards.accounts import is_dealer
from services.rewards.codes import codes_of, void_for_cancel
from services.rewards.lookups import _order_out, _own
from services.rewards.schemas import (
    OrderAction,
    OrderOut,
    OrderQuery,
)

record_kind("rewards.order", get="rewards.orders.get", label="number")


@use_case(
    "rewards.orders.list",
    "GET /orders",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="redemption orders: a dealer's own, or the tenant's for staff",
)
def list_orders(ctx: Ctx, query: OrderQuery) -> Page[OrderOut]:
    stmt = select(RewardsOrder)
    if is_dealer(ctx):
        stmt = stmt.where(RewardsOrder.dealer_id == ctx.principal.id)
    elif query.dealer_id:
        stmt = stmt.where(RewardsOrder.dealer_id == query.dealer_id)
    if query.status:
        stmt = stmt.where(RewardsOrder.status == query.status)
    if query.search:
        stmt = stmt.where(contains(RewardsOrder.number, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": RewardsOrder.created_at, "number": RewardsOrder.number})
        codes = codes_of(s, [o.id for o in page.items])
    return page.map(lambda o: _order_out(o, codes[o.id]))


@use_case(
    "rewards.orders.get", "GET /orders/{id}", tx="read", auth="customer", staff_too=True, summary="one redemption order"
)
def get_order(ctx: Ctx, id: str) -> OrderOut:
    with ctx.read() as s:
        o = s.get(RewardsOrder, id)
        if o is None:
            raise NotFound("order not found", {"id": id})
        _own(ctx, o.dealer_id, "order", id)
        return _order_out(o, codes_of(s, [o.id])[o.id])


@use_case(
    "rewards.admin.orders.act",
    "POST /admin/orders/{id}",
    tx="write",
    roles=STAFF,
    says="{action} redemption",
    record="rewards.order",
    summary="ship, deliver or cancel a redemption order (a cancel refunds the points and restocks)",
)
def act_on_order(ctx: Ctx, id: str, body: OrderAction) -> OrderOut:
    now = ctx.now()
    with ctx.write() as s:
        o = s.get(RewardsOrder, id)
        if o is None:
            raise NotFound("order not found", {"id": id})
        d = ledger.lock_dealer(s, o.dealer_id)
        s.refresh(o)
        o.status = states.ORDER.check(o.status, body.action, states.STAFF)
        o.updated_at = now
        if body.action == "ship":
            o.tracking_number = body.tracking_number
            emit(ctx, "redemption.shipped", {"order_id": o.id, "tracking_number": o.tracking_number})
        elif body.action == "deliver":
            emit(ctx, "redemption.delivered", {"order_id": o.id})
        else:
            o.cancel_reason = body.reason
            void_for_cancel(s, o)
            if o.redeem_entry_id:
                ledger.refund(ctx, s, d, o.redeem_entry_id, source_id=o.id, description=f"{o.number} cancelled")
            for line in o.lines or []:
                s.execute(
                    update(RewardsProduct)
                    .where(RewardsProduct.id == line["product_id"])
                    .values(stock=RewardsProduct.stock + int(line["quantity"]))
                    .execution_options(synchronize_session=False)
                )
            emit(ctx, "redemption.cancelled", {"order_id": o.id, "points": o.total_points})
        s.flush()
        return _order_out(o, codes_of(s, [o.id])[o.id])

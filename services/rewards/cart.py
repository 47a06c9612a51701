"""Rewards: cart."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.rewards import (
    RewardsCartItem,
    RewardsOrder,
    RewardsProduct,
)
from services.core.commands import next_value, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, ValidationFailed
from services.core.events import emit
from services.rewards import codes
from services.rewards import points as ledger
from services.rewards.accounts import find_dealer
from services.rewards.lookups import _latest_w9, _order_out, _product, ytd_value_cents
from services.rewards.schemas import (
    CartAdd,
    CartLine,
    CartOut,
    CartRemove,
    CartSet,
    CheckoutIn,
    OrderOut,
    money,
)


def _cart(ctx: Ctx, s: Session) -> CartOut:
    rows = s.execute(
        select(RewardsCartItem, RewardsProduct)
        .join(RewardsProduct, RewardsProduct.id == RewardsCartItem.product_id)
        .where(RewardsCartItem.dealer_id == ctx.principal.id)
        .order_by(RewardsCartItem.created_at, RewardsCartItem.id)
    ).all()
    lines = [
        CartLine(
            product_id=p.id,
            name=p.name,
            points=p.points,
            quantity=c.quantity,
            line_points=p.points * c.quantity,
            available=p.active and p.stock >= c.quantity,
        )
        for c, p in rows
    ]
    d = find_dealer(s, ctx.principal.id)
    balance = d.balance - ledger.expired_unswept(s, d.id, ctx.now())
    return CartOut(items=lines, total_points=sum(x.line_points for x in lines), balance=balance)


@use_case("rewards.cart.get", "GET /cart", tx="read", auth="customer", summary="the dealer's cart")
def get_cart(ctx: Ctx) -> CartOut:
    with ctx.read() as s:
        return _cart(ctx, s)


def _set_line(ctx: Ctx, s: Session, product_id: str, quantity: int, *, add: bool) -> None:
    _product(ctx, s, product_id)
    item = s.execute(
        select(RewardsCartItem).where(
            RewardsCartItem.dealer_id == ctx.principal.id, RewardsCartItem.product_id == product_id
        )
    ).scalar_one_or_none()
    qty = (item.quantity if item and add else 0) + quantity
    if qty > 1000:
        raise ValidationFailed("at most 1000 of one product", {"quantity": qty})
    if item is None and qty > 0:
        s.add(
            RewardsCartItem(
                id=new_id(), dealer_id=ctx.principal.id, product_id=product_id, quantity=qty, created_at=ctx.now()
            )
        )
    elif item is not None and qty > 0:
        item.quantity = qty
    elif item is not None:
        s.delete(item)
    s.flush()


@use_case("rewards.cart.add", "POST /cart", tx="write", auth="customer", summary="add to the cart")
def add_to_cart(ctx: Ctx, body: CartAdd) -> CartOut:
    with ctx.write() as s:
        _set_line(ctx, s, body.product_id, body.quantity, add=True)
        return _cart(ctx, s)


@use_case(
    "rewards.cart.set", "PUT /cart", tx="write", auth="customer", summary="set a cart line's quantity (0 removes)"
)
def set_cart(ctx: Ctx, body: CartSet) -> CartOut:
    with ctx.write() as s:
        _set_line(ctx, s, body.product_id, body.quantity, add=False)
        return _cart(ctx, s)


@use_case("rewards.cart.remove", "DELETE /cart", tx="write", auth="customer", summary="remove a product from the cart")
def remove_from_cart(ctx: Ctx, body: CartRemove) -> CartOut:
    with ctx.write() as s:
        _set_line(ctx, s, body.product_id, 0, add=False)
        return _cart(ctx, s)


@use_case(
    "rewards.cart.checkout",
    "POST /cart/checkout",
    tx="write",
    auth="customer",
    status=201,
    says="Redemption",
    record="rewards.order",
    summary="place a redemption order from the cart: points spent, stock taken, the cart emptied",
)
def checkout(ctx: Ctx, body: CheckoutIn) -> OrderOut:
    now = ctx.now()
    with ctx.write() as s:
        # The dealer row first: every other checkout of this dealer waits here, then reads what this one left.
        d = ledger.lock_dealer(s, ctx.principal.id)
        ledger.sweep_expired(ctx, s, d)
        if body.items is not None:
            wanted: list[tuple[str, int]] = []
            for it in body.items:
                wanted.append((it.product_id, it.quantity))
        else:
            wanted = [
                (c.product_id, c.quantity)
                for c in s.execute(
                    select(RewardsCartItem)
                    .where(RewardsCartItem.dealer_id == d.id)
                    .order_by(RewardsCartItem.created_at, RewardsCartItem.id)
                ).scalars()
            ]
        if not wanted:
            raise Conflict("the cart is empty", {"cart": "empty"})
        lines: list[dict[str, Any]] = []
        coded: list[tuple[str, str, str, int | None, int]] = []  # coupon and gift card lines: a code per unit
        for pid, qty in wanted:
            p = s.get(RewardsProduct, pid)
            if p is None or not p.active:
                raise Conflict("a product in the cart is no longer offered", {"product_id": pid})
            # Stock by a conditional update too: two dealers never take the last one twice.
            res = s.execute(
                update(RewardsProduct)
                .where(RewardsProduct.id == pid, RewardsProduct.stock >= qty)
                .values(stock=RewardsProduct.stock - qty)
                .execution_options(synchronize_session=False)
            )
            if res.rowcount != 1:  # type: ignore[attr-defined]
                s.refresh(p, ["stock"])
                raise Conflict("not enough stock", {"product_id": pid, "stock": p.stock, "quantity": qty})
            lines.append({"product_id": pid, "name": p.name, "points": p.points, "quantity": qty})
            if p.kind != "goods":
                coded.append((pid, p.kind, p.name, p.face_value_cents, qty))
        total = sum(x["points"] * x["quantity"] for x in lines)
        cfg = ledger.settings(s, ctx.tenant_id)
        value = ledger.value_cents(total, cfg.point_value)
        if d.balance < total:
            raise Conflict("not enough points", {"balance": d.balance, "needed": total})
        threshold = int(cfg.w9_threshold * 100)
        ytd = ytd_value_cents(s, d.id, now)
        if ytd + value >= threshold:
            w9 = _latest_w9(s, d.id)
            if w9 is None or w9.status == "rejected":
                raise Conflict(
                    "a W-9 is needed before this redemption: this year's rewards reach the reporting threshold",
                    {
                        "w9": {
                            "status": "rejected" if w9 else "required",
                            "threshold": money(threshold),
                            "ytd_value": money(ytd),
                            "order_value": money(value),
                        }
                    },
                )
        order_id = new_id()
        number = f"RD-{now.year}-{next_value(ctx, ctx.tenant_id, 'rewards.order'):06d}"
        e = ledger.spend(ctx, s, d, total, kind="redeem", source="order", source_id=order_id, description=number)
        o = RewardsOrder(
            id=order_id,
            number=number,
            dealer_id=d.id,
            status="ordered",
            lines=lines,
            total_points=total,
            value_cents=value,
            shipping_address=body.shipping_address.model_dump(),
            redeem_entry_id=e.id,
            created_at=now,
            updated_at=now,
        )
        s.add(o)
        if body.items is None:
            s.query(RewardsCartItem).filter(RewardsCartItem.dealer_id == d.id).delete(synchronize_session=False)
        s.flush()
        codes.issue(ctx, s, o, coded)
        emit(
            ctx,
            "redemption.created",
            {"order_id": o.id, "dealer_id": d.id, "number": number, "total_points": total, "lines": lines},
        )
        return _order_out(o, codes.codes_of(s, [o.id])[o.id])

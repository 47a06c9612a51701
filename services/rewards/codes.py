"""Rewards: coupon and gift-card codes. A redemption of a coupon or gift card issues one code per
unit; staff (a till, the web shop's back office) redeem a code once. The codes are bearer value:
they are shown to their dealer in the order and never put in events, logs or error bodies."""

from __future__ import annotations

import secrets

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.rewards import RewardsCode, RewardsOrder
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound
from services.core.events import emit
from services.core.roles import STAFF
from services.rewards.schemas import CodeOut, RedeemCodeIn, money

# No 0/O, 1/I/L: a code read aloud or typed from paper is not mistaken (Crockford's idea).
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
PREFIX = {"coupon": "CP", "gift_card": "GC"}


def new_code(kind: str) -> str:
    """``GC-XXXX-XXXX-XXXX``: 12 random characters of 31, about 59 bits, from the OS's CSPRNG."""
    body = "".join(secrets.choice(ALPHABET) for _ in range(12))
    return f"{PREFIX[kind]}-{body[:4]}-{body[4:8]}-{body[8:]}"


def normalise(code: str) -> str:
    return code.strip().upper().replace(" ", "")


def issue(ctx: Ctx, s: Session, o: RewardsOrder, lines: list[tuple[str, str, str, int | None, int]]) -> None:
    """One code per unit of each (product_id, kind, name, value_cents, quantity) coupon or gift card line."""
    for product_id, kind, name, value, qty in lines:
        for _ in range(qty):
            s.add(
                RewardsCode(
                    id=new_id(),
                    code=new_code(kind),
                    kind=kind,
                    dealer_id=o.dealer_id,
                    order_id=o.id,
                    product_id=product_id,
                    name=name,
                    value_cents=value,
                    status="issued",
                    created_at=ctx.now(),
                )
            )
    s.flush()


def code_out(c: RewardsCode) -> CodeOut:
    return CodeOut(
        code=c.code,
        kind=c.kind,  # type: ignore[arg-type]
        name=c.name,
        value=money(c.value_cents) if c.value_cents is not None else None,
        status=c.status,  # type: ignore[arg-type]
        redeemed_at=c.redeemed_at,
    )


def codes_of(s: Session, order_ids: list[str]) -> dict[str, list[CodeOut]]:
    out: dict[str, list[CodeOut]] = {i: [] for i in order_ids}
    if order_ids:
        for c in s.execute(
            select(RewardsCode)
            .where(RewardsCode.order_id.in_(order_ids))
            .order_by(RewardsCode.created_at, RewardsCode.code)
        ).scalars():
            out[c.order_id].append(code_out(c))
    return out


def void_for_cancel(s: Session, o: RewardsOrder) -> None:
    """A cancelled order's codes stop working; an order one of whose codes was used is not cancelled."""
    used = s.execute(
        select(RewardsCode.id).where(RewardsCode.order_id == o.id, RewardsCode.status == "redeemed").limit(1)
    ).first()
    if used:
        raise Conflict("a code of this order was redeemed already; the order cannot be cancelled", {"order_id": o.id})
    s.execute(
        update(RewardsCode)
        .where(RewardsCode.order_id == o.id, RewardsCode.status == "issued")
        .values(status="void")
        .execution_options(synchronize_session=False)
    )


@use_case(
    "rewards.admin.codes.redeem",
    "POST /admin/codes/redeem",
    tx="write",
    roles=STAFF,
    says="Redeem code",
    summary="redeem a coupon or gift card code (once; 409 when used or void)",
)
def redeem_code(ctx: Ctx, body: RedeemCodeIn) -> CodeOut:
    code = normalise(body.code)
    now = ctx.now()
    with ctx.write() as s:
        c = s.execute(select(RewardsCode).where(RewardsCode.code == code)).scalar_one_or_none()
        if c is None:
            raise NotFound("no such code", {"code": "unknown"})  # the code itself is not echoed
        # A conditional update: two tills redeeming the same code at once, one wins.
        res = s.execute(
            update(RewardsCode)
            .where(RewardsCode.id == c.id, RewardsCode.status == "issued")
            .values(status="redeemed", redeemed_at=now, redeemed_by=ctx.principal.id)
            .execution_options(synchronize_session=False)
        )
        s.refresh(c)
        if res.rowcount != 1:  # type: ignore[attr-defined]
            raise Conflict(
                "this code was redeemed already"
                if c.status == "redeemed"
                else "this code is void (its order was cancelled)",
                {"status": c.status, "redeemed_at": c.redeemed_at.isoformat() if c.redeemed_at else None},
            )
        emit(
            ctx,
            "reward_code.redeemed",
            {"code_id": c.id, "order_id": c.order_id, "dealer_id": c.dealer_id, "kind": c.kind},
        )
        return code_out(c)

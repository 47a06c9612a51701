"""Rewards use cases: points, receipt files and receipts, the redemption catalog, the cart and
checkout, redemption orders, program settings and the W-9.

Dealers see only their own records (another's is 404, as is another tenant's); staff with the
module see the tenant's on the same spec paths and act on ``/admin/...``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models import Tenant
from local_db.models.rewards import (
    RewardsCartItem,
    RewardsDealer,
    RewardsFile,
    RewardsLedgerEntry,
    RewardsLot,
    RewardsOrder,
    RewardsProduct,
    RewardsReceipt,
    RewardsW9,
)
from services.core.commands import next_value, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.events import emit
from services.core.files import FileResult, Upload
from services.core.pagination import Page, contains, paginate
from services.core.roles import MANAGERS, STAFF
from services.core.sealing import seal
from services.core.storage import IMAGE_TYPES, read_blob, store_blob
from services.rewards import points as ledger
from services.rewards import states, tin
from services.rewards.accounts import find_dealer, is_dealer
from services.rewards.schemas import (
    Address,
    AdjustIn,
    AdminW9Out,
    CartAdd,
    CartLine,
    CartOut,
    CartRemove,
    CartSet,
    CheckoutIn,
    Expiry,
    FileOut,
    LedgerOut,
    LedgerQuery,
    OrderAction,
    OrderLine,
    OrderOut,
    OrderQuery,
    PointsOut,
    ProductIn,
    ProductOut,
    ProductQuery,
    ProductUpdate,
    ReceiptIn,
    ReceiptOut,
    ReceiptQuery,
    ReviewIn,
    SettingsIn,
    SettingsOut,
    W9Decide,
    W9Form,
    W9In,
    W9Out,
    W9Query,
    money,
)

RECEIPT_TYPES = IMAGE_TYPES | {"application/pdf"}

record_kind("rewards.receipt", get="rewards.receipts.get", label="retailer")
record_kind("rewards.order", get="rewards.orders.get", label="number")
record_kind("rewards.product", get="rewards.products.get", label="name")
record_kind("rewards.w9", get="rewards.admin.w9.get", label="name")


def _own(ctx: Ctx, dealer_id: str, what: str, rid: str) -> None:
    """A dealer reads only their own records: another dealer's is as unknown as a missing one."""
    if is_dealer(ctx) and dealer_id != ctx.principal.id:
        raise NotFound(f"{what} not found", {"id": rid})


# --- points ------------------------------------------------------------------------------------


def _suggested(total_cents: int, per_dollar: int) -> int:
    return (total_cents // 100) * per_dollar


@use_case("rewards.points.get", "GET /points", tx="read", auth="customer", summary="the dealer's points balance")
def get_points(ctx: Ctx) -> PointsOut:
    now = ctx.now()
    with ctx.read() as s:
        d = find_dealer(s, ctx.principal.id)
        cfg = ledger.settings(s, ctx.tenant_id)
        # Lots past their date are written off at the dealer's next change; a read already leaves them out.
        balance = d.balance - ledger.expired_unswept(s, d.id, now)
        pending_totals = s.execute(
            select(RewardsReceipt.total_cents).where(
                RewardsReceipt.dealer_id == d.id, RewardsReceipt.status == "pending"
            )
        ).scalars()
        pending = sum(_suggested(t, cfg.points_per_dollar) for t in pending_totals)
        lots = s.execute(
            select(RewardsLot.expires_at, func.sum(RewardsLot.remaining))
            .where(RewardsLot.dealer_id == d.id, RewardsLot.remaining > 0, RewardsLot.expires_at > now)
            .group_by(RewardsLot.expires_at)
            .order_by(RewardsLot.expires_at)
            .limit(5)
        ).all()
    return PointsOut(
        balance=balance,
        pending=pending,
        value=money(ledger.value_cents(balance, cfg.point_value)),
        next_expiries=[Expiry(points=int(p), expires_at=e) for e, p in lots],
    )


def _ledger_out(e: RewardsLedgerEntry) -> LedgerOut:
    return LedgerOut.model_validate(e, from_attributes=True)


@use_case(
    "rewards.points.ledger",
    "GET /points/ledger",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="the points ledger, newest first (staff: every dealer's, or dealer_id=)",
)
def list_ledger(ctx: Ctx, query: LedgerQuery) -> Page[LedgerOut]:
    stmt = select(RewardsLedgerEntry)
    if is_dealer(ctx):
        stmt = stmt.where(RewardsLedgerEntry.dealer_id == ctx.principal.id)
    elif query.dealer_id:
        stmt = stmt.where(RewardsLedgerEntry.dealer_id == query.dealer_id)
    if query.search:
        stmt = stmt.where(contains(RewardsLedgerEntry.description, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": RewardsLedgerEntry.created_at})
    return page.map(_ledger_out)


@use_case(
    "rewards.admin.points.adjust",
    "POST /admin/dealers/{id}/points",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="Adjust points",
    record="rewards.dealer",
    summary="add or take points with a reason (an adjust entry)",
)
def adjust_points(ctx: Ctx, id: str, body: AdjustIn) -> LedgerOut:
    with ctx.write() as s:
        d = ledger.lock_dealer(s, id)
        ledger.sweep_expired(ctx, s, d)
        if body.points > 0:
            e = ledger.award(
                ctx,
                s,
                d,
                body.points,
                kind="adjust",
                source="staff",
                source_id=ctx.principal.id,
                description=body.reason,
                expires_in_days=body.expires_in_days,
            )
        else:
            e = ledger.spend(
                ctx,
                s,
                d,
                -body.points,
                kind="adjust",
                source="staff",
                source_id=ctx.principal.id,
                description=body.reason,
            )
        return _ledger_out(e)


# --- files -------------------------------------------------------------------------------------


def _file_out(ctx: Ctx, f: RewardsFile) -> FileOut:
    slug = ctx.tenant.slug if ctx.tenant else ""
    return FileOut(
        id=f.id,
        filename=f.filename,
        content_type=f.content_type,
        size=f.size,
        url=f"/{slug}/rewards/api/files/{f.id}",
        created_at=f.created_at,
    )


@use_case(
    "rewards.files.upload",
    "POST /files/upload",
    tx="write",
    auth="customer",
    staff_too=True,
    status=201,
    limit="upload",
    upload=True,
    summary="upload a receipt image (JPEG, PNG, GIF, WebP, HEIC or PDF; multipart file)",
)
def upload_file(ctx: Ctx, upload: Upload) -> FileOut:
    blob = store_blob(ctx, upload.content, allowed=RECEIPT_TYPES)  # 413 over the limit, 400 wrong type
    with ctx.write() as s:
        f = RewardsFile(
            id=new_id(),
            dealer_id=ctx.principal.id if is_dealer(ctx) else None,
            filename=(upload.filename or "receipt")[:255],
            content_type=blob.content_type,
            size=blob.size,
            sha256=blob.sha256,
            created_at=ctx.now(),
        )
        s.add(f)
        s.flush()
        return _file_out(ctx, f)


@use_case(
    "rewards.files.get",
    "GET /files/{id}",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="download an uploaded file",
)
def get_file(ctx: Ctx, id: str) -> FileResult:
    with ctx.read() as s:
        f = s.get(RewardsFile, id)
        if f is None or (is_dealer(ctx) and f.dealer_id != ctx.principal.id):
            raise NotFound("file not found", {"id": id})
        sha, ctype, name = f.sha256, f.content_type, f.filename
    try:
        content = read_blob(ctx, sha)
    except FileNotFoundError as exc:  # the row without its bytes (a data dir copied without files/)
        raise NotFound("the file's content is missing", {"id": id}) from exc
    return FileResult(content, ctype, name)


# --- receipts ----------------------------------------------------------------------------------


def _receipt_out(r: RewardsReceipt, per_dollar: int, dealer_name: str | None = None) -> ReceiptOut:
    return ReceiptOut(
        id=r.id,
        dealer_id=r.dealer_id,
        dealer_name=dealer_name,
        file_id=r.file_id,
        retailer=r.retailer,
        purchase_date=r.purchase_date,
        total=money(r.total_cents),
        status=r.status,  # type: ignore[arg-type]
        points=r.points,
        suggested_points=_suggested(r.total_cents, per_dollar),
        decline_reason=r.decline_reason,
        duplicate_of=r.duplicate_of,
        reviewed_at=r.reviewed_at,
        created_at=r.created_at,
    )


@use_case(
    "rewards.receipts.create",
    "POST /receipts",
    tx="write",
    auth="customer",
    status=201,
    says="Receipt",
    record="rewards.receipt",
    summary="submit a sales receipt for points (pending until staff review it)",
)
def create_receipt(ctx: Ctx, body: ReceiptIn) -> ReceiptOut:
    if body.purchase_date > ctx.now().date():
        raise ValidationFailed("the purchase date is in the future", {"purchase_date": str(body.purchase_date)})
    cents = int(body.total * 100)
    if cents <= 0:
        raise ValidationFailed("the total must be more than 0", {"total": str(body.total)})
    now = ctx.now()
    with ctx.write() as s:
        f = s.get(RewardsFile, body.file_id)
        if f is None or f.dealer_id != ctx.principal.id:
            raise ValidationFailed("file_id is not a file you uploaded", {"file_id": body.file_id})
        if s.execute(select(RewardsReceipt.id).where(RewardsReceipt.file_id == f.id)).first():
            raise Conflict("this file was submitted already", {"file_id": f.id})
        # Same image (by hash) or the same retailer, date and total: flagged for the reviewer.
        same_image = select(RewardsFile.id).where(RewardsFile.sha256 == f.sha256, RewardsFile.id != f.id)
        dup = s.execute(
            select(RewardsReceipt.id)
            .where(
                or_(
                    RewardsReceipt.file_id.in_(same_image),
                    (RewardsReceipt.retailer == body.retailer)
                    & (RewardsReceipt.purchase_date == body.purchase_date)
                    & (RewardsReceipt.total_cents == cents),
                ),
                RewardsReceipt.status != "declined",
            )
            .limit(1)
        ).scalar_one_or_none()
        r = RewardsReceipt(
            id=new_id(),
            dealer_id=ctx.principal.id,
            file_id=f.id,
            retailer=body.retailer,
            purchase_date=body.purchase_date,
            total_cents=cents,
            status="pending",
            duplicate_of=dup,
            created_at=now,
            updated_at=now,
        )
        s.add(r)
        s.flush()
        emit(
            ctx,
            "sale.recorded",
            {
                "receipt_id": r.id,
                "dealer_id": r.dealer_id,
                "retailer": r.retailer,
                "purchase_date": str(r.purchase_date),
                "total": money(cents),
            },
        )
        return _receipt_out(r, ledger.settings(s, ctx.tenant_id).points_per_dollar)


@use_case(
    "rewards.receipts.list",
    "GET /receipts",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="receipts: a dealer's own, or the tenant's for staff (status=, dealer_id=)",
)
def list_receipts(ctx: Ctx, query: ReceiptQuery) -> Page[ReceiptOut]:
    stmt = select(RewardsReceipt)
    if is_dealer(ctx):
        stmt = stmt.where(RewardsReceipt.dealer_id == ctx.principal.id)
    elif query.dealer_id:
        stmt = stmt.where(RewardsReceipt.dealer_id == query.dealer_id)
    if query.status:
        stmt = stmt.where(RewardsReceipt.status == query.status)
    if query.search:
        stmt = stmt.where(contains(RewardsReceipt.retailer, query.search))
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "created_at": RewardsReceipt.created_at,
                "purchase_date": RewardsReceipt.purchase_date,
                "total": RewardsReceipt.total_cents,
            },
        )
        per_dollar = ledger.settings(s, ctx.tenant_id).points_per_dollar
        names = dict(
            s.execute(
                select(RewardsDealer.id, RewardsDealer.company).where(
                    RewardsDealer.id.in_({r.dealer_id for r in page.items})
                )
            ).all()
        )
    return page.map(lambda r: _receipt_out(r, per_dollar, names.get(r.dealer_id)))


@use_case(
    "rewards.receipts.get",
    "GET /receipts/{id}",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="one receipt",
)
def get_receipt(ctx: Ctx, id: str) -> ReceiptOut:
    with ctx.read() as s:
        r = s.get(RewardsReceipt, id)
        if r is None:
            raise NotFound("receipt not found", {"id": id})
        _own(ctx, r.dealer_id, "receipt", id)
        d = s.get(RewardsDealer, r.dealer_id)
        return _receipt_out(r, ledger.settings(s, ctx.tenant_id).points_per_dollar, d.company if d else None)


@use_case(
    "rewards.admin.receipts.review",
    "POST /admin/receipts/{id}",
    tx="write",
    roles=STAFF,
    says="{action} receipt",
    record="rewards.receipt",
    summary="approve a receipt with points (credited at once) or decline it with a reason",
)
def review_receipt(ctx: Ctx, id: str, body: ReviewIn) -> ReceiptOut:
    if body.action == "decline" and not body.reason:
        raise ValidationFailed("a decline needs a reason", {"reason": "required"})
    now = ctx.now()
    with ctx.write() as s:
        r = s.get(RewardsReceipt, id)
        if r is None:
            raise NotFound("receipt not found", {"id": id})
        d = ledger.lock_dealer(s, r.dealer_id)
        s.refresh(r)  # read again under the dealer's lock: two reviewers never both approve
        r.status = states.RECEIPT.check(r.status, body.action, states.STAFF)
        cfg = ledger.settings(s, ctx.tenant_id)
        r.reviewed_by = ctx.principal.id
        r.reviewed_at = now
        r.updated_at = now
        if body.action == "approve":
            pts = body.points or _suggested(r.total_cents, cfg.points_per_dollar)
            if pts <= 0:
                raise ValidationFailed("say how many points to award", {"points": "required"})
            r.points = pts
            ledger.sweep_expired(ctx, s, d)
            ledger.award(
                ctx,
                s,
                d,
                pts,
                kind="earn",
                source="receipt",
                source_id=r.id,
                description=f"receipt {r.retailer} {r.purchase_date}",
                expires_in_days=body.expires_in_days,
            )
            emit(ctx, "sale.approved", {"receipt_id": r.id, "dealer_id": d.id, "points": pts})
        else:
            r.decline_reason = body.reason
            emit(ctx, "sale.declined", {"receipt_id": r.id, "dealer_id": d.id, "reason": body.reason})
        s.flush()
        return _receipt_out(r, cfg.points_per_dollar, d.company)


# --- catalog -----------------------------------------------------------------------------------


def _product_out(p: RewardsProduct) -> ProductOut:
    return ProductOut(
        id=p.id,
        name=p.name,
        description=p.description,
        points=p.points,
        stock=p.stock,
        image_url=p.image_url,
        active=p.active,
    )


@use_case(
    "rewards.products.list",
    "GET /products",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="the redemption catalog (dealers see active products)",
)
def list_products(ctx: Ctx, query: ProductQuery) -> Page[ProductOut]:
    stmt = select(RewardsProduct)
    if is_dealer(ctx):
        stmt = stmt.where(RewardsProduct.active.is_(True))
    elif query.active is not None:
        stmt = stmt.where(RewardsProduct.active.is_(query.active))
    if query.search:
        stmt = stmt.where(contains(RewardsProduct.name, query.search))
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "name": RewardsProduct.name,
                "points": RewardsProduct.points,
                "created_at": RewardsProduct.created_at,
            },
            default_sort="points",
        )
    return page.map(_product_out)


def _product(ctx: Ctx, s: Session, id: str) -> RewardsProduct:
    p = s.get(RewardsProduct, id)
    if p is None or (is_dealer(ctx) and not p.active):
        raise NotFound("product not found", {"id": id})
    return p


@use_case(
    "rewards.products.get", "GET /products/{id}", tx="read", auth="customer", staff_too=True, summary="one product"
)
def get_product(ctx: Ctx, id: str) -> ProductOut:
    with ctx.read() as s:
        return _product_out(_product(ctx, s, id))


@use_case(
    "rewards.admin.products.list",
    "GET /admin/products",
    tx="read",
    roles=STAFF,
    summary="the catalog as staff manage it (active and withdrawn; active= filters)",
)
def admin_list_products(ctx: Ctx, query: ProductQuery) -> Page[ProductOut]:
    return list_products(ctx, query)


@use_case("rewards.admin.products.get", "GET /admin/products/{id}", tx="read", roles=STAFF, summary="one product")
def admin_get_product(ctx: Ctx, id: str) -> ProductOut:
    return get_product(ctx, id)


@use_case(
    "rewards.admin.products.create",
    "POST /admin/products",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="New reward",
    record="rewards.product",
    summary="add a product to the redemption catalog",
)
def create_product(ctx: Ctx, body: ProductIn) -> ProductOut:
    now = ctx.now()
    with ctx.write() as s:
        p = RewardsProduct(id=new_id(), **body.model_dump(), created_at=now, updated_at=now)
        s.add(p)
        s.flush()
        return _product_out(p)


@use_case(
    "rewards.admin.products.update",
    "PUT /admin/products/{id}",
    tx="write",
    roles=MANAGERS,
    says="Change reward",
    record="rewards.product",
    summary="change a product (fields left out stay)",
)
def update_product(ctx: Ctx, id: str, body: ProductUpdate) -> ProductOut:
    with ctx.write() as s:
        p = _product(ctx, s, id)
        for k, v in body.model_dump(exclude_unset=True).items():
            if v is not None or k == "image_url":
                setattr(p, k, v)
        p.updated_at = ctx.now()
        s.flush()
        return _product_out(p)


@use_case(
    "rewards.admin.products.delete",
    "DELETE /admin/products/{id}",
    tx="write",
    roles=MANAGERS,
    says="Withdraw reward",
    record="rewards.product",
    summary="withdraw a product (kept inactive: orders name it)",
)
def delete_product(ctx: Ctx, id: str) -> ProductOut:
    with ctx.write() as s:
        p = _product(ctx, s, id)
        p.active = False
        p.updated_at = ctx.now()
        s.flush()
        return _product_out(p)


# --- cart --------------------------------------------------------------------------------------


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


# --- checkout and orders ---------------------------------------------------------------------


def _order_out(o: RewardsOrder) -> OrderOut:
    return OrderOut(
        id=o.id,
        number=o.number,
        dealer_id=o.dealer_id,
        status=o.status,  # type: ignore[arg-type]
        lines=[OrderLine.model_validate(x) for x in o.lines or []],
        total_points=o.total_points,
        value=money(o.value_cents),
        shipping_address=Address.model_validate(o.shipping_address or {}),
        tracking_number=o.tracking_number,
        cancel_reason=o.cancel_reason,
        created_at=o.created_at,
        updated_at=o.updated_at,
    )


def _year_start(now: datetime) -> datetime:
    return datetime(now.year, 1, 1, tzinfo=UTC)


def ytd_value_cents(s: Session, dealer_id: str, now: datetime) -> int:
    """The value of the dealer's redemptions this calendar year (cancelled ones do not count)."""
    return int(
        s.execute(
            select(func.coalesce(func.sum(RewardsOrder.value_cents), 0)).where(
                RewardsOrder.dealer_id == dealer_id,
                RewardsOrder.status != "cancelled",
                RewardsOrder.created_at >= _year_start(now),
            )
        ).scalar_one()
    )


def _latest_w9(s: Session, dealer_id: str) -> RewardsW9 | None:
    return s.execute(
        select(RewardsW9).where(RewardsW9.dealer_id == dealer_id).order_by(RewardsW9.created_at.desc()).limit(1)
    ).scalar_one_or_none()


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
        emit(
            ctx,
            "redemption.created",
            {"order_id": o.id, "dealer_id": d.id, "number": number, "total_points": total, "lines": lines},
        )
        return _order_out(o)


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
    return page.map(_order_out)


@use_case(
    "rewards.orders.get", "GET /orders/{id}", tx="read", auth="customer", staff_too=True, summary="one redemption order"
)
def get_order(ctx: Ctx, id: str) -> OrderOut:
    with ctx.read() as s:
        o = s.get(RewardsOrder, id)
        if o is None:
            raise NotFound("order not found", {"id": id})
        _own(ctx, o.dealer_id, "order", id)
        return _order_out(o)


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
        return _order_out(o)


# --- settings ----------------------------------------------------------------------------------


def _settings_out(cfg: ledger.Settings) -> SettingsOut:
    return SettingsOut(
        w9_threshold=f"{cfg.w9_threshold:.2f}",
        point_value=str(cfg.point_value),
        points_expiry_days=cfg.points_expiry_days,
        points_per_dollar=cfg.points_per_dollar,
    )


@use_case("rewards.admin.settings.get", "GET /admin/settings", tx="read", roles=STAFF, summary="program settings")
def get_settings(ctx: Ctx) -> SettingsOut:
    with ctx.read() as s:
        return _settings_out(ledger.settings(s, ctx.tenant_id))


@use_case(
    "rewards.admin.settings.set",
    "PUT /admin/settings",
    tx="write",
    roles=MANAGERS,
    says="Rewards settings",
    summary="set the W-9 threshold, a point's value, points' lifetime and points per dollar",
)
def set_settings(ctx: Ctx, body: SettingsIn) -> SettingsOut:
    with ctx.write() as s:
        t = s.get(Tenant, ctx.tenant_id)
        assert t is not None
        settings = dict(t.settings or {})
        cur = dict(settings.get("rewards") or {})
        for k, v in body.model_dump(exclude_none=True).items():
            cur[k] = str(v) if isinstance(v, Decimal) else v
        settings["rewards"] = cur
        t.settings = settings  # a new dict: JSON columns track assignment only
        s.flush()
        return _settings_out(ledger.settings(s, ctx.tenant_id))


# --- W-9 ---------------------------------------------------------------------------------------


def _form(w: RewardsW9) -> W9Form:
    return W9Form(
        id=w.id,
        name=w.name,
        business_name=w.business_name,
        tax_classification=w.tax_classification,
        address=w.address,
        city=w.city,
        state=w.state,
        zip=w.zip,
        tin_type=w.tin_type,
        tin_masked=tin.masked(w.tin_last4, w.tin_type),
        status=w.status,  # type: ignore[arg-type]
        reject_reason=w.reject_reason,
        certified_at=w.certified_at,
    )


def _w9_status(s: Session, ctx: Ctx, dealer_id: str) -> W9Out:
    now = ctx.now()
    cfg = ledger.settings(s, ctx.tenant_id)
    ytd = ytd_value_cents(s, dealer_id, now)
    threshold = int(cfg.w9_threshold * 100)
    w = _latest_w9(s, dealer_id)
    status = w.status if w is not None else ("required" if ytd >= threshold else "not_required")
    return W9Out(
        status=status,  # type: ignore[arg-type]
        threshold=money(threshold),
        ytd_value=money(ytd),
        year=now.year,
        form=_form(w) if w else None,
    )


@use_case("rewards.w9.get", "GET /tax/w9", tx="read", auth="customer", summary="the dealer's W-9 status")
def get_w9(ctx: Ctx) -> W9Out:
    with ctx.read() as s:
        return _w9_status(s, ctx, ctx.principal.id)


@use_case(
    "rewards.w9.submit",
    "POST /tax/w9",
    tx="write",
    auth="customer",
    status=201,
    online=True,
    summary="submit a W-9 (the TIN is checked, sealed, and shown masked from then on)",
)
def submit_w9(ctx: Ctx, body: W9In) -> W9Out:
    try:
        digits = tin.normalise(body.tin, body.tin_type)
    except ValueError as exc:
        raise ValidationFailed(str(exc), {"tin": str(exc)}) from exc
    now = ctx.now()
    with ctx.write() as s:
        w = _latest_w9(s, ctx.principal.id)
        if w is not None and w.status in ("submitted", "verified"):
            raise Conflict(f"a W-9 is {w.status} already", {"status": w.status, "w9_id": w.id})
        s.add(
            RewardsW9(
                id=new_id(),
                dealer_id=ctx.principal.id,
                status="submitted",
                name=body.name,
                business_name=body.business_name,
                tax_classification=body.tax_classification,
                exempt_payee_code=body.exempt_payee_code,
                fatca_code=body.fatca_code,
                address=body.address,
                city=body.city,
                state=body.state,
                zip=body.zip,
                tin_type=body.tin_type,
                tin_sealed=seal(ctx.runtime.secret_key, digits),
                tin_last4=digits[-4:],
                certified_at=now,
                created_at=now,
                updated_at=now,
            )
        )
        s.flush()
        return _w9_status(s, ctx, ctx.principal.id)


def _admin_w9(w: RewardsW9, dealer: str) -> AdminW9Out:
    return AdminW9Out(**_form(w).model_dump(), dealer_id=w.dealer_id, dealer_name=dealer)


@use_case("rewards.admin.w9.list", "GET /admin/w9", tx="read", roles=STAFF, summary="dealers' W-9 forms (masked)")
def list_w9(ctx: Ctx, query: W9Query) -> Page[AdminW9Out]:
    stmt = select(RewardsW9)
    if query.status:
        stmt = stmt.where(RewardsW9.status == query.status)
    if query.search:
        stmt = stmt.where(contains(RewardsW9.name, query.search) | contains(RewardsW9.business_name, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": RewardsW9.created_at})
        names = dict(
            s.execute(
                select(RewardsDealer.id, RewardsDealer.company).where(
                    RewardsDealer.id.in_({w.dealer_id for w in page.items})
                )
            ).all()
        )
    return page.map(lambda w: _admin_w9(w, names.get(w.dealer_id, "")))


@use_case("rewards.admin.w9.get", "GET /admin/w9/{id}", tx="read", roles=STAFF, summary="one W-9 (masked)")
def get_w9_form(ctx: Ctx, id: str) -> AdminW9Out:
    with ctx.read() as s:
        w = s.get(RewardsW9, id)
        if w is None:
            raise NotFound("W-9 not found", {"id": id})
        d = s.get(RewardsDealer, w.dealer_id)
        return _admin_w9(w, d.company if d else "")


@use_case(
    "rewards.admin.w9.decide",
    "POST /admin/w9/{id}",
    tx="write",
    roles=MANAGERS,
    says="{action} W-9",
    record="rewards.w9",
    summary="verify or reject a W-9 (a rejected dealer submits a new one)",
)
def decide_w9(ctx: Ctx, id: str, body: W9Decide) -> AdminW9Out:
    if body.action == "reject" and not body.reason:
        raise ValidationFailed("a rejection needs a reason", {"reason": "required"})
    with ctx.write() as s:
        w = s.get(RewardsW9, id)
        if w is None:
            raise NotFound("W-9 not found", {"id": id})
        w.status = states.W9.check(w.status, body.action, states.STAFF)
        w.reject_reason = body.reason if body.action == "reject" else None
        w.updated_at = ctx.now()
        s.flush()
        d = s.get(RewardsDealer, w.dealer_id)
        return _admin_w9(w, d.company if d else "")

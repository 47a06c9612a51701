"""The dealer's portal (``/{tenant}/rewards/p/``): ask to join, sign in, upload a receipt, see
points and their history, browse the catalogue, redeem.

Every change runs the module's own use cases as the signed-in dealer (file upload, receipt
create, checkout of one item), so the rules are the API's: only approved dealers sign in, a
receipt waits for staff review, a redemption spends points and stock in one transaction. A
receipt and its file are written in one unit of work, so a refused file or a bad date stores
nothing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import Select, String, and_, bindparam, or_, select

from local_db.models.rewards import RewardsLedgerEntry, RewardsLot, RewardsProduct, RewardsReceipt
from services.core.commands import execute
from services.core.context import Ctx
from services.core.errors import Conflict, ServiceError, ValidationFailed
from services.core.files import Redirect
from services.core.pages import N_, Page, PageCall, page
from services.core.pagination import entity_columns
from services.core.portals import Field, FileRefused, Portal, account_pages, errors_of, signed_in
from services.rewards import points as ledger
from services.rewards.accounts import ACCOUNTS
from services.rewards.earning import (
    Rule,
    earned_in_period_query,
    load_rules,
    load_tiers,
    multiplier,
    receipt_points,
    tier_at,
)
from services.rewards.schemas import TierOut, money

MODULE = "rewards"
PORTAL = Portal(
    module=MODULE,
    accounts=ACCOUNTS,
    login="rewards.auth.login",
    register="rewards.register_request.create",
    register_fields=(
        Field("company", N_("Company"), autocomplete="organization"),
        Field("name", N_("Your name"), autocomplete="name"),
        Field("email", N_("E-mail address"), "email", autocomplete="email"),
        Field("password", N_("Password (8 characters or more)"), "password", autocomplete="new-password"),
        Field("phone", N_("Phone (optional)"), "tel", required=False, autocomplete="tel"),
    ),
    nav=(("/", N_("Your points")), ("/receipt", N_("Upload a receipt")), ("/catalogue", N_("Catalogue"))),
    title=N_("Dealer rewards"),
    approval=True,
)
account_pages(PORTAL)

RECEIPT = ("retailer", "purchase_date", "total")
ADDRESS = ("line1", "line2", "city", "state", "postal_code", "country")
ADDRESS_NEEDED = ("line1", "city", "postal_code", "country")
STATUS_NAMES = {
    "pending": N_("waiting for review"),
    "approved": N_("approved"),
    "declined": N_("declined"),
    "ordered": N_("ordered"),
    "shipped": N_("shipped"),
    "delivered": N_("delivered"),
    "cancelled": N_("cancelled"),
}
KIND_NAMES = {
    "earn": N_("earned"),
    "redeem": N_("redeemed"),
    "refund": N_("refunded"),
    "expire": N_("expired"),
    "adjust": N_("adjusted"),
}

HOME_ROWS = 20  # receipts and ledger entries the points page shows
CATALOGUE_ROWS = 100  # products the catalogue page lists


def _name(call: PageCall, names: dict[str, str], key: str) -> str:
    return call.gettext(names.get(key, key))


def _home_statements() -> tuple[Select[Any], Select[Any]]:
    """The points page's two statements, built once (their building was a third of the page's
    CPU); the dealer, the time and the tier period's start are parameters.

    - The expired lots' and the period's points, and the receipts: the sums are a one-row
      subquery the receipts are outer-joined to, so a dealer without receipts still gets them
      (one row, its receipt columns empty): a round trip saved, each cost more than its work. The
      receipts are the newest (the receipts list's order) and the ones waiting for review (the
      pending points are worked out from those), flagged ``recent`` for the first.
    - The ledger's newest entries, as ``rewards.points.ledger`` sorts them (newest first)."""
    r, e = RewardsReceipt, RewardsLedgerEntry
    dealer = bindparam("dealer_id", type_=String)
    newest = select(r.id).where(r.dealer_id == dealer).order_by(r.created_at.desc()).limit(HOME_ROWS)
    sums = select(
        ledger.expired_unswept_query(dealer, bindparam("now", type_=RewardsLot.expires_at.type))
        .scalar_subquery()
        .label("expired"),
        earned_in_period_query(dealer, bindparam("since", type_=e.created_at.type)).scalar_subquery().label("earned"),
    ).subquery()
    receipts = (
        select(sums.c.expired, sums.c.earned, r.id, r.retailer, r.purchase_date, r.total_cents, r.status, r.points)
        .add_columns(r.lines, r.id.in_(newest).label("recent"))
        .select_from(sums)
        .outerjoin(r, and_(r.dealer_id == dealer, or_(r.status == "pending", r.id.in_(newest))))
        .order_by(r.created_at.desc())
    )
    history = select(*entity_columns(e)).where(e.dealer_id == dealer).order_by(e.created_at.desc()).limit(HOME_ROWS)
    return receipts, history


_HOME_RECEIPTS, _HOME_HISTORY = _home_statements()


def _home_rows(call: PageCall, ctx: Ctx) -> tuple[dict[str, Any], list[Any], list[Any]]:
    """Everything the points page shows, in two statements (issue 33: each round trip to the
    database cost more than its statement, and the page made ten): the points box (balance,
    points of receipts waiting for review, what the balance is worth) by the rules
    ``rewards.points.get`` uses (the ledger's and the earning rules' own functions), from the
    dealer row the session check read (``call.account``), with the program's settings, earning
    rules and tiers from the per-process cache (``PageCall.cached``: triggers on the tenants,
    rules and tiers tables bump its version, migration 0902); that use case also works out the
    next expiries, which the page does not show. The receipts and ledger entries as
    ``_home_statements`` reads them."""
    d = call.account
    now = ctx.now()
    cfg, rules, tiers = call.cached(("rewards.earning",), lambda: _earning(ctx))
    params = {"dealer_id": d.id, "now": now, "since": now - timedelta(days=cfg.tier_period_days)}
    with ctx.read() as s:
        rows = s.execute(_HOME_RECEIPTS, params).all()
        history = s.execute(_HOME_HISTORY, params).all()
    expired, earned = rows[0].expired, rows[0].earned
    rows = [x for x in rows if x.id is not None]
    balance = int(d.balance - expired)
    # As ``earning.suggestions``: no tiers, no multiplier.
    factor = multiplier(tier_at(int(earned), cfg.tier_period_days, tiers) if tiers else None)
    pending = sum(receipt_points(rules, cfg.points_per_dollar, x, factor) for x in rows if x.status == "pending")
    points = {"balance": balance, "pending": pending, "value": money(ledger.value_cents(balance, cfg.point_value))}
    return points, [x for x in rows if x.recent], list(history)


def _earning(ctx: Ctx) -> tuple[ledger.Settings, list[Rule], list[TierOut]]:
    """The program's settings, its active earning rules and its tiers (kept per tenant)."""
    with ctx.read() as s:
        return ledger.settings(s, ctx.tenant_id), load_rules(s), load_tiers(s)


def _balance(call: PageCall, ctx: Ctx) -> int:
    """The dealer's spendable points, as ``rewards.points.get`` answers them (the same two rules:
    the balance, less the lots past their date not yet written off) without the pending
    suggestions, tier and expiries that use case works out and the catalogue does not show; the
    balance from the dealer row the session check read."""
    with ctx.read() as s:
        return int(call.account.balance - ledger.expired_unswept(s, ctx.principal.id, ctx.now()))


def _catalogue_rows(call: PageCall, ctx: Ctx) -> tuple[int, list[Any]]:
    """The catalogue page's balance and products in one read session: the products a dealer is
    shown by ``rewards.products.list`` (the active ones, by points, cheapest first), the five
    columns the page shows, without that use case's session and answer models (issue 33)."""
    p = RewardsProduct
    with ctx.read() as s:
        balance = int(call.account.balance - ledger.expired_unswept(s, ctx.principal.id, ctx.now()))
        products = s.execute(
            select(p.id, p.name, p.description, p.points, p.stock)
            .where(p.active.is_(True))
            .order_by(p.points.asc())
            .limit(CATALOGUE_ROWS)
        ).all()
    return balance, list(products)


@page("rewards.portal.home", "/", limit="public_events")
def home(call: PageCall) -> Page:
    ctx = PORTAL.customer(call)
    if ctx is None:
        return Page("rewards/welcome.html", {}, title=call.gettext("Dealer rewards"))
    points, rows, entries = _home_rows(call, ctx)
    receipts = [
        {
            "retailer": r.retailer,
            "date": r.purchase_date.isoformat(),
            "total": money(r.total_cents),
            "status": _name(call, STATUS_NAMES, r.status),
            "points": r.points,
        }
        for r in rows
    ]
    history = [
        {
            "date": e.created_at.date().isoformat(),
            "kind": _name(call, KIND_NAMES, e.kind),
            "points": e.points,
            "balance": e.balance_after,
            "what": e.description,
        }
        for e in entries
    ]
    notice = ""
    if call.query.get("sent"):
        notice = call.gettext("Thank you: your receipt is waiting for review.")
    return Page(
        "rewards/home.html",
        {
            "points": points,
            "receipts": receipts,
            "history": history,
            "notice": notice,
            **PORTAL.menu(call, ctx),
        },
        title=call.gettext("Your points"),
    )


@page("rewards.portal.receipt", "/receipt", methods=("GET", "POST"), limit="public_events", post_limit="upload")
@signed_in(PORTAL)
def upload_receipt(call: PageCall, ctx: Ctx) -> Page | Redirect:
    values = {k: call.form.get(k, "").strip() for k in RECEIPT}
    errors: dict[str, str] = {}

    def again() -> Page:
        return Page(
            "rewards/receipt.html",
            {"values": values, "errors": errors, **PORTAL.menu(call, ctx)},
            status=400 if errors else 200,
            title=call.gettext("Upload a receipt"),
        )

    if call.method == "GET":
        return again()
    files = call.files.get("receipt", [])
    if len(files) != 1:
        errors["receipt"] = call.gettext("Please add the receipt: one photo or PDF.")
    for k in RECEIPT:
        if not values[k]:
            errors[k] = call.gettext("This field is required.")
    if errors:
        return again()
    try:
        with ctx.write():  # the file and the receipt stand or fall together
            try:
                fid = execute(ctx, "rewards.files.upload", upload=files[0]).id
            except ServiceError as exc:  # not an image or PDF, or over the size limit
                raise FileRefused("receipt refused") from exc
            execute(ctx, "rewards.receipts.create", body={**values, "file_id": fid})
    except FileRefused:
        errors["receipt"] = call.gettext("Only a photo or a PDF of the receipt is accepted.")
    except ValidationFailed as exc:
        details = exc.details or {}
        if "purchase_date" in details:
            errors["purchase_date"] = call.gettext("The purchase date cannot be in the future.")
        elif "total" in details and "fields" not in details:
            errors["total"] = call.gettext("The total must be more than 0.")
        else:
            errors.update(errors_of(exc, call))
    except Conflict:
        errors["receipt"] = call.gettext("This receipt was sent already.")
    if errors:
        return again()
    return Redirect(f"{PORTAL.base(call)}/?sent=1", status=303)


@page("rewards.portal.catalogue", "/catalogue", limit="public_events")
@signed_in(PORTAL)
def catalogue(call: PageCall, ctx: Ctx) -> Page:
    balance, listed = _catalogue_rows(call, ctx)
    items = [
        {"id": p.id, "name": p.name, "description": p.description, "points": p.points, "in_stock": p.stock > 0}
        for p in listed
    ]
    return Page(
        "rewards/catalogue.html",
        {"items": items, "balance": balance, **PORTAL.menu(call, ctx)},
        title=call.gettext("Catalogue"),
    )


@page("rewards.portal.redeem", "/redeem/{product_id}", methods=("GET", "POST"), limit="public_events")
@signed_in(PORTAL)
def redeem(call: PageCall, ctx: Ctx, product_id: str) -> Page:
    """One product for points, sent to the address given (the dealer's profile address at first)."""
    product = execute(ctx, "rewards.products.get", id=product_id[:36])
    balance = _balance(call, ctx)
    errors: dict[str, str] = {}
    if call.method == "GET":
        address = execute(ctx, "rewards.profile.get").address.model_dump()
        values = {"quantity": "1", **{k: str(address.get(k) or "") for k in ADDRESS}}
    else:
        values = {k: call.form.get(k, "").strip() for k in ("quantity", *ADDRESS)}

    def again() -> Page:
        return Page(
            "rewards/redeem.html",
            {
                "product": {"name": product.name, "description": product.description, "points": product.points},
                "balance": balance,
                "values": values,
                "errors": errors,
                **PORTAL.menu(call, ctx),
            },
            status=400 if errors else 200,
            title=call.gettext("Redeem"),
        )

    if call.method == "GET":
        return again()
    if not values["quantity"].isdigit() or not 1 <= int(values["quantity"]) <= 1000:
        errors["quantity"] = call.gettext("Please give a number from 1 to 1000.")
    for k in ADDRESS_NEEDED:  # where to send it: the use case takes any address, a parcel does not
        if not values[k]:
            errors[k] = call.gettext("This field is required.")
    if errors:
        return again()
    body = {
        "shipping_address": {k: values[k] for k in ADDRESS},
        "items": [{"product_id": product.id, "quantity": int(values["quantity"])}],
    }
    try:
        order = execute(ctx, "rewards.cart.checkout", body=body)
    except ValidationFailed as exc:
        errors.update(errors_of(exc, call))
    except Conflict as exc:
        details = exc.details or {}
        if "needed" in details:
            errors["quantity"] = call.gettext("You do not have enough points for this.")
        elif "stock" in details:
            errors["quantity"] = call.gettext("Not enough in stock.")
        elif "w9" in details:
            errors["form"] = call.gettext(
                "Before this redemption we need your W-9 tax form. Please send it to us and try again."
            )
        else:
            errors["form"] = call.gettext("This product is no longer offered.")
    if errors:
        return again()
    return Page(
        "rewards/redeemed.html",
        {"number": order.number, "points": order.total_points, **PORTAL.menu(call, ctx)},
        title=call.gettext("Thank you"),
    )

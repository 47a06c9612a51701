"""The trade-in customer's portal (``/{tenant}/upgrade/p/``): sign up or in, get a quote, submit
a trade-in with photos, follow it, accept or decline an offer.

Every change runs the module's own use cases as the signed-in customer (photos upload, submission
create and submit, offer respond), so the rules are the API's; a trade-in and its photos are
written in one unit of work, so a refused photo or a bad serial stores nothing.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from local_db.models.upgrade import UpgradeSubmission, UpgradeValuation
from services.core.commands import execute
from services.core.context import Ctx
from services.core.errors import Conflict, ServiceError, ValidationFailed
from services.core.files import Redirect
from services.core.pages import N_, Page, PageCall, page
from services.core.portals import Field, FileRefused, Portal, account_pages, errors_of, signed_in
from services.upgrade import grading
from services.upgrade.customers import ACCOUNTS

MODULE = "upgrade"
PORTAL = Portal(
    module=MODULE,
    accounts=ACCOUNTS,
    login="upgrade.auth.login",
    register="upgrade.auth.register",
    register_fields=(
        Field("name", N_("Your name"), autocomplete="name"),
        Field("email", N_("E-mail address"), "email", autocomplete="email"),
        Field("password", N_("Password (8 characters or more)"), "password", autocomplete="new-password"),
        Field("phone", N_("Phone (optional)"), "tel", required=False, autocomplete="tel"),
    ),
    nav=(("/", N_("Your trade-ins")), ("/new", N_("New trade-in"))),
    title=N_("Trade-in"),
)
account_pages(PORTAL)

CONDITIONS = {
    "excellent": N_("Excellent: like new"),
    "good": N_("Good: light signs of use"),
    "fair": N_("Fair: visible wear"),
    "poor": N_("Poor: damaged or not working"),
}
# The trade-in states as the portal names them (translated in the template).
STATUS_NAMES = {
    "draft": N_("draft"),
    "submitted": N_("submitted"),
    "approved": N_("approved"),
    "offered": N_("offer made"),
    "accepted": N_("offer accepted"),
    "shipped": N_("kit shipped"),
    "received": N_("received"),
    "inspected": N_("inspected"),
    "completed": N_("completed"),
    "declined": N_("declined"),
    "rejected": N_("rejected"),
    "returned": N_("returned"),
}
# What happens next, said on the trade-in's page (a newcomer does not know the process).
NEXT = {
    "submitted": N_("We are looking at your trade-in and will send you an offer."),
    "accepted": N_("We will post you a kit to send the device in."),
    "shipped": N_("Your kit is on its way: put the device in it and send it back."),
    "received": N_("We received your device and are checking it."),
    "completed": N_("Done: your credit is issued."),
}
MAX_PHOTOS = 5
HOME_ROWS = 50  # trade-ins the home page lists, newest first
FORM = ("product_id", "condition", "serial_number", "imei", "description")


def _products(call: PageCall) -> list[tuple[str, str, int, str]]:
    """The devices the tenant values (product id, name, base value in cents, currency)."""
    with call.ctx().read() as s:
        rows = s.execute(
            select(
                UpgradeValuation.product_id,
                UpgradeValuation.product_name,
                UpgradeValuation.base_cents,
                UpgradeValuation.currency,
            ).order_by(UpgradeValuation.product_name)
        ).all()
    return [(r[0], r[1], int(r[2]), r[3]) for r in rows]


def _choices(call: PageCall) -> dict[str, Any]:
    return {
        "products": [(p[0], p[1]) for p in _products(call)],
        "conditions": [(k, call.gettext(v)) for k, v in CONDITIONS.items()],
    }


def _status(call: PageCall, status: str) -> str:
    return call.gettext(STATUS_NAMES.get(status, status))


def _tradeins(ctx: Ctx) -> list[tuple[Any, UpgradeValuation | None]]:
    """The customer's newest trade-ins (as ``upgrade.submissions.list`` sorts them: created_at,
    newest first) with their devices' valuations, in one read session: the columns the page
    shows, without the kit barcodes, photos and the full answer model that use case builds for
    each (issue 33: the use case's machinery was most of the page's CPU)."""
    cols = (UpgradeSubmission.id, UpgradeSubmission.product_id, UpgradeSubmission.serial_number)
    with ctx.read() as s:
        subs = s.execute(
            select(*cols, UpgradeSubmission.status, UpgradeSubmission.condition, UpgradeSubmission.currency)
            .where(UpgradeSubmission.customer_id == ctx.principal.id)
            .order_by(UpgradeSubmission.created_at.desc())
            .limit(HOME_ROWS)
        ).all()
        products = {x.product_id for x in subs}
        vals = {
            v.product_id: v
            for v in s.execute(select(UpgradeValuation).where(UpgradeValuation.product_id.in_(products))).scalars()
        }
    return [(x, vals.get(x.product_id)) for x in subs]


def _declared(sub: Any, val: UpgradeValuation | None) -> str:
    """The declared value as the submission's answer gives it (its condition's share of the
    device's base value, in the submission's currency, else the valuation's)."""
    currency = sub.currency or (val.currency if val else None)
    if val is None or not currency:
        return ""
    return f"{grading.from_cents(grading.value_cents(val.base_cents, sub.condition))} {currency}"


@page("upgrade.portal.home", "/", limit="public_events")
def home(call: PageCall) -> Page:
    ctx = PORTAL.customer(call)
    if ctx is None:
        return Page("upgrade/welcome.html", {}, title=call.gettext("Trade in your device"))
    items = [
        {
            "id": x.id,
            "name": (val.product_name if val else None) or x.product_id,
            "serial": x.serial_number,
            "status": _status(call, x.status),
            "value": _declared(x, val),
        }
        for x, val in _tradeins(ctx)
    ]
    return Page("upgrade/home.html", {"items": items, **PORTAL.menu(call, ctx)}, title=call.gettext("Your trade-ins"))


@page("upgrade.portal.quote", "/quote", methods=("GET", "POST"), limit="public_events")
def quote(call: PageCall) -> Page:
    """What a device is worth in a condition: its base value times the condition's share, the
    figure a submission declares (``grading.value_cents``). Stores nothing."""
    values = {k: call.form.get(k, "").strip() for k in ("product_id", "condition")}
    errors: dict[str, str] = {}
    result = None
    if call.method == "POST":
        product = next((p for p in _products(call) if p[0] == values["product_id"]), None)
        if product is None:
            errors["product_id"] = call.gettext("Please choose a device.")
        if values["condition"] not in CONDITIONS:
            errors["condition"] = call.gettext("Please choose a condition.")
        if product is not None and not errors:
            cents = grading.value_cents(product[2], values["condition"])
            result = {"name": product[1], "amount": f"{grading.from_cents(cents)} {product[3]}"}
    signed = PORTAL.customer(call) is not None
    return Page(
        "upgrade/quote.html",
        {"values": values, "errors": errors, "result": result, "signed_in": signed, **_choices(call)},
        status=400 if errors else 200,
        title=call.gettext("Get a quote"),
    )


@page("upgrade.portal.new", "/new", methods=("GET", "POST"), limit="public_events", post_limit="upload")
@signed_in(PORTAL)
def new_tradein(call: PageCall, ctx: Ctx) -> Page | Redirect:
    values = {k: call.form.get(k, call.query.get(k, "")).strip() for k in FORM}
    title = call.gettext("New trade-in")
    errors: dict[str, str] = {}

    def again() -> Page:
        return Page(
            "upgrade/new.html",
            {"values": values, "errors": errors, **_choices(call), **PORTAL.menu(call, ctx)},
            status=400 if errors else 200,
            title=title,
        )

    if call.method == "GET":
        return again()
    photos = call.files.get("photos", [])
    if not photos:
        errors["photos"] = call.gettext("Please add at least one photo of the device.")
    elif len(photos) > MAX_PHOTOS:
        errors["photos"] = call.gettext("At most 5 photos, please.")
    if values["product_id"] not in {p[0] for p in _products(call)}:
        errors["product_id"] = call.gettext("Please choose a device.")
    if values["condition"] not in CONDITIONS:
        errors["condition"] = call.gettext("Please choose a condition.")
    body: dict[str, Any] = {k: values[k] for k in FORM if values[k]}
    if errors:
        return again()
    try:
        # One unit of work: the photos, the draft and its submission stand or fall together.
        with ctx.write():
            ids = []
            for f in photos:
                try:
                    ids.append(execute(ctx, "upgrade.photos.upload", upload=f).id)
                except ServiceError as exc:  # not an image, unreadable, or over the size limit
                    raise FileRefused("photo refused") from exc
            sub = execute(ctx, "upgrade.submissions.create", body={**body, "photos": ids})
            execute(ctx, "upgrade.submissions.submit", id=sub.id, body={})
    except FileRefused:
        errors["photos"] = call.gettext("Only photos are accepted (JPEG, PNG, WebP or HEIC).")
    except ValidationFailed as exc:
        if (exc.details or {}).get("reason") == "imei_required":
            errors["imei"] = call.gettext("This device is a phone: please give its IMEI (dial *#06#).")
        else:
            errors.update(errors_of(exc, call, {"imei": "imei", "serial_number": "serial_number"}))
            if "imei" in errors:
                errors["imei"] = call.gettext("This is not a valid IMEI (15 digits).")
    except Conflict:
        errors["serial_number"] = call.gettext("A trade-in with this serial number is under way already.")
    if errors:
        return again()
    return Redirect(f"{PORTAL.base(call)}/t/{sub.id}", status=303)


@page("upgrade.portal.tradein", "/t/{id}", methods=("GET", "POST"), limit="public_events")
@signed_in(PORTAL)
def tradein(call: PageCall, ctx: Ctx, id: str) -> Page:
    """One trade-in: its state, declared value, offers; accept or decline the current offer."""
    errors: dict[str, str] = {}
    notice = ""
    if call.method == "POST":
        action = call.form.get("action", "")
        reason = call.form.get("reason", "").strip()
        offer = call.form.get("offer_id", "")[:36]
        if action == "submit":  # a draft (saved through the API) sent for review from here
            try:
                execute(ctx, "upgrade.submissions.submit", id=id[:36], body={})
                notice = call.gettext("Your trade-in is submitted.")
            except ValidationFailed:
                errors["form"] = call.gettext("This device is a phone: please give its IMEI (dial *#06#).")
            except Conflict:
                errors["form"] = call.gettext("Please check the form.")
        elif action not in ("accept", "decline"):
            errors["form"] = call.gettext("Please check the form.")
        elif len(reason) > 2000:
            errors["reason"] = call.gettext("This is too long.")
        else:
            body = {"action": action, **({"reason": reason} if reason and action == "decline" else {})}
            try:
                execute(ctx, "upgrade.offers.respond", id=offer, body=body)
                if action == "accept":
                    notice = call.gettext("You accepted the offer. Thank you!")
                else:
                    notice = call.gettext("You declined the offer.")
            except Conflict:
                errors["form"] = call.gettext("This offer cannot be answered any more (it expired or was replaced).")
    d = execute(ctx, "upgrade.submissions.get", id=id[:36])
    offer_out = d.current_offer
    view = {
        "id": d.id,
        "name": d.product_name or d.product_id,
        "serial": d.serial_number,
        "condition": call.gettext(CONDITIONS.get(d.condition, d.condition)),
        "status": _status(call, d.status),
        "next": call.gettext(NEXT[d.status]) if d.status in NEXT else "",
        "value": f"{d.declared_value} {d.currency}" if d.declared_value is not None and d.currency else "",
        "photos": len(d.photos),
        "kit": d.kit_barcode,
        "decline_reason": d.decline_reason,
        "offer": {
            "id": offer_out.id,
            "amount": f"{offer_out.amount} {offer_out.currency}",
            "notes": offer_out.notes,
            "expires": offer_out.expires_at.date().isoformat(),
            "revised": offer_out.kind == "revised",
        }
        if offer_out is not None and offer_out.status == "pending"
        else None,
        "accepted": f"{d.accepted_offer.amount} {d.accepted_offer.currency}" if d.accepted_offer else None,
        "can_submit": "submit" in d.allowed_actions,
    }
    return Page(
        "upgrade/tradein.html",
        {"t": view, "errors": errors, "values": {}, "notice": notice, **PORTAL.menu(call, ctx)},
        status=400 if errors else 200,
        title=call.gettext("Your trade-in"),
    )

"""The warranty customer's portal (``/{tenant}/aftersale/p/``): register a product (anyone, as
the public API allows), sign up or in, see registrations and claims, file a claim with photos.

Every change runs the module's own use cases (proof upload, warranty registration, claim photos,
claim create); a registration and its proof of purchase, or a claim and its photos, are written
in one unit of work, so a refused file or a bad date stores nothing.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from local_db.models.aftersale import AftersaleClaim, AftersaleWarranty
from services.aftersale.customers import ACCOUNTS
from services.aftersale.lookups import _status as coverage_status
from services.core.commands import execute
from services.core.context import Ctx
from services.core.errors import Conflict, ServiceError, ValidationFailed
from services.core.files import Redirect
from services.core.pages import N_, Page, PageCall, page
from services.core.portals import Field, FileRefused, Portal, account_pages, errors_of, signed_in

MODULE = "aftersale"
PORTAL = Portal(
    module=MODULE,
    accounts=ACCOUNTS,
    login="aftersale.auth.login",
    register="aftersale.auth.register",
    register_fields=(
        Field("name", N_("Your name"), autocomplete="name"),
        Field("email", N_("E-mail address"), "email", autocomplete="email"),
        Field("password", N_("Password (8 characters or more)"), "password", autocomplete="new-password"),
        Field("phone", N_("Phone (optional)"), "tel", required=False, autocomplete="tel"),
    ),
    nav=(("/", N_("Your products")), ("/register-product", N_("Register a product")), ("/claim", N_("File a claim"))),
    title=N_("Warranty"),
)
account_pages(PORTAL)

REGISTER = ("product_sku", "serial_number", "purchase_date", "name", "email", "retailer")
# The warranty and claim states as the portal names them.
STATUS_NAMES = {
    "active": N_("covered"),
    "expired": N_("coverage ended"),
    "voided": N_("voided"),
    "disputed": N_("being checked"),
    "open": N_("received"),
    "in_progress": N_("in progress"),
    "closed": N_("closed"),
    "cancelled": N_("cancelled"),
}
MAX_PHOTOS = 5
HOME_ROWS = 50  # warranties and claims the home page lists, newest first


def _status(call: PageCall, status: str) -> str:
    return call.gettext(STATUS_NAMES.get(status, status))


def _products_and_claims(ctx: Ctx) -> tuple[list[Any], list[Any]]:
    """The customer's warranties and claims as ``aftersale.warranties.list`` and
    ``aftersale.claims.list`` find them (registered with, or filed from, the customer's e-mail;
    newest first), the columns the page shows, in one read session: the two use cases' sessions
    and answer models were most of the page's CPU (issue 33). A claim's serial and SKU are its
    warranty's, as in the claims' answer."""
    email = ctx.principal.email
    w = AftersaleWarranty
    with ctx.read() as s:
        found = s.execute(
            select(w.product_name, w.product_sku, w.serial_number, w.coverage_until, w.status)
            .where(w.email == email)
            .order_by(w.created_at.desc())
            .limit(HOME_ROWS)
        ).all()
        c = AftersaleClaim
        filed = s.execute(
            select(c.description, c.status, c.resolution, c.photos, c.created_at, w.serial_number, w.product_sku)
            .join(w, w.id == c.warranty_id)
            .where(c.email == email)
            .order_by(c.created_at.desc())
            .limit(HOME_ROWS)
        ).all()
    return list(found), list(filed)


@page("aftersale.portal.home", "/", limit="public_events")
def home(call: PageCall) -> Page:
    ctx = PORTAL.customer(call)
    if ctx is None:
        return Page("aftersale/welcome.html", {}, title=call.gettext("Your warranty"))
    found, filed = _products_and_claims(ctx)
    today = ctx.now().date()
    warranties = [
        {
            "name": w.product_name or w.product_sku,
            "serial": w.serial_number,
            "until": w.coverage_until.isoformat(),
            "status": _status(call, coverage_status(w, today)),
            "active": coverage_status(w, today) == "active",
        }
        for w in found
    ]
    claims = [
        {
            "serial": c.serial_number,
            "sku": c.product_sku,
            "description": c.description,
            "status": _status(call, c.status),
            "resolution": c.resolution,
            "photos": len(c.photos or []),
            "date": c.created_at.date().isoformat(),
        }
        for c in filed
    ]
    notice = call.gettext("Your claim was filed. We will be in touch.") if call.query.get("filed") else ""
    return Page(
        "aftersale/home.html",
        {"warranties": warranties, "claims": claims, "notice": notice, **PORTAL.menu(call, ctx)},
        title=call.gettext("Your products"),
    )


@page(
    "aftersale.portal.register_product",
    "/register-product",
    methods=("GET", "POST"),
    limit="public_events",
    post_limit="public_warranty",
)
def register_product(call: PageCall) -> Page:
    """Register a product's warranty: the public use case, open to anyone with the product."""
    customer = PORTAL.customer(call)
    values = {k: call.form.get(k, "").strip() for k in REGISTER}
    if call.method == "GET" and customer is not None:
        values["name"], values["email"] = customer.principal.name or "", customer.principal.email or ""
    extra = PORTAL.menu(call, customer) if customer is not None else {}
    title = call.gettext("Register a product")
    errors: dict[str, str] = {}

    def again() -> Page:
        return Page(
            "aftersale/register.html",
            {"values": values, "errors": errors, **extra},
            status=400 if errors else 200,
            title=title,
        )

    if call.method == "GET":
        return again()
    proofs = call.files.get("proof", [])
    if len(proofs) > 1:
        errors["proof"] = call.gettext("One file, please.")
        return again()
    body: dict[str, Any] = {k: v for k, v in values.items() if v or k != "retailer"}
    ctx = call.ctx()
    try:
        with ctx.write():  # the proof and the registration stand or fall together
            if proofs:
                try:
                    body["proof_file"] = execute(ctx, "aftersale.files.upload", upload=proofs[0]).id
                except ServiceError as exc:  # not an image or PDF, or over the size limit
                    raise FileRefused("proof refused") from exc
            w = execute(ctx, "aftersale.warranties.register", body=body)
    except FileRefused:
        errors["proof"] = call.gettext("Only a photo or a PDF of the receipt is accepted.")
    except ValidationFailed as exc:
        reason = (exc.details or {}).get("reason")
        if "purchase_date" in (exc.details or {}):
            errors["purchase_date"] = call.gettext("The purchase date cannot be in the future.")
        elif "product_sku" in (exc.details or {}):
            errors["product_sku"] = call.gettext("We do not know this product code. Please check the box or receipt.")
        elif reason == "serial_not_shipped":
            errors["serial_number"] = call.gettext("This is not a serial number we shipped. Please check the device.")
        else:
            errors.update(errors_of(exc, call))
    except Conflict:
        errors["serial_number"] = call.gettext("This product is registered already.")
    if errors:
        return again()
    return Page(
        "aftersale/registered.html",
        {
            "serial": w.serial_number,
            "until": w.coverage_until.isoformat(),
            "disputed": w.status == "disputed",
            "signed_in": customer is not None,
            **extra,
        },
        title=call.gettext("Thank you"),
    )


@page("aftersale.portal.claim", "/claim", methods=("GET", "POST"), limit="public_events", post_limit="upload")
@signed_in(PORTAL)
def file_claim(call: PageCall, ctx: Ctx) -> Page | Redirect:
    """A claim on one of the customer's covered products, with photos of the fault."""
    q = {"limit": 100, "status": "active"}
    covered = [
        (w.id, f"{w.product_name or w.product_sku} · {w.serial_number}")
        for w in execute(ctx, "aftersale.warranties.list", query=q).items
    ]
    values = {k: call.form.get(k, "").strip() for k in ("warranty_id", "description")}
    errors: dict[str, str] = {}

    def again() -> Page:
        return Page(
            "aftersale/claim.html",
            {"values": values, "errors": errors, "covered": covered, **PORTAL.menu(call, ctx)},
            status=400 if errors else 200,
            title=call.gettext("File a claim"),
        )

    if call.method == "GET":
        return again()
    photos = call.files.get("photos", [])
    if len(photos) > MAX_PHOTOS:
        errors["photos"] = call.gettext("At most 5 photos, please.")
    if values["warranty_id"] not in {c[0] for c in covered}:
        errors["warranty_id"] = call.gettext("Please choose a covered product.")
    if not values["description"]:
        errors["description"] = call.gettext("This field is required.")
    if errors:
        return again()
    try:
        with ctx.write():  # the photos and the claim stand or fall together
            ids = []
            for f in photos:
                try:
                    ids.append(execute(ctx, "aftersale.photos.upload", upload=f).id)
                except ServiceError as exc:
                    raise FileRefused("photo refused") from exc
            execute(ctx, "aftersale.claims.create", body={**values, "photos": ids})
    except FileRefused:
        errors["photos"] = call.gettext("Only photos are accepted (JPEG, PNG, WebP or HEIC).")
    except ValidationFailed as exc:
        errors.update(errors_of(exc, call))
    except Conflict as exc:
        if "claim_id" in (exc.details or {}):
            errors["warranty_id"] = call.gettext("This product has an open claim already.")
        else:
            errors["warranty_id"] = call.gettext("The coverage of this product has ended.")
    if errors:
        return again()
    return Redirect(f"{PORTAL.base(call)}/?filed=1", status=303)

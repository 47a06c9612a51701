"""Aftersale use cases: customer accounts, public warranty registration, coverage, claims.

Customers see the warranties registered with their account's e-mail and their own claims
(anything else is 404); staff with the module see and act on the tenant's on the same paths.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from sqlalchemy import bindparam, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from local_db import Database, new_id
from local_db.models.aftersale import AftersaleClaim, AftersaleCustomer, AftersaleFile, AftersaleWarranty
from local_db.models.catalog import CatalogProduct, CatalogVariant
from services.aftersale import states
from services.aftersale.coverage import add_months
from services.aftersale.schemas import (
    ClaimAction,
    ClaimIn,
    ClaimOut,
    ClaimQuery,
    CustomerOut,
    CustomerSession,
    FileOut,
    LoginIn,
    RegisterIn,
    WarrantyCreated,
    WarrantyIn,
    WarrantyOut,
    WarrantyQuery,
)
from services.core import auth, customers
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx, Principal, TenantInfo
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed, get_or_404
from services.core.events import emit
from services.core.files import FileResult, Upload
from services.core.pagination import Listing, Page, contains
from services.core.storage import IMAGE_TYPES, read_blob, store_blob

MODULE = "aftersale"
AUDIENCE = "aftersale-customer"
COOKIE = "aftersale_token"
DEFAULT_MONTHS = 12
PROOF_TYPES = IMAGE_TYPES | {"application/pdf"}

record_kind("aftersale.warranty", get="aftersale.warranties.get", label="serial_number")
record_kind("aftersale.claim", get="aftersale.claims.get", label="serial_number")


# --- customer accounts -------------------------------------------------------------------------


def _customer_out(c: AftersaleCustomer) -> CustomerOut:
    return CustomerOut.model_validate(c)


def _session(ctx: Ctx, c: AftersaleCustomer) -> CustomerSession:
    now = ctx.now()
    return CustomerSession(
        **_customer_out(c).model_dump(),
        token=customers.issue_token(ctx.runtime.secret_key, c, AUDIENCE, now),
        expires_at=now + timedelta(seconds=auth.TOKEN_LIFETIME),
    )


def authenticate(db: Database, secret: str, tenant: TenantInfo, token: str, now: datetime) -> Principal:
    """The checker the module's manifest installs in ``CUSTOMER_AUTHENTICATORS["aftersale"]``."""
    principal, _ = customers.session_account(
        db,
        secret,
        tenant,
        token,
        now,
        module=MODULE,
        audience=AUDIENCE,
        model=AftersaleCustomer,
        not_enabled="aftersale is not enabled for this tenant",
    )
    return principal


def _enabled(ctx: Ctx) -> None:
    if ctx.tenant is None or MODULE not in ctx.tenant.modules:
        raise Forbidden("aftersale is not enabled for this tenant")


def _is_customer(ctx: Ctx) -> bool:
    return ctx.principal.kind == "customer"


@use_case(
    "aftersale.auth.register",
    "POST /auth/register",
    tx="write",
    auth="public",
    status=201,
    limit="auth",
    online=True,
    cookie=COOKIE,
    summary="create a customer account; sets the aftersale_token cookie and returns the token",
)
def register(ctx: Ctx, body: RegisterIn, session: Session = SESSION) -> CustomerSession:
    _enabled(ctx)
    now = ctx.now()
    if session.execute(select(AftersaleCustomer.id).where(AftersaleCustomer.email == body.email)).first():
        raise Conflict("an account with this e-mail already exists; sign in instead", {"email": body.email})
    c = AftersaleCustomer(
        id=new_id(),
        email=body.email,
        name=body.name,
        phone=body.phone,
        password_hash=auth.hash_password(body.password),
        token_version=0,
        created_at=now,
        updated_at=now,
    )
    session.add(c)
    session.flush()
    return _session(ctx, c)


@use_case(
    "aftersale.auth.login",
    "POST /auth/login",
    tx="own",
    auth="public",
    limit="auth",
    cookie=COOKIE,
    summary="customer sign-in; sets the aftersale_token cookie and returns the token",
)
def login(ctx: Ctx, body: LoginIn) -> CustomerSession:
    _enabled(ctx)
    with ctx.read() as s:
        c = s.execute(select(AftersaleCustomer).where(AftersaleCustomer.email == body.email)).scalar_one_or_none()
    return _session(ctx, customers.check_password(c, body.password))


def _me(s: Session, ctx: Ctx) -> AftersaleCustomer:
    c = s.get(AftersaleCustomer, ctx.principal.id)
    if c is None:
        raise NotFound("customer not found")
    return c


@use_case(
    "aftersale.auth.logout",
    "POST /auth/logout",
    tx="write",
    auth="customer",
    clears_cookie=COOKIE,
    summary="customer sign-out (ends every session)",
)
def logout(ctx: Ctx, session: Session = SESSION) -> None:
    c = _me(session, ctx)
    c.token_version += 1
    c.updated_at = ctx.now()


@use_case("aftersale.auth.me", "GET /auth/me", tx="read", auth="customer", summary="the signed-in customer")
def me(ctx: Ctx, session: Session = SESSION) -> CustomerOut:
    return _customer_out(_me(session, ctx))


# --- warranties --------------------------------------------------------------------------------


def serial_key(serial: str) -> str:
    """How serials compare: case and spaces do not make a second registration."""
    return "".join(serial.split()).upper()


def _status(w: AftersaleWarranty, today: date) -> str:
    if w.status == "active" and w.coverage_until < today:
        return "expired"
    return w.status


def _warranty_out(w: AftersaleWarranty, today: date) -> WarrantyOut:
    return WarrantyOut(
        id=w.id,
        serial_number=w.serial_number,
        product_sku=w.product_sku,
        purchase_date=w.purchase_date,
        coverage_until=w.coverage_until,
        status=_status(w, today),  # type: ignore[arg-type]
        product_name=w.product_name,
        warranty_months=w.warranty_months,
        email=w.email,
        name=w.name,
        retailer=w.retailer,
        proof_file=w.proof_file_id,
        days_left=max((w.coverage_until - today).days, 0),
        created_at=w.created_at,
    )


_ANY_PRODUCT = select(CatalogProduct.id).limit(1)


def _catalog_product(s: Session, sku: str) -> tuple[str | None, int]:
    """The product's name and warranty length from Catalog; 400 for an unknown SKU when the
    tenant has a catalog, the default 12 months when it has none. Columns only: this runs on
    every public registration."""
    row = s.execute(_PRODUCT_BY_SKU, {"sku": sku}).first() or s.execute(_PRODUCT_BY_VARIANT, {"sku": sku}).first()
    if row is None:
        if s.execute(_ANY_PRODUCT).first() is not None:
            raise ValidationFailed("unknown product SKU", {"product_sku": sku})
        return None, DEFAULT_MONTHS
    name, attributes = row
    raw = (attributes or {}).get("warranty_months", DEFAULT_MONTHS)
    try:
        months = int(raw)
    except (TypeError, ValueError):
        months = DEFAULT_MONTHS
    return name, max(months, 0)


_PRODUCT_BY_SKU = select(CatalogProduct.name, CatalogProduct.attributes).where(CatalogProduct.sku == bindparam("sku"))
_PRODUCT_BY_VARIANT = (
    select(CatalogProduct.name, CatalogProduct.attributes)
    .join(CatalogVariant, CatalogVariant.product_id == CatalogProduct.id)
    .where(CatalogVariant.sku == bindparam("sku"))
    .limit(1)
)
_HELD = select(AftersaleWarranty.id, AftersaleWarranty.coverage_until).where(
    AftersaleWarranty.active_serial == bindparam("key")
)


@use_case(
    "aftersale.warranties.register",
    "POST /p/warranties",
    tx="write",
    auth="public",
    status=201,
    limit="public_warranty",
    says="Warranty",
    record="aftersale.warranty",
    summary="register a product's warranty (public, rate limited): coverage from the product's warranty length",
)
def register_warranty(ctx: Ctx, body: WarrantyIn, session: Session = SESSION) -> WarrantyCreated:
    _enabled(ctx)
    now = ctx.now()
    today = now.date()
    if body.purchase_date > today:
        raise ValidationFailed("the purchase date is in the future", {"purchase_date": str(body.purchase_date)})
    key = serial_key(body.serial_number)
    name, months = _catalog_product(session, body.product_sku)
    if body.proof_file is not None and session.get(AftersaleFile, body.proof_file) is None:
        raise ValidationFailed("proof_file is not an uploaded file", {"proof_file": body.proof_file})
    held = session.execute(_HELD, {"key": key}).first()
    if held is not None:
        if held.coverage_until >= today:
            raise Conflict(
                "this serial number has an active registration",
                {"serial_number": body.serial_number, "coverage_until": str(held.coverage_until)},
            )
        old = session.get(AftersaleWarranty, held.id)
        assert old is not None
        old.status, old.active_serial = "expired", None  # its coverage ended: the serial is free again
        session.flush()
    w = AftersaleWarranty(
        id=new_id(),
        serial_number=body.serial_number,
        active_serial=key,
        product_sku=body.product_sku,
        product_name=name,
        warranty_months=months,
        purchase_date=body.purchase_date,
        coverage_until=add_months(body.purchase_date, months),
        status="active",
        email=body.email,
        name=body.name,
        retailer=body.retailer,
        proof_file_id=body.proof_file,
        created_at=now,
    )
    session.add(w)
    try:
        session.flush()
    except IntegrityError as exc:  # a registration of the same serial committed in between
        raise Conflict("this serial number has an active registration", {"serial_number": body.serial_number}) from exc
    emit(
        ctx,
        "warranty.registered",
        {
            "warranty_id": w.id,
            "serial_number": w.serial_number,
            "product_sku": w.product_sku,
            "coverage_until": str(w.coverage_until),
        },
    )
    return WarrantyCreated.model_validate(w)


@use_case(
    "aftersale.files.upload",
    "POST /p/files",
    tx="write",
    auth="public",
    status=201,
    limit="public_warranty",
    upload=True,
    summary="upload a proof of purchase (public; image or PDF) for a warranty registration",
)
def upload_proof(ctx: Ctx, upload: Upload, session: Session = SESSION) -> FileOut:
    _enabled(ctx)
    blob = store_blob(ctx, upload.content, allowed=PROOF_TYPES)
    f = AftersaleFile(
        id=new_id(),
        filename=(upload.filename or "proof")[:255],
        content_type=blob.content_type,
        size=blob.size,
        sha256=blob.sha256,
        created_at=ctx.now(),
    )
    session.add(f)
    session.flush()
    return FileOut.model_validate(f)


@use_case("aftersale.files.get", "GET /files/{id}", tx="read", summary="download a proof of purchase (staff)")
def get_proof(ctx: Ctx, id: str) -> FileResult:
    with ctx.read() as s:
        f = get_or_404(s, AftersaleFile, id, what="file", message="{what} not found", key="id")
        sha, ctype, name = f.sha256, f.content_type, f.filename
    try:
        return FileResult(read_blob(ctx, sha), ctype, name)
    except FileNotFoundError as exc:
        raise NotFound("the file's content is missing", {"id": id}) from exc


WARRANTIES = Listing(
    AftersaleWarranty,
    filters={"serial_number": AftersaleWarranty.serial_number},  # status: by the calendar, below
    search=(AftersaleWarranty.serial_number, AftersaleWarranty.email, AftersaleWarranty.product_sku),
    sort={
        "created_at": AftersaleWarranty.created_at,
        "purchase_date": AftersaleWarranty.purchase_date,
        "coverage_until": AftersaleWarranty.coverage_until,
    },
)


@use_case(
    "aftersale.warranties.list",
    "GET /warranties",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="warranties: a customer's (registered with their e-mail), or the tenant's for staff",
)
def list_warranties(ctx: Ctx, query: WarrantyQuery, session: Session = SESSION) -> Page[WarrantyOut]:
    today = ctx.now().date()
    stmt = WARRANTIES.select(query)
    if _is_customer(ctx):
        stmt = stmt.where(AftersaleWarranty.email == ctx.principal.email)
    if query.status == "active":  # coverage ends by the calendar: the stored status lags behind it
        stmt = stmt.where(AftersaleWarranty.status == "active", AftersaleWarranty.coverage_until >= today)
    elif query.status == "expired":
        stmt = stmt.where(
            or_(
                AftersaleWarranty.status == "expired",
                (AftersaleWarranty.status == "active") & (AftersaleWarranty.coverage_until < today),
            )
        )
    elif query.status:
        stmt = stmt.where(AftersaleWarranty.status == query.status)
    return WARRANTIES.page(session, query, lambda w: _warranty_out(w, today), stmt=stmt)


def _warranty(ctx: Ctx, s: Session, id: str) -> AftersaleWarranty:
    w = s.get(AftersaleWarranty, id)
    if w is None or (_is_customer(ctx) and w.email != ctx.principal.email):
        raise NotFound("warranty not found", {"id": id})
    return w


@use_case(
    "aftersale.warranties.get",
    "GET /warranties/{id}",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="one warranty with its coverage",
)
def get_warranty(ctx: Ctx, id: str, session: Session = SESSION) -> WarrantyOut:
    return _warranty_out(_warranty(ctx, session, id), ctx.now().date())


# --- claims ------------------------------------------------------------------------------------


def _claim_out(c: AftersaleClaim, w: AftersaleWarranty) -> ClaimOut:
    return ClaimOut(
        id=c.id,
        warranty_id=c.warranty_id,
        serial_number=w.serial_number,
        product_sku=w.product_sku,
        email=c.email,
        description=c.description,
        status=c.status,  # type: ignore[arg-type]
        resolution=c.resolution,
        created_at=c.created_at,
        updated_at=c.updated_at,
    )


@use_case(
    "aftersale.claims.create",
    "POST /claims",
    tx="write",
    auth="customer",
    status=201,
    says="Claim",
    record="aftersale.claim",
    summary="file a claim on a covered warranty",
)
def create_claim(ctx: Ctx, body: ClaimIn, session: Session = SESSION) -> ClaimOut:
    now = ctx.now()
    w = _warranty(ctx, session, body.warranty_id)
    status = _status(w, now.date())
    if status != "active":
        raise Conflict(
            f"this warranty is {status}: coverage ended {w.coverage_until}",
            {"status": status, "coverage_until": str(w.coverage_until)},
        )
    open_claim = session.execute(
        select(AftersaleClaim.id).where(AftersaleClaim.warranty_id == w.id, AftersaleClaim.status.in_(states.OPEN))
    ).first()
    if open_claim is not None:
        raise Conflict("this warranty has an open claim", {"claim_id": open_claim[0]})
    c = AftersaleClaim(
        id=new_id(),
        warranty_id=w.id,
        customer_id=ctx.principal.id,
        email=w.email,
        description=body.description,
        status="open",
        created_at=now,
        updated_at=now,
    )
    session.add(c)
    session.flush()
    emit(ctx, "claim.submitted", {"claim_id": c.id, "warranty_id": w.id, "serial_number": w.serial_number})
    return _claim_out(c, w)


CLAIMS = Listing(
    AftersaleClaim,
    filters={"status": AftersaleClaim.status, "warranty_id": AftersaleClaim.warranty_id},
    # The claim's words, or its warranty's serial number.
    search=(
        AftersaleClaim.description,
        AftersaleClaim.email,
        lambda term: AftersaleClaim.warranty_id.in_(
            select(AftersaleWarranty.id).where(contains(AftersaleWarranty.serial_number, term))
        ),
    ),
    sort={"created_at": AftersaleClaim.created_at},
)


@use_case(
    "aftersale.claims.list",
    "GET /claims",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="claims: a customer's own, or the tenant's for staff (status=, warranty_id=)",
)
def list_claims(ctx: Ctx, query: ClaimQuery, session: Session = SESSION) -> Page[ClaimOut]:
    stmt = CLAIMS.select(query)
    if _is_customer(ctx):
        stmt = stmt.where(AftersaleClaim.email == ctx.principal.email)
    page = CLAIMS.page(session, query, stmt=stmt)
    ids = {c.warranty_id for c in page.items}
    ws = {w.id: w for w in session.execute(select(AftersaleWarranty).where(AftersaleWarranty.id.in_(ids))).scalars()}
    return page.map(lambda c: _claim_out(c, ws[c.warranty_id]))


def _claim(ctx: Ctx, s: Session, id: str) -> tuple[AftersaleClaim, AftersaleWarranty]:
    c = s.get(AftersaleClaim, id)
    if c is None or (_is_customer(ctx) and c.email != ctx.principal.email):
        raise NotFound("claim not found", {"id": id})
    w = s.get(AftersaleWarranty, c.warranty_id)
    assert w is not None
    return c, w


@use_case("aftersale.claims.get", "GET /claims/{id}", tx="read", auth="customer", staff_too=True, summary="one claim")
def get_claim(ctx: Ctx, id: str, session: Session = SESSION) -> ClaimOut:
    return _claim_out(*_claim(ctx, session, id))


@use_case(
    "aftersale.claims.act",
    "POST /claims/{id}",
    tx="write",
    auth="customer",
    staff_too=True,
    says="{action} claim",
    record="aftersale.claim",
    summary="staff start, close (with a resolution) or cancel a claim; a customer cancels their open claim",
    moves=states.CLAIM.moves("start", "close", "cancel", field="action"),
)
def act_on_claim(ctx: Ctx, id: str, body: ClaimAction, session: Session = SESSION) -> ClaimOut:
    if body.action == "close" and not body.resolution:
        raise ValidationFailed("closing a claim needs a resolution", {"resolution": "required"})
    actor = states.actor(ctx)
    c, w = _claim(ctx, session, id)
    t = states.CLAIM.apply(ctx, c, body.action, actor)
    if body.resolution is not None:
        c.resolution = body.resolution
    if actor == states.STAFF:
        c.handled_by = ctx.principal.id
    c.updated_at = ctx.now()
    session.flush()
    emit(ctx, t.emits or "", {"claim_id": c.id, "warranty_id": w.id, "status": c.status})
    return _claim_out(c, w)

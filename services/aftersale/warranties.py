"""Aftersale: warranties."""

from __future__ import annotations

import re
from datetime import date

from sqlalchemy import bindparam, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models import Tenant
from local_db.models.aftersale import AftersaleFile, AftersaleWarranty
from local_db.models.catalog import CatalogProduct, CatalogVariant
from services.aftersale.coverage import add_months
from services.aftersale.lookups import _enabled, _is_customer, _status, _warranty
from services.aftersale.schemas import (
    WarrantyCreated,
    WarrantyIn,
    WarrantyOut,
    WarrantyQuery,
)
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, ValidationFailed
from services.core.events import emit
from services.core.pagination import Listing, Page
from services.inventory.serials import has_shipped

DEFAULT_MONTHS = 12


record_kind("aftersale.warranty", get="aftersale.warranties.get", label="serial_number")


# Spaces and dashes (the ASCII one and the typographic ones a pasted serial brings) separate
# groups of a serial; they do not make another serial.
_SEPARATORS = re.compile(r"[\s\-\u2010-\u2015\u2212]+")


def serial_key(serial: str) -> str:
    """How serials compare: ``SN-ABC-12345`` and ``sn abc 12345`` are one serial."""
    return _SEPARATORS.sub("", serial).upper()


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
        disputes_id=w.disputes_id,
        void_reason=w.void_reason,
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


_HELD = select(AftersaleWarranty.id, AftersaleWarranty.coverage_until, AftersaleWarranty.email).where(
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
    t = session.get(Tenant, ctx.tenant_id)
    wanted = ((t.settings if t else None) or {}).get("aftersale") or {}
    if wanted.get("require_shipped_serial") and not has_shipped(session, body.serial_number):
        # The tenant registers only what it sold: the serial must have left its stock.
        raise ValidationFailed(
            "this serial number is not one we shipped; check it on the device or the receipt",
            {"serial_number": body.serial_number, "reason": "serial_not_shipped"},
        )
    name, months = _catalog_product(session, body.product_sku)
    if body.proof_file is not None and session.get(AftersaleFile, body.proof_file) is None:
        raise ValidationFailed("proof_file is not an uploaded file", {"proof_file": body.proof_file})
    held = session.execute(_HELD, {"key": key}).first()
    disputes: str | None = None
    if held is not None and held.coverage_until >= today:
        if held.email.lower() == body.email.lower():  # the holder again: a duplicate, not a dispute
            raise Conflict(
                "this serial number has an active registration",
                {"serial_number": body.serial_number, "coverage_until": str(held.coverage_until)},
            )
        # Someone else claims the serial: kept as disputed for staff to settle (neither claimant
        # is told who holds it; the holder's registration stands until staff decide).
        disputes = held.id
    elif held is not None:
        old = session.get(AftersaleWarranty, held.id)
        assert old is not None
        old.status, old.active_serial = "expired", None  # its coverage ended: the serial is free again
        session.flush()
    w = AftersaleWarranty(
        id=new_id(),
        serial_number=body.serial_number,
        active_serial=None if disputes else key,
        product_sku=body.product_sku,
        product_name=name,
        warranty_months=months,
        purchase_date=body.purchase_date,
        coverage_until=add_months(body.purchase_date, months),
        status="disputed" if disputes else "active",
        disputes_id=disputes,
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
    if disputes:
        emit(
            ctx,
            "warranty.disputed",
            {"warranty_id": w.id, "disputes_id": disputes, "serial_number": w.serial_number},
        )
        return WarrantyCreated.model_validate(w)
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

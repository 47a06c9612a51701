"""Upgrade: submissions."""

from __future__ import annotations

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.upgrade import (
    UpgradeCustomer,
    UpgradeInspection,
    UpgradeOffer,
    UpgradePhoto,
    UpgradeShipment,
    UpgradeSubmission,
    UpgradeValuation,
)
from services.core import labels
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.events import emit
from services.core.files import FileResult
from services.core.pagination import Page, contains, paginate
from services.upgrade import grading, states
from services.upgrade.lookups import (
    _actor,
    _customer_id,
    _is_customer,
    _money,
    _offer_out,
    _submission,
    _summaries,
    _summary,
    _supersede,
    _touch,
    _valuation,
)
from services.upgrade.schemas import (
    ActionResult,
    AdminSubmissionQuery,
    CustomerBrief,
    DeskSubmissionCreate,
    InspectionOut,
    LabelQuery,
    ReceiveRequest,
    RejectRequest,
    ShipmentOut,
    ShipRequest,
    StatsOut,
    SubmissionCreate,
    SubmissionDetail,
    SubmissionOut,
    SubmissionQuery,
    SubmissionUpdate,
    SubmitRequest,
)

REVISED_OFFER_DAYS = 7


SORTABLE = {
    "created_at": UpgradeSubmission.created_at,
    "updated_at": UpgradeSubmission.updated_at,
    "status": UpgradeSubmission.status,
    "serial_number": UpgradeSubmission.serial_number,
}


def normalise_serial(serial: str) -> str:
    return "".join(serial.split()).upper()


def _shipment_out(sh: UpgradeShipment) -> ShipmentOut:
    return ShipmentOut(
        id=sh.id,
        kind=sh.kind,
        barcode=sh.barcode,
        created_at=sh.created_at,
        label_path=f"admin/shipments/{sh.id}/label",
    )  # type: ignore[arg-type]


def _inspection_out(i: UpgradeInspection) -> InspectionOut:
    return InspectionOut(
        id=i.id,
        status=i.status,
        inspector_id=i.inspector_id,
        inspector_name=i.inspector_name,  # type: ignore[arg-type]
        checklist=dict(i.checklist),
        suggested_condition=i.suggested_condition,
        graded_condition=i.graded_condition,
        graded_value=grading.from_cents(i.graded_cents) if i.graded_cents is not None else None,
        reasons=list(i.reasons),
        notes=i.notes,
        photos=list(i.photos),
        started_at=i.started_at,
        completed_at=i.completed_at,
    )


def _detail(
    s: Session, ctx: Ctx, sub: UpgradeSubmission, cls: type[SubmissionDetail] = SubmissionDetail, **extra: object
) -> SubmissionDetail:
    now = ctx.now()
    val = _valuation(s, sub.product_id)
    offers = list(
        s.execute(
            select(UpgradeOffer)
            .where(UpgradeOffer.submission_id == sub.id)
            .order_by(UpgradeOffer.created_at, UpgradeOffer.id)
        ).scalars()
    )
    shipments = list(
        s.execute(
            select(UpgradeShipment).where(UpgradeShipment.submission_id == sub.id).order_by(UpgradeShipment.created_at)
        ).scalars()
    )
    insp = s.execute(select(UpgradeInspection).where(UpgradeInspection.submission_id == sub.id)).scalar_one_or_none()
    kit = next((x.barcode for x in shipments if x.kind == "kit"), None)
    current = next((o for o in reversed(offers) if o.status == "pending"), None)
    accepted = next((o for o in reversed(offers) if o.status == "accepted"), None)
    customer = None
    if not _is_customer(ctx):
        c = s.get(UpgradeCustomer, sub.customer_id)
        customer = CustomerBrief(id=c.id, name=c.name, email=c.email) if c else None
    return cls(
        **_summary(sub, val, kit).model_dump(),
        base_value=grading.from_cents(val.base_cents) if val else None,
        current_offer=_offer_out(current, now) if current else None,
        accepted_offer=_offer_out(accepted, now) if accepted else None,
        offers=[_offer_out(o, now) for o in offers],
        shipments=[_shipment_out(x) for x in shipments],
        inspection=_inspection_out(insp) if insp else None,
        customer=customer,
        allowed_actions=states.actions_from(sub.status, _actor(ctx)),
        **extra,
    )


def _check_serial(s: Session, serial: str, exclude: str | None) -> None:
    stmt = select(UpgradeSubmission.id, UpgradeSubmission.status).where(
        UpgradeSubmission.serial_number == serial, UpgradeSubmission.status.in_(states.OPEN)
    )
    if exclude:
        stmt = stmt.where(UpgradeSubmission.id != exclude)
    row = s.execute(stmt.limit(1)).first()
    if row is not None:
        raise Conflict(
            "a trade-in with this serial number is already open", {"serial_number": serial, "current_state": row.status}
        )


def _attach_customer_photos(s: Session, ctx: Ctx, sub: UpgradeSubmission, ids: list[str]) -> None:
    """Point the listed photos (the customer's own) at the submission; release the ones dropped."""
    ids = list(dict.fromkeys(ids))
    rows = {p.id: p for p in s.execute(select(UpgradePhoto).where(UpgradePhoto.id.in_(ids))).scalars()} if ids else {}
    bad = [
        i
        for i in ids
        if i not in rows or rows[i].customer_id != sub.customer_id or rows[i].submission_id not in (None, sub.id)
    ]
    if bad:
        raise ValidationFailed("unknown photos (upload them first with POST photos)", {"photos": bad})
    for old in s.execute(
        select(UpgradePhoto).where(UpgradePhoto.submission_id == sub.id, UpgradePhoto.customer_id == sub.customer_id)
    ).scalars():
        if old.id not in rows:
            old.submission_id = None
    for p in rows.values():
        p.submission_id = sub.id
    sub.photos = ids


@use_case(
    "upgrade.submissions.list",
    "GET /submissions",
    tx="read",
    auth="customer",
    staff_too=True,
    record="upgrade.submission",
    summary="list own submissions",
)
@use_case(
    "upgrade.admin.submissions.list",
    "GET /admin/submissions",
    tx="read",
    record="upgrade.submission",
    summary="list all submissions",
)
def list_submissions(ctx: Ctx, query: SubmissionQuery) -> Page[SubmissionOut]:
    stmt = select(UpgradeSubmission)
    cid = _customer_id(ctx)
    if cid is not None:
        stmt = stmt.where(UpgradeSubmission.customer_id == cid)
    if isinstance(query, AdminSubmissionQuery) and query.customer_id:
        stmt = stmt.where(UpgradeSubmission.customer_id == query.customer_id)
    if query.status:
        wanted = [x.strip() for x in query.status.split(",") if x.strip()]
        unknown = sorted(set(wanted) - set(states.STATES))
        if unknown:
            raise ValidationFailed("unknown status", {"status": unknown, "allowed": list(states.STATES)})
        stmt = stmt.where(UpgradeSubmission.status.in_(wanted))
    if query.search:
        term = query.search.strip()
        kit_subs = select(UpgradeShipment.submission_id).where(UpgradeShipment.barcode == term.upper())
        stmt = stmt.where(
            or_(
                contains(UpgradeSubmission.serial_number, normalise_serial(term)),
                UpgradeSubmission.product_id == term,
                UpgradeSubmission.id.in_(kit_subs),
            )
        )
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns=SORTABLE)
        items = _summaries(s, page.items)
    return Page(items, page.total, page.spec)


def _new_submission(
    s: Session, ctx: Ctx, body: SubmissionCreate | DeskSubmissionCreate, customer_id: str, status: str
) -> UpgradeSubmission:
    """A new submission of ``customer_id``'s device (its serial free among the open ones), flushed."""
    now = ctx.now()
    serial = normalise_serial(body.serial_number)
    _check_serial(s, serial, None)
    sub = UpgradeSubmission(
        id=new_id(),
        customer_id=customer_id,
        product_id=body.product_id,
        serial_number=serial,
        imei=body.imei,
        condition=body.condition,
        description=body.description,
        photos=[],
        status=status,
        created_at=now,
        updated_at=now,
    )
    s.add(sub)
    s.flush()
    return sub


@use_case(
    "upgrade.submissions.create",
    "POST /submissions",
    tx="write",
    auth="customer",
    status=201,
    says="New trade-in",
    record="upgrade.submission",
    summary="create a submission (draft)",
)
def create_submission(ctx: Ctx, body: SubmissionCreate) -> SubmissionDetail:
    with ctx.write() as s:
        sub = _new_submission(s, ctx, body, ctx.principal.id, "draft")
        _attach_customer_photos(s, ctx, sub, body.photos)
        s.flush()
        return _detail(s, ctx, sub)


# People know a trade-in by its device's serial number (sync issues, history).
record_kind(
    "upgrade.submission", get="upgrade.admin.submissions.get", label="serial_number", keys=("id", "submission_id")
)


@use_case(
    "upgrade.submissions.get",
    "GET /submissions/{id}",
    tx="read",
    auth="customer",
    staff_too=True,
    record="upgrade.submission",
    summary="submission details",
)
@use_case(
    "upgrade.admin.submissions.get",
    "GET /admin/submissions/{id}",
    tx="read",
    record="upgrade.submission",
    summary="read any submission",
)
def get_submission(ctx: Ctx, id: str) -> SubmissionDetail:
    with ctx.read() as s:
        return _detail(s, ctx, _submission(s, ctx, id))


@use_case(
    "upgrade.submissions.update",
    "PUT /submissions/{id}",
    tx="write",
    auth="customer",
    says="Change to trade-in",
    record="upgrade.submission",
    summary="update a draft submission",
)
def update_submission(ctx: Ctx, id: str, body: SubmissionUpdate) -> SubmissionDetail:
    with ctx.write() as s:
        sub = _submission(s, ctx, id, for_update=True)
        states.check(sub.status, "update", _actor(ctx))
        if body.product_id is not None:
            sub.product_id = body.product_id
        if body.serial_number is not None:
            sub.serial_number = normalise_serial(body.serial_number)
            _check_serial(s, sub.serial_number, sub.id)
        if body.imei is not None:
            sub.imei = body.imei
        if body.condition is not None:
            sub.condition = body.condition
        if body.description is not None:
            sub.description = body.description
        if body.photos is not None:
            _attach_customer_photos(s, ctx, sub, body.photos)
        _touch(sub, ctx)
        s.flush()
        return _detail(s, ctx, sub)


@use_case(
    "upgrade.submissions.submit",
    "POST /submissions/{id}",
    tx="write",
    auth="customer",
    says="Submit trade-in",
    record="upgrade.submission",
    summary="submit for review",
)
def submit_submission(ctx: Ctx, id: str, body: SubmitRequest) -> SubmissionDetail:
    with ctx.write() as s:
        sub = _submission(s, ctx, id, for_update=True)
        sub.status = states.check(sub.status, "submit", _actor(ctx))
        _check_serial(s, sub.serial_number, sub.id)
        _submitted(s, ctx, sub)
        return _detail(s, ctx, sub)


def _submitted(s: Session, ctx: Ctx, sub: UpgradeSubmission) -> None:
    """What submitting checks and says, by the customer or at the desk: a phone's IMEI, the time, the event."""
    val = _valuation(s, sub.product_id)
    if val is not None and val.is_phone and not sub.imei:
        # A draft may be saved without it; a phone is not reviewed without one.
        raise ValidationFailed(
            f"{val.product_name} is a phone: give its IMEI (*#06#) before submitting",
            {"imei": None, "reason": "imei_required", "product_id": sub.product_id},
        )
    sub.submitted_at = ctx.now()
    _touch(sub, ctx)
    s.flush()
    emit(
        ctx,
        "tradein.submitted",
        {
            "submission_id": sub.id,
            "customer_id": sub.customer_id,
            "product_id": sub.product_id,
            "serial_number": sub.serial_number,
            "condition": sub.condition,
            "declared_value": _money(grading.value_cents(val.base_cents, sub.condition)) if val else None,
        },
    )


@use_case(
    "upgrade.admin.submissions.create",
    "POST /admin/submissions",
    tx="write",
    status=201,
    says="New trade-in",
    record="upgrade.submission",
    summary="take in a customer's trade-in at the desk (submitted for review)",
)
def create_desk_submission(ctx: Ctx, body: DeskSubmissionCreate) -> SubmissionDetail:
    """Staff enter the device of a customer who is at the desk; it skips the customer's draft (the
    customer is there to confirm it) and is submitted as the portal's submit does, IMEI rule included."""
    with ctx.write() as s:
        if s.get(UpgradeCustomer, body.customer_id) is None:
            raise ValidationFailed("no such customer", {"customer_id": body.customer_id})
        sub = _new_submission(s, ctx, body, body.customer_id, "submitted")
        _submitted(s, ctx, sub)
        return _detail(s, ctx, sub)


@use_case("upgrade.admin.scan", "GET /admin/scan/{code}", tx="read", summary="open a submission by its kit barcode")
def scan(ctx: Ctx, code: str) -> SubmissionDetail:
    """The submission of a kit (or return) barcode; a serial number as the fallback for a torn label."""
    term = code.strip()
    with ctx.read() as s:
        sid = s.execute(select(UpgradeShipment.submission_id).where(UpgradeShipment.barcode == term.upper())).scalar()
        if sid is None:
            sid = s.execute(
                select(UpgradeSubmission.id)
                .where(UpgradeSubmission.serial_number == normalise_serial(term))
                .order_by(UpgradeSubmission.created_at.desc())
                .limit(1)
            ).scalar()
        if sid is None:
            raise NotFound(f"no trade-in kit with barcode {term!r}", {"barcode": term})
        return _detail(s, ctx, _submission(s, ctx, sid))


def _barcode(kind: str) -> str:
    # Made from a UUID where the shipment is born: stations create kits
    # offline without a shared counter and without collisions.
    return ("KIT-" if kind == "kit" else "RET-") + new_id().replace("-", "")[:10].upper()


@use_case(
    "upgrade.submissions.ship",
    "POST /submissions/{id}/ship",
    tx="write",
    says="Ship trade-in",
    record="upgrade.submission",
    summary="ship kits and returns",
)
def ship(ctx: Ctx, id: str, body: ShipRequest) -> ActionResult:
    with ctx.write() as s:
        sub = _submission(s, ctx, id, for_update=True)
        if body.kind == "kit":
            sub.status = states.check(sub.status, "ship", _actor(ctx))
        else:
            states.check(sub.status, "ship_return", _actor(ctx))
            if sub.received_at is None:
                raise Conflict(
                    "the device never reached the facility; there is nothing to return",
                    {"current_state": sub.status, "action": "ship return"},
                )
            done = s.execute(
                select(UpgradeShipment.id).where(
                    UpgradeShipment.submission_id == sub.id, UpgradeShipment.kind == "return"
                )
            ).first()
            if done:
                raise Conflict(
                    "the return label was already made", {"current_state": "returned", "action": "ship return"}
                )
        sh = UpgradeShipment(
            id=new_id(),
            submission_id=sub.id,
            kind=body.kind,
            barcode=_barcode(body.kind),
            created_by=ctx.principal.id,
            created_at=ctx.now(),
        )
        s.add(sh)
        _touch(sub, ctx)
        s.flush()
        emit(
            ctx,
            "tradein.shipped",
            {"submission_id": sub.id, "kind": sh.kind, "barcode": sh.barcode, "shipped_at": sh.created_at.isoformat()},
        )
        return _detail(s, ctx, sub, ActionResult, outcome=f"{body.kind}_shipped", shipment=_shipment_out(sh))  # type: ignore[return-value]


@use_case(
    "upgrade.submissions.receive",
    "POST /submissions/{id}/receive",
    tx="write",
    says="Receive trade-in",
    record="upgrade.submission",
    summary="receive trade-ins",
)
def receive(ctx: Ctx, id: str, body: ReceiveRequest) -> ActionResult:
    with ctx.write() as s:
        sub = _submission(s, ctx, id, for_update=True)
        sub.status = states.check(sub.status, "receive", _actor(ctx))
        sub.received_at = ctx.now()
        _touch(sub, ctx)
        s.flush()
        emit(ctx, "tradein.received", {"submission_id": sub.id, "received_at": sub.received_at.isoformat()})
        return _detail(s, ctx, sub, ActionResult, outcome="received")  # type: ignore[return-value]


@use_case(
    "upgrade.submissions.reject",
    "POST /submissions/{id}/reject",
    tx="write",
    says="Reject trade-in",
    record="upgrade.submission",
    summary="reject trade-ins",
)
def reject(ctx: Ctx, id: str, body: RejectRequest) -> ActionResult:
    with ctx.write() as s:
        sub = _submission(s, ctx, id, for_update=True)
        sub.status = states.check(sub.status, "reject", _actor(ctx))
        sub.decline_reason = body.reason
        _supersede(s, sub.id, ctx)
        _touch(sub, ctx)
        s.flush()
        emit(ctx, "tradein.declined", {"submission_id": sub.id, "by": "staff", "reason": body.reason})
        return _detail(s, ctx, sub, ActionResult, outcome="rejected")  # type: ignore[return-value]


@use_case(
    "upgrade.admin.shipments.label",
    "GET /admin/shipments/{id}/label",
    tx="read",
    summary="kit or return label (PDF, ?format=zpl)",
)
def shipment_label(ctx: Ctx, id: str, query: LabelQuery) -> FileResult:
    with ctx.read() as s:
        sh = s.get(UpgradeShipment, id)
        if sh is None:
            raise NotFound("shipment not found", {"id": id})
        sub = s.get(UpgradeSubmission, sh.submission_id)
        assert sub is not None
        c = s.get(UpgradeCustomer, sub.customer_id)
        val = _valuation(s, sub.product_id)
    addr = (c.address or {}) if c else {}
    lines = [
        c.name if c else "",
        addr.get("line1", ""),
        addr.get("line2", ""),
        f"{addr.get('postal_code', '')} {addr.get('city', '')}".strip(),
        addr.get("country", ""),
    ]
    lines = [x for x in lines if x]
    item = f"{val.product_name if val else sub.product_id} / SN {sub.serial_number}"
    if sh.kind == "kit":
        title, extra = "TRADE-IN KIT", [item, f"Return to: {ctx.tenant.name if ctx.tenant else ''}"]
    else:
        title, extra = "RETURN", [item]
    if query.format == "zpl":
        return FileResult(
            labels.label_zpl(title, lines + extra, sh.barcode).encode(),
            "text/plain; charset=utf-8",
            f"{sh.barcode}.zpl",
        )
    return FileResult(labels.label_pdf(title, lines + extra, sh.barcode), "application/pdf", f"{sh.barcode}.pdf")


@use_case("upgrade.admin.stats", "GET /admin/stats", tx="read", summary="trade-in statistics")
def stats(ctx: Ctx) -> StatsOut:
    with ctx.read() as s:
        counts = dict(
            s.execute(select(UpgradeSubmission.status, func.count()).group_by(UpgradeSubmission.status)).all()
        )
        latest: dict[str, int] = {}
        for sid, cents in s.execute(
            select(UpgradeOffer.submission_id, UpgradeOffer.amount_cents).order_by(
                UpgradeOffer.created_at, UpgradeOffer.id
            )
        ):
            latest[sid] = cents  # the most recent offer of each submission counts once
        credited = s.execute(
            select(func.coalesce(func.sum(UpgradeSubmission.credit_cents), 0)).where(
                UpgradeSubmission.status == "completed"
            )
        ).scalar_one()
        graded = s.execute(
            select(UpgradeSubmission.condition, UpgradeSubmission.graded_condition).where(
                UpgradeSubmission.graded_condition.is_not(None)
            )
        ).all()
        currency = (
            s.execute(
                select(UpgradeValuation.currency)
                .group_by(UpgradeValuation.currency)
                .order_by(func.count().desc())
                .limit(1)
            ).scalar()
            or "USD"
        )
    gaps = [grading.level(g) - grading.level(d) for d, g in graded if g is not None]
    return StatsOut(
        counts_by_state={st: int(counts.get(st) or 0) for st in states.STATES},
        total_submissions=sum(int(v or 0) for v in counts.values()),
        total_offered=grading.from_cents(sum(latest.values())),
        total_credited=grading.from_cents(int(credited or 0)),
        currency=currency,
        average_grade_gap=round(sum(gaps) / len(gaps), 3) if gaps else None,
        inspected=len(gaps),
    )

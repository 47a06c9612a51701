"""Aftersale: staff's hand on registrations: void one, transfer it to a new owner, settle a dispute.

A registration is never deleted: a void keeps the row (claims and disputes point at it) and frees
its serial (``active_serial`` goes to NULL, so the serial can be registered again).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.aftersale import AftersaleWarranty
from services.aftersale.lookups import _status, _warranty
from services.aftersale.schemas import DisputeDecision, WarrantyOut, WarrantyTransfer, WarrantyVoid
from services.aftersale.warranties import _warranty_out, serial_key
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import Conflict
from services.core.events import emit
from services.core.roles import STAFF


def _void(w: AftersaleWarranty, reason: str) -> None:
    w.status, w.active_serial, w.void_reason = "voided", None, reason


@use_case(
    "aftersale.warranties.void",
    "POST /warranties/{id}/void",
    tx="write",
    roles=STAFF,
    says="Void warranty",
    record="aftersale.warranty",
    summary="void a registration (staff): kept with its reason, its serial free again",
)
def void_warranty(ctx: Ctx, id: str, body: WarrantyVoid, session: Session = SESSION) -> WarrantyOut:
    w = _warranty(ctx, session, id)
    if w.status == "voided":
        raise Conflict("this registration is already voided", {"current_state": "voided"})
    _void(w, body.reason)
    session.flush()
    emit(ctx, "warranty.voided", {"warranty_id": w.id, "serial_number": w.serial_number})
    return _warranty_out(w, ctx.now().date())


@use_case(
    "aftersale.warranties.transfer",
    "POST /warranties/{id}/transfer",
    tx="write",
    roles=STAFF,
    says="Transfer warranty",
    record="aftersale.warranty",
    summary="transfer a covered registration to a new owner (staff); the coverage stays as it was",
)
def transfer_warranty(ctx: Ctx, id: str, body: WarrantyTransfer, session: Session = SESSION) -> WarrantyOut:
    w = _warranty(ctx, session, id)
    today = ctx.now().date()
    status = _status(w, today)
    if status != "active":
        raise Conflict(f"only a covered registration is transferred; this one is {status}", {"current_state": status})
    if w.email.lower() == body.email.lower():
        raise Conflict("the registration already belongs to this e-mail", {"reason": "same_owner"})
    w.email, w.name = body.email, body.name
    session.flush()
    # Ids only: the e-mail addresses stay out of the event log.
    emit(ctx, "warranty.transferred", {"warranty_id": w.id, "serial_number": w.serial_number})
    return _warranty_out(w, today)


@use_case(
    "aftersale.warranties.resolve",
    "POST /warranties/{id}/resolve",
    tx="write",
    roles=STAFF,
    says="Settle dispute",
    record="aftersale.warranty",
    summary="settle a disputed registration (staff): uphold it (the holder's is voided) or reject it",
)
def resolve_dispute(ctx: Ctx, id: str, body: DisputeDecision, session: Session = SESSION) -> WarrantyOut:
    w = _warranty(ctx, session, id)
    if w.status != "disputed":
        raise Conflict("only a disputed registration is settled", {"current_state": _status(w, ctx.now().date())})
    if body.decision == "reject":
        _void(w, body.reason or "dispute rejected")
    else:
        held = session.get(AftersaleWarranty, w.disputes_id) if w.disputes_id else None
        if held is not None and held.status != "voided":
            _void(held, body.reason or "dispute upheld for another claimant")
            session.flush()  # the serial is free before this registration takes it
        key = serial_key(w.serial_number)
        other = session.execute(
            select(AftersaleWarranty.id).where(AftersaleWarranty.active_serial == key, AftersaleWarranty.id != w.id)
        ).first()
        if other is not None:  # a third registration took the serial in between: settle that one first
            raise Conflict("another registration holds this serial", {"warranty_id": other[0]})
        w.status, w.active_serial = "active", key
    session.flush()
    emit(
        ctx,
        "warranty.dispute_settled",
        {"warranty_id": w.id, "disputes_id": w.disputes_id, "decision": body.decision},
    )
    return _warranty_out(w, ctx.now().date())

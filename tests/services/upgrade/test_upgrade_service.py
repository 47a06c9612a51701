"""The trade-in service: every transition of the table, every disallowed one, offers, inspection, photos, stats."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from local_db import new_id
from local_db.models import Event
from local_db.models.upgrade import UpgradeOffer, UpgradeSubmission
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import Conflict, Forbidden, NotFound, PayloadTooLarge, Unauthorized, ValidationFailed
from services.core.files import Upload
from services.upgrade import customers, states
from tests.services.upgrade.upgrade_helpers import (
    DANA,
    FAIR,
    GOOD,
    OTHER_SUBMISSION,
    customer,
    drive,
    new_serial,
    png,
    staff,
    status,
)


def _pending_offer(rt: Runtime, sid: str) -> str:
    """A pending offer row on the submission, so accept/decline reach the state check."""
    oid = new_id()
    tenant_id = staff(rt).tenant_id
    with rt.db.transaction(tenant_id) as s:
        now = rt.clock.now()
        s.add(UpgradeOffer(id=oid, submission_id=sid, kind="initial", amount_cents=100, currency="USD", notes="",
                           reasons=[], photos=[], expires_at=now + timedelta(days=1), status="pending",
                           created_at=now))  # fmt: skip
    return oid


def attempt(rt: Runtime, sid: str, action: str) -> Any:
    c, op = customer(rt), staff(rt)
    calls = {
        "update": lambda: execute(c, "upgrade.submissions.update", id=sid, body={"description": "changed"}),
        "submit": lambda: execute(c, "upgrade.submissions.submit", id=sid, body={}),
        "offer": lambda: execute(op, "upgrade.offers.create", body={"submission_id": sid, "amount": 100}),
        "accept": lambda: execute(c, "upgrade.offers.respond", id=_pending_offer(rt, sid), body={"action": "accept"}),
        "decline": lambda: execute(c, "upgrade.offers.respond", id=_pending_offer(rt, sid), body={"action": "decline"}),
        "ship": lambda: execute(op, "upgrade.submissions.ship", id=sid, body={"kind": "kit"}),
        "ship_return": lambda: execute(op, "upgrade.submissions.ship", id=sid, body={"kind": "return"}),
        "receive": lambda: execute(op, "upgrade.submissions.receive", id=sid, body={}),
        "start_inspection": lambda: execute(op, "upgrade.submissions.inspect", id=sid, body={"action": "start"}),
        "inspect": lambda: execute(
            op, "upgrade.submissions.inspect", id=sid, body={"action": "complete", "checklist": GOOD}
        ),  # fmt: skip
        "reject": lambda: execute(op, "upgrade.submissions.reject", id=sid, body={"reason": "no"}),
        # The credit step has no route: the system takes it after an inspection or a revised acceptance.
        "complete": lambda: states.check(status(rt, sid), "complete"),
    }
    assert set(calls) == set(states.ACTIONS), "every action of the table has a caller"
    return calls[action]()


def test_every_allowed_transition(runtime: Runtime) -> None:
    for t in states.TRANSITIONS:
        if t.action == "complete":
            continue  # covered by test_inspection_at_or_above_the_offer_completes
        if t.action == "ship_return":
            sid = drive(runtime, "received")
            execute(staff(runtime), "upgrade.submissions.reject", id=sid, body={"reason": "stolen device"})
        else:
            sid = drive(runtime, t.source)
        if t.action == "offer" and t.source == "inspected":
            out = execute(staff(runtime), "upgrade.offers.create", body={"submission_id": sid, "amount": 200})
            assert out.kind == "revised"
        elif t.action == "inspect":  # graded below the offer: stays inspected (the credit step is "complete")
            execute(
                staff(runtime), "upgrade.submissions.inspect", id=sid, body={"action": "complete", "checklist": FAIR}
            )
        elif t.action in ("accept", "decline"):
            offer = execute(customer(runtime), "upgrade.submissions.get", id=sid).current_offer
            execute(customer(runtime), "upgrade.offers.respond", id=offer.id, body={"action": t.action})
        else:
            attempt(runtime, sid, t.action)
        assert status(runtime, sid) == t.target, t


def test_every_disallowed_transition_is_409_with_the_current_state(runtime: Runtime) -> None:
    pairs = [(s, a) for s in states.STATES for a in states.ACTIONS if not states.allowed(s, a)]
    assert len(pairs) > 60
    by_state = {s: drive(runtime, s) for s in states.STATES}
    for state, action in pairs:
        sid = by_state[state]
        with pytest.raises(Conflict) as exc:
            attempt(runtime, sid, action)
        assert exc.value.details is not None and exc.value.details["current_state"] == state, (state, action)
        assert status(runtime, sid) == state, (state, action)


def test_inspection_at_or_above_the_offer_completes_with_the_credit(runtime: Runtime) -> None:
    sid = drive(runtime, "received")
    before = _events(runtime)
    out = execute(staff(runtime), "upgrade.submissions.inspect", id=sid, body={"action": "complete", "checklist": GOOD})
    assert out.outcome == "completed" and out.status == "completed"
    assert float(out.credit) == 420.0 and out.graded_condition == "excellent"
    assert out.inspection.inspector_name == "Omar Operator" and out.inspection.status == "completed"
    assert _events(runtime)[len(before) :] == ["tradein.inspected", "tradein.completed"]


def test_revised_offer_path_and_its_events(runtime: Runtime) -> None:
    sid = drive(runtime, "received")
    op, c = staff(runtime), customer(runtime)
    photo = execute(op, "upgrade.admin.photos.upload", upload=Upload("crack.png", "image/png", png()))
    out = execute(op, "upgrade.submissions.inspect", id=sid,
                  body={"action": "complete", "checklist": FAIR, "notes": "deep scratch on the screen",
                        "photos": [photo.id]})  # fmt: skip
    assert out.outcome == "revised_offer" and out.status == "inspected"
    revised = out.revised_offer
    assert float(revised.amount) == 252.0 and revised.kind == "revised" and revised.photos == [photo.id]
    assert revised.reasons[0] == "graded fair, declared excellent" and "deep scratch on the screen" in revised.reasons
    # The customer sees the inspection photo attached to their submission.
    assert execute(c, "upgrade.photos.get", id=photo.id, query={"thumbnail": True}).media_type == "image/jpeg"
    res = execute(c, "upgrade.offers.respond", id=revised.id, body={"action": "accept"})
    assert res.status == "accepted" and res.submission.status == "completed" and float(res.submission.credit) == 252
    assert _events(runtime)[-4:] == ["tradein.inspected", "tradein.offer_revised", "tradein.approved",
                                     "tradein.completed"]  # fmt: skip


def test_inspector_override_and_blockers(runtime: Runtime) -> None:
    sid = drive(runtime, "received")
    op = staff(runtime)
    start = execute(op, "upgrade.submissions.inspect", id=sid, body={"action": "start"})
    assert start.inspection.status == "in_progress" and start.status == "received"
    with pytest.raises(Conflict):
        execute(op, "upgrade.submissions.inspect", id=sid, body={"action": "start"})
    with pytest.raises(ValidationFailed) as exc:
        execute(op, "upgrade.submissions.inspect", id=sid,
                body={"action": "complete", "checklist": {**GOOD, "account_lock_removed": False}})  # fmt: skip
    assert exc.value.details == {"blockers": ["the device is still locked to an account"]}
    assert status(runtime, sid) == "received"
    with pytest.raises(ValidationFailed):  # complete without a checklist
        execute(op, "upgrade.submissions.inspect", id=sid, body={"action": "complete"})
    out = execute(op, "upgrade.submissions.inspect", id=sid,
                  body={"action": "complete", "checklist": GOOD, "condition": "good"})  # fmt: skip
    assert out.inspection.suggested_condition == "excellent" and out.graded_condition == "good"
    assert float(out.revised_offer.amount) == 336.0
    assert "inspector graded good (checklist suggested excellent)" in out.revised_offer.reasons


def test_offers_validation_and_expiry(runtime: Runtime) -> None:
    clock = FixedClock(datetime.now(UTC))
    runtime.clock = clock
    op, c = staff(runtime), customer(runtime)
    sid = drive(runtime, "submitted")
    for bad in ({"amount": -5}, {"amount": 0}, {"amount": 10_000_000}, {"amount": 12.345}, {"amount": 421},
                {"amount": 100, "expires_at": (clock.now() - timedelta(hours=1)).isoformat()},
                {"amount": 100, "expires_at": "2030-01-01T00:00:00"}, {"amount": 100, "surprise": 1}):  # fmt: skip
        with pytest.raises(ValidationFailed):
            execute(op, "upgrade.offers.create", body={"submission_id": sid, **bad})
    assert status(runtime, sid) == "submitted"  # nothing half-written
    offer = execute(op, "upgrade.offers.create", body={"submission_id": sid, "amount": "399.99",
                                                       "expires_at": (clock.now() + timedelta(days=1)).isoformat()})  # fmt: skip
    assert float(offer.amount) == 399.99 and offer.submission.status == "offered"
    clock.advance(days=2)
    assert execute(c, "upgrade.submissions.get", id=sid).current_offer.status == "expired"
    with pytest.raises(Conflict) as exc:
        execute(c, "upgrade.offers.respond", id=offer.id, body={"action": "accept"})
    assert exc.value.details == {"current_state": "expired", "action": "accept"}
    # A new offer replaces the expired one; the old one can no longer be answered.
    again = execute(op, "upgrade.offers.create", body={"submission_id": sid, "amount": 350})
    with pytest.raises(Conflict):
        execute(c, "upgrade.offers.respond", id=offer.id, body={"action": "accept"})
    assert execute(c, "upgrade.offers.respond", id=again.id, body={"action": "accept"}).submission.status == "accepted"
    with pytest.raises(Conflict):  # answering twice
        execute(c, "upgrade.offers.respond", id=again.id, body={"action": "decline"})


def test_product_without_valuation_is_a_clear_error(runtime: Runtime) -> None:
    c, op = customer(runtime), staff(runtime)
    sid = execute(c, "upgrade.submissions.create", body={"product_id": "NOKIA-3310", "serial_number": new_serial(),
                                                         "condition": "good"}).id  # fmt: skip
    sub = execute(c, "upgrade.submissions.submit", id=sid, body={})
    assert sub.declared_value is None and sub.product_name is None
    with pytest.raises(ValidationFailed) as exc:
        execute(op, "upgrade.offers.create", body={"submission_id": sid, "amount": 10})
    assert "add one under admin/valuations" in exc.value.message and exc.value.details["product_id"] == "NOKIA-3310"


def test_customers_and_tenants_are_isolated(runtime: Runtime) -> None:
    mine = drive(runtime, "offered")
    dana = customer(runtime, DANA)
    offer = execute(customer(runtime), "upgrade.submissions.get", id=mine).current_offer
    for call in (
        lambda: execute(dana, "upgrade.submissions.get", id=mine),
        lambda: execute(dana, "upgrade.submissions.update", id=mine, body={"description": "mine now"}),
        lambda: execute(dana, "upgrade.offers.respond", id=offer.id, body={"action": "accept"}),
        lambda: execute(staff(runtime), "upgrade.admin.submissions.get", id=OTHER_SUBMISSION),
        lambda: execute(staff(runtime), "upgrade.offers.create", body={"submission_id": OTHER_SUBMISSION, "amount": 1}),
    ):
        with pytest.raises(NotFound):
            call()
    assert all(s.customer_id == DANA for s in execute(dana, "upgrade.submissions.list", query={}).items)
    # Customers cannot use staff operations. Staff read the spec's submission paths with the
    # tenant's records (DECISIONS: "Who may call a spec path"); staff without the module may not.
    with pytest.raises(Forbidden):
        execute(customer(runtime), "upgrade.offers.create", body={"submission_id": mine, "amount": 1})
    everyone = execute(staff(runtime), "upgrade.submissions.list", query={"per_page": 100})
    assert {s.customer_id for s in everyone.items} - {DANA}
    with pytest.raises(Forbidden):
        execute(staff(runtime, "device@demo.test"), "upgrade.submissions.list", query={})
    with pytest.raises(Forbidden):
        execute(staff(runtime, "device@demo.test"), "upgrade.admin.stats")
    with pytest.raises(Forbidden):  # valuations are set by owners and admins
        execute(staff(runtime), "upgrade.valuations.create",
                body={"product_id": "X", "product_name": "X", "base_value": 1})  # fmt: skip


def test_duplicate_serial_and_duplicate_submit(runtime: Runtime) -> None:
    c = customer(runtime)
    sid = drive(runtime, "submitted")
    serial = execute(c, "upgrade.submissions.get", id=sid).serial_number
    with pytest.raises(Conflict) as exc:
        execute(customer(runtime, DANA), "upgrade.submissions.create",
                body={"product_id": "IPH14-128", "serial_number": serial.lower(), "condition": "good"})  # fmt: skip
    assert exc.value.details["current_state"] == "submitted"
    with pytest.raises(Conflict) as exc:
        execute(c, "upgrade.submissions.submit", id=sid, body={})
    assert exc.value.details == {"current_state": "submitted", "action": "submit"}
    # A finished trade-in frees the serial number.
    execute(staff(runtime), "upgrade.submissions.reject", id=sid, body={"reason": "no"})
    again = execute(c, "upgrade.submissions.create", body={"product_id": "IPH14-128", "serial_number": serial,
                                                           "condition": "good"})  # fmt: skip
    assert execute(c, "upgrade.submissions.submit", id=again.id, body={}).status == "submitted"


def test_photos_upload_sniffing_limits_and_attachment(runtime: Runtime) -> None:
    c, dana = customer(runtime), customer(runtime, DANA)
    photo = execute(c, "upgrade.photos.upload", upload=Upload("front.png", "image/png", png((800, 600))))
    assert photo.content_type == "image/png" and photo.submission_id is None
    thumb = execute(c, "upgrade.photos.get", id=photo.id, query={"thumbnail": True})
    assert thumb.content[:3] == b"\xff\xd8\xff" and len(thumb.content) < photo.size
    assert execute(c, "upgrade.photos.get", id=photo.id, query={}).content[:4] == b"\x89PNG"
    with pytest.raises(NotFound):
        execute(dana, "upgrade.photos.get", id=photo.id, query={})
    with pytest.raises(ValidationFailed):  # a text file claiming to be a JPEG
        execute(c, "upgrade.photos.upload", upload=Upload("x.jpg", "image/jpeg", b"hello, not an image"))
    with pytest.raises(ValidationFailed):  # a JPEG header on garbage
        execute(c, "upgrade.photos.upload", upload=Upload("x.jpg", "image/jpeg", b"\xff\xd8\xff" + b"\x00" * 100))
    runtime.upload_limit = 10_000
    with pytest.raises(PayloadTooLarge):
        execute(c, "upgrade.photos.upload", upload=Upload("big.png", "image/png", png((900, 900)) + b"\x00" * 20_000))
    sub = execute(c, "upgrade.submissions.create", body={"product_id": "IPH14-128", "serial_number": new_serial(),
                                                         "condition": "good", "photos": [photo.id]})  # fmt: skip
    assert sub.photos == [photo.id]
    with pytest.raises(ValidationFailed):  # Dana cannot attach Casey's photo
        execute(dana, "upgrade.submissions.create", body={"product_id": "IPH14-128", "serial_number": new_serial(),
                                                          "condition": "good", "photos": [photo.id]})  # fmt: skip
    thumbs = execute(staff(runtime), "upgrade.admin.thumbnails", query={"ids": photo.id})
    assert list(thumbs.items) == [photo.id]


def test_ship_kit_label_and_scan(runtime: Runtime) -> None:
    sid = drive(runtime, "accepted")
    op = staff(runtime)
    out = execute(op, "upgrade.submissions.ship", id=sid, body={"kind": "kit"})
    assert out.shipment.barcode.startswith("KIT-") and out.kit_barcode == out.shipment.barcode
    pdf = execute(op, "upgrade.admin.shipments.label", id=out.shipment.id, query={})
    zpl = execute(op, "upgrade.admin.shipments.label", id=out.shipment.id, query={"format": "zpl"})
    assert pdf.content.startswith(b"%PDF-") and f"^FD{out.shipment.barcode}^FS".encode() in zpl.content
    assert b"Casey Customer" in zpl.content
    # The printed kit label scans back to its barcode (rendered by pdfium, read by zxing-cpp).
    from tests.barcodes import decode_code128, pdf_to_image

    assert decode_code128(pdf_to_image(pdf.content)) == out.shipment.barcode
    assert execute(op, "upgrade.admin.scan", code=out.shipment.barcode.lower()).id == sid
    assert execute(op, "upgrade.admin.scan", code="KIT-DEMO000008").status == "received"
    with pytest.raises(NotFound):
        execute(op, "upgrade.admin.scan", code="KIT-NOPE")
    # A return needs a device that reached the facility.
    declined = drive(runtime, "declined")
    with pytest.raises(Conflict):
        execute(op, "upgrade.submissions.ship", id=declined, body={"kind": "return"})


def test_valuations_crud(runtime: Runtime) -> None:
    admin = staff(runtime, "admin@demo.test")
    v = execute(admin, "upgrade.valuations.create",
                body={"product_id": "PIX9", "product_name": "Pixel 9", "base_value": 499.5, "currency": "EUR"})  # fmt: skip
    assert v.model_dump(mode="json") == {"id": v.id, "product_id": "PIX9", "product_name": "Pixel 9",
                                         "base_value": 499.5, "currency": "EUR", "is_phone": False}  # fmt: skip
    with pytest.raises(Conflict):
        execute(admin, "upgrade.valuations.create", body={"product_id": "PIX9", "product_name": "P", "base_value": 1})
    with pytest.raises(ValidationFailed):
        execute(admin, "upgrade.valuations.create", body={"product_id": "Q", "product_name": "Q", "base_value": -1})
    upd = execute(admin, "upgrade.valuations.update", id=v.id, body={"base_value": 450})
    assert float(upd.base_value) == 450.0
    listed = execute(staff(runtime), "upgrade.valuations.list", query={"search": "pixel"})
    assert {x.product_id for x in listed.items} >= {"PIX9", "PIX8-128"}
    execute(admin, "upgrade.valuations.delete", id=v.id)
    with pytest.raises(NotFound):
        execute(admin, "upgrade.valuations.get", id=v.id)
    in_use = next(x for x in execute(admin, "upgrade.valuations.list", query={}).items if x.product_id == "IPH14-128")
    with pytest.raises(Conflict):  # demo trade-ins of this product are open
        execute(admin, "upgrade.valuations.delete", id=in_use.id)


def test_stats_and_customer_list(runtime: Runtime) -> None:
    op = staff(runtime)
    st = execute(op, "upgrade.admin.stats")
    assert sum(st.counts_by_state.values()) == st.total_submissions == 10
    assert st.counts_by_state["shipped"] == 2 and st.inspected == 2
    assert float(st.total_credited) == 264.0 and st.average_grade_gap == 1.0  # (0 + 2) / 2
    drive(runtime, "completed")  # declared excellent, graded fair: gap 2
    st2 = execute(op, "upgrade.admin.stats")
    assert st2.counts_by_state["completed"] == 2 and float(st2.total_credited) == 264.0 + 252.0
    assert st2.average_grade_gap == round(4 / 3, 3)
    people = execute(op, "upgrade.admin.customers", query={})
    assert {p.email: p.submissions for p in people.items} == {"customer@demo.test": 7, "dana@demo.test": 4}


def test_customer_accounts(runtime: Runtime) -> None:
    ctx = customer(runtime)
    public = ctx.with_principal(ctx.principal.__class__(kind="public", id="ip:test"))
    reg = execute(public, "upgrade.auth.register", body={"email": "New@Demo.test", "password": "long-enough-pw",
                                                         "name": "Nia New"})  # fmt: skip
    assert reg.email == "new@demo.test" and reg.token
    with pytest.raises(Conflict):
        execute(public, "upgrade.auth.register", body={"email": "new@demo.test", "password": "long-enough-pw",
                                                       "name": "Nia"})  # fmt: skip
    with pytest.raises(ValidationFailed):
        execute(public, "upgrade.auth.register", body={"email": "x@demo.test", "password": "short", "name": "X"})
    with pytest.raises(Unauthorized):
        execute(public, "upgrade.auth.login", body={"email": "new@demo.test", "password": "wrong-password"})
    tenant = ctx.tenant
    assert tenant is not None
    p = customers.authenticate(runtime.db, runtime.secret_key, tenant, reg.token, runtime.clock.now())
    assert p.kind == "customer" and p.customer_module == "upgrade" and p.id == reg.id
    me = ctx.with_principal(p)
    prof = execute(me, "upgrade.profile.update", body={"phone": "+1 555 0199", "address": {"city": "Ogdenville"}})
    assert prof.address.city == "Ogdenville" and execute(me, "upgrade.profile.get").phone == "+1 555 0199"
    execute(me, "upgrade.auth.logout")
    with pytest.raises(Unauthorized):  # logging out ends the token
        customers.authenticate(runtime.db, runtime.secret_key, tenant, reg.token, runtime.clock.now())
    with pytest.raises(Unauthorized):  # a staff session is not a customer session
        customers.authenticate(runtime.db, runtime.secret_key, tenant, "not-a-token", runtime.clock.now())


def test_station_records_commands_in_the_outbox(station: Runtime) -> None:
    sid = drive(station, "submitted")
    from local_db.models import OutboxEntry

    with station.db.reading(None) as s:
        cmds = [e.command for e in s.execute(select(OutboxEntry).order_by(OutboxEntry.seq)).scalars()]
        sub = s.get(UpgradeSubmission, sid)
    assert cmds[-2:] == ["upgrade.submissions.create", "upgrade.submissions.submit"]
    assert sub is not None and sub.status == "submitted"


def _events(rt: Runtime) -> list[str]:
    with rt.db.reading(None) as s:
        n = s.execute(select(func.count()).select_from(Event)).scalar_one()
        assert n >= 0
        return list(s.execute(select(Event.type).where(Event.type.like("tradein.%"))
                              .order_by(Event.created_at, Event.id)).scalars())  # fmt: skip


def test_completing_needs_every_checklist_item_answered(runtime: Runtime) -> None:
    sid = drive(runtime, "received")
    for item in GOOD:
        partial = {k: v for k, v in GOOD.items() if k != item}
        with pytest.raises(ValidationFailed) as exc:
            execute(
                staff(runtime), "upgrade.submissions.inspect", id=sid, body={"action": "complete", "checklist": partial}
            )
        assert f"checklist.{item}" in [f["field"] for f in exc.value.details["fields"]]
        unanswered = {**GOOD, item: None}  # "not checked" is no answer either
        with pytest.raises(ValidationFailed):
            body = {"action": "complete", "checklist": unanswered}
            execute(staff(runtime), "upgrade.submissions.inspect", id=sid, body=body)
    assert status(runtime, sid) == "received"

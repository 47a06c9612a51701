"""A trade-in taken in at the desk (``POST /admin/submissions``): staff only, for a customer of
the tenant, submitted at once with the submit's rules (IMEI of a phone, one open trade-in per
serial) and its event; refused input stores nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from local_db.models import Event
from local_db.models.upgrade import UpgradeSubmission
from services.core.commands import execute
from services.core.context import Runtime
from services.core.errors import Conflict, Forbidden, ValidationFailed
from tests.services.upgrade.upgrade_helpers import CASEY, PRODUCT, customer, drive, new_serial, staff


def _count(rt: Runtime) -> int:
    with rt.db.reading(staff(rt).tenant_id) as s:
        return int(s.execute(select(func.count()).select_from(UpgradeSubmission)).scalar_one())


def test_taken_in_at_the_desk_and_submitted(runtime: Runtime) -> None:
    op = staff(runtime)
    serial = new_serial()
    made = execute(op, "upgrade.admin.submissions.create",
                   body={"customer_id": CASEY, "product_id": PRODUCT, "serial_number": serial, "condition": "good"})  # fmt: skip
    assert made.status == "submitted" and made.customer_id == CASEY and made.submitted_at is not None
    with runtime.db.reading(op.tenant_id) as s:
        kinds = [e.type for e in s.execute(select(Event).where(Event.type == "tradein.submitted")).scalars()]
    assert kinds  # the same event as the portal's submit
    with pytest.raises(Conflict):  # one open trade-in per serial, as in the portal
        execute(op, "upgrade.admin.submissions.create",
                body={"customer_id": CASEY, "product_id": PRODUCT, "serial_number": serial, "condition": "fair"})  # fmt: skip


def test_bad_input_and_a_customer_token_store_nothing(runtime: Runtime) -> None:
    op, before = staff(runtime), _count(runtime)
    good = {"customer_id": CASEY, "product_id": PRODUCT, "serial_number": new_serial(), "condition": "good"}
    for bad in (
        {**good, "customer_id": "no-such-customer"},
        {**good, "condition": "mint"},
        {**good, "imei": "490154203237519"},  # wrong check digit
        {**good, "photos": []},  # not a field of the desk's form
    ):
        with pytest.raises(ValidationFailed):
            execute(op, "upgrade.admin.submissions.create", body=bad)
    execute(staff(runtime, "owner@demo.test"), "upgrade.valuations.create",
            body={"product_id": "DESK-PHONE", "product_name": "Desk phone", "base_value": 100, "currency": "USD",
                  "is_phone": True})  # fmt: skip
    with pytest.raises(ValidationFailed, match="IMEI"):
        execute(op, "upgrade.admin.submissions.create", body={**good, "product_id": "DESK-PHONE"})
    with pytest.raises(Forbidden):  # staff routes are not the customer's
        execute(customer(runtime), "upgrade.admin.submissions.create", body=good)
    assert _count(runtime) == before


def test_accepting_an_offer_stamps_accepted_at(runtime: Runtime) -> None:
    """What the dashboard's "trade-ins accepted" counts by: set when the offer is accepted, not before."""
    offered = drive(runtime, "offered")
    assert execute(staff(runtime), "upgrade.admin.submissions.get", id=offered).accepted_at is None
    before = runtime.clock.now()
    accepted = drive(runtime, "accepted")
    got = execute(staff(runtime), "upgrade.admin.submissions.get", id=accepted)
    assert got.accepted_at is not None and before <= got.accepted_at <= runtime.clock.now()
    assert got.accepted_at == got.accepted_offer.decided_at  # type: ignore[union-attr]
    listed = execute(staff(runtime), "upgrade.admin.submissions.list", query={"status": "accepted", "limit": 100})
    assert any(s.id == accepted and s.accepted_at == got.accepted_at for s in listed.items)

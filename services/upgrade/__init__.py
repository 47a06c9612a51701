"""Upgrade: trade-in submissions, offers, kits and returns, inspection and grading, valuations."""

from services.core.modules import Module
from services.upgrade import (  # noqa: F401 - declarations, event types and demo seeders register on import
    credit,
    customers,
    demo,
    erasure,
    events,
    inspections,
    offers,
    pages,
    photos,
    submissions,
    valuations,
)

MODULE = Module(
    name="upgrade",
    events=(
        "tradein.submitted",
        "tradein.approved",
        "tradein.offered",
        "tradein.shipped",
        "tradein.received",
        "tradein.inspected",
        "tradein.offer_revised",
        "tradein.completed",
        "tradein.declined",
        "tradein.paid_out",
    ),
    records=("upgrade.submission",),
    seeders=(demo.seed_upgrade,),
    customer_auth=customers.authenticate,
    position=110,
    title="Trade-ins",
)

"""Aftersale: customer accounts, public warranty registration with coverage, claims (docs/aftersale.md)."""

from services.aftersale import (  # noqa: F401 - declarations, event types, demo seeders
    claims,
    customers,
    demo,
    events,
    files,
    pages,
    registrations,
    repairs,
    warranties,
)
from services.core.modules import Module

MODULE = Module(
    name="aftersale",
    depends=("inventory",),  # a registration's serial checked against the serials shipped; repair parts
    events=(
        "warranty.registered",
        "claim.submitted",
        "claim.started",
        "claim.closed",
        "claim.cancelled",
        "warranty.disputed",
        "warranty.voided",
        "warranty.transferred",
        "warranty.dispute_settled",
        "repair.received",
        "repair.diagnosed",
        "repair.repaired",
        "repair.replaced",
        "repair.returned",
        "repair.cancelled",
    ),
    records=("aftersale.warranty", "aftersale.claim", "aftersale.repair"),
    seeders=(demo.seed_aftersale,),
    customer_auth=customers.authenticate,
    position=120,
    title="After-sales",
)

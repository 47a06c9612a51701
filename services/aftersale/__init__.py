"""Aftersale: customer accounts, public warranty registration with coverage, claims (docs/aftersale.md)."""

from services.aftersale import claims, customers, demo, events, files, pages, registrations, warranties  # noqa: F401 - declarations, event types, demo seeders
from services.core.modules import Module

MODULE = Module(
    name="aftersale",
    depends=("inventory",),  # a registration's serial checked against the serials shipped
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
    ),
    records=("aftersale.warranty", "aftersale.claim"),
    seeders=(demo.seed_aftersale,),
    customer_auth=customers.authenticate,
    position=120,
)

"""Carriers: who turns a packed order into a shipment (tracking number + label text).

``Carrier`` is the interface. ``LocalCarrier`` works offline: tracking numbers
come from a per-tenant counter that is never reused (services.core.commands.
next_value) and end in a GS1 mod-10 check digit, so a mistyped number is caught.

Real carriers (UPS, DHL, a ShipStation/EasyPost account, ...) go here: a class
implementing ``create_shipment`` with its API call (credentials from tenant
settings, never in code), registered with ``register_carrier`` at import. A
station that is offline can only use carriers whose ``works_offline`` is true;
tests replace network carriers with a fake registered under the same code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from services.core.checkdigits import has_valid_check_digit, with_check_digit
from services.core.commands import leased_counter, next_value
from services.core.context import Ctx
from services.core.errors import ValidationFailed


@dataclass(frozen=True)
class Shipment:
    carrier: str
    tracking_number: str
    service: str


@dataclass(frozen=True)
class Package:
    order_number: str
    box: str | None
    weight_grams: int | None
    ship_to: dict[str, object]


class Carrier(Protocol):
    code: str
    name: str
    works_offline: bool

    def create_shipment(self, ctx: Ctx, package: Package) -> Shipment:
        """Book the shipment; runs inside the ship command's unit of work."""
        ...

    def accepts_tracking_number(self, tracking_number: str) -> bool:
        """Whether a number allocated elsewhere (a station) is one of this carrier's."""
        ...


# Tracking numbers are printed on labels offline: linked stations take them from platform leases.
TRACKING = leased_counter("fulfillment.tracking", 500)


class LocalCarrier:
    """The built-in offline carrier: ``LP`` + 9-digit sequence + check digit, e.g. ``LP0000000017``."""

    code = "local"
    name = "Local Post"
    works_offline = True
    prefix = "LP"

    def create_shipment(self, ctx: Ctx, package: Package) -> Shipment:
        seq = next_value(ctx, ctx.tenant_id, TRACKING)
        return Shipment(self.code, self.prefix + with_check_digit(f"{seq:09d}"), "standard")

    def accepts_tracking_number(self, tracking_number: str) -> bool:
        digits = tracking_number[len(self.prefix) :]
        return tracking_number.startswith(self.prefix) and len(digits) == 10 and has_valid_check_digit(digits)


CARRIERS: dict[str, Carrier] = {}
DEFAULT_CARRIER = "local"


def register_carrier(carrier: Carrier) -> Carrier:
    CARRIERS[carrier.code] = carrier
    return carrier


def get_carrier(code: str | None) -> Carrier:
    carrier = CARRIERS.get(code or DEFAULT_CARRIER)
    if carrier is None:
        raise ValidationFailed(f"unknown carrier {code!r}", {"carrier": code, "allowed": sorted(CARRIERS)})
    return carrier


register_carrier(LocalCarrier())

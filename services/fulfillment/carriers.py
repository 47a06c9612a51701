"""Carriers: who turns a packed order into a shipment (tracking number + label text).

``Carrier`` is the interface. ``LocalCarrier`` works offline: tracking numbers
come from a per-tenant counter that is never reused (services.core.commands.
next_value) and end in a GS1 mod-10 check digit, so a mistyped number is caught.

Carriers reached over the network implement the same interface: ``EasyPostCarrier``
(services/fulfillment/carrier_api.py, an aggregator over EasyPost's HTTP API) buys its label
before the ship operation (services/fulfillment/shipping.py records each step first, so a
retry never buys twice) and hands the bought tracking number to ``create_shipment``. A station
that is offline can only use carriers whose ``works_offline`` is true.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Protocol

from services.core.checkdigits import has_valid_check_digit, with_check_digit
from services.core.commands import leased_counter, next_value
from services.core.context import Ctx
from services.core.errors import ServiceError, ValidationFailed


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
    order_id: str = ""
    lines: list[dict[str, Any]] = field(default_factory=list)  # [{sku, name, quantity}]
    ship_from: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Rate:
    id: str
    carrier: str  # the carrier behind an aggregator (USPS, UPS) or our own code
    service: str
    amount: Decimal
    currency: str
    delivery_days: int | None


class AddressInvalid(ServiceError):
    """The ship-to address is not one a carrier can deliver to; ``details.field`` names the first bad field."""

    code = "ADDRESS_INVALID"
    status = 422


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

    def check_address(self, ctx: Ctx, address: dict[str, Any]) -> None:
        """Raise ``AddressInvalid`` naming the field when the carrier cannot deliver there."""
        ...


REQUIRED_ADDRESS = ("name", "address1", "city", "zip", "country")


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

    def check_address(self, ctx: Ctx, address: dict[str, Any]) -> None:
        # Offline: no verification service, only what a label cannot be printed without.
        for name in REQUIRED_ADDRESS:
            if not str(address.get(name) or "").strip():
                raise AddressInvalid(
                    f"the shipping address has no {name}", {"field": f"shipping_address.{name}", "reason": "missing"}
                )


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

"""A carrier aggregator reached over its HTTP API: EasyPost's (``/v2/addresses``, ``/v2/shipments``,
``/v2/shipments/{id}/buy``), with one small httpx client.

EasyPost's own Python library was not taken: it reads its key from a module global, which does not
fit one key per tenant, and the four calls we make are a few lines each with httpx (already ours).

The tenant's settings hold the aggregator's base URL, its API key (sealed, never answered or
logged) and the rule that picks a rate (``cheapest`` or ``fastest``). Tests and the demo point it
at ``app/carrier_standin.py``, a stand-in speaking the same protocol on 127.0.0.1 (``serve --demo --demo-carrier``).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

import httpx
from sqlalchemy import select

from local_db.models import Tenant
from local_db.models.fulfillment_carriers import CarrierPurchase
from services.core.context import Ctx
from services.core.errors import ServiceError, ValidationFailed
from services.core.sealing import unseal
from services.fulfillment.carriers import AddressInvalid, Package, Rate, Shipment, register_carrier

TIMEOUT = 20.0  # seconds; a buy that has not answered by then is reconciled on the next try
GRAMS_PER_OUNCE = 28.349523125


class CarrierUnavailable(ServiceError):
    """The carrier did not answer, or answered 5xx: the fault is not the request's."""

    code = "CARRIER_UNAVAILABLE"
    status = 502


class CarrierRefused(ServiceError):
    """The carrier refused what we sent (its 4xx), with its own code and field errors."""

    code = "CARRIER_REFUSED"
    status = 422


@dataclass(frozen=True)
class CarrierSettings:
    base_url: str
    api_key: str
    rule: str  # cheapest | fastest
    from_address: dict[str, Any]
    timeout: float = TIMEOUT


def carrier_settings(ctx: Ctx, s: Any) -> CarrierSettings | None:
    t = s.get(Tenant, ctx.tenant_id)
    conf = (((t.settings if t else None) or {}).get("fulfillment") or {}).get("carrier_api")
    if not conf:
        return None
    return CarrierSettings(
        base_url=conf["base_url"].rstrip("/"),
        api_key=unseal(ctx.runtime.secret_key, conf["api_key"]),
        rule=conf.get("rule") or "cheapest",
        from_address=dict(conf.get("from_address") or {}),
        timeout=float(conf.get("timeout_seconds") or TIMEOUT),
    )


class EasyPostClient:
    """The four calls, Basic auth with the key as user name (EasyPost's scheme)."""

    def __init__(self, base_url: str, api_key: str, timeout: float = TIMEOUT) -> None:
        self._http = httpx.Client(base_url=base_url, auth=(api_key, ""), timeout=timeout)

    def __enter__(self) -> EasyPostClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.close()

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        try:
            r = self._http.request(method, path, json=body)
        except httpx.TimeoutException:
            raise CarrierUnavailable(
                "the carrier did not answer in time", {"reason": "timeout", "path": path}
            ) from None
        except httpx.HTTPError as exc:
            raise CarrierUnavailable(
                f"the carrier could not be reached ({type(exc).__name__})", {"reason": "unreachable", "path": path}
            ) from None
        try:
            data = r.json()
        except ValueError:
            data = {}
        if r.status_code >= 500 or r.status_code in (401, 403, 429):
            # Ours to fix or wait for (a wrong key, the carrier down): never the request's fault.
            raise CarrierUnavailable(
                f"the carrier answered {r.status_code}", {"reason": "carrier_error", "status": r.status_code}
            )
        if r.status_code >= 400:
            err = (data.get("error") if isinstance(data, dict) else None) or {}
            raise CarrierRefused(
                f"the carrier refused it: {err.get('message') or r.status_code}",
                {"carrier_code": err.get("code"), "errors": err.get("errors") or []},
            )
        return data if isinstance(data, dict) else {}

    def verify_address(self, address: dict[str, Any]) -> dict[str, Any]:
        return self._call("POST", "/v2/addresses", {"address": address, "verify": True})

    def create_shipment(self, shipment: dict[str, Any]) -> dict[str, Any]:
        return self._call("POST", "/v2/shipments", {"shipment": shipment})

    def get_shipment(self, shipment_id: str) -> dict[str, Any]:
        return self._call("GET", f"/v2/shipments/{shipment_id}")

    def buy(self, shipment_id: str, rate_id: str) -> dict[str, Any]:
        return self._call("POST", f"/v2/shipments/{shipment_id}/buy", {"rate": {"id": rate_id}})


def easypost_address(a: dict[str, Any]) -> dict[str, Any]:
    """Our address (Shopify's field names) as EasyPost's."""
    out = {
        "name": a.get("name"),
        "company": a.get("company"),
        "street1": a.get("address1"),
        "street2": a.get("address2"),
        "city": a.get("city"),
        "state": a.get("province"),
        "zip": a.get("zip"),
        "country": (a.get("country") or "").upper() or None,
        "phone": a.get("phone"),
    }
    return {k: v for k, v in out.items() if v}


# EasyPost's field names back to ours, so the 422 names the field the caller sent.
_OUR_FIELD = {"street1": "address1", "street2": "address2", "state": "province"}


def check_verified(address: dict[str, Any]) -> None:
    """The verification EasyPost answered: 422 naming the first failing field."""
    delivery = (address.get("verifications") or {}).get("delivery") or {}
    if delivery.get("success", True):
        return
    errors = delivery.get("errors") or []
    first = errors[0] if errors else {}
    field = _OUR_FIELD.get(first.get("field") or "", first.get("field") or "address")
    raise AddressInvalid(
        f"the shipping address did not verify: {field}: {first.get('message') or 'not deliverable'}",
        {
            "field": f"shipping_address.{field}",
            "errors": [{"field": f"shipping_address.{_OUR_FIELD.get(e.get('field') or '', e.get('field'))}",
                        "message": e.get("message")} for e in errors],
        },
    )  # fmt: skip


def rates_of(shipment: dict[str, Any]) -> list[Rate]:
    out = []
    for r in shipment.get("rates") or []:
        try:
            amount = Decimal(str(r["rate"]))
        except (InvalidOperation, KeyError):
            continue
        days = r.get("delivery_days")
        out.append(
            Rate(
                id=str(r["id"]),
                carrier=str(r.get("carrier") or ""),
                service=str(r.get("service") or ""),
                amount=amount,
                currency=str(r.get("currency") or "USD"),
                delivery_days=int(days) if days is not None else None,
            )
        )
    return out


def choose(rates: list[Rate], rule: str) -> Rate:
    """The tenant's rule: ``cheapest`` (then fastest) or ``fastest`` (then cheapest)."""
    if not rates:
        raise CarrierRefused("the carrier offered no rate for this parcel", {"reason": "no_rates"})
    slow = 10_000
    if rule == "fastest":
        return min(rates, key=lambda r: (r.delivery_days if r.delivery_days is not None else slow, r.amount))
    return min(rates, key=lambda r: (r.amount, r.delivery_days if r.delivery_days is not None else slow))


def customs_info(package: Package, origin_country: str, values: dict[str, str]) -> dict[str, Any] | None:
    """EasyPost's customs form, for a parcel leaving the shop's country; None inside it."""
    dest = str(package.ship_to.get("country") or "").upper()
    if not dest or dest == origin_country.upper():
        return None
    units = sum(int(ln["quantity"]) for ln in package.lines) or 1
    ounces = (package.weight_grams or 0) / GRAMS_PER_OUNCE
    items = [
        {
            "description": str(ln["name"])[:45],
            "quantity": int(ln["quantity"]),
            "value": values.get(str(ln["sku"]), "0.00"),
            # The parcel's weight shared by unit: lines carry no weight of their own.
            "weight": round(max(ounces * int(ln["quantity"]) / units, 0.1), 1),
            "origin_country": origin_country.upper(),
            "code": str(ln["sku"]),
        }
        for ln in package.lines
    ]
    return {
        "contents_type": "merchandise",
        "customs_certify": True,
        "customs_signer": str(package.ship_from.get("name") or "Shipping department"),
        "eel_pfc": "NOEEI 30.37(a)",
        "non_delivery_option": "return",
        "restriction_type": "none",
        "customs_items": items,
    }


class EasyPostCarrier:
    """The aggregator as a ``Carrier``. The label is bought by ``shipping.buy_label`` (outside any unit
    of work, each step recorded first); ``create_shipment`` hands the ship operation what was bought."""

    code = "easypost"
    name = "EasyPost"
    works_offline = False

    def create_shipment(self, ctx: Ctx, package: Package) -> Shipment:
        s = ctx.uow.session
        p = s.execute(select(CarrierPurchase).where(CarrierPurchase.order_id == package.order_id)).scalar_one_or_none()
        if p is None or p.state != "bought" or not p.tracking_number:
            raise ValidationFailed(
                f"order {package.order_number} has no {self.name} label yet: buy it (POST /orders/{{id}}/label)",
                {"reason": "no_label", "carrier": self.code},
            )
        return Shipment(self.code, p.tracking_number, p.service or "")

    def accepts_tracking_number(self, tracking_number: str) -> bool:
        # The aggregator's carriers each have their own formats: any number it gave us.
        return 8 <= len(tracking_number) <= 64 and tracking_number.isalnum()

    def check_address(self, ctx: Ctx, address: dict[str, Any]) -> None:
        with ctx.read() as s:
            conf = carrier_settings(ctx, s)
        if conf is None:
            raise ValidationFailed("no carrier API is set up (PUT /settings/carrier)", {"reason": "not_configured"})
        with EasyPostClient(conf.base_url, conf.api_key, conf.timeout) as client:
            check_verified(client.verify_address(easypost_address(address)))


register_carrier(EasyPostCarrier())


def grams_to_ounces(grams: int | None) -> float:
    return round(max((grams or 0) / GRAMS_PER_OUNCE, 0.1), 1)

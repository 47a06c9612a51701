"""Carrier settings and buying a packed order's label: address verified, rates, the rate the tenant's
rule picks, the label bought once, then the order shipped under its tracking number.

Bought once: the purchase row is written and committed before every call to the carrier, so what
was asked is known whatever the answer. A buy answered 500 or not at all leaves the row ``buying``
with the carrier's shipment id; the next try reads that shipment back (``GET /v2/shipments/{id}``)
and takes its tracking number if it was bought, buying only when it was not. The carrier itself
refuses a second purchase of one shipment, so two tries at once cannot buy twice either.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from local_db import new_id
from local_db.models import Tenant
from local_db.models.fulfillment_carriers import CarrierPurchase
from services.core.commands import execute, use_case
from services.core.connections import ConnectionsConfig
from services.core.context import Ctx
from services.core.errors import Conflict, ValidationFailed
from services.core.roles import MANAGERS, STAFF
from services.core.sealing import seal
from services.core.shop import url_problem
from services.fulfillment import states
from services.fulfillment.carrier_api import (
    CarrierSettings,
    CarrierUnavailable,
    EasyPostClient,
    carrier_settings,
    check_verified,
    choose,
    customs_info,
    easypost_address,
    grams_to_ounces,
    rates_of,
)
from services.fulfillment.carriers import Package, Rate, get_carrier
from services.fulfillment.orders import _find, _lines
from services.fulfillment.schemas import (
    CarrierSettingsIn,
    CarrierSettingsOut,
    LabelBuy,
    LabelOut,
    RateOut,
)

# --- settings ------------------------------------------------------------------------


def _settings_out(conf: dict[str, Any] | None) -> CarrierSettingsOut:
    if not conf:
        return CarrierSettingsOut(configured=False)
    return CarrierSettingsOut(
        configured=True,
        base_url=conf["base_url"],
        rule=conf.get("rule") or "cheapest",
        from_address=conf.get("from_address"),
        timeout_seconds=conf.get("timeout_seconds"),
    )


@use_case(
    "fulfillment.settings.carrier.get",
    "GET /settings/carrier",
    tx="read",
    roles=MANAGERS,
    summary="read the carrier aggregator settings (never the key)",
)
def get_carrier_settings(ctx: Ctx) -> CarrierSettingsOut:
    with ctx.read() as s:
        t = s.get(Tenant, ctx.tenant_id)
        conf = (((t.settings if t else None) or {}).get("fulfillment") or {}).get("carrier_api")
    return _settings_out(conf)


@use_case(
    "fulfillment.settings.carrier.put",
    "PUT /settings/carrier",
    tx="write",
    roles=MANAGERS,
    online=True,  # carries a secret: made on the platform, never queued in a station's outbox
    summary="set the carrier aggregator (EasyPost API): base URL, API key, rate rule, the shop's address",
)
def put_carrier_settings(ctx: Ctx, body: CarrierSettingsIn) -> CarrierSettingsOut:
    why = url_problem(body.base_url, allow_private=ctx.runtime.part(ConnectionsConfig).allow_private)
    if why:
        raise ValidationFailed(why, {"fields": [{"field": "base_url", "message": why}]})
    conf = carrier_conf(ctx.runtime.secret_key, body.base_url, body.api_key, body.rule,
                        body.from_address.model_dump(exclude_none=True), body.timeout_seconds)  # fmt: skip
    with ctx.write() as s:
        t = s.get(Tenant, ctx.tenant_id)
        assert t is not None
        settings = dict(t.settings or {})
        settings["fulfillment"] = {**(settings.get("fulfillment") or {}), "carrier_api": conf}
        t.settings = settings  # a new dict: JSON columns track assignment only
    return _settings_out(conf)


def carrier_conf(secret_key: str, base_url: str, api_key: str, rule: str, from_address: dict[str, Any],
                 timeout_seconds: float) -> dict[str, Any]:  # fmt: skip
    """The tenant setting ``fulfillment.carrier_api`` as stored (also by the demo's stand-in start-up)."""
    return {
        "base_url": base_url.rstrip("/"),
        # Sealed: the key is sent to the carrier on every call, so it is kept, never answered or logged.
        "api_key": seal(secret_key, api_key),
        "rule": rule,
        "from_address": from_address,
        "timeout_seconds": timeout_seconds,
    }


# --- buying the label ----------------------------------------------------------------------


def _rate_out(r: Rate) -> RateOut:
    return RateOut(
        id=r.id,
        carrier=r.carrier,
        service=r.service,
        amount=str(r.amount),
        currency=r.currency,
        delivery_days=r.delivery_days,
    )


@use_case(
    "fulfillment.labels.buy",
    "POST /orders/{id}/label",
    tx="own",  # each step with the carrier is committed before the next call (bought once)
    roles=STAFF,
    online=True,  # a network carrier is reached from the platform only
    record="fulfillment.order",
    says="Label bought for order",
    summary="buy a packed order's label (address verified, rate by rule, customs abroad) and ship it",
)
def buy_label(ctx: Ctx, id: str, body: LabelBuy) -> LabelOut:
    with ctx.read() as s:
        conf = carrier_settings(ctx, s)
        o = _find(s, id)
        states.ORDER.check(o.status, "ship", verb="ship")
        code = body.carrier or ("easypost" if conf else "local")
        carrier = get_carrier(code)
        lines = [{"sku": ln.sku, "name": ln.name, "quantity": ln.quantity} for ln in _lines(s, o.id)]
        order_id, address = o.id, dict(o.shipping_address or {})
        package = Package(o.order_number, o.box, o.weight_grams, address, order_id=o.id, lines=lines)
    # The tracked units ship with the order (Inventory checks them in the ship); a refusal after a
    # bought label leaves the purchase row bought, and the next try ships under it without buying again.
    units = [u.model_dump(exclude_none=True) for u in body.units]
    if carrier.works_offline:
        carrier.check_address(ctx, address)
        shipped = execute(
            ctx, "fulfillment.orders.operate", id=order_id, body={"operation": "ship", "carrier": code, "units": units}
        )
        return LabelOut(order=shipped, carrier=code, service="standard", tracking_number=shipped.tracking_number)
    if conf is None:
        raise ValidationFailed("no carrier API is set up (PUT /settings/carrier)", {"reason": "not_configured"})
    rule = body.rule or conf.rule
    with EasyPostClient(conf.base_url, conf.api_key, conf.timeout) as client:
        bought, p, reconciled = purchase(ctx, client, conf, package, rule, body.declared_values)
    shipped = execute(
        ctx,
        "fulfillment.orders.operate",
        id=order_id,
        body={"operation": "ship", "carrier": code, "tracking_number": p["tracking_number"], "units": units},
    )
    return LabelOut(
        order=shipped,
        carrier=code,
        service=p["service"],
        tracking_number=p["tracking_number"],
        rule=p["rule"],
        amount=p["amount"],
        currency=p["currency"],
        rates=[_rate_out(r) for r in bought],
        customs=p["customs"],
        reconciled=reconciled,
    )


def _row(order_id: str, purpose: str) -> Any:
    return select(CarrierPurchase).where(CarrierPurchase.order_id == order_id, CarrierPurchase.purpose == purpose)


def _load(ctx: Ctx, order_id: str, purpose: str) -> CarrierPurchase | None:
    with ctx.read() as s:
        p = s.execute(_row(order_id, purpose)).scalar_one_or_none()
        if p is not None:
            s.expunge(p)
        return p


def _save(ctx: Ctx, order_id: str, purpose: str, **values: Any) -> dict[str, Any]:
    """Write the purchase row's new values in a unit of work of its own (committed before the next call)."""
    try:
        with ctx.write() as s:
            p = s.execute(_row(order_id, purpose)).scalar_one_or_none()
            if p is None:
                p = CarrierPurchase(id=new_id(), order_id=order_id, purpose=purpose, created_at=ctx.now(), rates=[],
                                    buy_attempts=0)  # fmt: skip
                s.add(p)
            for k, v in values.items():
                setattr(p, k, v)
            p.updated_at = ctx.now()
            s.flush()
            return {c: getattr(p, c) for c in ("state", "shipment_id", "rate_id", "tracking_number", "service",
                                              "amount", "currency", "rule", "customs", "rates", "buy_attempts")}  # fmt: skip
    except IntegrityError:
        raise Conflict("this label is being bought by another request", {"reason": "in_progress"}) from None


def purchase(
    ctx: Ctx,
    client: EasyPostClient,
    conf: CarrierSettings,
    package: Package,
    rule: str,
    values: dict[str, str],
    purpose: str = "outgoing",
) -> tuple[list[Rate], dict[str, Any], bool]:
    """The bought label's facts (rates considered, the purchase row as saved, whether it was reconciled).
    ``purpose``: ``outgoing``, or a return's id for its return label: EasyPost's ``is_return`` shipment,
    sent with the outgoing addresses (the carrier swaps them: the parcel comes back to the shop)."""
    oid = package.order_id
    row = _load(ctx, oid, purpose)
    if row is not None and row.state == "bought":
        return rates_from(row.rates), _save(ctx, oid, purpose), True
    if row is None or row.shipment_id is None:
        # Verified before anything is bought or stored: a bad address is 422 naming the field.
        check_verified(client.verify_address(easypost_address(package.ship_to)))
        customs = customs_info(package, str(conf.from_address.get("country") or "US"), values)
        _save(ctx, oid, purpose, carrier="easypost", state="rating", rule=rule, customs=customs)
        shipment = client.create_shipment(
            {
                "reference": package.order_number,
                "to_address": easypost_address(package.ship_to),
                "from_address": easypost_address(conf.from_address),
                "parcel": {"weight": grams_to_ounces(package.weight_grams)},
                **({"customs_info": customs} if customs else {}),
                **({"is_return": True} if purpose != "outgoing" else {}),
            }
        )
        rates = rates_of(shipment)
        row_values = _save(
            ctx,
            oid,
            purpose,
            state="rated",
            shipment_id=str(shipment["id"]),
            rates=[_rate_out(r).model_dump() for r in rates],
        )
    else:
        row_values = _save(ctx, oid, purpose)
    rates = rates_from(row_values["rates"])
    shipment_id = str(row_values["shipment_id"])
    reconciled = False
    if row_values["state"] == "buying":
        # The last buy's outcome is unknown (500, timeout, a crash): the carrier's shipment tells.
        found = client.get_shipment(shipment_id)
        if found.get("tracking_code"):
            return rates, _bought(ctx, oid, purpose, found), True
        reconciled = False
    chosen = next((r for r in rates if r.id == row_values["rate_id"]), None) or choose(
        rates, row_values["rule"] or rule
    )
    _save(ctx, oid, purpose, state="buying", rate_id=chosen.id, service=f"{chosen.carrier} {chosen.service}".strip(),
          amount=str(chosen.amount), currency=chosen.currency, buy_attempts=row_values["buy_attempts"] + 1)  # fmt: skip
    try:
        bought = client.buy(shipment_id, chosen.id)
    except CarrierUnavailable as exc:
        _save(ctx, oid, purpose, last_error=exc.message)
        raise CarrierUnavailable(
            f"{exc.message}: the purchase is not confirmed; try again, the carrier's shipment is read back first "
            "and the label is never bought twice",
            {**(exc.details or {}), "reason": "unconfirmed", "shipment_id": shipment_id},
        ) from None
    return rates, _bought(ctx, oid, purpose, bought), reconciled


def _bought(ctx: Ctx, order_id: str, purpose: str, shipment: dict[str, Any]) -> dict[str, Any]:
    rate = shipment.get("selected_rate") or {}
    label = shipment.get("postage_label") or {}
    return _save(
        ctx,
        order_id,
        purpose,
        state="bought",
        tracking_number=str(shipment["tracking_code"]),
        label_url=label.get("label_url"),
        rate_id=rate.get("id"),
        service=f"{rate.get('carrier') or ''} {rate.get('service') or ''}".strip() or None,
        amount=rate.get("rate"),
        currency=rate.get("currency"),
        last_error=None,
    )


def rates_from(stored: list[dict[str, Any]]) -> list[Rate]:
    from decimal import Decimal

    return [
        Rate(
            id=r["id"],
            carrier=r["carrier"],
            service=r["service"],
            amount=Decimal(r["amount"]),
            currency=r["currency"],
            delivery_days=r.get("delivery_days"),
        )
        for r in stored
    ]

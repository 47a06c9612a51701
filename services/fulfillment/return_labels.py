"""Return labels: an RMA's parcel back to the shop, through the carrier interface, bought once.

``POST /returns/{id}/label`` buys it: Local Post allocates a tracking number offline; the aggregator
(EasyPost's API) gets a shipment with ``is_return: true`` and the outgoing addresses (the customer's
as ``to_address``, the shop's as ``from_address``: EasyPost swaps them on the label), bought by the
same purchase rows as outgoing labels (``shipping.purchase``, one row per order and purpose, the
purpose being the return's id), so a carrier 500 or timeout never buys twice. The label is kept as a
``fulfillment_labels`` row named on the return; a second call answers the return with it.
``GET /returns/{id}/label`` is the 4x6 PDF.
"""

from __future__ import annotations

import uuid
from typing import Any

from local_db.models.fulfillment import FulfillmentOrder, FulfillmentReturn, ShippingLabel
from services.core import labels
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import NotFound, ValidationFailed
from services.core.files import FileResult
from services.core.roles import ANYONE, STAFF
from services.fulfillment.carrier_api import EasyPostClient, carrier_settings
from services.fulfillment.carriers import REQUIRED_ADDRESS, AddressInvalid, Package, get_carrier
from services.fulfillment.orders import _lines
from services.fulfillment.returns import _find_return, _out
from services.fulfillment.schemas import ReturnLabelBuy, ReturnOut
from services.fulfillment.shipping import purchase

_LABEL_NS = uuid.UUID("5b0f2a4e-6c1d-4e8b-9f3a-2d7c8e1b4a60")


def _check_address(address: dict[str, Any]) -> None:
    # The parcel starts at the customer's: a label cannot be made without where it is picked up.
    for name in REQUIRED_ADDRESS:
        if not str(address.get(name) or "").strip():
            raise AddressInvalid(
                f"the order's shipping address has no {name}: the return label needs where the parcel comes from",
                {"field": f"shipping_address.{name}", "reason": "missing"},
            )


def _label_lines(shop: str, shop_address: dict[str, Any], o: FulfillmentOrder, r: FulfillmentReturn) -> list[str]:
    a = o.shipping_address or {}
    out = ["RETURN TO:", shop]
    out += [str(shop_address[k]) for k in ("address1", "address2") if shop_address.get(k)]
    place = " ".join(str(shop_address[k]) for k in ("zip", "city") if shop_address.get(k))
    out += [place] if place else []
    out += ["", "FROM:", str(a.get("name") or o.customer_name or "")]
    out += [str(a[k]) for k in ("address1", "address2") if a.get(k)]
    out.append(" ".join(str(a[k]) for k in ("zip", "city", "country") if a.get(k)))
    out += ["", f"{r.rma_number}  Order {o.order_number}"]
    return [ln[:40] for ln in out]


@use_case(
    "fulfillment.returns.label.buy",
    "POST /returns/{id}/label",
    tx="own",  # a network carrier's steps are each committed before the next call (bought once)
    roles=STAFF,
    online=True,
    record="fulfillment.return",
    says="Return label bought",
    summary="buy a return's label (Local Post or the carrier aggregator, is_return), once",
)
def buy_return_label(ctx: Ctx, id: str, body: ReturnLabelBuy) -> ReturnOut:
    with ctx.read() as s:
        r = _find_return(s, id)
        o = s.get(FulfillmentOrder, r.order_id)
        assert o is not None
        if r.label_id is not None:
            return _out(r, o.order_number)  # bought once: the label it has
        conf = carrier_settings(ctx, s)
        names = {ln.sku: ln.name for ln in _lines(s, o.id)}
        lines = [{"sku": x["sku"], "name": names.get(x["sku"], x["sku"]), "quantity": x["quantity"]} for x in r.lines]
        package = Package(r.rma_number, o.box, o.weight_grams, dict(o.shipping_address or {}), order_id=o.id,
                          lines=lines)  # fmt: skip
        return_id, shop = r.id, ctx.tenant.name if ctx.tenant else ""
    code = body.carrier or ("easypost" if conf else "local")
    carrier = get_carrier(code)
    _check_address(package.ship_to)
    if carrier.works_offline:
        tracking, service = None, "standard"
        shop_address = dict(conf.from_address) if conf else {}
    else:
        if conf is None:
            raise ValidationFailed("no carrier API is set up (PUT /settings/carrier)", {"reason": "not_configured"})
        with EasyPostClient(conf.base_url, conf.api_key, conf.timeout) as client:
            _rates, p, _reconciled = purchase(ctx, client, conf, package, body.rule or conf.rule, {}, purpose=return_id)
        tracking, service, shop_address = p["tracking_number"], p["service"] or "", dict(conf.from_address)
    with ctx.write() as s:
        r = _find_return(s, return_id)
        o = s.get(FulfillmentOrder, r.order_id)
        assert o is not None
        if r.label_id is None:  # a request at the same time may have made it meanwhile
            if tracking is None:
                tracking = carrier.create_shipment(ctx, package).tracking_number
            label_id = str(uuid.uuid5(_LABEL_NS, f"{ctx.tenant_id}/{tracking}"))
            s.add(ShippingLabel(id=label_id, order_id=o.id, carrier=code, tracking_number=tracking,
                                title=f"RETURN {carrier.name.upper()} {service}".strip()[:60],
                                lines=_label_lines(shop, shop_address, o, r), created_at=ctx.now()))  # fmt: skip
            r.label_id, r.carrier, r.tracking_number, r.updated_at = label_id, code, tracking, ctx.now()
            s.flush()
        return _out(r, o.order_number)


@use_case(
    "fulfillment.returns.label.get",
    "GET /returns/{id}/label",
    tx="read",
    roles=ANYONE,
    record="fulfillment.return",
    summary="a return's label (PDF, 4x6)",
)
def get_return_label(ctx: Ctx, id: str) -> FileResult:
    with ctx.read() as s:
        r = _find_return(s, id)
        label = s.get(ShippingLabel, r.label_id) if r.label_id else None
        if label is None:
            raise NotFound(f"return {r.rma_number} has no label yet (POST its label)", {"rma_number": r.rma_number})
        title, lines, tracking = label.title, list(label.lines), label.tracking_number
    return FileResult(labels.label_pdf(title, lines, tracking), "application/pdf", f"return-label-{tracking}.pdf")

"""The Inventory event types beyond the spec's (``stock.low``, ``stock.adjusted``, ``transfer.completed``)."""

from services.core.events import register_event_type

M = "inventory"

for _name, _desc in [
    ("transfer.shipped", "a transfer left its source location and is in transit"),
    ("transfer.cancelled", "a transfer was cancelled (an in-transit one returned its stock to the source)"),
    ("stock.shipped", "a fulfillment shipment took its lines out of the shipping location"),
    ("stock.recovered", "available stock is back at or above an alert's threshold: the alert resolved itself"),
    ("stock.returned", "a returned unit came back into stock (resellable) or into quarantine (damaged)"),
    ("stock.consumed", "a completed production run's parts left its location (bill of materials)"),
    ("stock.produced", "a completed production run's good units came into its location"),
    ("stock.reserved", "an order's lines were held at the shipping location (what could not be held is backordered)"),
    ("lot.received", "units of a lot (code, expiry) came into a location"),
    ("lot.moved", "units of a lot moved between locations"),
    ("lot.counted", "a lot was counted at a location and its quantity corrected"),
    ("lot.shipped", "units of a lot left for an order (a recall finds them by its reference)"),
    ("reorder.proposed", "a reorder run proposed draft purchase orders for items below their minimum"),
    ("purchase_order.sent", "a purchase order went to its supplier"),
    ("purchase_order.receipt", "scanned lines of a purchase order came into its location (partial or whole)"),
    ("purchase_order.received", "every line of a purchase order has come in"),
    ("purchase_order.cancelled", "a purchase order was cancelled"),
    ("stock.released", "an order's held units are available again (the order was cancelled or its lines changed)"),
]:
    register_event_type(_name, M, _desc)

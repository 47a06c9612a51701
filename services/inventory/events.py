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
    ("stock.released", "an order's held units are available again (the order was cancelled or its lines changed)"),
]:
    register_event_type(_name, M, _desc)

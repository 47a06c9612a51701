"""The pick walk of a batch or of one order (``GET /orders/{id}/pick-list``): the orders' lines poured
into the bins that hold each item, sorted by bin; a lot-tracked item's lines propose lots first to expire.

For each item, the bins are the shipping location (tenant setting ``fulfillment.ship_from_location``,
else the first internal location: where Inventory reserves and ships from) and its internal
sub-locations, read from Inventory's stock rows as data. The orders' rest (quantity - picked) fills
the bins in bin-code order, the orders in slot order; what no bin holds gets a line with no location.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models import Tenant
from local_db.models.fulfillment import FulfillmentLine, FulfillmentOrder
from local_db.models.inventory import InventoryItem, InventoryLocation, InventoryStock
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.roles import ANYONE
from services.fulfillment.orders import _find
from services.fulfillment.schemas import PickListOut, PickStop
from services.inventory.lots import fefo


def _ship_from_tree(s: Session, tenant_id: str) -> dict[str, str]:
    """The locations units are picked from: the shipping location and every location under it
    (id -> code). The shipping location is the tenant setting ``fulfillment.ship_from_location``
    (id or code), else the first internal location: the one Inventory reserves and ships from."""
    locs = s.execute(
        select(
            InventoryLocation.id,
            InventoryLocation.code,
            InventoryLocation.parent_id,
            InventoryLocation.kind,
            InventoryLocation.created_at,
        )
    ).all()
    if not locs:
        return {}
    t = s.get(Tenant, tenant_id)
    wanted = (((t.settings if t else None) or {}).get("fulfillment") or {}).get("ship_from_location")
    root = next((r for r in locs if wanted and wanted in (r[0], r[1])), None)
    if root is None:
        internal = sorted((r for r in locs if r[3] == "internal"), key=lambda r: (r[4], r[1]))
        if not internal:
            return {}
        root = internal[0]
    children: dict[str | None, list[Any]] = defaultdict(list)
    for r in locs:
        children[r[2]].append(r)
    tree, todo = {}, [root]
    while todo:
        r = todo.pop()
        if r[0] in tree:
            continue
        tree[r[0]] = r[1]
        todo.extend(c for c in children.get(r[0], ()) if c[3] == "internal")
    return tree


@use_case(
    "fulfillment.orders.pick_list",
    "GET /orders/{id}/pick-list",
    tx="read",
    roles=ANYONE,
    record="fulfillment.order",
    summary="a single order's pick list: what is left to pick, by bin, lots first to expire first",
)
def pick_list(ctx: Ctx, id: str, session: Session = SESSION) -> PickListOut:
    o = _find(session, id)
    stops = pick_walk(session, ctx, [o])
    fields = ("location_id", "location_code", "sku", "barcode", "name", "quantity", "lots")
    return PickListOut(
        order_id=o.id, order_number=o.order_number, lines=[PickStop(**{k: st[k] for k in fields}) for st in stops]
    )


def pick_walk(s: Session, ctx: Ctx, chosen: list[FulfillmentOrder]) -> list[dict[str, Any]]:
    """The pick lines of the batch, in walk order, each with the orders its units go to."""
    slots = {o.id: i + 1 for i, o in enumerate(chosen)}
    numbers = {o.id: o.order_number for o in chosen}
    # Columns, not entities: the walk only reads them (a batch of 50 orders loads ~100 lines).
    lines = s.execute(
        select(
            FulfillmentLine.id,
            FulfillmentLine.order_id,
            FulfillmentLine.position,
            FulfillmentLine.sku,
            FulfillmentLine.barcode,
            FulfillmentLine.name,
            FulfillmentLine.quantity,
            FulfillmentLine.picked_quantity,
        )
        .where(FulfillmentLine.order_id.in_(list(slots)), FulfillmentLine.picked_quantity < FulfillmentLine.quantity)
        .order_by(FulfillmentLine.position)
    ).all()
    needs: dict[str, list[Any]] = defaultdict(list)
    for ln in sorted(lines, key=lambda ln: (slots[ln.order_id], ln.position)):
        needs[ln.sku].append(ln)
    tree = _ship_from_tree(s, ctx.tenant_id)
    bins: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    if tree and needs:
        for item, where, qty in s.execute(
            select(InventoryStock.sku, InventoryStock.location_id, InventoryStock.quantity).where(
                InventoryStock.sku.in_(list(needs)), InventoryStock.quantity > 0
            )
        ).all():
            if where in tree:
                bins[item].append((tree[where], where, int(qty)))
    # An order taken by hand carries no barcodes: the scanner reads the item's, as Inventory knows it.
    barcodes = {ln.sku: ln.barcode for ws in needs.values() for ln in ws if ln.barcode}
    missing = [sku for sku in needs if sku not in barcodes]
    if missing:
        barcodes.update(
            (sku, code)
            for sku, code in s.execute(
                select(InventoryItem.sku, InventoryItem.barcode).where(
                    InventoryItem.sku.in_(missing), InventoryItem.barcode.is_not(None)
                )
            ).all()
        )
    out: list[dict[str, Any]] = []
    for sku, wanted in needs.items():
        # Each order line's rest, in slot order, poured into the bins in code order.
        rest = {ln.id: ln.quantity - ln.picked_quantity for ln in wanted}
        stops: list[tuple[str | None, str | None, int]] = list(sorted(bins.get(sku, ())))
        stops.append((None, None, sum(rest.values())))  # whatever no bin holds
        for code, loc, room in stops:
            allocations: list[dict[str, Any]] = []
            for ln in wanted:
                if room <= 0:
                    break
                take = min(room, rest[ln.id])
                if take <= 0:
                    continue
                allocations.append(
                    {
                        "order_id": ln.order_id,
                        "order_number": numbers[ln.order_id],
                        "line_id": ln.id,
                        "slot": slots[ln.order_id],
                        "quantity": take,
                        "picked": 0,
                        "serials": [],
                    }
                )
                rest[ln.id] -= take
                room -= take
            if allocations:
                first = wanted[0]
                out.append(
                    {
                        "location_id": loc,
                        "location_code": code,
                        "sku": sku,
                        "barcode": barcodes.get(sku),
                        "name": first.name,
                        "quantity": sum(a["quantity"] for a in allocations),
                        "allocations": allocations,
                    }
                )
    _propose_lots(s, out, tree)
    # One walk: bins in code order (no bin last), then SKU.
    out.sort(key=lambda ln: (ln["location_code"] is None, ln["location_code"] or "", ln["sku"]))
    return out


def _propose_lots(s: Session, out: list[dict[str, Any]], tree: dict[str, str]) -> None:
    """Each pick line of a lot-tracked item proposes the lots its bin holds, first to expire first
    (Inventory's FEFO order, ``lots.fefo``): ``lots: [{code, expires_on, quantity}]``; a line whose bin
    holds too few in lots proposes what there is (the scan is checked against the bin)."""
    wanted = {ln["sku"] for ln in out if ln["location_id"]}
    tracked = (
        list(
            s.execute(
                select(InventoryItem.sku).where(InventoryItem.sku.in_(wanted), InventoryItem.tracking == "lot")
            ).scalars()
        )
        if wanted
        else []
    )
    at: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    if tracked and tree:
        for sku, lot, loc_id, _code, have in fefo(s, tracked, list(tree)):
            expires = lot.expires_on.isoformat() if lot.expires_on else None
            at[(sku, loc_id)].append({"code": lot.code, "expires_on": expires, "quantity": have})
    for ln in out:
        left, proposed = ln["quantity"], []
        for offer in at.get((ln["sku"], ln["location_id"]), ()):
            if left <= 0:
                break
            take = min(left, offer["quantity"])
            proposed.append({**offer, "quantity": take})
            left -= take
        ln["lots"] = proposed

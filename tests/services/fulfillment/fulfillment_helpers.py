"""Shared by the fulfillment tests: call contexts for demo users, demo orders, a Code 128 reader."""

from __future__ import annotations

import io
import re
from typing import Any

from PIL import Image
from sqlalchemy import select

from local_db.models import Tenant
from local_db.models.fulfillment import FulfillmentOrder
from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id


def ctx_for(rt: Runtime, email: str, slug: str = "demo") -> Ctx:
    with rt.db.reading(None) as s:
        t = s.execute(select(Tenant).where(Tenant.slug == slug)).scalar_one()
        tenant = auth.tenant_info(t)
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant))


def order_in(rt: Runtime, status: str, slug: str = "demo", skip: int = 0) -> FulfillmentOrder:
    with rt.db.reading(None) as s:
        rows = s.execute(
            select(FulfillmentOrder)
            .join(Tenant, Tenant.id == FulfillmentOrder.tenant_id)
            .where(Tenant.slug == slug, FulfillmentOrder.status == status)
            .order_by(FulfillmentOrder.order_number)
        ).scalars()
        return list(rows)[skip]


def pick_all(ctx: Ctx, order_id: str) -> Any:
    detail = execute(ctx, "fulfillment.orders.get", id=order_id)
    items = [{"code": ln.barcode, "quantity": ln.quantity - ln.picked_quantity} for ln in detail.lines]
    return execute(ctx, "fulfillment.orders.operate", id=order_id, body={"operation": "pick", "items": items})


def op(ctx: Ctx, order_id: str, **body: Any) -> Any:
    return execute(ctx, "fulfillment.orders.operate", id=order_id, body=body)


# --- reading the label back --------------------------------------------------------


def pdf_to_image(pdf: bytes) -> Image.Image:
    """The page raster of a Pillow-written PDF (one DCT image XObject)."""
    m = re.search(rb"/Filter /DCTDecode.*?stream\r?\n", pdf, re.S)
    assert m, "no image in the PDF"
    end = pdf.index(b"endstream", m.end())
    return Image.open(io.BytesIO(pdf[m.end() : end])).convert("L")


def decode_code128(img: Image.Image) -> str | None:
    """Read a Code 128 symbol from the first image row that yields one (bars by run-length)."""
    import barcode.charsets.code128 as c128

    patterns = {p: i for i, p in enumerate(c128.CODES)}
    # Leave out the label's frame so only the symbol's bars are measured.
    img = img.crop((20, 20, img.width - 20, img.height - 20))
    w, h = img.size
    px = img.load()
    for y in range(h - 1, 0, -3):
        row = [px[x, y] < 128 for x in range(w)]
        if sum(row) < 40:
            continue
        runs: list[int] = []
        start = row.index(True)
        last = w - 1 - row[::-1].index(True)
        cur, n = row[start], 0
        for v in row[start : last + 1]:
            if v == cur:
                n += 1
            else:
                runs.append(n)
                cur, n = v, 1
        runs.append(n)
        if (len(runs) - 7) % 6 or len(runs) < 19:
            continue
        values = []
        ok = True
        for i in range(0, len(runs) - 7, 6):
            group = runs[i : i + 6]
            unit = sum(group) / 11
            bits = "".join(("1" if k % 2 == 0 else "0") * max(1, round(r / unit)) for k, r in enumerate(group))
            if bits not in patterns:
                ok = False
                break
            values.append(patterns[bits])
        if not ok or len(values) < 3 or values[0] not in (103, 104, 105):
            continue
        check = (values[0] + sum(v * (i + 1) for i, v in enumerate(values[1:-1]))) % 103
        if check != values[-1]:
            continue
        return _text(values[:-1])
    return None


def _text(values: list[int]) -> str:
    mode = {103: "A", 104: "B", 105: "C"}[values[0]]
    out = []
    for v in values[1:]:
        if mode == "C":
            if v < 100:
                out.append(f"{v:02d}")
                continue
        elif v < 96:
            out.append(chr(v + 32) if mode == "B" or v < 64 else chr(v - 64))
            continue
        mode = {99: "C", 100: "B", 101: "A"}.get(v, mode)
    return "".join(out)

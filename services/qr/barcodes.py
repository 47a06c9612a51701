"""Qr: barcodes."""

from __future__ import annotations

from sqlalchemy import delete, select

from local_db import new_id
from local_db.models.qr import QrBarcode
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.files import FileResult
from services.core.pagination import ListQuery, Page, contains, paginate
from services.qr import checkdigits, render
from services.qr.schemas import (
    BarcodeCreate,
    BarcodeOut,
    BarcodeQuery,
)

BARCODE = record_kind("qr.barcode", get="qr.barcodes.get", label="value")


def _barcode_out(b: QrBarcode) -> BarcodeOut:
    return BarcodeOut(id=b.id, type=b.type, value=b.value, created_at=b.created_at)


@use_case("qr.barcodes.list", "GET /barcode", tx="read", record=BARCODE, summary="list barcodes")
def list_barcodes(ctx: Ctx, query: ListQuery) -> Page[BarcodeOut]:
    with ctx.read() as s:
        stmt = select(QrBarcode)
        if query.search and query.search.strip():
            stmt = stmt.where(contains(QrBarcode.value, query.search.strip()))
        page = paginate(s, stmt, query, columns={"created_at": QrBarcode.created_at})
        return Page([_barcode_out(b) for b in page.items], page.total, page.spec)


@use_case(
    "qr.barcodes.create",
    "POST /barcode",
    tx="write",
    status=201,
    says="New barcode",
    record=BARCODE,
    summary="create a barcode (check digit computed or verified)",
)
def create_barcode(ctx: Ctx, body: BarcodeCreate) -> BarcodeOut:
    value = checkdigits.normalise(body.type, body.value)
    with ctx.write() as s:
        b = QrBarcode(id=new_id(), tenant_id=ctx.tenant_id, type=body.type, value=value, created_at=ctx.now())
        s.add(b)
        s.flush()
        return _barcode_out(b)


@use_case(
    "qr.barcodes.get",
    "GET /barcode/{id}",
    tx="read",
    record=BARCODE,
    summary="a barcode: the record, or its image with ?format=png|svg",
)
def get_barcode(ctx: Ctx, id: str, query: BarcodeQuery) -> BarcodeOut | FileResult:
    with ctx.read() as s:
        b = s.get(QrBarcode, id)
        if b is None:
            raise NotFound("barcode not found", {"id": id})
        out = _barcode_out(b)
    if query.format is None:
        return out
    content = render.barcode_image(out.type, out.value, query.format)
    return FileResult(content, render.MEDIA[query.format], f"{out.type}-{out.value}.{query.format}")


@use_case(
    "qr.barcodes.delete",
    "DELETE /barcode/{id}",
    tx="write",
    says="Barcode deleted",
    record=BARCODE,
    summary="delete a barcode",
)
def delete_barcode(ctx: Ctx, id: str) -> None:
    with ctx.write() as s:
        b = s.get(QrBarcode, id)
        if b is None:
            raise NotFound("barcode not found", {"id": id})
        s.execute(delete(QrBarcode).where(QrBarcode.id == id))

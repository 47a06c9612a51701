"""Qr: v1."""

from __future__ import annotations

from services.core.commands import use_case
from services.core.context import Ctx
from services.core.pagination import Page
from services.core.roles import ANYONE
from services.qr.codes import CODE, code_analytics, create_code, delete_code, get_code, list_codes, update_code
from services.qr.schemas import (
    AnalyticsOut,
    AnalyticsQuery,
    QrCreate,
    QrOut,
    QrQuery,
    QrUpdate,
)


@use_case("qr.v1.list", "GET /v1/qr", tx="read", roles=ANYONE, keys_only=True, record=CODE, summary="v1: list QR codes")
def v1_list(ctx: Ctx, query: QrQuery) -> Page[QrOut]:
    return list_codes(ctx, query)


@use_case(
    "qr.v1.create",
    "POST /v1/qr",
    tx="write",
    roles=ANYONE,
    keys_only=True,
    status=201,
    says="New QR code",
    record=CODE,
    summary="v1: create a QR code",
)
def v1_create(ctx: Ctx, body: QrCreate) -> QrOut:
    return create_code(ctx, body)


@use_case(
    "qr.v1.get", "GET /v1/qr/{id}", tx="read", roles=ANYONE, keys_only=True, record=CODE, summary="v1: QR code details"
)
def v1_get(ctx: Ctx, id: str) -> QrOut:
    return get_code(ctx, id)


@use_case(
    "qr.v1.update",
    "PATCH /v1/qr/{id}",
    tx="write",
    roles=ANYONE,
    keys_only=True,
    says="QR code changed",
    record=CODE,
    summary="v1: update a QR code",
)
def v1_update(ctx: Ctx, id: str, body: QrUpdate) -> QrOut:
    return update_code(ctx, id, body)


@use_case(
    "qr.v1.delete",
    "DELETE /v1/qr/{id}",
    tx="write",
    roles=ANYONE,
    keys_only=True,
    says="QR code deleted",
    record=CODE,
    summary="v1: delete a QR code",
)
def v1_delete(ctx: Ctx, id: str) -> None:
    delete_code(ctx, id)


@use_case(
    "qr.v1.analytics",
    "GET /v1/qr/{id}/analytics",
    tx="read",
    roles=ANYONE,
    keys_only=True,
    record=CODE,
    summary="v1: analytics of one QR code",
)
def v1_analytics(ctx: Ctx, id: str, query: AnalyticsQuery) -> AnalyticsOut:
    return code_analytics(ctx, id, query)

"""Tax's two connections (DECISIONS, Tax): the e-commerce shop (Catalog's product sync uses it too)
and the tax service, both kept by the platform's connections (services/core/connections.py): a real
check call before the key is kept sealed, never shown."""

from __future__ import annotations

from services.core.commands import use_case
from services.core.connections import (
    EcommerceConnectionIn,
    EcommerceConnectionOut,
    connection_status,
    remove_connection,
    save_connection_as,
)
from services.core.context import Ctx
from services.core.roles import MANAGERS

NAME = "tax-service"


@use_case(
    "tax.connections.ecommerce.get",
    "GET /connections/ecommerce",
    tx="read",
    roles=MANAGERS,
    summary="the tenant's e-commerce connection (never its key)",
)
def get_connection(ctx: Ctx) -> EcommerceConnectionOut:
    return connection_status(ctx, "ecommerce")


@use_case(
    "tax.connections.ecommerce.save",
    "POST /connections/ecommerce",
    tx="write",
    roles=MANAGERS,
    says="E-commerce connection",
    summary="save the e-commerce connection after the shop accepted the key",
    needs=("the shop",),
)
def save_connection(ctx: Ctx, body: EcommerceConnectionIn) -> EcommerceConnectionOut:
    return save_connection_as(ctx, "ecommerce", body)


@use_case(
    "tax.connections.ecommerce.delete",
    "DELETE /connections/ecommerce",
    tx="write",
    roles=MANAGERS,
    says="E-commerce connection removed",
    summary="remove the e-commerce connection",
)
def delete_connection(ctx: Ctx) -> EcommerceConnectionOut:
    return remove_connection(ctx, "ecommerce")


@use_case(
    "tax.connections.tax_service.get",
    "GET /connections/tax-service",
    tx="read",
    roles=MANAGERS,
    summary="the tenant's tax-service connection (never its key)",
)
def get_tax_service(ctx: Ctx) -> EcommerceConnectionOut:
    return connection_status(ctx, NAME)


@use_case(
    "tax.connections.tax_service.save",
    "POST /connections/tax-service",
    tx="write",
    needs=("the tax service",),
    roles=MANAGERS,
    says="Tax-service connection",
    summary="save the tax-service connection after the service accepted the key (GET {base_url}/account)",
)
def save_tax_service(ctx: Ctx, body: EcommerceConnectionIn) -> EcommerceConnectionOut:
    return save_connection_as(ctx, NAME, body)


@use_case(
    "tax.connections.tax_service.delete",
    "DELETE /connections/tax-service",
    tx="write",
    roles=MANAGERS,
    says="Tax-service connection removed",
    summary="remove the tax-service connection",
)
def delete_tax_service(ctx: Ctx) -> EcommerceConnectionOut:
    return remove_connection(ctx, NAME)

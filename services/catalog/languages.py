"""Catalog: languages."""

from __future__ import annotations

from typing import Any

from sqlalchemy import exists, func, or_, select
from sqlalchemy.orm import Session

from local_db.models import Tenant
from local_db.models.catalog import (
    CatalogProduct,
    CatalogTranslation,
)
from services.catalog.schemas import (
    LanguageOut,
    LanguagesIn,
    LanguagesOut,
)
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.roles import MANAGERS, STAFF

DEFAULT_LANGUAGES = ["en"]


def tenant_languages(s: Session, tenant_id: str) -> list[str]:
    """The enabled languages (tenant setting ``catalog.languages``), the default first."""
    t = s.get(Tenant, tenant_id)
    langs = (((t.settings or {}) if t else {}).get("catalog") or {}).get("languages")
    return list(langs) if langs else list(DEFAULT_LANGUAGES)


def _incomplete_in(language: str, default: str) -> Any:
    """SQL: the product is not complete in ``language`` (a required field empty, or no current
    translation)."""
    p = CatalogProduct
    if language == default:
        return or_(p.name == "", p.description == "")
    t = CatalogTranslation
    current = exists().where(
        t.product_id == p.id, t.language == language, t.name != "", t.description != "", t.source_hash == p.text_hash
    )
    return or_(p.name == "", p.description == "", ~current)


@use_case(
    "catalog.languages.list",
    "GET /languages",
    tx="read",
    roles=STAFF,
    summary="the tenant's enabled languages, the default first, with how many products are complete",
)
def list_languages(ctx: Ctx) -> LanguagesOut:
    with ctx.read() as s:
        langs = tenant_languages(s, ctx.tenant_id)
        live = CatalogProduct.status != "archived"
        total = s.execute(select(func.count()).select_from(CatalogProduct).where(live)).scalar_one()
        out = []
        for lang in langs:
            incomplete = s.execute(
                select(func.count()).select_from(CatalogProduct).where(live, _incomplete_in(lang, langs[0]))
            ).scalar_one()
            out.append(
                LanguageOut(
                    tag=lang,
                    default=lang == langs[0],
                    complete_products=int(total - incomplete),
                    total_products=int(total),
                )
            )
    return LanguagesOut(default=langs[0], languages=out)


@use_case(
    "catalog.languages.set",
    "PUT /languages",
    tx="write",
    roles=MANAGERS,
    says="Catalog languages",
    summary="set the enabled languages (BCP 47), the default first",
)
def set_languages(ctx: Ctx, body: LanguagesIn) -> LanguagesOut:
    with ctx.write() as s:
        t = s.get(Tenant, ctx.tenant_id)
        assert t is not None
        settings = dict(t.settings or {})
        settings["catalog"] = {**(settings.get("catalog") or {}), "languages": list(body.languages)}
        t.settings = settings  # a new dict: JSON columns track assignment only
        s.flush()
    return list_languages(ctx)

"""Catalog: the completeness of a product for each channel, as Akeneo counts it: the required
values filled, in every language of the channel, over all required values.

Required for a channel: the name and the description in each of its languages (a stale
translation counts as missing), and each attribute of the product's family whose ``required_in``
names the channel, filled with a value of its type. A channel with categories receives the
products of those categories and their subcategories; one without receives every product."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.catalog import CatalogChannel, CatalogFamily, CatalogProduct, CatalogTranslation
from services.catalog.categories import _category_rows, descendants
from services.catalog.families import families_by_id, filled
from services.catalog.languages import tenant_languages
from services.catalog.schemas import ChannelScore
from services.core.errors import ValidationFailed


@dataclass
class Scope:
    """What scoring needs, read once per request: the channels with their languages and categories,
    the families, the tenant's default language."""

    channels: list[tuple[CatalogChannel, list[str], set[str] | None]]
    families: dict[str, CatalogFamily]
    default: str


def scope(s: Session, tenant_id: str, only: str | None = None) -> Scope:
    langs = tenant_languages(s, tenant_id)
    stmt = select(CatalogChannel).order_by(CatalogChannel.code)
    if only is not None:
        stmt = stmt.where(CatalogChannel.code == only)
    channels = list(s.execute(stmt).scalars())
    cats = _category_rows(s) if any(c.category_ids for c in channels) else {}
    out = []
    for c in channels:
        # Languages no longer enabled are not asked for; none given: every enabled language.
        ch_langs = [x for x in (c.languages or langs) if x in langs] or [langs[0]]
        out.append((c, ch_langs, descendants(cats, list(c.category_ids)) if c.category_ids else None))
    return Scope(out, families_by_id(s) if channels else {}, langs[0])


def receives(cats: set[str] | None, product_categories: Iterable[str]) -> bool:
    return cats is None or bool(cats & set(product_categories or []))


def score(
    sc: Scope,
    p: CatalogProduct,
    translations: Iterable[CatalogTranslation],
) -> dict[str, ChannelScore]:
    """The product's completeness for each channel that receives it."""
    if not sc.channels:
        return {}
    by_lang = {t.language: t for t in translations}
    family = sc.families.get(p.family_id) if p.family_id else None
    attrs: dict[str, Any] = p.attributes or {}
    out: dict[str, ChannelScore] = {}
    for ch, langs, cats in sc.channels:
        if not receives(cats, p.category_ids):
            continue
        missing: list[str] = []
        total = 0
        for lang in langs:
            if lang == sc.default:
                texts = (p.name, p.description)
            else:
                t = by_lang.get(lang)
                current = t is not None and t.source_hash == p.text_hash
                texts = (t.name, t.description) if current and t is not None else ("", "")
            for field, value in zip(("name", "description"), texts, strict=True):
                total += 1
                if not value:
                    missing.append(f"{field}@{lang}")
        for a in (family.attributes or []) if family is not None else []:
            if ch.code in (a.get("required_in") or []):
                total += 1
                if not filled(a, attrs.get(a["code"])):
                    missing.append(f"attributes.{a['code']}")
        out[ch.code] = ChannelScore(completeness=(total - len(missing)) * 100 // total, missing=missing)
    return out


def channel_product_ids(s: Session, tenant_id: str, code: str, complete: bool | None) -> list[str]:
    """The ids of the products ``code`` receives (not archived), only the (in)complete ones when asked."""
    sc = scope(s, tenant_id, code)
    if not sc.channels:
        raise ValidationFailed(
            f"no channel {code}",
            {"fields": [{"field": "channel", "message": f"no channel {code}", "type": "not_found"}]},
        )
    _, _, cats = sc.channels[0]
    products = [
        p
        for p in s.execute(select(CatalogProduct).where(CatalogProduct.status != "archived")).scalars()
        if receives(cats, p.category_ids)
    ]
    if complete is None:
        return [p.id for p in products]
    trs: dict[str, list[CatalogTranslation]] = {}
    for t in s.execute(select(CatalogTranslation)).scalars():
        trs.setdefault(t.product_id, []).append(t)
    return [p.id for p in products if (score(sc, p, trs.get(p.id, []))[code].completeness == 100) == complete]

"""Requests and responses of Catalog: the one definition the HTTP door, the desktop and sync use."""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, Field, computed_field, field_validator, model_validator

from services.catalog.codes import canonical_language, check_gtin
from services.core.pagination import ListQuery
from services.core.schemas import FreeText, Strict

ProductStatus = Literal["draft", "active", "archived"]
MAX_VARIANTS = 2048  # Shopify's cap since 2024 (DOMAIN §7): more would fail silently at the shop
MAX_OPTIONS = 3

_SKU = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$")


def _check_sku(v: str) -> str:
    if not _SKU.match(v):
        raise ValueError("a SKU is 1-64 letters, digits and . _ / - (starting with a letter or digit)")
    return v


def _money(v: Any) -> Any:
    """A decimal string or a JSON number with at most two decimals (DECISIONS: money)."""
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, str | int | float):
        raise ValueError('a price is a decimal string such as "12.50"')
    try:
        d = Decimal(str(v))
    except InvalidOperation:
        raise ValueError('a price is a decimal string such as "12.50"') from None
    if not d.is_finite() or d < 0 or d.as_tuple().exponent < -2:  # type: ignore[operator]
        raise ValueError("a price is zero or more, with at most two decimals")
    if d >= Decimal("100000000"):
        raise ValueError("a price is below 100,000,000")
    return d.quantize(Decimal("0.01"))


Sku = Annotated[str, Field(min_length=1, max_length=64), AfterValidator(_check_sku)]
Gtin = Annotated[str, Field(min_length=1, max_length=14), AfterValidator(check_gtin)]
Language = Annotated[str, Field(min_length=1, max_length=35), AfterValidator(canonical_language)]
Money = Annotated[Decimal, BeforeValidator(_money)]
Scalar = str | int | float | bool | None


def _check_attributes(v: dict[str, Scalar]) -> dict[str, Scalar]:
    if len(v) > 100:
        raise ValueError("at most 100 attributes")
    for k, val in v.items():
        if not k or len(k) > 64:
            raise ValueError("attribute names are 1-64 characters")
        if isinstance(val, str) and len(val) > 1000:
            raise ValueError(f"attribute {k} is over 1000 characters")
    return v


Attributes = Annotated[dict[str, Scalar], AfterValidator(_check_attributes)]


class VariantIn(Strict):
    sku: Sku
    gtin: Gtin | None = None
    options: dict[str, Annotated[str, Field(min_length=1, max_length=100)]] = Field(default_factory=dict)
    price: Money | None = None

    @field_validator("options")
    @classmethod
    def _options(cls, v: dict[str, str]) -> dict[str, str]:
        if len(v) > MAX_OPTIONS:
            raise ValueError(f"at most {MAX_OPTIONS} options per variant (size, colour, material...)")
        if any(not k or len(k) > 50 for k in v):
            raise ValueError("option names are 1-50 characters")
        return v


def _check_variants(v: list[VariantIn] | None) -> list[VariantIn] | None:
    if v is None:
        return v
    skus = [x.sku for x in v]
    if len(set(skus)) != len(skus):
        raise ValueError("each variant has its own SKU")
    combos = [tuple(sorted(x.options.items())) for x in v]
    if len(set(combos)) != len(combos):
        raise ValueError("two variants have the same options")
    names = {frozenset(x.options) for x in v}
    if len(names) > 1:
        raise ValueError("every variant of a product names the same options")
    return v


Variants = Annotated[list[VariantIn], Field(max_length=MAX_VARIANTS), AfterValidator(_check_variants)]
CategoryIds = Annotated[list[Annotated[str, Field(max_length=36)]], Field(max_length=50)]


class ProductIn(Strict):
    """Create a product (the text is in the tenant's default language)."""

    sku: Sku
    gtin: Gtin | None = None
    name: str = Field(min_length=1, max_length=200)
    description: FreeText = Field(default="", max_length=20_000)
    category_ids: CategoryIds = Field(default_factory=list)
    attributes: Attributes = Field(default_factory=dict)
    variants: Variants = Field(default_factory=list)
    status: ProductStatus = "draft"
    family_id: str | None = Field(default=None, max_length=36)


class ProductUpdate(Strict):
    """Change a product: only the fields given change; ``variants`` replaces the list; ``status`` moves
    the product as its state table allows."""

    sku: Sku | None = None
    gtin: Gtin | None = None
    name: str | None = Field(default=None, min_length=1, max_length=200)
    description: FreeText | None = Field(default=None, max_length=20_000)
    category_ids: CategoryIds | None = None
    attributes: Attributes | None = None
    variants: Variants | None = None
    status: ProductStatus | None = None
    family_id: str | None = Field(default=None, max_length=36)  # null removes the family


class VariantOut(BaseModel):
    id: str
    sku: str
    gtin: str | None
    options: dict[str, str]
    price: str | None


class TranslationOut(BaseModel):
    name: str
    description: FreeText
    stale: bool  # made before the default-language text last changed
    updated_at: datetime


class ChannelScore(BaseModel):
    completeness: int  # percent of what the channel requires that is filled
    missing: list[str]  # name@de, description@fr, attributes.voltage


class ProductOut(BaseModel):
    id: str
    sku: str
    gtin: str | None
    name: str
    description: FreeText
    category_ids: list[str]
    attributes: dict[str, Any]
    variants: list[VariantOut]
    status: ProductStatus
    translations: dict[str, TranslationOut]
    # Percent of the required fields (name, description) filled per enabled language.
    completeness: dict[str, int]
    family_id: str | None = None
    # Per channel that receives the product: what it requires, filled (percent) and missing.
    channels: dict[str, ChannelScore] = Field(default_factory=dict)
    has_image: bool
    created_at: datetime
    updated_at: datetime


class ProductQuery(ListQuery):
    status: ProductStatus | None = None
    category_id: str | None = Field(default=None, max_length=36)
    # Products not complete in this language (a translator's work list).
    incomplete: str | None = Field(default=None, max_length=35)
    family_id: str | None = Field(default=None, max_length=36)
    # Products this channel receives; with ``complete``, only those (not) complete for it.
    channel: str | None = Field(default=None, max_length=64)
    complete: bool | None = None


class TranslationIn(Strict):
    language: Language
    name: str = Field(min_length=1, max_length=200)
    description: FreeText = Field(default="", max_length=20_000)


class CategoryIn(Strict):
    name: str = Field(min_length=1, max_length=200)
    parent_id: str | None = Field(default=None, max_length=36)
    position: int = Field(default=0, ge=0, le=1_000_000)


class CategoryUpdate(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    parent_id: str | None = Field(default=None, max_length=36)
    position: int | None = Field(default=None, ge=0, le=1_000_000)


class CategoryOut(BaseModel):
    id: str
    name: str
    parent_id: str | None
    position: int
    path: list[str]  # names from the root down to this category
    depth: int
    product_count: int
    created_at: datetime
    updated_at: datetime


class CategoryQuery(ListQuery):
    parent_id: str | None = Field(default=None, max_length=36)


class LanguageOut(BaseModel):
    tag: str
    default: bool
    # Products complete in this language, out of the products that are not archived.
    complete_products: int
    total_products: int


class LanguagesOut(BaseModel):
    default: str
    languages: list[LanguageOut]


class LanguagesIn(Strict):
    """The enabled languages, the default first."""

    languages: list[Language] = Field(min_length=1, max_length=50)

    @model_validator(mode="after")
    def _unique(self) -> LanguagesIn:
        if len({t.lower() for t in self.languages}) != len(self.languages):
            raise ValueError("each language once")
        return self


class CatalogGenerate(Strict):
    title: str = Field(min_length=1, max_length=200)
    language: Language
    category_ids: CategoryIds | None = None


class CatalogOut(BaseModel):
    id: str
    title: str
    language: str
    category_ids: list[str]
    job_id: str
    status: str  # queued, running, succeeded, failed, cancelled (the job's)
    progress: int
    message: FreeText | None
    pages: int | None
    size: int | None
    product_count: int | None
    download_url: str | None
    created_at: datetime
    finished_at: datetime | None


class CatalogQuery(ListQuery):
    language: str | None = Field(default=None, max_length=35)


class SyncRequest(Strict):
    # Push every active product again, even those unchanged since the last push.
    full: bool = False


class SyncOut(BaseModel):
    job_id: str | None
    status: str  # queued, running, succeeded, failed, cancelled; "never" before the first sync
    progress: int
    message: FreeText | None
    pushed: int
    unchanged: int
    failed: int
    retries: int
    total: int
    errors: list[dict[str, Any]]
    created_at: datetime | None
    finished_at: datetime | None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def id(self) -> str | None:
        """The job's id, as every job record carries it (DECISIONS); ``job_id`` repeats it."""
        return self.job_id


# --- families, channels, completeness, history, mass edit ----------------------------------------

AttributeType = Literal["text", "number", "choice", "boolean", "date", "media"]
Code = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[a-z0-9][a-z0-9_]*$")]


class AttributeDef(Strict):
    """One typed attribute of a family; ``required_in`` names the channels that need it filled."""

    code: Code
    label: str = Field(default="", max_length=200)
    type: AttributeType
    unit: str | None = Field(default=None, min_length=1, max_length=20)  # a number's (g, mm, W, ml)
    choices: list[Code] | None = Field(default=None, min_length=1, max_length=200)  # a choice's codes
    required_in: list[Code] = Field(default_factory=list, max_length=50)

    @model_validator(mode="after")
    def _shape(self) -> AttributeDef:
        if self.type == "number" and not self.unit:
            raise ValueError(f"attribute {self.code}: a number has a unit (g, mm, W; 'pcs' for a count)")
        if self.type != "number" and self.unit is not None:
            raise ValueError(f"attribute {self.code}: only a number has a unit")
        if self.type == "choice" and not self.choices:
            raise ValueError(f"attribute {self.code}: a choice lists its choices")
        if self.type != "choice" and self.choices is not None:
            raise ValueError(f"attribute {self.code}: only a choice has choices")
        if self.choices is not None and len(set(self.choices)) != len(self.choices):
            raise ValueError(f"attribute {self.code}: each choice once")
        return self


def _unique_codes(v: list[AttributeDef] | None) -> list[AttributeDef] | None:
    if v is not None and len({a.code for a in v}) != len(v):
        raise ValueError("each attribute code once in a family")
    return v


AttributeDefs = Annotated[list[AttributeDef], Field(max_length=100), AfterValidator(_unique_codes)]


class FamilyIn(Strict):
    code: Code
    name: str = Field(min_length=1, max_length=200)
    attributes: AttributeDefs = Field(default_factory=list)


class FamilyUpdate(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    attributes: AttributeDefs | None = None


class FamilyOut(BaseModel):
    id: str
    code: str
    name: str
    attributes: list[AttributeDef]
    product_count: int
    created_at: datetime
    updated_at: datetime


class ChannelIn(Strict):
    code: Code
    name: str = Field(min_length=1, max_length=200)
    languages: list[Language] = Field(default_factory=list, max_length=50)  # empty: every enabled one
    category_ids: CategoryIds = Field(default_factory=list)  # and their subcategories; empty: all


class ChannelUpdate(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    languages: list[Language] | None = Field(default=None, max_length=50)
    category_ids: CategoryIds | None = None


class ChannelOut(BaseModel):
    id: str
    code: str
    name: str
    languages: list[str]
    category_ids: list[str]
    products: int  # the products the channel receives (not archived)
    complete_products: int  # of those, complete for it
    created_at: datetime
    updated_at: datetime


class VersionOut(BaseModel):
    id: str
    number: int
    source: str
    author: str
    at: datetime
    restored_from: int | None


class VersionDetail(VersionOut):
    snapshot: dict[str, Any]
    changed: list[str]  # the fields that differ from the previous version


class MassEdit(Strict):
    """One change applied to a selection: all or nothing."""

    product_ids: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(min_length=1, max_length=1000)
    status: ProductStatus | None = None
    family_id: str | None = Field(default=None, max_length=64)  # the family's id or code
    remove_family: bool = False
    set_attributes: Attributes | None = None
    remove_attributes: list[Annotated[str, Field(min_length=1, max_length=64)]] | None = Field(
        default=None, max_length=100
    )
    add_category_ids: CategoryIds | None = None
    remove_category_ids: CategoryIds | None = None


class MassEditResult(BaseModel):
    product_id: str
    sku: str
    ok: bool
    message: str | None


class MassEditOut(BaseModel):
    applied: bool
    results: list[MassEditResult]

"""Requests and responses of SDS: the one definition the HTTP door, the desktop and sync use.

Percents are numbers in percent (DECISIONS: 0.01 means 0.01 %); they are read as exact decimals
(a JSON number's text, not its float) and answered as numbers.
"""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, Field, field_validator, model_validator

from services.core.pagination import ListQuery
from services.core.schemas import FreeText, NonBlankText, Strict
from services.sds.chem import allergen_key, cas_problem

ProductType = Literal["leave_on", "rinse_off", "food"]
FormulaStatus = Literal["draft", "development", "evaluation", "production", "reformulation", "failed"]
TOTAL_TOLERANCE = Decimal("0.01")  # lines add up to 100 within this (DECISIONS)
_HAZARD = re.compile(r"^(EU)?H\d{3}[A-Za-z]{0,2}$")


def _percent(v: Any) -> Any:
    if isinstance(v, bool) or not isinstance(v, str | int | float | Decimal):
        raise ValueError("a percent is a number from 0 to 100")
    try:
        d = Decimal(str(v).strip())
    except InvalidOperation:
        raise ValueError("a percent is a number from 0 to 100") from None
    if not d.is_finite() or d <= 0 or d > 100:
        raise ValueError("a percent is more than 0 and at most 100")
    if d.as_tuple().exponent < -8:  # type: ignore[operator]
        raise ValueError("a percent has at most 8 decimals")
    return d


def _cas(v: str | None) -> str | None:
    if v is None or v == "":
        return None
    why = cas_problem(v)
    if why:
        raise ValueError(why)
    return v.strip()


def _hazards(v: list[str]) -> list[str]:
    out = []
    for h in v:
        h = h.strip().upper()
        if not _HAZARD.match(h):
            raise ValueError(f"{h!r} is not a GHS hazard statement code (H315, H317, EUH208...)")
        out.append(h)
    return list(dict.fromkeys(out))


Percent = Annotated[Decimal, BeforeValidator(_percent)]
Cas = Annotated[str | None, AfterValidator(_cas)]


class IngredientAllergen(Strict):
    allergen: str = Field(min_length=1, max_length=100)
    percent: Percent

    @field_validator("allergen")
    @classmethod
    def _known(cls, v: str) -> str:
        key = allergen_key(v)
        if key is None:
            raise ValueError(f"{v!r} is not an allergen of GET allergens (give its CAS number or name)")
        return key


class IngredientIn(Strict):
    name: str = Field(min_length=1, max_length=200)
    inci: str | None = Field(default=None, max_length=200)
    cas: Cas = None
    hazards: Annotated[list[Annotated[str, Field(max_length=12)]], AfterValidator(_hazards)] = Field(
        default_factory=list, max_length=50
    )
    allergens: list[IngredientAllergen] = Field(default_factory=list, max_length=100)


class IngredientAllergenOut(BaseModel):
    allergen: str
    name: str
    percent: float


class IngredientOut(BaseModel):
    id: str
    name: str
    inci: str | None
    cas: str | None
    hazards: list[str]
    allergens: list[IngredientAllergenOut]
    pubchem_cid: int | None
    molecular_formula: str | None
    created_at: datetime


class IngredientQuery(ListQuery):
    cas: str | None = Field(default=None, max_length=12)


class SearchQuery(BaseModel):
    q: str = Field(min_length=1, max_length=200)
    limit: int = Field(default=10, ge=1, le=50)


class SearchHit(BaseModel):
    source: Literal["library", "pubchem"]
    id: str | None
    name: str
    inci: str | None
    cas: str | None
    pubchem_cid: int | None
    molecular_formula: str | None
    molecular_weight: str | None


class SearchOut(BaseModel):
    query: str
    results: list[SearchHit]
    pubchem: Literal["used", "cached", "disabled", "offline", "error", "not_needed"]
    pubchem_error: str | None = None


class LineIn(Strict):
    ingredient_id: str | None = Field(default=None, max_length=36)
    formula_id: str | None = Field(default=None, max_length=36)
    percent: Percent

    @model_validator(mode="after")
    def _one(self) -> LineIn:
        if (self.ingredient_id is None) == (self.formula_id is None):
            raise ValueError("a line names an ingredient_id or a formula_id (one of them)")
        return self


def _total(lines: list[LineIn]) -> list[LineIn]:
    total = sum((line.percent for line in lines), Decimal(0))
    if abs(total - 100) > TOTAL_TOLERANCE:
        raise ValueError(f"the lines add up to {total.normalize():f} %, not 100 (within 0.01)")
    return lines


Lines = Annotated[list[LineIn], Field(min_length=1, max_length=500), AfterValidator(_total)]


class FormulaIn(Strict):
    code: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]*$")
    name: str = Field(min_length=1, max_length=200)
    product_type: ProductType = "leave_on"
    lines: Lines


class FormulaUpdate(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    product_type: ProductType | None = None
    lines: Lines | None = None


class FormulaStatusIn(Strict):
    action: Literal["start", "evaluate", "release", "rework", "reformulate", "fail"]


class FormulaLineOut(BaseModel):
    ingredient_id: str | None
    formula_id: str | None
    name: str
    cas: str | None
    percent: float


class FormulaOut(BaseModel):
    id: str
    code: str
    name: str
    status: FormulaStatus
    revision: int
    product_type: ProductType
    lines: list[FormulaLineOut]
    allowed_actions: list[str]
    created_at: datetime
    updated_at: datetime


class FormulaQuery(ListQuery):
    status: FormulaStatus | None = None
    product_type: ProductType | None = None


class ImportError_(BaseModel):
    row: int
    error: str


class ImportOut(BaseModel):
    imported: int
    errors: list[ImportError_]


class AllergenOut(BaseModel):
    key: str
    name: str
    inci: str | None
    cas: str | None
    kind: Literal["fragrance", "food"]
    synonyms: list[str]
    banned: bool


class AllergenList(BaseModel):
    fragrance: list[AllergenOut]
    food: list[AllergenOut]
    thresholds: dict[str, str]
    sources: list[str]


class DetectIn(Strict):
    text: NonBlankText = Field(min_length=1, max_length=200_000)


class DetectMatch(BaseModel):
    text: FreeText
    start: int
    end: int


class DetectHit(BaseModel):
    allergen: str
    name: str
    cas: str | None
    kind: str
    banned: bool
    matches: list[DetectMatch]


class DetectOut(BaseModel):
    found: list[DetectHit]


class AllergenResult(BaseModel):
    allergen: str
    name: str
    cas: str | None
    percent: float
    threshold: float
    declarable: bool
    banned: bool


class AllergenResultOut(BaseModel):
    formula_id: str
    revision: int
    product_type: ProductType
    results: list[AllergenResult]
    computed_at: datetime


class DocumentQuery(BaseModel):
    format: Literal["pdf"] | None = None


class DocumentOut(BaseModel):
    id: str
    formula_id: str
    kind: Literal["certificate", "sds"]
    formula_revision: int
    version: int
    status: Literal["succeeded"]
    compliant: bool
    pages: int | None
    size: int | None
    stale: bool  # made for an older revision of the formula
    download_url: str
    created_at: datetime

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
from services.sds.labels import known_codes

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
        h = next((k for k in known_codes() if k.upper() == h), h)  # H360Fd keeps its small letter
        if h not in known_codes():
            raise ValueError(f"{h} is not a hazard statement of CLP Annex III (GET phrases lists them)")
        out.append(h)
    return list(dict.fromkeys(out))


def _ate(v: Any) -> Any:
    if isinstance(v, bool) or not isinstance(v, str | int | float | Decimal):
        raise ValueError("an acute toxicity estimate is a positive number (mg/kg, ppmV or mg/l)")
    try:
        d = Decimal(str(v).strip())
    except InvalidOperation:
        raise ValueError("an acute toxicity estimate is a positive number") from None
    if not d.is_finite() or d <= 0 or d > 1_000_000:
        raise ValueError("an acute toxicity estimate is more than 0 and at most 1,000,000")
    return d


Percent = Annotated[Decimal, BeforeValidator(_percent)]
Ate = Annotated[Decimal, BeforeValidator(_ate)]
Route = Literal["oral", "dermal", "inhalation"]
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
    # CLP classification data (services/sds/classify.py; checked together in the use case).
    categories: dict[Annotated[str, Field(max_length=12)], Annotated[str, Field(max_length=3)]] = Field(
        default_factory=dict, max_length=50
    )
    ate: dict[Route, Ate] = Field(default_factory=dict)
    unknown_acute: list[Route] = Field(default_factory=list, max_length=3)
    m_acute: int = Field(default=1, ge=1, le=1_000_000)
    m_chronic: int = Field(default=1, ge=1, le=1_000_000)
    specific_limits: dict[Annotated[str, Field(max_length=12)], Percent] = Field(default_factory=dict, max_length=50)


class IngredientPatch(Strict):
    """PATCH: only the fields given change (the same checks as a whole ingredient)."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    inci: str | None = Field(default=None, max_length=200)
    cas: Cas = None
    hazards: Annotated[list[Annotated[str, Field(max_length=12)]], AfterValidator(_hazards)] | None = Field(
        default=None, max_length=50
    )
    allergens: list[IngredientAllergen] | None = Field(default=None, max_length=100)
    categories: dict[Annotated[str, Field(max_length=12)], Annotated[str, Field(max_length=3)]] | None = Field(
        default=None, max_length=50
    )
    ate: dict[Route, Ate] | None = None
    unknown_acute: list[Route] | None = Field(default=None, max_length=3)
    m_acute: int | None = Field(default=None, ge=1, le=1_000_000)
    m_chronic: int | None = Field(default=None, ge=1, le=1_000_000)
    specific_limits: dict[Annotated[str, Field(max_length=12)], Percent] | None = Field(default=None, max_length=50)


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
    categories: dict[str, str]
    ate: dict[str, float]
    unknown_acute: list[str]
    m_acute: int
    m_chronic: int
    specific_limits: dict[str, float]
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


Celsius = Annotated[Decimal, Field(ge=-273, le=1000)]


class FormulaProperties(Strict):
    """The mixture's own measured data the classification needs (flammable liquids by flash point
    and initial boiling point, the inhalation form for the acute toxicity bands)."""

    physical_state: Literal["liquid", "solid", "gas"] = "liquid"
    inhalation_form: Literal["gas", "vapour", "dust_mist"] = "vapour"
    flash_point_c: Celsius | None = None
    boiling_point_c: Celsius | None = None


class FormulaIn(Strict):
    code: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]*$")
    name: str = Field(min_length=1, max_length=200)
    product_type: ProductType = "leave_on"
    lines: Lines
    properties: FormulaProperties | None = None


class FormulaUpdate(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    product_type: ProductType | None = None
    lines: Lines | None = None
    properties: FormulaProperties | None = None


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
    properties: dict[str, Any]
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


# --- classification ---------------------------------------------------------------------------------


class ComponentIn(Strict):
    """One substance of an ad-hoc mixture (POST classify); ``percent`` is checked by the method so
    that a missing one gets the classification's own message."""

    name: str = Field(min_length=1, max_length=200)
    percent: Percent | None = None
    hazards: Annotated[list[Annotated[str, Field(max_length=12)]], AfterValidator(_hazards)] = Field(
        default_factory=list, max_length=50
    )
    categories: dict[Annotated[str, Field(max_length=12)], Annotated[str, Field(max_length=3)]] = Field(
        default_factory=dict, max_length=50
    )
    ate: dict[Route, Ate] = Field(default_factory=dict)
    unknown_acute: list[Route] = Field(default_factory=list, max_length=3)
    m_acute: int = Field(default=1, ge=1, le=1_000_000)
    m_chronic: int = Field(default=1, ge=1, le=1_000_000)
    specific_limits: dict[Annotated[str, Field(max_length=12)], Percent] = Field(default_factory=dict, max_length=50)


class ClassifyIn(Strict):
    components: list[ComponentIn] = Field(min_length=1, max_length=1000)
    properties: FormulaProperties = Field(default_factory=FormulaProperties)


class Texts(BaseModel):
    code: str
    en: str
    de: str


class HazardOut(BaseModel):
    hazard_class: str
    category: str
    route: str | None
    h: str
    reason: str


class PictogramOut(BaseModel):
    code: str
    en: str
    de: str
    image_url: str


class TransportOut(BaseModel):
    un_number: str | None
    proper_shipping_name: str
    transport_class: str | None
    packing_group: str | None
    environmental_hazard: bool
    note: str


class ClassificationOut(BaseModel):
    formula_id: str | None
    revision: int | None
    regulation: str
    hazards: list[HazardOut]
    pictograms: list[PictogramOut]
    signal_word: Texts | None
    h_statements: list[Texts]
    supplemental: list[Texts]
    p_statements: list[Texts]
    p_label: list[str]
    ate: dict[str, float]
    euh208: list[str]
    not_assessed: list[str]
    notes: list[str]
    transport: TransportOut


class PhrasesOut(BaseModel):
    h: list[Texts]
    p: list[Texts]
    pictograms: list[Texts]
    signal_words: list[Texts]
    sources: list[str]


class WhereUsedItem(BaseModel):
    formula_id: str
    code: str
    name: str
    status: str
    percent: float  # its share of the finished product, through every level
    direct: bool  # a line of this formula names it (else through sub-formulas)


class WhereUsedOut(BaseModel):
    id: str
    formulas: list[WhereUsedItem]


class CompareQuery(Strict):
    a: int = Field(ge=1)
    b: int = Field(ge=1)


class CompareOut(BaseModel):
    formula_id: str
    a: int
    b: int
    a_revision: int
    b_revision: int
    hazards_added: list[str]
    hazards_removed: list[str]
    pictograms_added: list[str]
    pictograms_removed: list[str]
    signal_word: dict[str, str | None]
    h_added: list[str]
    h_removed: list[str]
    p_added: list[str]
    p_removed: list[str]
    composition: list[dict[str, Any]]  # [{ingredient, a, b}] where the percent differs


class SupplierIn(Strict):
    """The supplier block of section 1 (1.3, 1.4): the tenant's own details."""

    name: str | None = Field(default=None, max_length=200)
    address: str = Field(min_length=1, max_length=500)
    phone: str = Field(min_length=3, max_length=40, pattern=r"^[+0-9 ()/.-]+$")
    email: str = Field(min_length=3, max_length=320, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
    emergency_phone: str = Field(min_length=3, max_length=40, pattern=r"^[+0-9 ()/.-]+$")
    emergency_hours: str = Field(default="24 h", max_length=100)


class SupplierOut(BaseModel):
    name: str
    address: str | None
    phone: str | None
    email: str | None
    emergency_phone: str | None
    emergency_hours: str | None

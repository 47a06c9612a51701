"""The chemistry SDS needs, kept apart from the database: CAS check digits, the bundled EU
allergen lists and limits (services/sds/data/, with their sources), allergen detection in text,
and the allergen percent of a formula through every level of sub-formulas (DOMAIN §2)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
HUNDRED = Decimal(100)
_CAS = re.compile(r"^(\d{2,7})-(\d{2})-(\d)$")


def cas_problem(value: str) -> str | None:
    """Why ``value`` is not a CAS Registry Number (2-7 digits, 2 digits, a check digit equal to the
    sum of each digit times its position from the right, mod 10), or None."""
    m = _CAS.match(value.strip())
    if not m:
        return "a CAS number reads like 7732-18-5 (2-7 digits, 2 digits, 1 check digit)"
    digits = (m.group(1) + m.group(2))[::-1]
    check = sum(int(d) * (i + 1) for i, d in enumerate(digits)) % 10
    if check != int(m.group(3)):
        return f"the CAS check digit of {value} should be {check}"
    return None


@dataclass(frozen=True)
class Allergen:
    key: str  # the CAS number, or the name where it has none (DECISIONS, SDS)
    name: str
    inci: str | None
    cas: str | None
    kind: str  # fragrance | food
    synonyms: tuple[str, ...]
    banned: bool


@cache
def allergens() -> dict[str, Allergen]:
    raw = json.loads((DATA / "allergens.json").read_text())
    out: dict[str, Allergen] = {}
    for a in raw["fragrance"]:
        out[a["cas"]] = Allergen(
            a["cas"], a["name"], a["inci"], a["cas"], "fragrance", tuple(a["synonyms"]), a["banned"]
        )
    for a in raw["food"]:
        key = a["cas"] or a["name"]
        out[key] = Allergen(key, a["name"], None, a["cas"], "food", tuple(a["synonyms"]), False)
    return out


@cache
def allergen_file() -> dict[str, Any]:
    return dict(json.loads((DATA / "allergens.json").read_text()))


@cache
def limits() -> dict[str, Any]:
    return dict(json.loads((DATA / "limits.json").read_text()))


@cache
def sds_sections() -> list[dict[str, Any]]:
    return list(json.loads((DATA / "sds_sections.json").read_text())["sections"])


@cache
def _names() -> dict[str, str]:
    """Every way to name an allergen (name, INCI, CAS, synonyms), lower case -> key."""
    out: dict[str, str] = {}
    for a in allergens().values():
        for n in (a.name, a.inci, a.cas, *a.synonyms):
            if n:
                out.setdefault(n.lower(), a.key)
    return out


def allergen_key(ref: str) -> str | None:
    """The allergen a person or a file names (CAS, name, INCI or synonym), or None."""
    return _names().get(ref.strip().lower())


@cache
def _pattern() -> re.Pattern[str]:
    # Longest first, so "cinnamyl alcohol" wins over "cinnamal" and "benzyl benzoate" over nothing shorter.
    names = sorted(_names(), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w-])", re.IGNORECASE)


def detect(text: str) -> list[dict[str, Any]]:
    """Allergens named in a text (an INCI list, a label, a supplier's declaration): one entry per
    allergen with every place it was found."""
    found: dict[str, dict[str, Any]] = {}
    for m in _pattern().finditer(text):
        key = _names()[m.group(1).lower()]
        a = allergens()[key]
        hit = found.setdefault(
            key,
            {"allergen": key, "name": a.name, "cas": a.cas, "kind": a.kind, "banned": a.banned, "matches": []},
        )
        hit["matches"].append({"text": m.group(1), "start": m.start(), "end": m.end()})
    return sorted(found.values(), key=lambda h: h["matches"][0]["start"])


def threshold(a: Allergen, product_type: str) -> Decimal:
    """The percent above which the allergen is declared (DOMAIN §2; food: any presence, sulphites
    above 10 mg/kg = 0.001 %)."""
    t = allergen_file()["thresholds"]
    if a.kind == "food":
        return Decimal(t["food_sulphites"] if a.cas == "7446-09-5" else t["food"])
    return Decimal(t["leave_on" if product_type == "leave_on" else "rinse_off"])


# --- a formula's content through sub-formulas ------------------------------------------------------


@dataclass(frozen=True)
class Line:
    percent: Decimal
    ingredient_id: str | None = None
    formula_id: str | None = None


class CycleError(ValueError):
    pass


def flatten(
    formula_id: str,
    lines_of: Callable[[str], Iterable[Line]],
    share: Decimal = HUNDRED,
    path: tuple[str, ...] = (),
) -> dict[str, Decimal]:
    """Each ingredient's percent in the finished product, through every level of sub-formulas:
    a line's share is its percent of its parent's share (exact decimals, no rounding)."""
    if formula_id in path:
        raise CycleError(f"formula {formula_id} contains itself")
    out: dict[str, Decimal] = {}
    for line in lines_of(formula_id):
        part = share * line.percent / HUNDRED
        if line.ingredient_id:
            out[line.ingredient_id] = out.get(line.ingredient_id, Decimal(0)) + part
        elif line.formula_id:
            for k, v in flatten(line.formula_id, lines_of, part, (*path, formula_id)).items():
                out[k] = out.get(k, Decimal(0)) + v
    return out


def allergen_content(
    ingredients: dict[str, Decimal], declared: Callable[[str], dict[str, Decimal]]
) -> dict[str, Decimal]:
    """Each allergen's percent in the product: Σ ingredient % × allergen % in that ingredient / 100
    (DOMAIN §2). ``declared(ingredient_id)`` is the ingredient's own declaration (allergen -> %)."""
    out: dict[str, Decimal] = {}
    for ing, pct in ingredients.items():
        for key, inner in declared(ing).items():
            out[key] = out.get(key, Decimal(0)) + pct * inner / HUNDRED
    return out

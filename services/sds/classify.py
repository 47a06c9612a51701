"""Mixture classification by Regulation (EC) No 1272/2008 (CLP) Annex I, the EU form of the UN GHS.

Pure functions, no database: a mixture is its components (each with its concentration in the
mixture, its hazard statements, and where known its acute toxicity estimates, M-factors and
specific concentration limits) and the mixture's own flash point and boiling point. The methods:

* acute toxicity (3.1.3.6): the additivity formula 100 / ATEmix = Σ Ci / ATEi per route, with the
  converted point estimates of Table 3.1.2 for a component known only by its category, relevant
  components from the cut-offs of Table 1.1, and the 3.1.3.6.2.3 correction when more than 10 %
  of the mixture is of unknown acute toxicity;
* skin corrosion/irritation (Table 3.2.3) and serious eye damage/irritation (Table 3.3.3): the
  summation method, Σ Ci / limit_i >= 1, with generic limits or a component's specific ones
  (3.2.3.3.5, 3.3.3.3.5);
* skin and respiratory sensitisation (Table 3.4.5): any one sensitiser at or above its limit,
  and EUH208 for one at or above the elicitation limit of Table 3.4.6 in a mixture not classified;
* aquatic acute and chronic (4.1.3.5.5): summation of classified components with M-factors;
* flammable liquids (Table 2.6.1): by the mixture's flash point and initial boiling point.

Other hazard classes a component carries are listed as not assessed (never silently dropped).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

HUNDRED = Decimal(100)
Route = Literal["oral", "dermal", "inhalation"]
InhalationForm = Literal["gas", "vapour", "dust_mist"]
ROUTES: tuple[Route, ...] = ("oral", "dermal", "inhalation")


class ClassificationError(ValueError):
    """An input the methods cannot use (no concentration, an unknown H code...): a 400 at the door."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


# H code -> (hazard class, route, the categories it stands for). A code that stands for two
# categories (H300: Acute Tox. 1 or 2) needs the category or an ATE to be computed with.
ACUTE_CODES: dict[str, tuple[Route, tuple[str, ...]]] = {
    "H300": ("oral", ("1", "2")),
    "H301": ("oral", ("3",)),
    "H302": ("oral", ("4",)),
    "H310": ("dermal", ("1", "2")),
    "H311": ("dermal", ("3",)),
    "H312": ("dermal", ("4",)),
    "H330": ("inhalation", ("1", "2")),
    "H331": ("inhalation", ("3",)),
    "H332": ("inhalation", ("4",)),
}
# Codes whose category carries an optional sub-category (Skin Corr. 1A/1B/1C, Sens. 1A/1B).
SUBCATEGORIES: dict[str, tuple[str, ...]] = {
    "H314": ("1", "1A", "1B", "1C"),
    "H317": ("1", "1A", "1B"),
    "H334": ("1", "1A", "1B"),
}
AMBIGUOUS = {code: cats for code, (_, cats) in ACUTE_CODES.items() if len(cats) > 1}
# Codes this module computes the mixture's classification for.
ASSESSED = (
    set(ACUTE_CODES)
    | set(SUBCATEGORIES)
    | {"H224", "H225", "H226", "H315", "H318", "H319", "H400", "H410", "H411", "H412", "H413"}
)

# Table 3.1.2: converted acute toxicity point estimates by route and category.
POINT_ESTIMATE: dict[str, dict[str, Decimal]] = {
    "oral": {"1": Decimal("0.5"), "2": Decimal(5), "3": Decimal(100), "4": Decimal(500)},
    "dermal": {"1": Decimal(5), "2": Decimal(50), "3": Decimal(300), "4": Decimal(1100)},
    "gas": {"1": Decimal(10), "2": Decimal(100), "3": Decimal(700), "4": Decimal(4500)},
    "vapour": {"1": Decimal("0.05"), "2": Decimal("0.5"), "3": Decimal(3), "4": Decimal(11)},
    "dust_mist": {"1": Decimal("0.005"), "2": Decimal("0.05"), "3": Decimal("0.5"), "4": Decimal("1.5")},
}
# Table 3.1.1: the upper bound (inclusive) of each category's ATE range.
ATE_BANDS: dict[str, tuple[Decimal, Decimal, Decimal, Decimal]] = {
    "oral": (Decimal(5), Decimal(50), Decimal(300), Decimal(2000)),
    "dermal": (Decimal(50), Decimal(200), Decimal(1000), Decimal(2000)),
    "gas": (Decimal(100), Decimal(500), Decimal(2500), Decimal(20000)),
    "vapour": (Decimal("0.5"), Decimal(2), Decimal(10), Decimal(20)),
    "dust_mist": (Decimal("0.05"), Decimal("0.5"), Decimal(1), Decimal(5)),
}
ACUTE_H = {"oral": ("H300", "H300", "H301", "H302"), "dermal": ("H310", "H310", "H311", "H312")}
ACUTE_H["inhalation"] = ("H330", "H330", "H331", "H332")
UNITS = {"oral": "mg/kg bw", "dermal": "mg/kg bw", "gas": "ppmV", "vapour": "mg/l", "dust_mist": "mg/l"}

# Generic limits of the summation methods (Tables 3.2.3, 3.3.3): a component counts Ci / limit.
GENERIC_LIMIT: dict[tuple[str, str], Decimal] = {
    # (what the component is, what the mixture may become) -> generic concentration limit, %
    ("H314", "H314"): Decimal(5),
    ("H314", "H315"): Decimal(1),  # 10 x Skin Corr. 1 + Skin Irrit. 2 >= 10 %
    ("H315", "H315"): Decimal(10),
    ("H314", "H318"): Decimal(3),
    ("H318", "H318"): Decimal(3),
    ("H314", "H319"): Decimal(1),  # 10 x (Skin Corr. 1 + Eye Dam. 1) + Eye Irrit. 2 >= 10 %
    ("H318", "H319"): Decimal(1),
    ("H319", "H319"): Decimal(10),
}
GENERIC_CUTOFF = Decimal(1)  # Table 1.1: skin, eye, acute tox. cat. 4, chronic 2-4
HIGH_CUTOFF = Decimal("0.1")  # Table 1.1: acute tox. cat. 1-3; aquatic acute 1 / chronic 1 (/ M)
# Table 3.4.5 (classification) and 3.4.6 (elicitation, EUH208) by sub-category; liquids and solids.
SENS_LIMIT = {"1": Decimal(1), "1A": Decimal("0.1"), "1B": Decimal(1)}
SENS_ELICIT = {"1": Decimal("0.1"), "1A": Decimal("0.01"), "1B": Decimal("0.1")}
SENS_LIMIT_GAS = {"1": Decimal("0.2"), "1A": Decimal("0.1"), "1B": Decimal("0.2")}  # resp. sens., gases
AQUATIC_LIMIT = Decimal(25)


@dataclass(frozen=True)
class Component:
    """One substance of the mixture (a sub-formula is flattened into its substances first)."""

    name: str
    percent: Decimal | None
    hazards: tuple[str, ...] = ()
    categories: Mapping[str, str] = field(default_factory=dict)  # H code -> category (H300 -> "2")
    ate: Mapping[str, Decimal] = field(default_factory=dict)  # route -> acute toxicity estimate
    unknown_acute: tuple[str, ...] = ()  # routes with no usable acute toxicity information
    m_acute: int = 1
    m_chronic: int = 1
    limits: Mapping[str, Decimal] = field(default_factory=dict)  # H code -> specific conc. limit, %


@dataclass(frozen=True)
class Mixture:
    components: tuple[Component, ...]
    physical_state: Literal["liquid", "solid", "gas"] = "liquid"
    inhalation_form: InhalationForm = "vapour"
    flash_point_c: Decimal | None = None
    boiling_point_c: Decimal | None = None


@dataclass(frozen=True)
class Hazard:
    hazard_class: str  # "Acute Tox." ...
    category: str  # "4", "1B", "Chronic 2"
    h: str
    reason: str  # the rule and the figures that gave it
    route: str | None = None


@dataclass
class Result:
    hazards: list[Hazard]
    ate: dict[str, Decimal]  # the mixture's ATE per route where one was computed
    euh208: list[str]  # sensitisers to name in "Contains ... May produce an allergic reaction."
    unknown_acute: dict[str, Decimal]  # route -> % of unknown acute toxicity (label statement)
    not_assessed: list[str]  # H codes present that this module does not compute
    notes: list[str]


def _fmt(d: Decimal) -> str:
    q = d.quantize(Decimal("0.0001")).normalize()
    return f"{q:f}"


def check(mixture: Mixture, known_codes: Iterable[str]) -> None:
    """Refuse what cannot be classified: a component without a concentration, an unknown H code,
    an acute toxicity code that names two categories without the category or an ATE, a bad
    M-factor, limit or estimate."""
    known = set(known_codes)
    if not mixture.components:
        raise ClassificationError("a mixture has at least one component", "components")
    for n, c in enumerate(mixture.components):
        where = f"components.{n}"
        if c.percent is None:
            raise ClassificationError(f"{c.name}: a component needs its concentration in the mixture", where)
        if not c.percent.is_finite() or c.percent <= 0 or c.percent > HUNDRED:
            raise ClassificationError(f"{c.name}: a concentration is more than 0 and at most 100 %", where)
        for h in c.hazards:
            if h not in known:
                raise ClassificationError(f"{c.name}: {h} is not a hazard statement of CLP Annex III", where)
        for h, cat in c.categories.items():
            allowed = AMBIGUOUS.get(h) or SUBCATEGORIES.get(h) or (ACUTE_CODES[h][1] if h in ACUTE_CODES else ())
            if h not in c.hazards or cat not in allowed:
                raise ClassificationError(
                    f"{c.name}: category {cat!r} for {h} (the code must be among the hazards; "
                    f"categories: {', '.join(allowed) or 'none'})",
                    where,
                )
        for h in c.hazards:
            if h in AMBIGUOUS and h not in c.categories and ACUTE_CODES[h][0] not in c.ate:
                raise ClassificationError(
                    f"{c.name}: {h} is Acute Tox. 1 or 2; give its category or the {ACUTE_CODES[h][0]} ATE", where
                )
        for route, value in c.ate.items():
            if route not in ROUTES or not value.is_finite() or value <= 0:
                raise ClassificationError(f"{c.name}: an ATE is a positive number per route (oral, dermal, inhalation)")
        for h, value in c.limits.items():
            if h not in c.hazards or not value.is_finite() or value <= 0 or value > HUNDRED:
                raise ClassificationError(f"{c.name}: a specific limit for {h} needs {h} and a percent in (0, 100]")
        if c.m_acute not in _M_FACTORS or c.m_chronic not in _M_FACTORS:
            raise ClassificationError(f"{c.name}: an M-factor is 1, 10, 100, 1000... (4.1.3.5.5.5)", where)
    total = sum((c.percent or Decimal(0) for c in mixture.components), Decimal(0))
    if total > HUNDRED + Decimal("0.01"):
        raise ClassificationError(f"the components add up to {_fmt(total)} %, more than 100", "components")


_M_FACTORS = {10**k for k in range(0, 7)}


def _category_of(c: Component, h: str) -> str:
    if h in c.categories:
        return c.categories[h]
    if h in ACUTE_CODES:
        return ACUTE_CODES[h][1][0]
    return "1"


def _component_ate(c: Component, route: Route, form: InhalationForm) -> tuple[Decimal, str] | None:
    """The component's ATE for the route: its own, else the point estimate of its category."""
    if route in c.ate:
        return c.ate[route], "ATE"
    for h in c.hazards:
        if h in ACUTE_CODES and ACUTE_CODES[h][0] == route:
            key = form if route == "inhalation" else route
            return POINT_ESTIMATE[key][_category_of(c, h)], f"{h} Acute Tox. {_category_of(c, h)}"
    return None


def _acute(m: Mixture, out: Result) -> None:
    for route in ROUTES:
        key = m.inhalation_form if route == "inhalation" else route
        bands = ATE_BANDS[key]
        terms: list[tuple[Decimal, Decimal]] = []
        unknown = Decimal(0)
        for c in m.components:
            pct = c.percent or Decimal(0)
            if route in c.unknown_acute:
                if pct >= GENERIC_CUTOFF:
                    unknown += pct
                continue
            ate = _component_ate(c, route, m.inhalation_form)
            if ate is None:
                continue
            value = ate[0]
            cutoff = HIGH_CUTOFF if value <= bands[2] else GENERIC_CUTOFF  # Table 1.1: cat. 1-3 at 0.1 %
            if value > bands[3] or pct < cutoff:
                continue  # above the cat. 4 range, or below its cut-off: not a relevant component
            terms.append((pct, value))
        if unknown > 0:
            out.unknown_acute[route] = unknown
        if not terms:
            continue
        numerator = HUNDRED - unknown if unknown > 10 else HUNDRED  # 3.1.3.6.2.3
        # Rounded to a millionth so a mixture exactly at a band's bound is not pushed over it by the
        # division's last digit (100 / (4 / 1737) is 43,425, not 43,424.999...).
        ate_mix = (numerator / sum((p / v for p, v in terms), Decimal(0))).quantize(Decimal("0.000001"))
        out.ate[route] = ate_mix
        for n, bound in enumerate(bands):
            if ate_mix <= bound:
                cat = str(n + 1)
                formula = " + ".join(f"{_fmt(p)}/{_fmt(v)}" for p, v in terms)
                out.hazards.append(
                    Hazard(
                        "Acute Tox.",
                        cat,
                        ACUTE_H[route][n],
                        f"ATEmix {route} = {_fmt(numerator)} / ({formula}) = {_fmt(ate_mix)} {UNITS[key]} "
                        f"<= {_fmt(bound)} (3.1.3.6, Table 3.1.1)",
                        route,
                    )
                )
                break


def _limit(c: Component, has: str, becomes: str) -> Decimal:
    """The concentration at which ``c`` (carrying ``has``) alone makes the mixture ``becomes``: its
    specific limit for ``becomes`` (or for ``has`` when it is the same effect), else the generic."""
    if becomes in c.limits:
        return c.limits[becomes]
    return GENERIC_LIMIT[(has, becomes)]


def _summation(m: Mixture, becomes: str, contributors: tuple[str, ...]) -> tuple[Decimal, list[str]]:
    """Σ Ci / limit_i over the components carrying one of ``contributors`` (each counted once, by
    the most severe it carries), with the generic cut-off of 1 % or a lower specific limit."""
    total, parts = Decimal(0), []
    for c in m.components:
        pct = c.percent or Decimal(0)
        has = next((h for h in contributors if h in c.hazards), None)
        if has is None:
            continue
        limit = _limit(c, has, becomes)
        if pct < min(GENERIC_CUTOFF, limit):
            continue
        total += pct / limit
        parts.append(f"{c.name} {_fmt(pct)}/{_fmt(limit)}")
    return total, parts


def _skin_eye(m: Mixture, out: Result) -> None:
    corr, parts = _summation(m, "H314", ("H314",))
    if corr >= 1:
        sub = _corr_subcategory(m)
        out.hazards.append(
            Hazard("Skin Corr.", sub, "H314", f"Σ Skin Corr. 1 Ci/limit = {' + '.join(parts)} >= 1 (Table 3.2.3)")
        )
    else:
        irr, parts = _summation(m, "H315", ("H314", "H315"))
        if irr >= 1:
            out.hazards.append(
                Hazard("Skin Irrit.", "2", "H315", f"Σ Ci/limit = {' + '.join(parts)} >= 1 (Table 3.2.3)")
            )
    dam, parts = _summation(m, "H318", ("H314", "H318"))
    if corr >= 1 or dam >= 1:
        why = "the mixture is Skin Corr. 1 (3.3.3.3.1)" if corr >= 1 else f"Σ Ci/limit = {' + '.join(parts)} >= 1"
        out.hazards.append(Hazard("Eye Dam.", "1", "H318", f"{why} (Table 3.3.3)"))
    else:
        irr, parts = _summation(m, "H319", ("H314", "H318", "H319"))
        if irr >= 1:
            out.hazards.append(
                Hazard("Eye Irrit.", "2", "H319", f"Σ Ci/limit = {' + '.join(parts)} >= 1 (Table 3.3.3)")
            )


def _corr_subcategory(m: Mixture) -> str:
    """1A when the 1A components alone reach the limit, 1B with the 1B ones added, 1C with the 1C
    ones; "1" when a component gives no sub-category."""
    cats = {_category_of(c, "H314") for c in m.components if "H314" in c.hazards}
    if "1" in cats:
        return "1"
    order = ("1A", "1B", "1C")
    for n, sub in enumerate(order):
        allowed = set(order[: n + 1])
        total = sum(
            (
                (c.percent or Decimal(0)) / _limit(c, "H314", "H314")
                for c in m.components
                if "H314" in c.hazards and _category_of(c, "H314") in allowed
            ),
            Decimal(0),
        )
        if total >= 1:
            return sub
    return "1"


def _sensitisation(m: Mixture, out: Result) -> None:
    for h, name in (("H334", "Resp. Sens."), ("H317", "Skin Sens.")):
        table = SENS_LIMIT_GAS if (h == "H334" and m.physical_state == "gas") else SENS_LIMIT
        triggers, elicit = [], []
        for c in m.components:
            if h not in c.hazards:
                continue
            pct = c.percent or Decimal(0)
            sub = _category_of(c, h)
            limit = c.limits.get(h, table[sub])
            elicitation = c.limits[h] / 10 if h in c.limits else SENS_ELICIT[sub]
            if pct >= limit:
                triggers.append(f"{c.name} {_fmt(pct)} % >= {_fmt(limit)} % ({name} {sub})")
            elif pct >= elicitation:
                elicit.append(c.name)
        if triggers:
            out.hazards.append(Hazard(name, "1", h, "; ".join(triggers) + " (Table 3.4.5)"))
        else:
            out.euh208.extend(n for n in elicit if n not in out.euh208)  # Annex II 2.8, Table 3.4.6


_CHRONIC = {"H410": 1, "H411": 2, "H412": 3, "H413": 4}


def _aquatic(m: Mixture, out: Result) -> None:
    acute = Decimal(0)
    chronic = {1: Decimal(0), 2: Decimal(0), 3: Decimal(0), 4: Decimal(0)}
    m1 = Decimal(0)  # Σ M x Chronic 1
    for c in m.components:
        pct = c.percent or Decimal(0)
        if "H400" in c.hazards and pct >= HIGH_CUTOFF / c.m_acute:
            acute += pct * c.m_acute
        for h, cat in _CHRONIC.items():
            if h not in c.hazards:
                continue
            if cat == 1:
                if pct >= HIGH_CUTOFF / c.m_chronic:
                    chronic[1] += pct
                    m1 += pct * c.m_chronic
            elif pct >= GENERIC_CUTOFF:
                chronic[cat] += pct
    if acute >= AQUATIC_LIMIT:
        out.hazards.append(
            Hazard("Aquatic Acute", "1", "H400", f"Σ Acute 1 x M = {_fmt(acute)} % >= 25 % (4.1.3.5.5.3)")
        )
    steps = (
        (m1, "Σ Chronic 1 x M"),
        (10 * m1 + chronic[2], "Σ (10 x M x Chronic 1) + Chronic 2"),
        (100 * m1 + 10 * chronic[2] + chronic[3], "Σ (100 x M x Chronic 1) + 10 x Chronic 2 + Chronic 3"),
        (chronic[1] + chronic[2] + chronic[3] + chronic[4], "Σ Chronic 1 + 2 + 3 + 4"),
    )
    for n, (value, rule) in enumerate(steps, 1):
        if value >= AQUATIC_LIMIT:
            out.hazards.append(
                Hazard(
                    "Aquatic Chronic",
                    str(n),
                    f"H41{n - 1}" if n > 1 else "H410",
                    f"{rule} = {_fmt(value)} % >= 25 % (4.1.3.5.5.4)",
                )
            )
            break


def _flammable(m: Mixture, out: Result) -> None:
    flammable = [c.name for c in m.components if {"H224", "H225", "H226"} & set(c.hazards)]
    if m.physical_state != "liquid":
        return
    fp, bp = m.flash_point_c, m.boiling_point_c
    if fp is None:
        if flammable:
            out.notes.append(
                "Flammable liquids not assessed: the mixture holds flammable components "
                f"({', '.join(flammable)}) and its flash point is not given (Table 2.6.1 needs it)."
            )
        return
    if fp < 23:
        if bp is not None and bp > 35:
            out.hazards.append(
                Hazard("Flam. Liq.", "2", "H225", f"flash point {_fmt(fp)} °C < 23, boiling point {_fmt(bp)} °C > 35")
            )
        else:
            why = f"boiling point {_fmt(bp)} °C <= 35" if bp is not None else "boiling point not given: the stricter"
            out.hazards.append(Hazard("Flam. Liq.", "1", "H224", f"flash point {_fmt(fp)} °C < 23, {why}"))
    elif fp <= 60:
        out.hazards.append(Hazard("Flam. Liq.", "3", "H226", f"flash point {_fmt(fp)} °C in 23-60 (Table 2.6.1)"))


def classify(mixture: Mixture, known_codes: Iterable[str]) -> Result:
    """The mixture's hazard classes and categories, each with the rule and figures that gave it."""
    check(mixture, known_codes)
    out = Result(hazards=[], ate={}, euh208=[], unknown_acute={}, not_assessed=[], notes=[])
    _flammable(mixture, out)
    _acute(mixture, out)
    _skin_eye(mixture, out)
    _sensitisation(mixture, out)
    _aquatic(mixture, out)
    present = {h for c in mixture.components for h in c.hazards}
    out.not_assessed = sorted(h for h in present - ASSESSED if not h.startswith("EUH"))
    if out.not_assessed:
        out.notes.append(
            "Components carry hazard classes this classification does not compute (classify by hand): "
            + ", ".join(out.not_assessed)
        )
    return out

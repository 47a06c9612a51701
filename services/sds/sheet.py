"""What each of the 16 sections of a formula's safety data sheet says, from the tenant (supplier
block), the formula (identity, measured properties) and its ingredients through every sub-formula,
and the mixture's CLP classification (section 2's label elements, first aid and fire fighting from
the hazard classes, transport). Text only; pdf.py lays it out. A subheading left without text says
"No data available" there, as Annex II asks of an empty one."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from services.sds import labels
from services.sds.classify import UNITS, Mixture, Result
from services.sds.pdf import Sheet

USE = {"leave_on": "Cosmetic product, leave-on", "rinse_off": "Cosmetic product, rinse-off", "food": "Food"}
HEALTH = ("Acute Tox.", "Skin Corr.", "Skin Irrit.", "Eye Dam.", "Eye Irrit.", "Skin Sens.", "Resp. Sens.")


@dataclass
class Made:
    """Everything a sheet is made from."""

    name: str
    code: str
    revision: int
    version: int
    product_type: str
    issued_at: datetime
    supplier: dict[str, Any]  # SupplierOut as a dict
    mixture: Mixture
    result: Result
    composition: list[dict[str, Any]]  # [{name, inci, cas, percent: Decimal, hazards, m_acute, m_chronic, limits}]
    allergens: list[list[str]]  # rows: [name, cas, percent] to declare


def _en(code: str) -> str:
    return labels.statement(code)["en"]


def build(m: Made) -> Sheet:
    r, mix = m.result, m.mixture
    lab = labels.label(r)
    sup = m.supplier
    sheet = Sheet(
        product=m.name,
        code=m.code,
        revision=m.revision,
        version=m.version,
        issued_at=m.issued_at,
        supplier=str(sup.get("name") or "the supplier"),
    )
    t, tables = sheet.text, sheet.tables
    classes = {h.hazard_class for h in r.hazards}
    flammable = "Flam. Liq." in classes

    # 1 Identification
    t["1.1"] = [f"Product name: {m.name}", f"Product code: {m.code}", f"Formula revision: {m.revision}"]
    t["1.2"] = [f"Identified use: {USE.get(m.product_type, m.product_type)}.", "Uses advised against: none known."]
    t["1.3"] = [f"Supplier: {sheet.supplier}"]
    for label_, key in (("Address", "address"), ("Telephone", "phone"), ("E-mail", "email")):
        if sup.get(key):
            t["1.3"].append(f"{label_}: {sup[key]}")
    if sup.get("emergency_phone"):
        hours = f" ({sup['emergency_hours']})" if sup.get("emergency_hours") else ""
        t["1.4"] = [f"Emergency telephone: {sup['emergency_phone']}{hours}"]

    # 2 Hazards identification
    if r.hazards:
        t["2.1"] = ["Classification according to Regulation (EC) No 1272/2008 (CLP), calculation method:"]
        t["2.1"] += [f"{h.hazard_class} {h.category}{_route(h.route)}, {h.h}" for h in r.hazards]
    else:
        t["2.1"] = ["The mixture is not classified as hazardous according to Regulation (EC) No 1272/2008 (CLP)."]
    t["2.1"] += list(r.notes)
    sheet.pictograms["2.2"] = list(lab.pictograms)
    lines = []
    if lab.pictograms:
        names = labels.phrases()["pictograms"]
        lines.append("Hazard pictograms: " + ", ".join(f"{p} ({names[p]['en']})" for p in lab.pictograms))
    lines.append(f"Signal word: {lab.signal_word or 'none'}")
    lines += [f"{h} {_en(h)}" for h in lab.h] or ["Hazard statements: none."]
    lines += [f"{p} {_en(p)}" for p in lab.p_label]
    lines += [x["en"] if not x.get("code") else f"{x['code']} {x['en']}" for x in lab.supplemental]
    t["2.2"] = lines
    t["2.3"] = ["PBT, vPvB and endocrine-disrupting properties are not assessed on this sheet."]

    # 3 Composition
    t["3.1"] = ["Not applicable: the product is a mixture."]
    tables["3.2"] = [
        ["Ingredient", "CAS", "Percent", "Classification (CLP)"],
        *[
            [
                c["name"],
                c["cas"] or "—",
                f"{c['percent'].normalize():f}",
                _component_class(c),
            ]
            for c in m.composition
        ],
    ]

    # 4, 5 from the hazard classes
    t["4.1"], t["4.2"], t["4.3"] = labels.first_aid(r.hazards)
    t["5.1"], t["5.2"], t["5.3"] = labels.fire_fighting(r.hazards)

    # 6, 7, 8 from the classification and the P statements
    t["6.1"] = ["Wear the protective equipment of section 8; keep unprotected persons away."]
    if flammable:
        t["6.1"].append("Remove all sources of ignition; ventilate the area.")
    t["6.2"] = ["Do not let the product enter drains, surface water or the ground."]
    t["6.3"] = ["Soak up with inert absorbent material (sand, diatomaceous earth); dispose of as in section 13."]
    t["6.4"] = ["See sections 8 and 13."]
    t["7.1"] = [f"{p} {_en(p)}" for p in lab.p if p.startswith("P2")] or ["Handle in line with good hygiene practice."]
    t["7.2"] = [f"{p} {_en(p)}" for p in lab.p if p.startswith("P4")] + ["Store in the original, closed container."]
    t["7.3"] = [f"{USE.get(m.product_type, m.product_type)} (see 1.2)."]
    ppe = []
    if classes & {"Skin Corr.", "Skin Irrit.", "Skin Sens.", "Acute Tox."}:
        ppe.append("Hand protection: chemical-resistant gloves (EN ISO 374).")
    if classes & {"Skin Corr.", "Eye Dam.", "Eye Irrit."}:
        ppe.append("Eye protection: tightly fitting safety goggles (EN 166).")
    if classes & {"Resp. Sens."} or any(h.route == "inhalation" for h in r.hazards):
        ppe.append("Respiratory protection: with inadequate ventilation, a filter mask (EN 14387).")
    t["8.2"] = ppe or ["No special protective equipment needed under normal use."]

    # 9 Physical and chemical properties
    t["9.1"] = [f"Physical state: {mix.physical_state}"]
    t["9.1"].append(
        f"Flash point: {_deg(mix.flash_point_c)}" if mix.flash_point_c is not None else "Flash point: not determined"
    )
    if mix.boiling_point_c is not None:
        t["9.1"].append(f"Initial boiling point: {_deg(mix.boiling_point_c)}")

    # 10 Stability and reactivity
    t["10.1"] = ["No dangerous reactions known under normal conditions of use."]
    t["10.2"] = ["Stable under the recommended storage conditions."]
    t["10.3"] = ["No hazardous reactions known."]
    t["10.4"] = ["Heat, sparks, open flames." if flammable else "None known."]
    t["10.6"] = ["None known; in a fire see section 5.2."]

    # 11, 12 from the classification
    tox = [f"ATEmix ({route}): {_num(v)} {_unit(route, mix)}" for route, v in sorted(r.ate.items())]
    for cls in HEALTH:
        found = [h for h in r.hazards if h.hazard_class == cls]
        tox += [f"{h.hazard_class} {h.category}{_route(h.route)}: {h.reason}" for h in found]
    tox.append(
        "Acute toxicity, skin corrosion/irritation, eye damage/irritation and sensitisation where not listed "
        "above: not classified, based on the ingredients' data (calculation method)."
    )
    if r.not_assessed:
        tox.append("Not assessed on this sheet (ingredients carry them): " + ", ".join(r.not_assessed) + ".")
    t["11.1"] = tox
    eco = [f"{h.hazard_class} {h.category}: {h.reason}" for h in r.hazards if h.hazard_class.startswith("Aquatic")]
    t["12.1"] = eco or ["Not classified as hazardous to the aquatic environment (calculation method)."]

    # 13, 14, 15, 16
    t["13.1"] = [f"P501 {_en('P501')}"] if r.hazards else ["Dispose of in line with local regulations."]
    tr = labels.transport(r, mix)
    t["14.1"] = [f"UN {tr.un_number}" if tr.un_number else "Not classified as dangerous goods (ADR/RID, IMDG, IATA)."]
    t["14.2"] = [tr.proper_shipping_name]
    t["14.3"] = [tr.transport_class or "Not applicable"]
    t["14.4"] = [tr.packing_group or ("To be determined (test data)" if tr.un_number else "Not applicable")]
    t["14.5"] = ["Environmentally hazardous (marine pollutant)" if tr.environmental_hazard else "No"]
    t["14.6"] = [tr.note]
    t["14.7"] = ["Not applicable: transported in packages."]
    t["15.1"] = [
        "Regulation (EC) No 1272/2008 (CLP); Regulation (EC) No 1907/2006 (REACH) Annex II as amended by "
        "Regulation (EU) 2020/878."
    ]
    if m.allergens:
        tables["15.1"] = [
            [
                "Allergen to declare (Reg. (EC) 1223/2009 Annex III)"
                if m.product_type != "food"
                else "Allergen (Reg. (EU) 1169/2011)",
                "CAS",
                "Percent",
            ],
            *m.allergens,
        ]
    t["15.2"] = ["No chemical safety assessment has been carried out for this mixture."]
    t["16.1"] = [f"Revision date {m.issued_at:%Y-%m-%d}; version {m.version}; formula revision {m.revision}."]
    t["16.2"] = [
        "ATE: acute toxicity estimate; CAS: Chemical Abstracts Service; CLP: Regulation (EC) No 1272/2008; "
        "INCI: International Nomenclature of Cosmetic Ingredients; M: multiplying factor; SCL: specific "
        "concentration limit."
    ]
    codes = sorted({h for c in m.composition for h in c["hazards"]})
    t["16.3"] = ["Full text of the H statements in section 3:"] + [f"{h} {_en(h)}" for h in codes]
    return sheet


def _route(route: str | None) -> str:
    return f" ({route})" if route else ""


def _num(d: Decimal) -> str:
    return f"{d.quantize(Decimal('0.01')).normalize():f}"


def _deg(d: Decimal) -> str:
    return f"{d.normalize():f} °C"


def _unit(route: str, mix: Mixture) -> str:
    return UNITS[mix.inhalation_form if route == "inhalation" else route]


def _component_class(c: dict[str, Any]) -> str:
    parts = list(c["hazards"]) or ["—"]
    if c.get("m_acute", 1) != 1 or c.get("m_chronic", 1) != 1:
        parts.append(f"M={c['m_acute']}/{c['m_chronic']}")
    for h, v in (c.get("limits") or {}).items():
        parts.append(f"SCL {h} ≥ {v} %")
    return ", ".join(parts)

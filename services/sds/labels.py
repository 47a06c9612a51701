"""Label elements of a classified mixture (CLP Articles 17-28, Annex I tables of each class): the
pictograms, the signal word, the hazard and precautionary statements with their official texts in
English and German (data/phrases.json), and what a safety data sheet derives from them: first aid
(section 4), fire fighting (section 5) and the transport classification (section 14)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any

from services.sds.chem import DATA
from services.sds.classify import Hazard, Mixture, Result

LANGS = ("en", "de")


@cache
def phrases() -> dict[str, Any]:
    return dict(json.loads((DATA / "phrases.json").read_text()))


def known_codes() -> set[str]:
    """Every H and EUH code of the phrase library (an ingredient naming another one is refused)."""
    return set(phrases()["h"])


# (hazard class, category) -> (pictogram or None, signal word or None, P statements), from the
# label tables of CLP Annex I (Tables 2.6.2, 3.1.3, 3.2.5, 3.3.5, 3.4.6, 4.1.4).
_FLAM = ("P210", "P233", "P240", "P241", "P242", "P243", "P280", "P303+P361+P353", "P370+P378", "P403+P235", "P501")
_ORAL_HIGH = ("P264", "P270", "P301+P310", "P321", "P330", "P405", "P501")
_DERMAL_HIGH = ("P262", "P264", "P270", "P280", "P302+P352", "P310", "P321", "P361+P364", "P405", "P501")
_DERMAL_3 = ("P280", "P302+P352", "P312", "P321", "P361+P364", "P405", "P501")
_INHAL_HIGH = ("P260", "P271", "P284", "P304+P340", "P310", "P320", "P403+P233", "P405", "P501")
_INHAL_3 = ("P261", "P271", "P304+P340", "P311", "P321", "P403+P233", "P405", "P501")
LABEL: dict[tuple[str, str, str | None], tuple[str | None, str | None, tuple[str, ...]]] = {
    ("Flam. Liq.", "1", None): ("GHS02", "Danger", _FLAM),
    ("Flam. Liq.", "2", None): ("GHS02", "Danger", _FLAM),
    ("Flam. Liq.", "3", None): ("GHS02", "Warning", _FLAM),
    ("Acute Tox.", "1", "oral"): ("GHS06", "Danger", _ORAL_HIGH),
    ("Acute Tox.", "2", "oral"): ("GHS06", "Danger", _ORAL_HIGH),
    ("Acute Tox.", "3", "oral"): ("GHS06", "Danger", _ORAL_HIGH),
    ("Acute Tox.", "4", "oral"): ("GHS07", "Warning", ("P264", "P270", "P301+P312", "P330", "P501")),
    ("Acute Tox.", "1", "dermal"): ("GHS06", "Danger", _DERMAL_HIGH),
    ("Acute Tox.", "2", "dermal"): ("GHS06", "Danger", _DERMAL_HIGH),
    ("Acute Tox.", "3", "dermal"): ("GHS06", "Danger", _DERMAL_3),
    ("Acute Tox.", "4", "dermal"): ("GHS07", "Warning", ("P280", "P302+P352", "P312", "P321", "P362+P364", "P501")),
    ("Acute Tox.", "1", "inhalation"): ("GHS06", "Danger", _INHAL_HIGH),
    ("Acute Tox.", "2", "inhalation"): ("GHS06", "Danger", _INHAL_HIGH),
    ("Acute Tox.", "3", "inhalation"): ("GHS06", "Danger", _INHAL_3),
    ("Acute Tox.", "4", "inhalation"): ("GHS07", "Warning", ("P261", "P271", "P304+P340", "P312")),
    ("Skin Irrit.", "2", None): ("GHS07", "Warning", ("P264", "P280", "P302+P352", "P321", "P332+P313", "P362+P364")),
    ("Eye Dam.", "1", None): ("GHS05", "Danger", ("P280", "P305+P351+P338", "P310")),
    ("Eye Irrit.", "2", None): ("GHS07", "Warning", ("P264", "P280", "P305+P351+P338", "P337+P313")),
    ("Resp. Sens.", "1", None): ("GHS08", "Danger", ("P261", "P284", "P304+P340", "P342+P311", "P501")),
    ("Skin Sens.", "1", None): (
        "GHS07",
        "Warning",
        ("P261", "P272", "P280", "P302+P352", "P333+P313", "P321", "P362+P364", "P501"),
    ),
    ("Aquatic Acute", "1", None): ("GHS09", "Warning", ("P273", "P391", "P501")),
    ("Aquatic Chronic", "1", None): ("GHS09", "Warning", ("P273", "P391", "P501")),
    ("Aquatic Chronic", "2", None): ("GHS09", None, ("P273", "P391", "P501")),
    ("Aquatic Chronic", "3", None): (None, None, ("P273", "P501")),
    ("Aquatic Chronic", "4", None): (None, None, ("P273", "P501")),
}
_CORR = (
    "P260",
    "P264",
    "P280",
    "P301+P330+P331",
    "P303+P361+P353",
    "P363",
    "P304+P340",
    "P310",
    "P321",
    "P305+P351+P338",
    "P405",
    "P501",
)
for _sub in ("1", "1A", "1B", "1C"):
    LABEL[("Skin Corr.", _sub, None)] = ("GHS05", "Danger", _CORR)

# P statements a stronger one makes redundant (Art. 28(1), Annex IV Part 1 1.2): "immediately call"
# covers "call" and "call if unwell"; washing before reuse covers taking off before reuse.
_REDUNDANT = {"P310": ("P311", "P312"), "P311": ("P312",), "P361+P364": ("P362+P364", "P363")}
_REDUNDANT["P301+P310"] = ("P301+P312",)
# Lower priority on a label that would hold more than six (Art. 28(3)): kept in the SDS's full list.
_LOW = ("P321", "P363", "P405", "P264", "P270", "P403+P233", "P403+P235", "P240", "P241", "P242", "P243", "P233")
MAX_LABEL_P = 6


def label_of(h: Hazard) -> tuple[str | None, str | None, tuple[str, ...]]:
    route = h.route if h.hazard_class == "Acute Tox." else None
    return LABEL[(h.hazard_class, h.category, route)]


@dataclass
class Label:
    pictograms: list[str]
    signal_word: str | None
    h: list[str]  # H codes on the label, after Art. 27
    euh: list[str]
    p: list[str]  # all applicable P statements (SDS 2.2)
    p_label: list[str]  # the at most six for the label (Art. 28(3))
    supplemental: list[dict[str, str]]  # texts per language beyond the H and P statements


def _pictograms(hazards: list[Hazard]) -> list[str]:
    """The pictograms, with Art. 26(1)'s precedence: GHS06 removes GHS07; GHS05 removes GHS07 when
    GHS07 is there for skin or eye irritation only; GHS08 for respiratory sensitisation removes GHS07
    when it is there for skin sensitisation or skin or eye irritation only."""
    why: dict[str, set[str]] = {}
    for h in hazards:
        pic = label_of(h)[0]
        if pic:
            why.setdefault(pic, set()).add(h.hazard_class)
    if "GHS07" in why:
        reasons = why["GHS07"]
        if "GHS06" in why:
            reasons = set()  # (b)
        if "GHS05" in why:
            reasons -= {"Skin Irrit.", "Eye Irrit."}  # (c)
        if any(h.hazard_class == "Resp. Sens." for h in hazards):
            reasons -= {"Skin Sens.", "Skin Irrit.", "Eye Irrit."}  # (d)
        if not reasons:
            del why["GHS07"]
    return sorted(why)


def _h_codes(hazards: list[Hazard]) -> list[str]:
    """Art. 27: no duplicated or redundant statement. H314 covers H318 (a corrosive mixture is also
    Eye Dam. 1); H410 covers H400 (the ECHA labelling guidance, 4.4.4, allows the pair to be H410)."""
    codes = list(dict.fromkeys(h.h for h in hazards))
    if "H314" in codes and "H318" in codes:
        codes.remove("H318")
    if "H410" in codes and "H400" in codes:
        codes.remove("H400")
    return codes


def _p_codes(hazards: list[Hazard]) -> tuple[list[str], list[str]]:
    """Every applicable P statement (SDS 2.2), and the at most six for the label: taken in turns
    from each hazard, most severe first, so each hazard keeps its most important advice (Art.
    28(3)), skipping the lower-priority ones (_LOW, and P501 where the sheet's section 13 says it)."""
    severe = sorted(hazards, key=lambda h: {"Danger": 0, "Warning": 1, None: 2}[label_of(h)[1]])
    every: list[str] = []
    for h in severe:
        for p in label_of(h)[2]:
            if p not in every:
                every.append(p)
    dropped: set[str] = set()
    for strong, weak in _REDUNDANT.items():
        if strong in every:
            dropped.update(weak)
    every = [p for p in every if p not in dropped]
    queues = [[p for p in label_of(h)[2] if p in every and p not in _LOW and p != "P501"] for h in severe]
    label: list[str] = []
    while len(label) < MAX_LABEL_P and any(queues):
        for q in queues:
            while q and q[0] in label:
                q.pop(0)
            if q and len(label) < MAX_LABEL_P:
                label.append(q.pop(0))
    if len(label) < MAX_LABEL_P and "P501" in every:
        label.append("P501")
    return every, label


def label(result: Result) -> Label:
    hazards = result.hazards
    words = {label_of(h)[1] for h in hazards}
    signal = "Danger" if "Danger" in words else "Warning" if "Warning" in words else None
    every, on_label = _p_codes(hazards)
    supplemental: list[dict[str, str]] = []
    euh: list[str] = []
    if result.euh208:
        euh.append("EUH208")
        text = phrases()["h"]["EUH208"]
        names = ", ".join(result.euh208)
        supplemental.append({lang: text[lang].replace("{names}", names) for lang in LANGS} | {"code": "EUH208"})
    tox_routes = {h.route for h in hazards if h.hazard_class == "Acute Tox."}
    for route, pct in sorted(result.unknown_acute.items()):
        if route in tox_routes and pct > 0:
            text = phrases()["supplemental"]["unknown_acute"]
            shown = f"{pct.quantize(Decimal('0.1')).normalize():f}"
            supplemental.append({lang: text[lang].replace("{percent}", shown) for lang in LANGS} | {"code": ""})
            break
    return Label(_pictograms(hazards), signal, _h_codes(hazards), euh, every, on_label, supplemental)


def statement(code: str) -> dict[str, str]:
    """The official texts of an H, EUH or P statement; a combined P code's parts are joined."""
    lib = phrases()
    if code in lib["h"]:
        return dict(lib["h"][code])
    if code in lib["p"]:
        return dict(lib["p"][code])
    raise KeyError(code)


# --- what the SDS derives from the classification ---------------------------------------------------

_FIRST_AID: dict[str, list[str]] = {
    "general": [
        "If medical advice is needed, have the product container or label at hand. Show this safety data sheet "
        "to the doctor in attendance."
    ],
    "Acute Tox.": [
        "After swallowing: rinse mouth; do not induce vomiting; call a poison centre or doctor at once.",
        "After inhalation: remove the person to fresh air and keep comfortable for breathing.",
    ],
    "Skin Corr.": [
        "After skin contact: take off all contaminated clothing at once; rinse the skin with plenty of water "
        "for at least 15 minutes; call a doctor.",
        "After eye contact: rinse cautiously with water for at least 15 minutes, holding the eyelids apart; "
        "remove contact lenses if easy to do; call an ophthalmologist at once.",
    ],
    "Skin Irrit.": [
        "After skin contact: wash with plenty of water and soap; if irritation occurs, get medical advice."
    ],
    "Eye Dam.": [
        "After eye contact: rinse cautiously with water for several minutes; remove contact lenses if easy to do; "
        "continue rinsing; call an ophthalmologist at once."
    ],
    "Eye Irrit.": [
        "After eye contact: rinse cautiously with water for several minutes; remove contact lenses if easy to do; "
        "if irritation persists, get medical advice."
    ],
    "Skin Sens.": [
        "After skin contact: wash with plenty of water; if a rash or irritation occurs, get medical advice."
    ],
    "Resp. Sens.": ["If breathing is difficult: remove to fresh air; with respiratory symptoms call a doctor."],
}
_SYMPTOMS = {
    "Acute Tox.": "Harmful or toxic effects after swallowing, skin contact or inhalation (see section 11).",
    "Skin Corr.": "Severe burns of skin and eyes.",
    "Skin Irrit.": "Redness and irritation of the skin.",
    "Eye Dam.": "Risk of serious damage to the eyes.",
    "Eye Irrit.": "Eye irritation, redness, tearing.",
    "Skin Sens.": "Allergic skin reactions (rash, itching) after repeated contact.",
    "Resp. Sens.": "Allergy or asthma symptoms or breathing difficulties if inhaled.",
}


def first_aid(hazards: list[Hazard]) -> tuple[list[str], list[str], list[str]]:
    """SDS 4.1 measures, 4.2 symptoms, 4.3 immediate attention, from the hazard classes."""
    classes = list(dict.fromkeys(h.hazard_class for h in hazards))
    measures = list(_FIRST_AID["general"])
    for c in classes:
        measures += [m for m in _FIRST_AID.get(c, []) if m not in measures]
    symptoms = [_SYMPTOMS[c] for c in classes if c in _SYMPTOMS]
    urgent = []
    if {"Acute Tox.", "Skin Corr.", "Eye Dam."} & set(classes):
        urgent.append("Immediate medical attention is needed; treat symptomatically.")
    else:
        urgent.append("Treat symptomatically; no immediate special treatment is known to be needed.")
    return measures, symptoms or ["No symptoms known beyond those of section 2."], urgent


def fire_fighting(hazards: list[Hazard]) -> tuple[list[str], list[str], list[str]]:
    """SDS 5.1 extinguishing media, 5.2 special hazards, 5.3 advice, from the hazard classes."""
    flammable = any(h.hazard_class == "Flam. Liq." for h in hazards)
    media = (
        [
            "Suitable: alcohol-resistant foam, carbon dioxide, dry powder, water spray.",
            "Unsuitable: a full water jet (it spreads the burning liquid).",
        ]
        if flammable
        else ["Suitable: water spray, foam, carbon dioxide or dry powder, as suits the surrounding fire."]
    )
    special = ["Hazardous combustion products: carbon monoxide and carbon dioxide."]
    if flammable:
        special.insert(
            0, "Flammable liquid and vapour; vapours are heavier than air and may form explosive mixtures with air."
        )
    advice = [
        "Wear self-contained breathing apparatus and full protective clothing.",
        "Cool closed containers exposed to fire with water spray.",
    ]
    if any(h.hazard_class.startswith("Aquatic") for h in hazards):
        advice.append(
            "Keep extinguishing water out of drains and surface water (hazardous to the aquatic environment)."
        )
    return media, special, advice


@dataclass
class Transport:
    un_number: str | None
    proper_shipping_name: str
    transport_class: str | None
    packing_group: str | None
    environmental_hazard: bool
    note: str


def transport(result: Result, mixture: Mixture) -> Transport:
    """The ADR/IMDG/IATA entry derivable from the classification: a flammable liquid (class 3,
    packing group from flash and boiling point, ADR 2.2.3.1.3), a toxic mixture by its oral ATE (6.1,
    2.2.61.1.7), corrosive (8; its packing group needs test data), else environmentally hazardous
    (9, UN 3082/3077); otherwise not classified. A simplified precedence: 6.1 packing group I-II,
    then 3, then 8, then 6.1 III, then 9; the full table of ADR 2.1.3.10 and subsidiary hazards are
    not applied (the note says which rule gave the entry)."""
    by_class = {h.hazard_class: h for h in result.hazards}
    liquid = mixture.physical_state == "liquid"
    env = any(
        (h.hazard_class == "Aquatic Acute") or (h.hazard_class == "Aquatic Chronic" and h.category in ("1", "2"))
        for h in result.hazards
    )
    oral = result.ate.get("oral")
    toxic_pg = None
    if oral is not None:
        toxic_pg = "I" if oral <= 5 else "II" if oral <= 50 else "III" if oral <= 300 else None
    if toxic_pg in ("I", "II"):
        return Transport(
            "2810" if liquid else "2811",
            f"TOXIC {'LIQUID' if liquid else 'SOLID'}, ORGANIC, N.O.S.",
            "6.1",
            toxic_pg,
            env,
            "Class 6.1 from the oral ATE of the mixture.",
        )
    flam = by_class.get("Flam. Liq.")
    if flam is not None:
        pg = {"1": "I", "2": "II", "3": "III"}[flam.category]
        return Transport("1993", "FLAMMABLE LIQUID, N.O.S.", "3", pg, env, "Class 3 from the flash and boiling point.")
    if "Skin Corr." in by_class:
        return Transport(
            "1760" if liquid else "1759",
            f"CORROSIVE {'LIQUID' if liquid else 'SOLID'}, N.O.S.",
            "8",
            None,
            env,
            "Class 8 from Skin Corr. 1; the packing group needs the test data of ADR 2.2.8.1.5.",
        )
    if toxic_pg == "III":
        return Transport(
            "2810" if liquid else "2811",
            f"TOXIC {'LIQUID' if liquid else 'SOLID'}, ORGANIC, N.O.S.",
            "6.1",
            "III",
            env,
            "Class 6.1 from the oral ATE of the mixture.",
        )
    if env:
        return Transport(
            "3082" if liquid else "3077",
            f"ENVIRONMENTALLY HAZARDOUS SUBSTANCE, {'LIQUID' if liquid else 'SOLID'}, N.O.S.",
            "9",
            "III",
            True,
            "Class 9 from Aquatic Acute 1 or Chronic 1-2.",
        )
    return Transport(None, "Not classified as dangerous for transport", None, None, False, "Not classified.")

"""Mixture classification by CLP Annex I, held to worked examples: the UN GHS Sub-Committee's
worked examples (ST/SG/AC.10/C.4/2008/23 Annex 2 for acute toxicity, ST/SG/AC.10/C.4/2012/25 for
the aquatic summation) and the decision tables of CLP Annex I themselves (Tables 2.6.1, 3.1.1,
3.2.3, 3.3.3, 3.4.5, 4.1.3.5.5), each case named by the row it exercises."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.sds.classify import ClassificationError, Component, Mixture, classify
from services.sds.labels import known_codes, label, statement, transport


def comp(name: str, pct: str | None, *hazards: str, **kw: Any) -> Component:
    return Component(
        name=name,
        percent=Decimal(pct) if pct is not None else None,
        hazards=tuple(hazards),
        categories=kw.get("categories", {}),
        ate={k: Decimal(str(v)) for k, v in kw.get("ate", {}).items()},
        unknown_acute=tuple(kw.get("unknown", ())),
        m_acute=kw.get("m_acute", 1),
        m_chronic=kw.get("m_chronic", 1),
        limits={k: Decimal(str(v)) for k, v in kw.get("limits", {}).items()},
    )


def run(*components: Component, **kw: Any) -> Any:
    return classify(Mixture(tuple(components), **kw), known_codes())


def classes(result: Any) -> set[tuple[str, str, str]]:
    return {(h.hazard_class, h.category, h.h) for h in result.hazards}


def test_acute_oral_un_example_3_not_classified() -> None:
    # ST/SG/AC.10/C.4/2008/23 Annex 2 example 3: only ingredient 1 (4 %, LD50 1,737) is relevant;
    # ATEmix = 100 / (4 / 1737) = 43,425 mg/kg: not classified.
    r = run(
        comp("Ingredient 1", "4", "H302", ate={"oral": 1737}),
        comp("Ingredient 2", "5"),
        comp("Ingredient 3", "5"),
        comp("Ingredient 4", "86"),
    )
    assert r.ate["oral"] == Decimal(43425)
    assert classes(r) == set()


def test_acute_oral_and_inhalation_with_unknown_un_example() -> None:
    # The same document's example with 11 % of unknown inhalation toxicity: inhalation
    # (100 - 11) / ATEmix = 26/11 + 23/19 + 40/4 gives 6.6 mg/l, Acute Tox. 3 (vapour), and the
    # label says 11 % is of unknown acute toxicity (3.1.3.6.2.3). Oral: GHS counts the two
    # ingredients of its category 5 (2,737 and 4,500 mg/kg) and gets 873; CLP has no category 5, so
    # only 40/400 is relevant and ATEmix is 1,000 mg/kg: Acute Tox. 4 (H302) either way.
    r = run(
        comp("Ingredient 1", "26", ate={"oral": 2737, "inhalation": 11}),
        comp("Ingredient 2", "23", ate={"oral": 4500, "inhalation": 19}),
        comp("Ingredient 3", "40", "H302", "H332", ate={"oral": 400, "inhalation": 4}),
        comp("Ingredient 4", "11", unknown=("inhalation",)),
    )
    assert r.ate["oral"] == Decimal(1000)
    assert round(r.ate["inhalation"], 1) == Decimal("6.6")
    assert classes(r) == {("Acute Tox.", "4", "H302"), ("Acute Tox.", "3", "H331")}
    lab = label(r)
    assert lab.pictograms == ["GHS06"]  # GHS06 for inhalation 3 removes GHS07 of oral 4 (Art. 26(1)(b))
    assert lab.signal_word == "Danger"
    assert any(s["en"].startswith("11 % of the mixture") for s in lab.supplemental)


def test_acute_from_category_point_estimate() -> None:
    # Table 3.1.2: a component known only as Acute Tox. 3 oral counts 100 mg/kg;
    # 10 % of it gives 100 / (10 / 100) = 1,000 mg/kg, Acute Tox. 4. Below 0.1 % (Table 1.1) it is not relevant.
    assert classes(run(comp("T", "10", "H301"), comp("Water", "90"))) == {("Acute Tox.", "4", "H302")}
    assert classes(run(comp("T", "0.05", "H301"), comp("Water", "99.95"))) == set()
    # Acute Tox. 2 dermal (50 mg/kg) at 2 %: 2,500 mg/kg, above the 2,000 of category 4: not classified.
    assert classes(run(comp("D", "2", "H310", categories={"H310": "2"}), comp("W", "98"))) == set()
    # at 3 %: 1,667 mg/kg, Acute Tox. 4 dermal (H312).
    assert classes(run(comp("D", "3", "H310", categories={"H310": "2"}), comp("W", "97"))) == {
        ("Acute Tox.", "4", "H312")
    }


def test_aquatic_un_example_chronic_4() -> None:
    # ST/SG/AC.10/C.4/2012/25 example: 0.01 % Acute 1/Chronic 1 (M 10), 1 % Chronic 2, 25 % Chronic 4.
    # Acute: 0.01 x 10 = 0.1 % < 25: not classified. Chronic 1: 0.1 %; Chronic 2: 10 x 10 x 0.01 + 1
    # = 2 %; Chronic 3: 100 x 10 x 0.01 + 10 x 1 = 20 %; Chronic 4: 0.01 + 1 + 25 = 26.01 % >= 25.
    r = run(
        comp("Ingredient 1", "0.01", "H400", "H410", m_acute=10, m_chronic=10),
        comp("Ingredient 2", "1.0", "H411"),
        comp("Ingredient 3", "25.0", "H413"),
        comp("Ingredient 4", "73.99"),
    )
    assert classes(r) == {("Aquatic Chronic", "4", "H413")}
    lab = label(r)
    assert lab.pictograms == [] and lab.signal_word is None and lab.h == ["H413"]
    assert lab.p == ["P273", "P501"]
    assert transport(r, Mixture(())).un_number is None  # Chronic 4 is not dangerous for transport


def test_aquatic_m_factor_makes_chronic_1_and_h400_folds_into_h410() -> None:
    # 4.1.3.5.5.3 / .4: 3 % of an Acute 1 / Chronic 1 substance with M = 10 counts 30 % >= 25 %.
    r = run(comp("Pyrethroid", "3", "H400", "H410", m_acute=10, m_chronic=10), comp("Solvent", "97"))
    assert classes(r) == {("Aquatic Acute", "1", "H400"), ("Aquatic Chronic", "1", "H410")}
    lab = label(r)
    assert lab.h == ["H410"] and lab.pictograms == ["GHS09"] and lab.signal_word == "Warning"
    assert lab.p == ["P273", "P391", "P501"]
    t = transport(r, Mixture((), physical_state="liquid"))
    assert (t.un_number, t.transport_class, t.packing_group) == ("3082", "9", "III")
    # With M = 1 the same 3 % is Chronic 2 (10 x 3 = 30 %): GHS09 without a signal word.
    r = run(comp("Pyrethroid", "3", "H400", "H410"), comp("Solvent", "97"))
    assert classes(r) == {("Aquatic Chronic", "2", "H411")}
    assert label(r).signal_word is None and label(r).pictograms == ["GHS09"]
    # Below the 0.1/M % cut-off a Chronic 1 component is not relevant.
    assert classes(run(comp("P", "0.0009", "H410", m_chronic=100), comp("S", "99.9991"))) == set()


def test_skin_and_eye_table_rows() -> None:
    # Table 3.2.3 row 1 / Table 3.3.3 row 1: Skin Corr. 1A at 6 % >= 5 %: Skin Corr. 1A, and the
    # mixture is Eye Dam. 1 whose H318 the label leaves out beside H314 (Art. 27).
    r = run(comp("Acid", "6", "H314", categories={"H314": "1A"}), comp("Water", "94"))
    assert classes(r) == {("Skin Corr.", "1A", "H314"), ("Eye Dam.", "1", "H318")}
    assert label(r).h == ["H314"] and label(r).pictograms == ["GHS05"] and label(r).signal_word == "Danger"
    # Row 2: Skin Corr. 1 at 1-5 % is Skin Irrit. 2; at >= 3 % it is Eye Dam. 1. GHS05 for the eyes
    # removes GHS07 for the skin (Art. 26(1)(c)).
    r = run(comp("Acid", "4", "H314"), comp("Water", "96"))
    assert classes(r) == {("Skin Irrit.", "2", "H315"), ("Eye Dam.", "1", "H318")}
    assert label(r).pictograms == ["GHS05"]
    # Table 3.3.3 last rows: 10 x (Skin Corr. 1 + Eye Dam. 1) + Eye Irrit. 2 >= 10: 10 x 1.5 + 8.
    r = run(comp("Acid", "1.5", "H314"), comp("Irritant", "8", "H319"), comp("Water", "90.5"))
    assert classes(r) == {("Skin Irrit.", "2", "H315"), ("Eye Irrit.", "2", "H319")}
    assert label(r).pictograms == ["GHS07"] and label(r).signal_word == "Warning"
    # Below the generic cut-off of 1 % (Table 1.1) a corrosive is not counted: 10 x 0 + 8 < 10.
    assert classes(run(comp("Acid", "0.5", "H314"), comp("Irritant", "8", "H319"), comp("W", "91.5"))) == set()
    # Skin Irrit. 2 >= 10 %.
    assert classes(run(comp("Irritant", "10", "H315"), comp("W", "90"))) == {("Skin Irrit.", "2", "H315")}
    assert classes(run(comp("Irritant", "9.9", "H315"), comp("W", "90.1"))) == set()


def test_specific_concentration_limits() -> None:
    # 3.2.3.3.5: a specific limit replaces the generic one: Skin Corr. 1B with "C >= 2 %" at 2.5 %.
    r = run(comp("Base", "2.5", "H314", categories={"H314": "1B"}, limits={"H314": 2}), comp("W", "97.5"))
    assert ("Skin Corr.", "1B", "H314") in classes(r)
    # A skin sensitiser with SCL 0.0015 % (as the isothiazolinones): at 0.002 % the mixture is Skin
    # Sens. 1; at 0.0005 % (>= a tenth of the limit) it only names it in EUH208.
    assert ("Skin Sens.", "1", "H317") in classes(
        run(comp("MIT", "0.002", "H317", categories={"H317": "1A"}, limits={"H317": "0.0015"}), comp("W", "99.998"))
    )
    r = run(comp("MIT", "0.0005", "H317", categories={"H317": "1A"}, limits={"H317": "0.0015"}), comp("W", "99.9995"))
    assert classes(r) == set() and r.euh208 == ["MIT"]


def test_sensitisation_table_3_4_5_and_euh208() -> None:
    # Skin Sens. 1 (or 1B) >= 1.0 % classifies; >= 0.1 % (Table 3.4.6) gives EUH208 only.
    r = run(comp("Linalool", "1.2", "H317"), comp("W", "98.8"))
    assert classes(r) == {("Skin Sens.", "1", "H317")} and r.euh208 == []
    r = run(comp("Linalool", "0.5", "H317"), comp("W", "99.5"))
    assert classes(r) == set() and r.euh208 == ["Linalool"]
    lab = label(r)
    assert lab.euh == ["EUH208"]
    assert lab.supplemental[0]["en"] == "Contains Linalool. May produce an allergic reaction."
    assert lab.supplemental[0]["de"] == "Enthält Linalool. Kann allergische Reaktionen hervorrufen."
    # Sub-category 1A classifies from 0.1 %.
    assert classes(run(comp("Cinnamal", "0.1", "H317", categories={"H317": "1A"}), comp("W", "99.9"))) == {
        ("Skin Sens.", "1", "H317")
    }
    # Respiratory sensitiser with a skin sensitiser and an irritant: GHS08 removes GHS07 (Art. 26(1)(d)).
    r = run(comp("Enzyme", "1", "H334"), comp("Linalool", "2", "H317"), comp("Irr", "12", "H315"), comp("W", "85"))
    assert label(r).pictograms == ["GHS08"] and label(r).signal_word == "Danger"


def test_flammable_liquids_table_2_6_1() -> None:
    eth = comp("Ethanol", "70", "H225", "H319")
    assert classes(run(eth, comp("W", "30"), flash_point_c=Decimal(21), boiling_point_c=Decimal(78))) >= {
        ("Flam. Liq.", "2", "H225")
    }
    r = run(eth, comp("W", "30"), flash_point_c=Decimal(10), boiling_point_c=Decimal(30))
    assert ("Flam. Liq.", "1", "H224") in classes(r)
    r = run(eth, comp("W", "30"), flash_point_c=Decimal(40))
    assert ("Flam. Liq.", "3", "H226") in classes(r)
    t = transport(r, Mixture((), physical_state="liquid"))
    assert (t.un_number, t.transport_class, t.packing_group) == ("1993", "3", "III")
    assert not any(h.hazard_class == "Flam. Liq." for h in run(eth, comp("W", "30"), flash_point_c=Decimal(61)).hazards)
    # Without the flash point a mixture with flammable components is said not assessed, never "not flammable".
    r = run(eth, comp("W", "30"))
    assert not any(h.hazard_class == "Flam. Liq." for h in r.hazards)
    assert any("flash point is not given" in n for n in r.notes)


def test_label_statements_have_english_and_german_texts() -> None:
    # 40 % of Acute Tox. 3 oral (100 mg/kg): ATEmix 250, Acute Tox. 3.
    r = run(comp("Acid", "6", "H314"), comp("T", "40", "H301"), comp("W", "54"), flash_point_c=Decimal(30))
    lab = label(r)
    assert lab.signal_word == "Danger" and lab.pictograms == ["GHS02", "GHS05", "GHS06"]
    assert statement("H226") == {"en": "Flammable liquid and vapour.", "de": "Flüssigkeit und Dampf entzündbar."}
    assert statement("P301+P310")["de"] == "BEI VERSCHLUCKEN: Sofort GIFTINFORMATIONSZENTRUM/Arzt anrufen."
    for code in [*lab.h, *lab.p]:
        texts = statement(code)
        assert texts["en"] and texts["de"] and texts["en"] != texts["de"]
    # P310 makes P312 redundant; at most six on the label.
    assert "P312" not in lab.p and len(lab.p_label) <= 6


@pytest.mark.parametrize(
    ("component", "message"),
    [
        (comp("No amount", None, "H315"), "needs its concentration"),
        (comp("Odd", "5", "H999"), "H999 is not a hazard statement"),
        (comp("Poison", "5", "H300"), "give its category or the oral ATE"),
        (comp("Poison", "5", "H300", categories={"H300": "3"}), "category '3' for H300"),
        (comp("Fish", "5", "H400", m_acute=7), "M-factor"),
        (comp("Zero", "0", "H315"), "more than 0"),
    ],
)
def test_bad_inputs_are_refused(component: Component, message: str) -> None:
    with pytest.raises(ClassificationError, match=message):
        run(component, comp("W", "50"))


def test_components_over_100_are_refused() -> None:
    with pytest.raises(ClassificationError, match="more than 100"):
        run(comp("A", "60", "H315"), comp("B", "50"))


# --- a property the methods must keep: diluting a mixture never makes it more hazardous ----------------

_CODES = ["H300", "H301", "H302", "H311", "H312", "H331", "H332", "H314", "H315", "H318", "H319", "H317", "H334"]
_CODES += ["H400", "H410", "H411", "H412", "H413"]
_SEVERITY = {"1": 9, "1A": 9, "1B": 8, "1C": 7, "2": 5, "3": 4, "4": 3}


def _severity(result: Any) -> dict[str, int]:
    """Per effect, how severe the worst class found is (corrosion above irritation, category 1 above 4)."""
    family = {"Skin Corr.": "skin", "Skin Irrit.": "skin", "Eye Dam.": "eye", "Eye Irrit.": "eye"}
    bonus = {"Skin Corr.": 10, "Eye Dam.": 10}
    out: dict[str, int] = {}
    for h in result.hazards:
        key = family.get(h.hazard_class, f"{h.hazard_class}{h.route or ''}")
        out[key] = max(out.get(key, 0), _SEVERITY[h.category] + bonus.get(h.hazard_class, 0))
    return out


@st.composite
def _mixtures(draw: Any) -> list[Component]:
    out = []
    for n in range(draw(st.integers(1, 5))):
        hazards = tuple(draw(st.lists(st.sampled_from(_CODES), max_size=3, unique=True)))
        cats = {"H300": draw(st.sampled_from(["1", "2"]))} if "H300" in hazards else {}
        if "H314" in hazards:
            cats["H314"] = draw(st.sampled_from(["1", "1A", "1B", "1C"]))
        pct = Decimal(draw(st.integers(1, 2000))) / 100
        m = draw(st.sampled_from([1, 10, 100]))
        out.append(Component(f"C{n}", pct, hazards, cats, m_acute=m, m_chronic=m))
    return out


@settings(max_examples=80, deadline=None)
@given(_mixtures(), st.integers(1, 99))
def test_diluting_never_makes_a_mixture_more_hazardous(components: list[Component], keep: int) -> None:
    before = _severity(classify(Mixture(tuple(components)), known_codes()))
    factor = Decimal(keep) / 100
    diluted = tuple(
        Component(
            c.name,
            (c.percent or Decimal(0)) * factor,
            c.hazards,
            c.categories,
            m_acute=c.m_acute,
            m_chronic=c.m_chronic,
        )
        for c in components
    )
    after = _severity(classify(Mixture(diluted), known_codes()))
    for effect, level in after.items():
        assert level <= before.get(effect, 0), (effect, before, after)


def test_phrase_library_covers_every_statement_the_rules_use() -> None:
    from services.sds.classify import ASSESSED
    from services.sds.labels import LABEL, phrases
    from services.sds.pictograms import CODES

    lib = phrases()
    used_p = {p for _, _, ps in LABEL.values() for p in ps}
    assert used_p <= set(lib["p"]), used_p - set(lib["p"])
    assert set(lib["h"]) >= ASSESSED
    assert {pic for pic, _, _ in LABEL.values() if pic} <= set(lib["pictograms"]) == set(CODES)
    for code, texts in [*lib["h"].items(), *lib["p"].items()]:
        assert texts["en"].strip() and texts["de"].strip() and texts["en"] != texts["de"], code
        assert texts["en"].endswith(".") and texts["de"].endswith("."), code


# The German texts of CLP Annex III (H) and Annex IV (P), as the German language version of
# Regulation (EC) No 1272/2008 prints them: the statements the demo's and common mixtures carry.
OFFICIAL_DE = {
    "H224": "Flüssigkeit und Dampf extrem entzündbar.",
    "H225": "Flüssigkeit und Dampf leicht entzündbar.",
    "H300": "Lebensgefahr bei Verschlucken.",
    "H301": "Giftig bei Verschlucken.",
    "H302": "Gesundheitsschädlich bei Verschlucken.",
    "H314": "Verursacht schwere Verätzungen der Haut und schwere Augenschäden.",
    "H315": "Verursacht Hautreizungen.",
    "H317": "Kann allergische Hautreaktionen verursachen.",
    "H318": "Verursacht schwere Augenschäden.",
    "H319": "Verursacht schwere Augenreizung.",
    "H331": "Giftig bei Einatmen.",
    "H334": "Kann bei Einatmen Allergie, asthmaartige Symptome oder Atembeschwerden verursachen.",
    "H400": "Sehr giftig für Wasserorganismen.",
    "H410": "Sehr giftig für Wasserorganismen mit langfristiger Wirkung.",
    "H411": "Giftig für Wasserorganismen, mit langfristiger Wirkung.",
    "H412": "Schädlich für Wasserorganismen, mit langfristiger Wirkung.",
    "P210": "Von Hitze, heißen Oberflächen, Funken, offenen Flammen sowie anderen Zündquellenarten fernhalten. "
    "Nicht rauchen.",
    "P261": "Einatmen von Staub/Rauch/Gas/Nebel/Dampf/Aerosol vermeiden.",
    "P273": "Freisetzung in die Umwelt vermeiden.",
    "P305+P351+P338": "BEI KONTAKT MIT DEN AUGEN: Einige Minuten lang behutsam mit Wasser spülen. "
    "Eventuell vorhandene Kontaktlinsen nach Möglichkeit entfernen. Weiter spülen.",
    "P501": "Inhalt/Behälter einer anerkannten Abfallentsorgungsanlage zuführen.",
}


@pytest.mark.parametrize("code", sorted(OFFICIAL_DE))
def test_german_statements_are_the_regulations_own_words(code: str) -> None:
    assert statement(code)["de"] == OFFICIAL_DE[code]

"""The records workspace's words that come from the declarations, in the person's language.

Module names, list titles, field labels and action names are made from the services' manifests
(``label_of("category_id")`` is "Category"), so ``pyside6-lupdate`` cannot see them in the code:
``scripts/records_strings.py`` lists every one the manifests give in ``views/records/strings_*.py``
(``QT_TRANSLATE_NOOP``), which lupdate reads into ``views/i18n/de/records.ts``. They share one
context, ``records``: a field called "Status" reads the same in every module.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from views.wording import state_word

CONTEXT = "records"

# Words a field name holds that people read as letters, not as a word: "Product SKU", not "Product sku".
ACRONYMS = {
    "ab": "A/B",  # ab_test
    "api": "API",
    "bom": "BOM",
    "csv": "CSV",
    "ean": "EAN",
    "gtin": "GTIN",
    "id": "ID",
    "imei": "IMEI",
    "pdf": "PDF",
    "qr": "QR",
    "sha256": "SHA-256",
    "sku": "SKU",
    "sla": "SLA",
    "sms": "SMS",
    "upc": "UPC",
    "url": "URL",
    "vat": "VAT",
}
# Short names of fields spelt out: "bg" read "Bg" in the QR designer's form.
ABBREVIATIONS = {"bg": "background", "fg": "foreground", "address1": "address line 1", "address2": "address line 2"}


def _acronym(word: str) -> str:
    low = word.lower()
    if low in ACRONYMS:
        return ACRONYMS[low]
    if low in ABBREVIATIONS:
        full = ABBREVIATIONS[low]
        return full.capitalize() if word[0].isupper() else full
    if low.endswith("s") and low[:-1] in ACRONYMS:  # "urls" -> "URLs"
        return ACRONYMS[low[:-1]] + "s"
    return word


def readable(name: str) -> str:
    """A field or column name in English as a label, before translation: "product_sku" is
    "Product SKU", "qr_code" "QR code", "sha256" "SHA-256". The one place labels are made from
    names (forms, column headers, the catalogue for lupdate), so they all read alike."""
    text = name.replace("_", " ").strip().capitalize()
    return re.sub(r"[A-Za-z0-9]+", lambda m: _acronym(m.group()), text)


def t(text: str) -> str:
    """A label from the declarations as the person reads it (the English itself when untranslated)."""
    return QCoreApplication.translate(CONTEXT, text) if text else text


def singular(title: str) -> str:
    """A list's title for one of its records: "Doc categories" -> "Doc category" (was "categorie")."""
    for plural, one in (("ies", "y"), ("sses", "ss"), ("xes", "x"), ("ches", "ch"), ("shes", "sh")):
        if title.endswith(plural):
            return title[: -len(plural)] + one
    return title[:-1] if title.endswith("s") and not title.endswith("ss") else title


def module_title(name: str) -> str:
    """A module as the person reads it: its manifest's title ("Trade-ins"), translated."""
    from services.core.context import MODULE_TITLES  # the manifests' literals, read without the services

    return t(MODULE_TITLES.get(name, name.capitalize()))


# A stored state ("in_progress") in the person's words ("in progress", "in Bearbeitung"): the one
# helper, views.wording.state_word, under the name Records' callers use; the data keeps the value.
value_word = state_word


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate looks for
    """Marks ``text`` for lupdate under ``context`` and answers it as it is (typed: PySide's says object)."""
    return text


def _counts() -> None:  # pragma: no cover - never called: lupdate reads the plurals here (views.i18n.counted)
    QCoreApplication.translate("records", "%Ln more", "", 2)
    QCoreApplication.translate("records", "%n linked", "", 2)

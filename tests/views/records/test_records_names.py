"""Issue 32, the newcomer walk in Records: labels keep acronyms, a single record's action is singular,
a reference's button names what it opens, a list of dicts reads by its person-readable keys."""

from __future__ import annotations

import pytest

from views.records.forms import english_label
from views.records.words import readable


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("sku", "SKU"),
        ("product_sku", "Product SKU"),
        ("sms", "SMS"),
        ("qr_code", "QR code"),
        ("qr", "QR"),
        ("sha256", "SHA-256"),
        ("file_sha256", "File SHA-256"),
        ("gtin", "GTIN"),
        ("url", "URL"),
        ("webhook_urls", "Webhook URLs"),
        ("external_id", "External ID"),
        ("pdf", "PDF"),
        ("sla_hours", "SLA hours"),
        ("vat_rate", "VAT rate"),
        ("imei", "IMEI"),
        ("api_key", "API key"),
        ("csv_file", "CSV file"),
        ("ean", "EAN"),
        ("upc", "UPC"),
        ("status", "Status"),
        ("skus_count", "SKUs count"),
        ("vatican", "Vatican"),  # a word that starts like an acronym stays a word
        ("ab_test", "A/B test"),  # read "Ab test"
        ("bom", "BOM"),
        ("bg", "Background"),  # the QR designer's colours read "Bg" and "Fg"
        ("fg", "Foreground"),
        ("qr_bg", "QR background"),
        ("address1", "Address line 1"),  # a shipping address read "Address1:" (seen in the walk)
    ],
)
def test_a_label_keeps_acronyms_upper_case(name: str, label: str) -> None:
    assert readable(name) == label
    assert english_label(name) == label


def test_form_labels_still_drop_the_id_of_a_reference() -> None:
    assert english_label("category_id") == "Category"
    assert english_label("product_sku_ids") == "Product SKUs"


def test_an_action_on_one_record_is_named_in_the_singular() -> None:
    from services.core.commands import REGISTRY
    from views.records.actions import button_title

    assert button_title(REGISTRY["upgrade.valuations.delete"]) == "Delete valuation"
    assert button_title(REGISTRY["support.categories.delete"]) == "Delete category"
    assert button_title(REGISTRY["qr.codes.delete"]) == "Delete QR code"  # already singular: as it was


def test_a_references_button_names_what_it_opens(qapp: object) -> None:
    from PySide6.QtWidgets import QPushButton

    from views.records.refs import _name_link, open_words

    assert open_words("Product") == "Open product"
    assert open_words("QR code") == "Open QR code"
    button = QPushButton("…")
    _name_link(button, [], rid="p-1", unnamed=open_words("Product"))  # no name known for the record
    assert button.text() == "Open product"
    _name_link(button, [("Phone X · SKU-1", "p-1", "SKU-1")], rid="p-1", unnamed=open_words("Product"))
    assert button.text() == "Phone X · SKU-1"


def test_a_list_of_dicts_reads_by_its_keys_without_coordinates(qapp: object) -> None:
    from views.records.refs import rows_text

    fields = [
        {"id": "f1", "signer_id": "s1", "type": "signature", "page": 1, "x": 0.12, "y": 0.7, "width": 0.3,
         "height": 0.05, "required": True, "value": None},
        {"id": "f2", "signer_id": "s1", "type": "date", "page": 2, "x": 0.5, "y": 0.1, "width": 0.2,
         "height": 0.05, "required": False, "value": "2026-11-27"},
    ]  # fmt: skip
    assert (
        rows_text(fields)
        == "Type: signature · Page: 1 · Required: yes\nType: date · Page: 2 · Required: no · Value: 2026-11-27"
    )
    assert "0.12" not in rows_text(fields) and "0.7" not in rows_text(fields)

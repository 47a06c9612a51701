"""Records shows amounts and decimals in the locale's form: the API writes money as decimal strings
("89.99") and Decimals, which a German desktop showed as "89.99" (found in the issue 32 walk)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

import pytest
from PySide6.QtCore import QLocale

from tests.views.german import german_locale
from views.records.model import plain_of, text_of


@pytest.fixture
def in_german() -> Iterator[None]:
    with german_locale():
        yield


def test_amounts_and_decimals_read_in_german(in_german: None) -> None:
    assert text_of("1289.99", "total") == "1.289,99"
    assert text_of(Decimal("12.50"), "unit_cost") == "12,50"
    assert text_of(2.5, "weight_kg") == "2,5"
    assert text_of("-3.10", "credit_amount") == "-3,10"
    # Not money: a version, a code or a text that happens to hold a dot stays as stored.
    assert text_of("1.2", "version") == "1.2"
    assert text_of("4006381333931", "gtin") == "4006381333931"
    assert text_of("12.5 kg", "total") == "12.5 kg"
    # Data (CSV, tooltips) keeps the stored form.
    assert plain_of(Decimal("12.50")) == "12.50"


def test_amounts_read_in_english() -> None:
    before = QLocale()
    QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    try:
        assert text_of("1289.99", "total") == "1,289.99"
        assert text_of(Decimal("0.5"), "price") == "0.5"
    finally:
        QLocale.setDefault(before)

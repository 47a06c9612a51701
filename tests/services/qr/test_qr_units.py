"""Check digits and user-agent parsing (the bench's smoke run is tests/test_benchmarks_smoke.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.core.checkdigits import gs1_check_char as gs1_check_digit
from services.core.errors import ValidationFailed
from services.qr.checkdigits import normalise
from services.qr.scanning import parse_agent, referrer_host

ROOT = Path(__file__).resolve().parents[3]


def test_gs1_check_digits() -> None:
    # DOMAIN.md: 629104150021 -> 3; UPC-A 03600024145 -> 7.
    assert gs1_check_digit("629104150021") == "3"
    assert normalise("upca", "03600024145") == "036000241457"
    assert normalise("ean13", "4006381333931") == "4006381333931"
    with pytest.raises(ValidationFailed):
        normalise("ean13", "4006381333930")
    with pytest.raises(ValidationFailed):
        normalise("itf14", "123")
    assert normalise("code39", "abc-1") == "ABC-1"


def test_agents_and_bots() -> None:
    iphone = parse_agent("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Version/17.4 Mobile Safari/604.1")
    assert (iphone.device, iphone.browser, iphone.os, iphone.bot) == ("mobile", "Safari", "iOS", False)
    edge = parse_agent("Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/124.0 Safari/537.36 Edg/124.0")
    assert (edge.device, edge.browser, edge.os) == ("desktop", "Edge", "Windows")
    for ua in (
        "facebookexternalhit/1.1",
        "Slackbot-LinkExpanding 1.0",
        "WhatsApp/2.23",
        "Googlebot/2.1",
        "curl/8.5.0",
        "",
    ):
        assert parse_agent(ua).bot, ua
    assert referrer_host(None) == "direct" and referrer_host("https://www.instagram.com/x") == "www.instagram.com"

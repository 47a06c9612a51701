"""The scan address's pages on a real server (issue 33, part 4): the scanner's query forwarded,
the fallback address of a code that does not serve, the 410 page saying why, and the landing
pages of codes that are not addresses (a vCard downloads as .vcf)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import httpx
from sqlalchemy import func, select

from local_db.models.qr import QrCode
from tests.conftest import LiveServer, auth_headers

B = "/demo/qr/api"
PHONE = {"User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Version/17.4 Mobile/15E148 Safari/604.1"}


def _create(client: httpx.Client, h: dict[str, str], **body: object) -> dict:
    r = client.post(f"{B}/qr", json={"name": "Poster", **body}, headers=h)
    assert r.status_code == 201, r.text
    return r.json()["data"]


def test_query_forwarded_destination_wins(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    code = _create(client, h, destination_url="https://example.com/a?utm_source=owner&x=1#top")
    r = client.get(f"/demo/qr/r/{code['short_code']}?utm_source=poster&utm_medium=print", headers=PHONE)
    assert r.status_code == 302
    loc = urlsplit(r.headers["location"])
    assert (loc.netloc, loc.path, loc.fragment) == ("example.com", "/a", "top")
    # The destination's own utm_source wins; the scanner's other parameter is added.
    assert parse_qsl(loc.query) == [("utm_source", "owner"), ("x", "1"), ("utm_medium", "print")]
    plain = _create(client, h, destination_url="https://example.com/b")
    r = client.get(f"/demo/qr/r/{plain['short_code']}?utm_source=poster&q=a%20b%26c", headers=PHONE)
    assert parse_qsl(urlsplit(r.headers["location"]).query) == [("utm_source", "poster"), ("q", "a b&c")]
    # No query: the destination untouched.
    assert client.get(f"/demo/qr/r/{plain['short_code']}", headers=PHONE).headers["location"] == "https://example.com/b"


def test_fallback_and_gone_pages(client: httpx.Client) -> None:
    h = auth_headers(client, "owner@demo.test")
    paused = _create(client, h, destination_url="https://example.com/live", fallback_url="https://example.com/paused")
    assert paused["fallback_url"] == "https://example.com/paused"
    assert client.patch(f"{B}/qr/{paused['id']}", json={"enabled": False}, headers=h).status_code == 200
    r = client.get(f"/demo/qr/r/{paused['short_code']}?utm_source=poster", headers=PHONE)
    assert r.status_code == 302 and r.headers["location"] == "https://example.com/paused?utm_source=poster"
    # The fallback cleared: the 410 page says the code is paused.
    assert (
        client.patch(f"{B}/qr/{paused['id']}", json={"fallback_url": None}, headers=h).json()["data"]["fallback_url"]
        is None
    )
    r = client.get(f"/demo/qr/r/{paused['short_code']}", headers=PHONE)
    assert r.status_code == 410 and r.headers["content-type"].startswith("text/html")
    assert "paused" in r.text
    expired = _create(
        client,
        h,
        destination_url="https://example.com/x",
        valid_since="2001-01-01T00:00:00Z",
        valid_until="2002-01-01T00:00:00Z",
    )
    r = client.get(f"/demo/qr/r/{expired['short_code']}", headers=PHONE)
    assert r.status_code == 410 and "expired" in r.text
    capped = _create(client, h, destination_url="https://example.com/x", max_scans=1)
    assert client.get(f"/demo/qr/r/{capped['short_code']}", headers=PHONE).status_code == 302
    r = client.get(f"/demo/qr/r/{capped['short_code']}", headers=PHONE)
    assert r.status_code == 410 and "scan limit" in r.text
    # An unknown code is still a 404, and a fallback is not a way to send scanners to javascript:.
    assert client.get("/demo/qr/r/nope", headers=PHONE).status_code == 404
    bad = client.patch(f"{B}/qr/{capped['id']}", json={"fallback_url": "javascript:alert(1)"}, headers=h)
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    assert client.get(f"{B}/qr/{capped['id']}", headers=h).json()["data"]["fallback_url"] is None


VCARD = "BEGIN:VCARD\nVERSION:3.0\nFN:Ada <b>Lovelace</b>\nORG:Analytical\nTEL;TYPE=cell:+44 20 7946 0000\nEMAIL:ada@example.com\nEND:VCARD"


def test_landing_pages(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    card = _create(client, h, type="vcard", content=VCARD)
    r = client.get(f"/demo/qr/r/{card['short_code']}", headers=PHONE)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    # Every value escaped: the name's markup is text.
    assert "Ada &lt;b&gt;Lovelace&lt;/b&gt;" in r.text and "<b>" not in r.text
    assert 'href="tel:+44%2020%207946%200000"' in r.text and 'href="mailto:ada@example.com"' in r.text
    vcf = client.get(f"/demo/qr/r/{card['short_code']}/contact.vcf", headers=PHONE)
    assert vcf.status_code == 200 and vcf.headers["content-type"].startswith("text/vcard")
    assert vcf.headers["content-disposition"].startswith("attachment") and ".vcf" in vcf.headers["content-disposition"]
    assert vcf.content.startswith(b"BEGIN:VCARD\r\n") and vcf.content.endswith(b"END:VCARD\r\n")
    got = client.get(f"{B}/qr/{card['id']}", headers=h).json()["data"]
    assert got["scans"] == 1  # the landing page counts the scan; the download does not
    wifi = _create(client, h, type="wifi", content="WIFI:T:WPA;S:Cafe\\;Net;P:s3cret;;")
    r = client.get(f"/demo/qr/r/{wifi['short_code']}", headers=PHONE)
    assert r.status_code == 200 and "Cafe;Net" in r.text and "s3cret" in r.text and "WPA" in r.text
    text = _create(client, h, type="text", content="<script>alert(1)</script> Opening hours 9-5")
    r = client.get(f"/demo/qr/r/{text['short_code']}", headers=PHONE)
    assert "&lt;script&gt;" in r.text and "<script>" not in r.text
    mail = _create(client, h, type="email", content="mailto:shop@example.com")
    assert 'href="mailto:shop@example.com"' in client.get(f"/demo/qr/r/{mail['short_code']}", headers=PHONE).text
    sms = _create(client, h, type="sms", content="SMSTO:+4912345:Hello")
    r = client.get(f"/demo/qr/r/{sms['short_code']}", headers=PHONE)
    assert 'href="sms:+4912345"' in r.text and "Hello" in r.text
    # A non-vCard code has no contact to download; a paused vCard neither.
    assert client.get(f"/demo/qr/r/{text['short_code']}/contact.vcf").status_code == 404
    client.patch(f"{B}/qr/{card['id']}", json={"enabled": False}, headers=h)
    assert client.get(f"/demo/qr/r/{card['short_code']}/contact.vcf").status_code == 404


def test_bad_landing_codes_store_nothing(client: httpx.Client, server: LiveServer) -> None:
    h = auth_headers(client, "owner@demo.test")
    with server.runtime.db.reading(None) as s:
        before = s.execute(select(func.count()).select_from(QrCode)).scalar_one()
    for body in (
        {"name": "x", "type": "vcard"},  # neither content nor destination
        {"name": "x", "type": "text", "content": ""},
        {"name": "x", "type": "url", "content": "hello"},  # a dynamic URL code needs its destination
        {"name": "x", "destination_url": "https://e.com", "fallback_url": "ftp://e.com/x"},
        {"name": "x", "type": "fax", "content": "1"},
    ):
        r = client.post(f"{B}/qr", json=body, headers=h)
        assert r.status_code == 400 and r.json()["code"] == "VALIDATION_ERROR", body
    with server.runtime.db.reading(None) as s:
        assert s.execute(select(func.count()).select_from(QrCode)).scalar_one() == before


def test_scan_pages_speak_the_visitors_language_in_the_tenants_look(client: httpx.Client) -> None:
    """The landing and 410 pages are the public pages' templates: language, tenant name, headers."""
    h = auth_headers(client, "owner@demo.test")
    code = _create(client, h, destination_url="https://example.com/x")
    client.patch(f"{B}/qr/{code['id']}", json={"enabled": False}, headers=h)
    r = client.get(f"/demo/qr/r/{code['short_code']}", headers={**PHONE, "Accept-Language": "de-DE,de;q=0.9"})
    assert r.status_code == 410 and r.headers["content-language"] == "de"
    assert "Dieser Code wurde von seinem Inhaber pausiert." in r.text and '<html lang="de">' in r.text
    assert 'class="tenant">Demo' in r.text  # the tenant's name in the header
    csp = r.headers["content-security-policy"]
    assert "'unsafe-inline'" not in csp and "frame-ancestors 'none'" in csp
    assert r.headers["referrer-policy"] == "no-referrer"
    wifi = _create(client, h, type="wifi", content="WIFI:T:WPA;S:Cafe;P:s3cret;;")
    r = client.get(f"/demo/qr/r/{wifi['short_code']}", headers={**PHONE, "Accept-Language": "de"})
    assert "<h1>WLAN</h1>" in r.text and "<dt>Netzwerk</dt>" in r.text

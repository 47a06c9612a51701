"""Issue 35 part 4 on a real server: templates edited (PUT), previewed for a chosen contact, sent
as a test to one address through a real SMTP server on loopback; a template that does not
compile is a 400 naming the line and the reason, and nothing is stored."""

from __future__ import annotations

import email
from collections.abc import Iterator
from email.policy import default as default_policy

import httpx
import pytest

from app.settings import Settings
from services.core.context import Runtime
from tests.conftest import LiveServer, auth_headers, start_server
from tests.smtp_server import SmtpServer

BASE = "/demo/campaign/api"


@pytest.fixture
def mail_server() -> Iterator[SmtpServer]:
    with SmtpServer() as srv:
        yield srv


@pytest.fixture
def web(settings: Settings, runtime: Runtime, mail_server: SmtpServer) -> Iterator[httpx.Client]:
    runtime.db.dispose()
    settings.rate_limits = "off"
    srv: LiveServer = start_server(settings, smtp_url=mail_server.url)
    with httpx.Client(base_url=srv.url, timeout=30) as c:
        yield c
    srv.stop()
    srv.runtime.db.dispose()


def test_edit_preview_and_test_send(web: httpx.Client, mail_server: SmtpServer) -> None:
    h = auth_headers(web, "owner@demo.test")
    tpl = web.post(
        f"{BASE}/templates/email",
        json={"name": "Offer", "subject": "Hi {{ contact.first_name }}", "text": "Hello {{ contact.name }}"},
        headers=h,
    ).json()["data"]
    contact = web.post(
        f"{BASE}/contacts",
        json={"email": "ines@shop.test", "name": "Inès Moreau", "attributes": {"city": "Lyon"}},
        headers=h,
    ).json()["data"]

    # Edit: only the fields sent change (PUT used to be 405).
    r = web.put(
        f"{BASE}/templates/email/{tpl['id']}",
        json={
            "subject": "{{ contact.first_name }}, 20 % in {{ contact.attributes.city }}",
            "html": '<p>Dear {{ contact.name }}</p><a href="https://shop.example.com/sale">Sale</a>',
        },
        headers=h,
    )
    assert r.status_code == 200, r.text
    edited = r.json()["data"]
    assert edited["name"] == "Offer" and edited["text"] == "Hello {{ contact.name }}"
    assert web.get(f"{BASE}/templates/email/{tpl['id']}", headers=h).json()["data"]["subject"].startswith("{{")

    # Preview for the chosen contact: its values, tracked links, the unsubscribe page.
    p = web.get(f"{BASE}/templates/email/{tpl['id']}/preview", params={"contact_id": contact["id"]}, headers=h)
    assert p.status_code == 200, p.text
    pv = p.json()["data"]
    assert pv["to"] == "ines@shop.test" and pv["subject"] == "Inès, 20 % in Lyon"
    assert "Dear Inès Moreau" in pv["html"] and "/campaign/api/p/c/" in pv["html"]
    assert "Unsubscribe: " in pv["text"] and "/campaign/p/unsubscribe/" in pv["text"]
    sample = web.get(f"{BASE}/templates/email/{tpl['id']}/preview", headers=h).json()["data"]
    assert sample["subject"] == "Alex, 20 % in " and sample["to"] == "alex.example@example.com"
    gone = web.get(f"{BASE}/templates/email/{tpl['id']}/preview", params={"contact_id": "nope"}, headers=h)
    assert gone.status_code == 404

    # Test send: the contact's values, to the tester's address only, marked as a test; no message recorded.
    t = web.post(
        f"{BASE}/templates/email/{tpl['id']}/test",
        json={"email": "tester@shop.test", "contact_id": contact["id"]},
        headers=h,
    )
    assert t.status_code == 200, t.text
    assert t.json()["data"] == {"sent": True, "to": "tester@shop.test", "subject": "[Test] Inès, 20 % in Lyon"}
    assert [m["rcpt"] for m in mail_server.messages] == [["tester@shop.test"]]
    msg = email.message_from_bytes(mail_server.messages[0]["data"], policy=default_policy)
    assert str(msg["Subject"]) == "[Test] Inès, 20 % in Lyon"
    assert "Dear Inès Moreau" in msg.get_body(("html",)).get_content()
    bad_to = web.post(f"{BASE}/templates/email/{tpl['id']}/test", json={"email": "not-an-address"}, headers=h)
    assert bad_to.status_code == 400 and len(mail_server.messages) == 1
    mail_server.reject.add("nobody@shop.test")
    refused = web.post(f"{BASE}/templates/email/{tpl['id']}/test", json={"email": "nobody@shop.test"}, headers=h)
    assert refused.status_code == 400 and refused.json()["details"]["field"] == "email"

    # SMS templates edit and preview too.
    sms = web.post(f"{BASE}/templates/sms", json={"name": "S", "body": "Hi {{ contact.name }}"}, headers=h).json()
    sid = sms["data"]["id"]
    assert (
        web.put(f"{BASE}/templates/sms/{sid}", json={"body": "Yo {{ contact.first_name }}"}, headers=h).json()["data"][
            "body"
        ]
        == "Yo {{ contact.first_name }}"
    )
    sp = web.get(f"{BASE}/templates/sms/{sid}/preview", params={"contact_id": contact["id"]}, headers=h).json()
    assert sp["data"]["body"] == "Yo Inès" and sp["data"]["segments"] == 1


def test_a_template_that_does_not_compile_is_refused_with_line_and_reason(web: httpx.Client) -> None:
    h = auth_headers(web, "owner@demo.test")
    bad_html = "<p>Hello</p>\n<p>{{ contact.name </p>\n"
    r = web.post(f"{BASE}/templates/email", json={"name": "Bad", "subject": "S", "html": bad_html}, headers=h)
    assert r.status_code == 400
    body = r.json()
    assert body["details"]["field"] == "html" and body["details"]["line"] == 2 and body["details"]["reason"]
    assert "line 2" in body["error"] and "pydantic" not in body["error"]
    names = [t["name"] for t in web.get(f"{BASE}/templates/email", headers=h).json()["data"]]
    assert "Bad" not in names  # nothing stored

    tpl = web.post(f"{BASE}/templates/email", json={"name": "Good", "subject": "S", "text": "T"}, headers=h).json()
    tid = tpl["data"]["id"]
    for body_in, field, line in (
        ({"subject": "{% if %}"}, "subject", 1),
        ({"text": "one\ntwo\n{% for x in %}"}, "text", 3),
        ({"html": "{{ a }"}, "html", 1),
    ):
        r = web.put(f"{BASE}/templates/email/{tid}", json=body_in, headers=h)
        assert r.status_code == 400, r.text
        assert r.json()["details"]["field"] == field and r.json()["details"]["line"] == line
    kept = web.get(f"{BASE}/templates/email/{tid}", headers=h).json()["data"]
    assert (kept["subject"], kept["text"], kept["html"]) == ("S", "T", "")  # the edit stored nothing
    empty = web.put(f"{BASE}/templates/email/{tid}", json={"text": ""}, headers=h)
    assert empty.status_code == 400  # neither html nor text left
    unknown = web.put(f"{BASE}/templates/email/{tid}", json={"colour": "red"}, headers=h)
    assert unknown.status_code == 400
    assert web.put(f"{BASE}/templates/email/nope", json={"name": "x"}, headers=h).status_code == 404
    # Compiles, but the sandbox refuses it for any contact: the preview says why (400), not a 500.
    unsafe = web.put(f"{BASE}/templates/email/{tid}", json={"text": "{{ contact.name.__class__.__mro__ }}"}, headers=h)
    assert unsafe.status_code == 200
    pv = web.get(f"{BASE}/templates/email/{tid}/preview", headers=h)
    assert pv.status_code == 400 and "fails for this contact" in pv.json()["error"]
    bad_sms = web.post(f"{BASE}/templates/sms", json={"name": "S", "body": "{{ x"}, headers=h)
    assert bad_sms.status_code == 400 and bad_sms.json()["details"]["line"] == 1

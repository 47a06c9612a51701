"""The helpdesk's SMTP endpoint (aiosmtpd) started by the real server when PLATFORM_SUPPORT_SMTP_LISTEN
asks for it: only a tenant's helpdesk address is accepted, each mail is filed before 250."""

from __future__ import annotations

import smtplib
from collections.abc import Iterator

import httpx
import pytest

from app.server import free_port
from app.settings import Settings
from services.core.context import Runtime
from tests.conftest import LiveServer, auth_headers, start_server
from tests.services.support.test_support_mail_in import mail

AGT = "/api/tenants/demo/support"


@pytest.fixture
def smtp_server(
    settings: Settings, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[LiveServer, int]]:
    port = free_port()
    monkeypatch.setenv("PLATFORM_SUPPORT_SMTP_LISTEN", f"127.0.0.1:{port}")
    runtime.db.dispose()
    settings.rate_limits = "off"
    srv = start_server(settings)
    yield srv, port
    srv.stop()
    srv.runtime.db.dispose()


def test_mail_sent_to_the_helpdesk_address_becomes_a_ticket(smtp_server: tuple[LiveServer, int]) -> None:
    srv, port = smtp_server
    with httpx.Client(base_url=srv.url, timeout=30) as client:
        admin = auth_headers(client, "admin@demo.test")
        cfg = client.get(AGT + "/helpdesk", headers=admin).json()["data"]
        cfg["mail"]["address"] = "help@demo.test"
        assert client.put(AGT + "/helpdesk", headers=admin, json=cfg).status_code == 200
        with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
            # Anything but a helpdesk address is refused at RCPT: the endpoint relays nothing.
            with pytest.raises(smtplib.SMTPRecipientsRefused):
                smtp.sendmail("carla@example.com", ["someone@elsewhere.example"], mail())
            smtp.sendmail("carla@example.com", ["help@demo.test"], mail(subject="Sent by SMTP"))
            again = mail(subject="Retried delivery")
            smtp.sendmail("carla@example.com", ["help@demo.test"], again)
            smtp.sendmail("carla@example.com", ["help@demo.test"], again)  # a retry: stored once
            with pytest.raises(smtplib.SMTPDataError) as refused:
                smtp.sendmail("carla@example.com", ["help@demo.test"], b"\x00 no headers at all")
            assert refused.value.smtp_code == 550
        found = client.get(AGT + "/tickets", headers=admin, params={"search": "Sent by SMTP"}).json()
        assert found["meta"]["total"] == 1 and found["data"][0]["source"] == "mail"
        twice = client.get(AGT + "/tickets", headers=admin, params={"search": "Retried delivery"}).json()
        assert twice["meta"]["total"] == 1
        log = client.get(AGT + "/mail/inbound", headers=admin).json()["data"]
        assert sorted(r["outcome"] for r in log) == ["refused", "ticket", "ticket"]
        assert {r["source"] for r in log} == {"smtp"}

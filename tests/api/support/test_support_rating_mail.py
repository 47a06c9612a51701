"""Issue 35 part 3: a solved ticket's requester is mailed a rating link (real SMTP server on
loopback, real uvicorn); the link opens the ticket's page by a signed token stored nowhere; the
rating is recorded once, emitted as ``ticket.rated`` and counted by the helpdesk report."""

from __future__ import annotations

import email
import re
from collections.abc import Iterator
from email.policy import default as default_policy

import httpx
import pytest
from sqlalchemy import select

from app.settings import Settings
from local_db.models import Event
from services.core.context import Runtime
from tests.conftest import LiveServer, auth_headers, dump_database, start_server
from tests.smtp_server import SmtpServer

PUB = "/api/tenants/demo/support/public"
AGT = "/api/tenants/demo/support"
NEW = {"email": "rita@example.com", "name": "Rita Rater", "subject": "Grinder too loud",
       "description": "The grinder is very loud since Monday.", "challenge_token": "demo-challenge-ok"}  # fmt: skip
LINK = re.compile(r"(https?://\S+/demo/support/p/t/(\S+))")


@pytest.fixture
def mail_server() -> Iterator[SmtpServer]:
    with SmtpServer() as srv:
        yield srv


@pytest.fixture
def srv(settings: Settings, runtime: Runtime, mail_server: SmtpServer) -> Iterator[LiveServer]:
    runtime.db.dispose()
    server = start_server(settings, smtp_url=mail_server.url, rate_limits="off", challenge="demo")
    yield server
    server.stop()
    server.runtime.db.dispose()


def _solve(c: httpx.Client, op: dict[str, str]) -> str:
    made = c.post(PUB + "/tickets", json=NEW)
    assert made.status_code == 201, made.text
    tid = c.get(AGT + "/tickets", headers=op, params={"search": made.json()["data"]["ticket_number"]}).json()
    ticket_id = str(tid["data"][0]["id"])
    r = c.patch(f"{AGT}/tickets/{ticket_id}", headers=op, json={"state": "resolved"})
    assert r.status_code == 200, r.text
    return ticket_id


def _form(c: httpx.Client, path: str) -> str:
    page = c.get(path)
    assert page.status_code == 200, page.text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert token and 'name="rating"' in page.text
    return token.group(1)


def test_solved_ticket_mails_a_rating_link_that_records_the_rating(srv: LiveServer, mail_server: SmtpServer) -> None:
    with httpx.Client(base_url=srv.url, timeout=30) as c:
        op = auth_headers(c, "operator@demo.test")
        ticket_id = _solve(c, op)
        mails = [m for m in mail_server.messages if m["rcpt"] == ["rita@example.com"]]
        assert len(mails) == 1
        msg = email.message_from_bytes(mails[0]["data"], policy=default_policy)
        assert "How did we do?" in str(msg["Subject"]) and msg["Auto-Submitted"] == "auto-generated"
        found = LINK.search(msg.get_body(("plain",)).get_content())
        assert found
        url, token = found.groups()
        path = url.split(srv.url, 1)[-1] if url.startswith(srv.url) else "/" + url.split("/", 3)[3]
        assert token.startswith(ticket_id + ".")
        assert token not in dump_database(srv.runtime) and token.split(".")[1] not in dump_database(srv.runtime)

        # Bad input: a forged or altered token opens nothing; a rating out of range stores nothing.
        assert c.get(path[: -len(token)] + ticket_id).status_code == 404
        assert c.get(path[:-2] + ("00" if not path.endswith("00") else "11")).status_code == 404
        csrf = _form(c, path)
        bad = c.post(path, data={"form": "rating", "rating": "7", "csrf_token": csrf})
        assert bad.status_code == 400
        assert c.get(f"{AGT}/tickets/{ticket_id}", headers=op).json()["data"]["satisfaction_rating"] is None

        good = c.post(path, data={"form": "rating", "rating": "5", "comment": "Fast!", "csrf_token": csrf})
        assert good.status_code == 200 and "Thank you for your rating." in good.text
        again = c.post(path, data={"form": "rating", "rating": "1", "csrf_token": csrf})
        assert again.status_code == 400  # once only
        got = c.get(f"{AGT}/tickets/{ticket_id}", headers=op).json()["data"]
        assert (got["satisfaction_rating"], got["satisfaction_comment"]) == (5, "Fast!")

        admin = auth_headers(c, "admin@demo.test")
        report = c.get(AGT + "/reports", headers=admin, params={"group_by": "source"}).json()["data"]
        public = next(r for r in report["rows"] if r["key"] == "public")
        assert public["satisfaction"]["ratings"] >= 1 and public["satisfaction"]["mean"] is not None
    with srv.runtime.db.reading(None) as s:
        rated = [d for (d,) in s.execute(select(Event.data).where(Event.type == "ticket.rated"))]
    assert rated == [{"ticket_id": ticket_id, "ticket_number": got["number"], "rating": 5}]


def test_no_rating_mail_when_the_tenant_turns_it_off(srv: LiveServer, mail_server: SmtpServer) -> None:
    with httpx.Client(base_url=srv.url, timeout=30) as c:
        admin = auth_headers(c, "admin@demo.test")
        cfg = c.get(AGT + "/helpdesk", headers=admin).json()["data"]
        cfg["mail"]["send_rating_request"] = False
        assert c.put(AGT + "/helpdesk", headers=admin, json=cfg).status_code == 200
        cfg["mail"]["send_rating_request"] = "sometimes"
        assert c.put(AGT + "/helpdesk", headers=admin, json=cfg).status_code == 400
        _solve(c, auth_headers(c, "operator@demo.test"))
        assert [m for m in mail_server.messages if m["rcpt"] == ["rita@example.com"]] == []

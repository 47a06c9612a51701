"""Campaign routes on a real server, mail through a real SMTP server on loopback: import, send,
one-click unsubscribe without sign-in, tracking, stats, surveys, and the refusals."""

from __future__ import annotations

import email
import re
import time
from collections.abc import Iterator
from email.policy import default as default_policy
from typing import Any
from urllib.parse import urlparse

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
    with httpx.Client(base_url=srv.url, timeout=10) as c:
        yield c
    srv.stop()
    srv.runtime.db.dispose()


def wait_for(fetch: Any, done: Any, seconds: float = 20) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        got = fetch()
        if done(got) or time.monotonic() > deadline:
            return got
        time.sleep(0.05)


def test_import_send_unsubscribe_track_and_stats(web: httpx.Client, mail_server: SmtpServer) -> None:
    h = auth_headers(web, "owner@demo.test")
    lst = web.post(f"{BASE}/lists", json={"name": "HTTP list"}, headers=h).json()["data"]
    csv_body = "email,name,city\r\nh1@shop.test,Hana,Oslo\r\nh2@shop.test,Hugo,Rome\r\nbad-row,X,Y\r\nh3@shop.test,Hal,Oslo\r\n"
    r = web.post(
        f"{BASE}/contacts/import",
        params={"list_id": lst["id"]},
        content=csv_body,
        headers={**h, "content-type": "text/csv"},
    )
    assert r.status_code == 200, r.text
    assert r.json()["data"] == {
        "imported": 3,
        "updated": 0,
        "skipped": 0,
        "errors": [{"row": 3, "error": r.json()["data"]["errors"][0]["error"]}],
    }
    multi = web.post(
        f"{BASE}/contacts/import",
        params={"list_id": lst["id"]},
        files={"file": ("c.csv", b"email,name\r\nh1@shop.test,Hana Berg\r\n", "text/csv")},
        headers=h,
    )
    assert multi.json()["data"]["updated"] == 1
    # One contact unsubscribed beforehand: never sent to.
    h3 = web.get(f"{BASE}/contacts", params={"search": "h3@shop.test"}, headers=h).json()["data"][0]
    assert web.put(f"{BASE}/contacts/{h3['id']}", json={"status": "unsubscribed"}, headers=h).status_code == 200
    tpl = web.post(
        f"{BASE}/templates/email",
        json={
            "name": "T",
            "subject": "News for {{ contact.first_name }}",
            "html": '<a href="https://shop.example.com/x">Go</a>',
            "text": "Hi",
        },
        headers=h,
    ).json()["data"]
    body = {"name": "HTTP campaign", "template_id": tpl["id"], "list_ids": [lst["id"]]}
    made = web.post(f"{BASE}/campaigns", json=body, headers={**h, "Idempotency-Key": "camp-1"})
    twice = web.post(f"{BASE}/campaigns", json=body, headers={**h, "Idempotency-Key": "camp-1"})
    assert made.status_code == 201 and twice.json()["data"]["id"] == made.json()["data"]["id"]
    cid = made.json()["data"]["id"]
    sent = web.post(f"{BASE}/campaigns/{cid}/send", json={}, headers=h)
    assert sent.status_code == 200 and sent.json()["data"]["status"] == "running"
    done = wait_for(
        lambda: web.get(f"{BASE}/campaigns/{cid}", headers=h).json()["data"], lambda d: d["status"] == "finished"
    )
    assert done["status"] == "finished" and done["progress"] == 100
    assert sorted(m["rcpt"][0] for m in mail_server.messages) == ["h1@shop.test", "h2@shop.test"]
    again = web.post(f"{BASE}/campaigns/{cid}/send", json={}, headers=h)
    assert again.status_code == 409 and again.json()["details"]["current_state"] == "finished"

    msg = email.message_from_bytes(mail_server.messages[0]["data"], policy=default_policy)
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsub = urlparse(re.search(r"<([^>]+)>", msg["List-Unsubscribe"]).group(1)).path  # type: ignore[union-attr]
    html = msg.get_body(("html",)).get_content()
    pixel = urlparse(re.search(r'<img src="([^"]+)"', html).group(1)).path  # type: ignore[union-attr]
    click = re.search(r'href="([^"]+)"', html).group(1).replace("&amp;", "&")  # type: ignore[union-attr]
    page = web.get(unsub)  # no sign-in; the page changes nothing
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    one_click = web.post(
        unsub, content=b"List-Unsubscribe=One-Click", headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert one_click.status_code == 200 and one_click.json()["data"]["unsubscribed"] is True
    assert web.post(unsub[:-4] + "0000").status_code == 404
    gif = web.get(pixel)
    assert gif.status_code == 200 and gif.headers["content-type"] == "image/gif"
    u = urlparse(click)
    redirect = web.get(u.path + "?" + u.query)
    assert redirect.status_code == 302 and redirect.headers["location"] == "https://shop.example.com/x"
    assert web.get(u.path + "?url=https://evil.test/").status_code == 404
    stats = web.get(f"{BASE}/campaigns/{cid}/stats", headers=h).json()["data"]
    assert {k: stats[k] for k in ("recipients", "sent", "opened", "clicked", "unsubscribed")} == {
        "recipients": 2,
        "sent": 2,
        "opened": 1,
        "clicked": 1,
        "unsubscribed": 1,
    }
    events = web.get("/demo/events/api/events", params={"type": "contact.unsubscribed"}, headers=h)
    assert events.status_code == 200 and any(e["data"].get("campaign_id") == cid for e in events.json()["data"])

    # Refusals: no credentials, another tenant, a role without the module, bad input.
    assert web.get(f"{BASE}/campaigns").status_code == 401
    assert web.get(f"{BASE}/campaigns/{cid}", headers=auth_headers(web, "owner@other.test")).status_code == 403
    assert (
        web.get(f"/other/campaign/api/campaigns/{cid}", headers=auth_headers(web, "owner@other.test")).status_code
        == 404
    )
    assert web.get(f"{BASE}/contacts", headers=auth_headers(web, "operator@demo.test")).status_code == 403
    bad = web.post(f"{BASE}/segments", json={"name": "x", "rules": {"all": [{"field": "nope", "op": "eq"}]}}, headers=h)
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    assert web.post(f"{BASE}/campaigns", json={**body, "extra": 1}, headers=h).status_code == 400
    sched = web.post(f"{BASE}/campaigns/{cid}/send", json={"send_at": "2030-01-01T09:00:00"}, headers=h)
    assert sched.status_code == 400  # a time without its offset
    sms = web.post(f"{BASE}/templates/sms", json={"name": "s", "body": "Grüße 🎉"}, headers=h).json()["data"]
    assert (sms["segments"], sms["encoding"]) == (1, "ucs2")


def test_public_survey_answers_and_lists(web: httpx.Client) -> None:
    h = auth_headers(web, "owner@demo.test")
    surveys = web.get(f"{BASE}/surveys", params={"limit": 5, "offset": 0}, headers=h).json()
    assert surveys["pagination"]["limit"] == 5 and surveys["meta"]["total"] >= 1
    sid = surveys["data"][0]["id"]
    q = web.get(f"{BASE}/p/surveys/{sid}")
    assert q.status_code == 200 and q.json()["data"]["status"] == "open"
    ok = web.post(f"{BASE}/p/surveys/{sid}/responses", json={"answers": {"score": 8}})
    assert ok.status_code == 201
    assert web.post(f"{BASE}/p/surveys/{sid}/responses", json={"answers": {"score": 99}}).status_code == 400
    assert web.patch(f"{BASE}/surveys/{sid}", json={"status": "closed"}, headers=h).status_code == 200
    closed = web.post(f"{BASE}/p/surveys/{sid}/responses", json={"answers": {"score": 8}})
    assert closed.status_code == 409 and closed.json()["details"]["current_state"] == "closed"
    assert web.get(f"{BASE}/surveys/{sid}/responses", headers=h).json()["meta"]["total"] >= 4
    overview = web.get(f"{BASE}/analytics", headers=h).json()["data"]
    assert overview["sent"] > 0
    for path in ("lists", "segments", "flows", "templates/email", "templates/sms", "contacts?sort=-email"):
        assert web.get(f"{BASE}/{path}", headers=h).status_code == 200, path

"""Support routes against a real uvicorn server: guests, agents, limits, challenges, concurrency."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from app.settings import Settings
from services.core.context import Runtime
from services.support.dns import Resolver
from tests.conftest import LiveServer, auth_headers, start_server
from tests.support_fakes import siteverify_server

PUB = "/api/tenants/demo/support/public"
AGT = "/api/tenants/demo/support"
NEW = {"email": "gina@example.com", "name": "Gina Guest", "subject": "Kettle arrived broken",
       "description": "The kettle arrived broken, the lid is cracked.", "challenge_token": "demo-challenge-ok"}  # fmt: skip
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


def open_ticket(client: httpx.Client, **over: Any) -> dict[str, Any]:
    r = client.post(PUB + "/tickets", json={**NEW, **over})
    assert r.status_code == 201, r.text
    return dict(r.json()["data"])


def test_guest_journey_and_internal_notes_never_leave(client: httpx.Client) -> None:
    t = open_ticket(client)
    num, tok = t["ticket_number"], t["access_token"]
    assert re.fullmatch(rf"TKT-{datetime.now(UTC).year}-\d{{6}}", num) and t["message"]
    op = auth_headers(client, "operator@demo.test")
    tid = client.get(f"{AGT}/tickets/{num}", headers=op).json()["data"]["id"]
    # A guest file, then an internal note with its own file, then a public answer.
    up = client.post(PUB + "/attachments", params={"ticket_number": num}, content=PNG,
                     headers={"X-Access-Token": tok, "Content-Type": "image/png"})  # fmt: skip
    assert up.status_code == 201 and up.json()["data"]["content_type"] == "image/png"
    note_file = client.post(AGT + "/attachments", params={"ticket_id": tid, "filename": "log.txt"},
                            content=b"internal log", headers={**op, "Content-Type": "text/plain"})  # fmt: skip
    assert note_file.status_code == 201
    note = client.post(f"{AGT}/tickets/{tid}/messages", headers=op,
                       json={"body": "INTERNAL-ONLY reseller, check fraud", "internal": True,
                             "attachment_ids": [note_file.json()["data"]["id"]]})  # fmt: skip
    assert note.status_code == 201 and note.json()["data"]["internal"] is True
    reply = client.post(f"{AGT}/tickets/{tid}/messages", headers=op, json={"body": "A new kettle is on its way."})
    assert reply.status_code == 201
    # Every public route: the note and its file never appear.
    answers = [
        client.post(PUB + "/tickets/lookup", json={"ticket_number": num, "access_token": tok}),
        client.get(f"{PUB}/tickets/{num}/messages", headers={"X-Access-Token": tok}),
        client.post(
            f"{PUB}/tickets/{num}/messages",
            json={"access_token": tok, "body": "Thanks! Photo attached.", "attachment_ids": [up.json()["data"]["id"]]},
        ),  # fmt: skip
        client.get(f"{PUB}/tickets/{num}/messages", headers={"X-Access-Token": tok}),
    ]
    for r in answers:
        assert r.status_code in (200, 201), r.text
        assert "INTERNAL-ONLY" not in r.text and "log.txt" not in r.text and '"internal"' not in r.text
    bodies = [m["body"] for m in answers[-1].json()["data"]]
    assert bodies[-2:] == ["A new kettle is on its way.", "Thanks! Photo attached."]
    assert answers[-1].json()["data"][-1]["attachments"][0]["content_type"] == "image/png"
    # The agent sees both, the note marked.
    agent_view = client.get(f"{AGT}/tickets/{tid}/messages", headers=op).json()["data"]
    assert [m["internal"] for m in agent_view].count(True) == 1


def test_wrong_token_and_unknown_number_answer_the_same_404(client: httpx.Client) -> None:
    t = open_ticket(client)
    num = t["ticket_number"]
    pairs = [
        client.post(PUB + "/tickets/lookup", json={"ticket_number": num, "access_token": "wrong"}),
        client.post(PUB + "/tickets/lookup", json={"ticket_number": "TKT-2001-999999", "access_token": "wrong"}),
        client.get(f"{PUB}/tickets/{num}/messages", headers={"X-Access-Token": "wrong"}),
        client.get(f"{PUB}/tickets/{num}/messages"),
        client.get(f"{PUB}/tickets/TKT-2001-999999/messages", headers={"X-Access-Token": t["access_token"]}),
        client.post(f"{PUB}/tickets/{num}/messages", json={"access_token": "wrong", "body": "hi"}),
    ]
    assert {r.status_code for r in pairs} == {404}
    assert len({r.text for r in pairs}) == 1
    # The other tenant's public route does not know the number.
    other = client.get(f"/api/tenants/other/support/public/tickets/{num}/messages",
                       headers={"X-Access-Token": t["access_token"]})  # fmt: skip
    assert other.status_code == 404


def test_challenge_and_body_failures(client: httpx.Client) -> None:
    bad = client.post(PUB + "/tickets", json={**NEW, "challenge_token": "i-am-a-bot"})
    assert bad.status_code == 403 and bad.json()["code"] == "FORBIDDEN"
    missing = client.post(PUB + "/tickets", json={k: v for k, v in NEW.items() if k != "challenge_token"})
    assert missing.status_code == 400 and missing.json()["code"] == "VALIDATION_ERROR"
    broken = client.post(PUB + "/tickets", content=b"{not json", headers={"Content-Type": "application/json"})
    assert broken.status_code == 400
    extra = client.post(PUB + "/tickets", json={**NEW, "priority": "urgent"})
    assert extra.status_code == 400
    assert client.post(PUB + "/tickets", json={**NEW, "email": "nope"}).status_code == 400


def test_agent_access_rules(client: httpx.Client, server: LiveServer) -> None:
    assert client.get(AGT + "/tickets").status_code == 401
    device = auth_headers(client, "device@demo.test")
    assert client.get(AGT + "/tickets", headers=device).status_code == 403
    op = auth_headers(client, "operator@demo.test")
    tid = client.get(AGT + "/tickets", headers=op).json()["data"][0]["id"]
    other = auth_headers(client, "owner@other.test")
    assert client.get(f"/api/tenants/other/support/tickets/{tid}", headers=other).status_code == 404
    assert client.patch(f"/api/tenants/other/support/tickets/{tid}", headers=other,
                        json={"priority": "low"}).status_code == 404  # fmt: skip
    assert client.get(f"{AGT}/tickets/{tid}", headers=other).status_code == 403
    # Operators work tickets; the helpdesk configuration is for owners and admins.
    cfg = client.get(AGT + "/helpdesk", headers=op).json()["data"]
    assert client.put(AGT + "/helpdesk", headers=op, json=cfg).status_code == 403
    admin = auth_headers(client, "admin@demo.test")
    cfg["canned_responses"] = [{"id": "thanks", "title": "Thanks", "body": "Thanks {requester_name}!"}]
    r = client.put(AGT + "/helpdesk", headers=admin, json=cfg)
    assert r.status_code == 200 and r.json()["data"]["canned_responses"][0]["id"] == "thanks"
    del cfg["sla"]["low"]
    assert client.put(AGT + "/helpdesk", headers=admin, json=cfg).status_code == 400


def test_list_filters_pagination_and_patch(client: httpx.Client) -> None:
    op = auth_headers(client, "operator@demo.test")
    a = client.get(AGT + "/tickets", params={"page": 2, "limit": 5}, headers=op).json()
    assert a["meta"] == {"page": 2, "limit": 5, "total": 20} and len(a["data"]) == 5
    b = client.get(AGT + "/tickets", params={"offset": 15, "limit": 10}, headers=op).json()
    assert b["pagination"] == {"total": 20, "limit": 10, "offset": 15} and len(b["data"]) == 5
    pending = client.get(AGT + "/tickets", params={"state": "pending"}, headers=op).json()
    assert pending["meta"]["total"] == 4 and {t["state"] for t in pending["data"]} == {"pending"}
    by_mail = client.get(AGT + "/tickets", params={"search": "alice@exa"}, headers=op).json()["data"]
    assert [t["subject"] for t in by_mail] == ["Charged twice for order 1042", "Refund for returned jacket"]
    by_num = client.get(AGT + "/tickets", params={"search": by_mail[0]["number"]}, headers=op).json()["data"]
    assert len(by_num) == 1
    assert client.get(AGT + "/tickets", params={"state": "bogus"}, headers=op).status_code == 400
    assert client.get(AGT + "/tickets", params={"sort": "password"}, headers=op).status_code == 400
    tid = by_mail[0]["id"]
    me = client.get("/api/tenants/demo/me", headers=op).json()["data"]["id"]
    r = client.patch(f"{AGT}/tickets/{tid}", headers=op,
                     json={"priority": "urgent", "assignee_id": me, "tags": ["vip", "vip", "refund"]})  # fmt: skip
    body = r.json()["data"]
    assert r.status_code == 200 and body["priority"] == "urgent" and body["tags"] == ["refund", "vip"]
    assert body["assignee_name"] == "Omar Operator"
    assert (
        client.get(AGT + "/tickets", params={"queue": "mine", "search": "1042"}, headers=op).json()["meta"]["total"]
        == 1
    )
    wrong = client.patch(f"{AGT}/tickets/{tid}", headers=op, json={"state": "closed"})
    assert wrong.status_code == 409 and wrong.json()["details"]["current_state"] == "open"
    device_id = client.get("/api/tenants/demo/me", headers=auth_headers(client, "device@demo.test")).json()["data"][
        "id"
    ]
    assert client.patch(f"{AGT}/tickets/{tid}", headers=op, json={"assignee_id": device_id}).status_code == 400
    assert (
        client.patch(f"{AGT}/tickets/{tid}", headers=op, json={"state": "resolved"}).json()["data"]["state"]
        == "resolved"
    )
    assert client.get(AGT + "/queues", headers=op).json()["data"]["all"] == 20


def test_oversized_attachment_is_413(client: httpx.Client) -> None:
    op = auth_headers(client, "operator@demo.test")
    big = b"a" * (20 * 1024 * 1024 + 1)
    r = client.post(AGT + "/attachments", content=big, headers={**op, "Content-Type": "text/plain"})
    assert r.status_code == 413 and r.json()["code"] == "PAYLOAD_TOO_LARGE"
    exe = client.post(
        AGT + "/attachments", content=b"MZ\x90\x00\x03\x00\x00\x00", headers={**op, "Content-Type": "image/png"}
    )
    assert exe.status_code == 400
    ok = client.post(AGT + "/attachments", content=PNG, headers={**op, "Content-Type": "image/png"},
                     params={"filename": "../../etc/passwd.png"})  # fmt: skip
    att = ok.json()["data"]
    assert "/" not in att["filename"]
    got = client.get(f"{AGT}/attachments/{att['id']}", headers=op)
    assert got.content == PNG and got.headers["content-type"] == "image/png"
    assert client.delete(f"{AGT}/attachments/{att['id']}", headers=op).status_code == 204
    assert client.get(f"{AGT}/attachments/{att['id']}", headers=op).status_code == 404


def test_numbers_unique_and_gap_free_under_concurrency(client: httpx.Client, server: LiveServer) -> None:
    def one(i: int) -> str:
        with httpx.Client(base_url=server.url, timeout=30) as c:
            r = c.post(PUB + "/tickets", json={**NEW, "subject": f"parallel {i}"})
            assert r.status_code == 201, r.text
            return str(r.json()["data"]["ticket_number"])

    with ThreadPoolExecutor(8) as pool:
        numbers = list(pool.map(one, range(24)))
    seqs = sorted(int(n.rsplit("-", 1)[1]) for n in numbers)
    assert seqs == list(range(21, 45))


def test_my_tickets(client: httpx.Client) -> None:
    open_ticket(client, email="operator@demo.test")
    r = client.post("/api/tenants/other/support/public/tickets", json={**NEW, "email": "operator@demo.test"})
    assert r.status_code == 201
    mine = client.get("/api/support/my-tickets", headers=auth_headers(client, "operator@demo.test"))
    assert mine.status_code == 200 and [t["tenant"] for t in mine.json()["data"]] == ["demo"]
    assert client.get("/api/support/my-tickets").status_code == 401
    assert client.get("/api/support/my-tickets", headers=auth_headers(client, "owner@other.test")).json()["data"] == []


def test_categories_and_triage_routes(client: httpx.Client) -> None:
    op = auth_headers(client, "operator@demo.test")
    public = client.get(PUB + "/categories").json()["data"]
    assert len(public) == 6 and set(public[0]) == {"id", "name", "description"}
    made = client.post(
        AGT + "/categories", headers=op, json={"name": "Warranty", "keywords": ["Warranty", "guarantee"]}
    )
    assert made.status_code == 201 and made.json()["data"]["keywords"] == ["guarantee", "warranty"]
    assert client.post(AGT + "/categories", headers=op, json={"name": "warranty"}).status_code == 409
    cid = made.json()["data"]["id"]
    assert client.patch(f"{AGT}/categories/{cid}", headers=op, json={"description": "x"}).status_code == 200
    tri = client.post(AGT + "/ai/triage", headers=op,
                      json={"subject": "Cannot log in", "description": "password reset link does not work"})  # fmt: skip
    data = tri.json()["data"]
    assert tri.status_code == 200 and data["category_name"] == "Account & login" and data["method"]
    sug = client.put(AGT + "/ai/triage", headers=op, json={"subject": "locked", "description": "account locked"})
    assert sug.status_code == 200 and "unlocked" in sug.json()["data"]["reply"]
    assert client.delete(f"{AGT}/categories/{cid}", headers=op).status_code == 204
    used = public[0]["id"]
    assert client.delete(f"{AGT}/categories/{used}", headers=op).status_code == 409


class _FakeResolver:
    def __init__(self) -> None:
        self.records: dict[str, list[str]] = {}

    def txt_records(self, name: str) -> list[str]:
        return self.records.get(name, [])


def test_email_domain_routes(client: httpx.Client, server: LiveServer) -> None:
    fake = _FakeResolver()
    server.runtime.provide(Resolver(fake))
    admin = auth_headers(client, "admin@demo.test")
    none = client.get(AGT + "/email-domain", headers=admin)
    assert none.status_code == 200 and none.json()["data"]["status"] == "none", none.text
    reg = client.post(AGT + "/email-domain", headers=admin, json={"domain": "support.example.org"}).json()["data"]
    assert reg["status"] == "pending" and reg["txt_value"].startswith("platform-verification=")
    assert client.post(AGT + "/email-domain", headers=admin, json={"domain": "x.example.org"}).status_code == 409
    assert client.post(AGT + "/email-domain", headers=admin, json={"domain": "not a domain"}).status_code == 400
    missing = client.put(AGT + "/email-domain", headers=admin)
    assert missing.status_code == 409 and missing.json()["details"]["txt_name"] == reg["txt_name"]
    fake.records[reg["txt_name"]] = [reg["txt_value"]]
    assert client.put(AGT + "/email-domain", headers=admin).json()["data"]["status"] == "verified"
    assert client.delete(AGT + "/email-domain", headers=admin).status_code == 204


@pytest.fixture
def siteverify() -> Iterator[str]:
    with siteverify_server() as url:
        yield url


def test_turnstile_and_rate_limit_on_a_server_with_limits(
    settings: Settings, runtime: Runtime, siteverify: str
) -> None:
    runtime.db.dispose()
    srv = start_server(settings, rate_limits="A", challenge="turnstile", challenge_secret="s3cret",
                       challenge_url=siteverify)  # fmt: skip
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            robot = c.post("/api/tenants/other/support/public/tickets", json={**NEW, "challenge_token": "robot"})
            assert robot.status_code == 403 and robot.json()["code"] == "FORBIDDEN"
            codes = [c.post(PUB + "/tickets", json={**NEW, "challenge_token": "human"}) for _ in range(6)]
            # 5 per hour per IP per tenant: the sixth is refused.
            assert [r.status_code for r in codes] == [201, 201, 201, 201, 201, 429]
            last = codes[-1]
            assert int(last.headers["Retry-After"]) > 0 and last.json()["code"] == "RATE_LIMITED"
            assert last.headers["X-RateLimit-Remaining"] == "0"
            # Another tenant has its own budget.
            other = c.post("/api/tenants/other/support/public/tickets", json={**NEW, "challenge_token": "human"})
            assert other.status_code == 201
    finally:
        srv.stop()
        srv.runtime.db.dispose()

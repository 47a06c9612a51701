"""The platform's sync routes over real HTTP: registration, the signed push, the pull, and every way to get them wrong."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from services.core.commands import sign_entry
from services.core.demo import demo_id
from services.sync import protocol as p
from tests.conftest import LiveServer, auth_headers, dump_database

DEMO = demo_id("tenant", "demo")
ADMIN = demo_id("user", "admin@demo.test")
T = "/api/tenants/demo/sync"


def register(client: httpx.Client, station_id: str = "desk-1") -> str:
    r = client.post(f"{T}/stations", json={"stationId": station_id, "name": "Front desk"},
                    headers=auth_headers(client, "owner@demo.test"))  # fmt: skip
    assert r.status_code == 201, r.text
    return str(r.json()["data"]["secret"])


def entry(secret: str, seq: int, *, station: str = "desk-1", path: str | None = None, body: Any = None,
          ids: list[str] | None = None, actor: str = ADMIN, void: bool = False) -> dict[str, Any]:  # fmt: skip
    created = datetime.now(UTC).isoformat()
    e = {"command": "support.tickets.create", "method": "POST", "path": path or "/api/tenants/demo/support/tickets",
         "body": body if body is not None else {"subject": f"from the station {seq}", "description": "d",
                                                 "email": "ann@example.test", "name": "Ann"},
         "idempotency_key": str(uuid.uuid4()), "actor_id": actor, "created_at": created,
         "ids": ids if ids is not None else [str(uuid.uuid4()) for _ in range(4)]}  # fmt: skip
    signed = {**e, "station_id": station, "tenant_id": DEMO, "station_seq": seq}
    return {**e, "seq": seq, "void": void, "signature": sign_entry(secret.encode(), signed)}


def push(client: httpx.Client, secret: str, entries: list[dict[str, Any]], *, station: str = "desk-1",
         slug: str = "demo", now: float | None = None) -> httpx.Response:  # fmt: skip
    purpose = p.push_purpose([e["signature"] for e in entries])
    headers = p.signed_headers(secret, slug, station, purpose, now or time.time())
    return client.post(f"/api/tenants/{slug}/sync/push", json={"entries": entries}, headers=headers)


def pull(
    client: httpx.Client, secret: str, cursor: str = "", limit: int = 1000, station: str = "desk-1"
) -> httpx.Response:
    headers = p.signed_headers(secret, "demo", station, f"pull:{cursor}:{limit}", time.time())
    return client.get(f"{T}/pull", params={"cursor": cursor, "limit": limit}, headers=headers)


def test_registration_is_for_owners_and_admins_and_the_secret_is_shown_once(
    client: httpx.Client, server: LiveServer
) -> None:
    r = client.post(
        f"{T}/stations", json={"stationId": "desk-1", "name": "x"}, headers=auth_headers(client, "operator@demo.test")
    )
    assert r.status_code == 403
    assert client.post(f"{T}/stations", json={"stationId": "desk-1", "name": "x"}).status_code == 401
    bad = client.post(
        f"{T}/stations",
        json={"stationId": "no spaces/here", "name": "x"},
        headers=auth_headers(client, "owner@demo.test"),
    )
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    secret = register(client)
    again = client.post(
        f"{T}/stations", json={"stationId": "desk-1", "name": "x"}, headers=auth_headers(client, "admin@demo.test")
    )
    assert again.status_code == 409 and again.json()["details"]["station"]["stationId"] == "desk-1"
    listed = client.get(f"{T}/stations", headers=auth_headers(client, "admin@demo.test")).json()
    assert [s["stationId"] for s in listed["data"]] == ["desk-1"] and "secret" not in listed["data"][0]
    # Kept sealed: the secret is in no table in clear.
    assert secret not in dump_database(server.runtime)


def test_a_signed_push_applies_changes_in_order_with_the_stations_ids(client: httpx.Client) -> None:
    secret = register(client)
    e1 = entry(secret, 1)
    ticket_id = e1["ids"][0]
    reply = entry(secret, 2, path=f"/api/tenants/demo/support/tickets/{ticket_id}/messages",
                  body={"body": "on it", "internal": False}, ids=[str(uuid.uuid4()) for _ in range(3)])  # fmt: skip
    reply["command"] = "support.messages.create"
    reply["signature"] = sign_entry(secret.encode(), {**{k: v for k, v in reply.items() if k not in ("seq", "void", "signature")},
                                                      "station_id": "desk-1", "tenant_id": DEMO, "station_seq": 2})  # fmt: skip
    r = push(client, secret, [e1, reply])
    assert r.status_code == 200, r.text
    out = r.json()["data"]
    assert [a["status"] for a in out["answers"]] == ["applied", "applied"] and out["lastSeq"] == 2
    assert out["answers"][0]["result"]["id"] == ticket_id  # the station's id, not a new one
    assert out["answers"][0]["result"]["number"].startswith("TKT-")

    # The same batch again (a lost answer): duplicates, answered as the first time, applied once.
    again = push(client, secret, [e1, reply]).json()["data"]["answers"]
    assert [(a["status"], a["first"]) for a in again] == [("duplicate", "applied"), ("duplicate", "applied")]
    assert again[0]["result"]["id"] == ticket_id
    msgs = client.get(
        f"/api/tenants/demo/support/tickets/{ticket_id}/messages", headers=auth_headers(client, "admin@demo.test")
    )
    assert sum(1 for m in msgs.json()["data"] if m["body"] == "on it") == 1


def test_every_way_to_get_an_entry_wrong_is_answered_per_entry(client: httpx.Client) -> None:
    secret = register(client)
    forged = entry(secret, 1)
    forged["body"]["subject"] = "changed on the way"
    other_tenant = entry(secret, 2, path="/api/tenants/other/support/tickets")
    unknown = entry(secret, 3, path="/api/tenants/demo/support/nowhere")
    invalid = entry(secret, 4, body={"subject": ""})
    stranger = entry(secret, 5, actor=str(uuid.uuid4()))
    void = entry(secret, 6, void=True)
    answers = push(client, secret, [forged, other_tenant, unknown, invalid, stranger, void]).json()["data"]["answers"]
    got = [(a["status"], (a["error"] or {}).get("code")) for a in answers]
    assert got == [
        ("rejected", "SIGNATURE_INVALID"),
        ("rejected", "VALIDATION_ERROR"),
        ("rejected", "NOT_FOUND"),
        ("rejected", "VALIDATION_ERROR"),
        ("rejected", "FORBIDDEN"),
        ("void", None),
    ]
    # A gap stops the batch; nothing after it is looked at.
    gap = push(client, secret, [entry(secret, 9), entry(secret, 10)]).json()["data"]
    assert [(a["status"], a.get("expected")) for a in gap["answers"]] == [("gap", 7), ("deferred", None)]
    assert gap["lastSeq"] == 6
    # A number used again for another change is refused (a replayed or reordered entry).
    reused = push(client, secret, [entry(secret, 6)]).json()["data"]["answers"][0]
    assert (reused["status"], reused["error"]["code"]) == ("rejected", "SEQUENCE_REUSED")


@pytest.mark.parametrize(
    ("case", "reason"),
    [("no headers", None), ("bad signature", "bad_signature"), ("unknown station", "unknown_station"),
     ("slow clock", "clock_skew"), ("other tenant", "unknown_station")],
)  # fmt: skip
def test_requests_that_are_not_a_registered_stations_are_refused(
    client: httpx.Client, case: str, reason: str | None
) -> None:
    secret = register(client)
    e = [entry(secret, 1)]
    if case == "no headers":
        r = client.post(f"{T}/push", json={"entries": e})
    elif case == "bad signature":
        r = push(client, "not-the-secret", e)
    elif case == "unknown station":
        r = push(client, secret, e, station="desk-9")
    elif case == "slow clock":
        r = push(client, secret, e, now=time.time() - 600)
    else:
        r = push(client, secret, e, slug="other")
    assert r.status_code == 401 and r.json()["code"] == "UNAUTHORIZED"
    assert r.json().get("details", {}).get("reason") == reason
    if reason == "clock_skew":
        assert "10 min behind" in r.json()["error"] and r.json()["details"]["serverTime"]
    assert secret not in r.text


def test_a_revoked_station_is_refused_until_registered_again(client: httpx.Client) -> None:
    secret = register(client)
    assert push(client, secret, [entry(secret, 1)]).json()["data"]["lastSeq"] == 1
    owner = auth_headers(client, "owner@demo.test")
    r = client.delete(f"{T}/stations/desk-1", headers=owner)
    assert r.status_code == 200 and r.json()["data"]["revokedAt"]
    refused = push(client, secret, [entry(secret, 2)])
    assert refused.status_code == 401 and refused.json()["details"]["reason"] == "revoked_station"
    fresh = register(client)
    assert fresh != secret
    assert push(client, secret, [entry(secret, 2)]).status_code == 401  # the old secret is dead
    # The sequence goes on where it was.
    assert push(client, fresh, [entry(fresh, 2)]).json()["data"]["answers"][0]["status"] == "applied"


def test_malformed_and_oversized_pushes_are_refused_whole(client: httpx.Client) -> None:
    secret = register(client)
    headers = p.signed_headers(secret, "demo", "desk-1", p.push_purpose([]), time.time())
    bad = client.post(f"{T}/push", content=b'{"entries": [', headers={**headers, "content-type": "application/json"})
    assert bad.status_code == 400
    many = [entry(secret, i) for i in range(1, 252)]
    assert push(client, secret, many).status_code == 400
    assert client.post(f"{T}/push", json={"entries": []}, headers=headers).status_code == 400


def test_the_pull_pages_through_the_tenants_changes_only(client: httpx.Client) -> None:
    secret = register(client)
    cursor, seen, pages = "", [], 0
    while True:
        r = pull(client, secret, cursor, limit=40)
        assert r.status_code == 200, r.text
        page = r.json()["data"]
        seen += page["changes"]
        pages += 1
        assert page["remaining"] >= 0
        if not page["more"]:
            break
        cursor = page["cursor"]
    assert pages > 2
    ids = [(c["table"], c["id"]) for c in seen]
    assert len(ids) == len(set(ids))  # each record once
    tenants = {c["row"].get("tenant_id", c["row"]["id"]) for c in seen if c["table"] not in ("users",)}
    assert tenants == {DEMO}
    assert not any(c["table"] in ("api_keys", "outbox", "events", "sync_stations") for c in seen)
    users = [c["row"] for c in seen if c["table"] == "users"]
    assert users and all("email" in u for u in users) and not any(u["email"].endswith("other.test") for u in users)
    # Caught up: an empty page and the same cursor.
    last = pull(client, secret, page["cursor"]).json()["data"]
    assert last["changes"] == [] and last["cursor"] == page["cursor"]
    # A change made now is the next page.
    push(client, secret, [entry(secret, 1)])
    nxt = pull(client, secret, page["cursor"]).json()["data"]["changes"]
    assert {c["table"] for c in nxt} >= {"support_tickets", "support_messages"}
    assert pull(client, secret, "garbage").status_code == 400


def test_the_sync_routes_are_in_the_openapi_document(client: httpx.Client) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for route in ("/push", "/pull", "/rows", "/counts", "/status", "/stations", "/stations/{station_id}"):
        assert f"/api/tenants/{{tenant}}/sync{route}" in paths


def test_a_planned_id_already_in_use_is_rejected_the_same_way_wherever_it_lives(
    client: httpx.Client, server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 13, item 9: an id plan naming another tenant's ticket id (or one of this tenant's
    records, of another kind) is refused for good with one answer; nothing logged, no retry."""
    from sqlalchemy import text

    def ticket(slug: str, email: str) -> str:
        r = client.post(f"/api/tenants/{slug}/support/tickets", headers=auth_headers(client, email),
                        json={"subject": "s", "description": "d", "email": "x@example.test", "name": "X"})  # fmt: skip
        assert r.status_code == 201, r.text
        return str(r.json()["data"]["id"])

    theirs, ours = ticket("other", "owner@other.test"), ticket("demo", "admin@demo.test")
    secret = register(client)
    fresh = [str(uuid.uuid4()) for _ in range(3)]
    entries = [entry(secret, 1, ids=[theirs, *fresh]), entry(secret, 2, ids=[ours, *fresh]), entry(secret, 3)]
    with caplog.at_level("DEBUG"):
        r = push(client, secret, entries)
    assert r.status_code == 200, r.text
    out = r.json()["data"]
    a1, a2, a3 = out["answers"]
    assert a1["status"] == a2["status"] == "rejected"
    assert a1["error"] == a2["error"] == {"error": a1["error"]["error"], "code": "VALIDATION_ERROR"}
    assert "already" in a1["error"]["error"] and theirs not in str(a1)
    # Consumed: the queue goes on at once (no retry), and the next entry is applied.
    assert a3["status"] == "applied" and out["lastSeq"] == 3
    assert not [rec for rec in caplog.records if rec.levelname in ("ERROR", "CRITICAL") or rec.exc_info]
    # The other tenant's ticket is untouched.
    with server.runtime.db.engine.connect() as conn:
        owner = conn.execute(text("SELECT tenant_id FROM support_tickets WHERE id = :i"), {"i": theirs}).scalar()
    assert owner != DEMO


def signed_get(client: httpx.Client, secret: str, route: str, purpose: str, **params: Any) -> httpx.Response:
    headers = p.signed_headers(secret, "demo", "desk-1", purpose, time.time())
    return client.get(f"{T}{route}", params=params, headers=headers)


def test_counts_ids_and_rows_narrow_a_difference_down_to_the_records(client: httpx.Client) -> None:
    """A station comparing its records with the platform's: a digest of each table's ids, the ids
    of one table in pages, and those records read from the table itself; only the tenant's."""
    import hashlib

    secret = register(client)
    counts = signed_get(client, secret, "/counts", "counts").json()["data"]
    assert set(counts["digests"]) == set(counts["counts"]) == set(p.synced_tables())
    pages: list[str] = []
    after = ""
    while True:
        r = signed_get(client, secret, "/ids", f"ids:support_tickets:{after}:2", table="support_tickets",
                       after=after, limit=2)  # fmt: skip
        assert r.status_code == 200, r.text
        got = r.json()["data"]
        assert got["table"] == "support_tickets" and len(got["ids"]) <= 2
        pages += got["ids"]
        if not got["more"]:
            break
        after = got["ids"][-1]
    assert len(pages) == len(set(pages)) == counts["counts"]["support_tickets"] > 2
    want = hashlib.sha256("\n".join(sorted(pages)).encode()).hexdigest()
    assert counts["digests"]["support_tickets"] == want
    users = signed_get(client, secret, "/ids", "ids:users::5000", table="users").json()["data"]["ids"]
    assert ADMIN in users and demo_id("user", "owner@other.test") not in users  # the tenant's members only

    gone = str(uuid.uuid4())
    joined = f"{pages[0]},{gone}"
    rows = signed_get(client, secret, "/rows", f"rows:support_tickets:{joined}", ids=joined, table="support_tickets")
    assert rows.status_code == 200, rows.text
    changes = {c["id"]: c for c in rows.json()["data"]["changes"]}
    assert changes[pages[0]]["row"]["id"] == pages[0] and not changes[pages[0]]["deleted"]
    assert changes[gone]["deleted"] and changes[gone]["row"] is None
    # Signed for what it asks: the same signature does not serve another table.
    forged = signed_get(client, secret, "/rows", f"rows:support_tickets:{joined}", ids=joined, table="users")
    assert forged.status_code == 401
    unknown = signed_get(client, secret, "/ids", "ids:outbox::5000", table="outbox")
    assert unknown.status_code == 400 and "not a synced table" in unknown.json()["error"]
    assert f"{T.replace('demo', '{tenant}')}/ids" in client.get("/openapi.json").json()["paths"]

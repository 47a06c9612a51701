"""Sync end to end: a real platform server process, real station databases, real HTTP."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select, text

from local_db.models import OutboxEntry
from local_db.models.fulfillment import FulfillmentOrder
from local_db.models.support import SupportMessage, SupportTicket
from services.core.clock import FixedClock
from services.sync import station as st
from services.sync.client import PlatformClient, SyncError
from services.sync.engine import Backoff
from tests.sync.conftest import PlatformProcess, Station, owner_token, register
from tests.sync.faults import FaultProxy

ORDER = "0e53b15f-2b2e-57bb-8a50-f04c6b372262"  # SO-1021, packed in the demo data


def platform_db(p: PlatformProcess) -> sqlite3.Connection:
    return sqlite3.connect(p.data_dir / "data.db")


def new_ticket(s: Station, subject: str, email: str = "admin@demo.test") -> Any:
    return s.do("support.tickets.create", email, body={"subject": subject, "description": "It broke.",
                                                       "email": "ann@example.test", "name": "Ann"})  # fmt: skip


def ticket_row(s: Station, ticket_id: str) -> SupportTicket:
    with s.rt.db.reading(s.tenant.id) as ses:
        return ses.execute(select(SupportTicket).where(SupportTicket.id == ticket_id)).scalar_one()


# --- the user's story ---------------------------------------------------------------------------


def test_offline_work_reaches_the_platform_once_and_the_other_station_sees_it(
    platform: PlatformProcess, make_station: Any
) -> None:
    a, b = make_station("bench-a", platform), make_station("bench-b", platform)
    platform.kill()  # the network is gone
    made = [new_ticket(a, f"offline {i}") for i in range(3)]
    a.do("support.messages.create", body={"body": "on it", "internal": False}, ticket_id=made[0].id)
    assert all(t.provisional for t in made)

    with pytest.raises(SyncError) as exc:
        a.sync()
    assert exc.value.kind == "offline"
    assert a.outbox() == {"pending": 4}

    platform.start()  # plugged back in
    status = a.sync()
    assert (status.state, status.pending, status.issues) == ("idle", 0, 0)
    assert a.outbox() == {"sent": 4}
    with platform_db(platform) as db:
        rows = db.execute(
            "SELECT id, number FROM support_tickets WHERE subject LIKE 'offline %' ORDER BY subject"
        ).fetchall()
        replies = db.execute("SELECT COUNT(*) FROM support_messages WHERE body = 'on it'").fetchone()[0]
    # Same identities as on the station, real numbers from the platform, each change once.
    assert [r[0] for r in rows] == [t.id for t in made]
    assert all(r[1].startswith("TKT-") for r in rows) and replies == 1
    # The station's own events went the same way: the platform emitted them under the same ids.
    with a.rt.db.reading(a.tenant.id) as ses:
        local = ses.execute(text("SELECT id, synced_at FROM events WHERE type = 'ticket.created'")).all()
    with platform_db(platform) as db:
        there = {r[0] for r in db.execute("SELECT id FROM events WHERE type = 'ticket.created'")}
    assert len(local) == 3 and all(r[1] is not None for r in local) and {r[0] for r in local} <= there
    # The station took the real numbers in the pull.
    assert ticket_row(a, made[0].id).number == rows[0][1]
    assert not ticket_row(a, made[0].id).provisional

    b.sync()
    assert ticket_row(b, made[2].id).number == rows[2][1]
    with b.rt.db.reading(b.tenant.id) as ses:
        assert ses.execute(select(SupportMessage).where(SupportMessage.body == "on it")).scalar_one()

    # Nothing is applied twice when the station sends the same batch again (a lost answer).
    with a.rt.db.transaction(a.tenant.id) as ses:
        ses.execute(text("UPDATE outbox SET status = 'pending'"))
    assert a.sync().issues == 0 and a.outbox() == {"sent": 4}
    with platform_db(platform) as db:
        assert db.execute("SELECT COUNT(*) FROM support_messages WHERE body = 'on it'").fetchone()[0] == 1


def test_two_stations_ship_one_order_the_later_one_gets_a_conflict_and_keeps_theirs(
    platform: PlatformProcess, make_station: Any
) -> None:
    a, b = make_station("pack-a", platform), make_station("pack-b", platform)
    b.do("fulfillment.orders.operate", body={"operation": "ship"}, id=ORDER)
    a.do("fulfillment.orders.operate", body={"operation": "ship"}, id=ORDER)
    b.sync()
    status = a.sync()
    assert status.issues == 1 and status.pending == 0
    [issue] = st.issues(a.ctx())
    assert (issue.status, issue.code, issue.command) == ("conflict", "CONFLICT", "fulfillment.orders.operate")
    assert issue.details.get("current_state") == "shipped" or "shipped" in str(issue.details)
    assert issue.choices == ("keep_theirs", "retry")
    with platform_db(platform) as db:
        theirs = db.execute("SELECT tracking_number FROM fulfillment_orders WHERE id = ?", (ORDER,)).fetchone()[0]

    ids = st.resolve_issue(a.ctx(), issue.id, "keep_theirs")
    assert ORDER in ids

    async def take() -> bool:
        e = a.engine()
        try:
            return await e.fetch_rows(ids)
        finally:
            await e.stop()

    assert asyncio.run(take())
    with a.rt.db.reading(a.tenant.id) as ses:
        mine = ses.execute(select(FulfillmentOrder.tracking_number).where(FulfillmentOrder.id == ORDER)).scalar_one()
    assert mine == theirs
    assert st.issues(a.ctx()) == [] and a.outbox().get("discarded") == 1


def test_a_reply_to_a_ticket_closed_meanwhile_is_a_conflict_and_the_queue_moves_on(
    platform: PlatformProcess, make_station: Any
) -> None:
    a, b = make_station("desk-a", platform), make_station("desk-b", platform)
    t = new_ticket(a, "printer on fire")
    a.sync()
    b.sync()
    b.do("support.tickets.update", body={"state": "resolved"}, ticket_id=t.id)
    b.do("support.tickets.update", body={"state": "closed"}, ticket_id=t.id)
    b.sync()
    late = a.do("support.messages.create", body={"body": "late answer", "internal": False}, ticket_id=t.id)
    behind = new_ticket(a, "after the conflict")
    status = a.sync()
    assert status.issues == 1 and status.pending == 0
    [issue] = st.issues(a.ctx())
    assert issue.status == "conflict" and issue.details["current_state"] == "closed"
    with platform_db(platform) as db:
        # The change behind the refused one went through; the refused one changed nothing.
        assert db.execute("SELECT COUNT(*) FROM support_tickets WHERE id = ?", (behind.id,)).fetchone()[0] == 1
        assert db.execute("SELECT COUNT(*) FROM support_messages WHERE body = 'late answer'").fetchone()[0] == 0
    # The station shows the platform's ticket (closed) and, after "keep theirs", not the refused reply.
    assert ticket_row(a, t.id).state == "closed"
    ids = st.resolve_issue(a.ctx(), issue.id, "keep_theirs")
    e = a.engine()
    assert asyncio.run(e.fetch_rows(ids))
    with a.rt.db.reading(a.tenant.id) as ses:
        assert ses.get(SupportMessage, late.id) is None


def test_a_poisoned_change_is_set_aside_and_the_rest_of_the_queue_goes_through(
    platform: PlatformProcess, make_station: Any
) -> None:
    a = make_station("poison-a", platform)
    first = new_ticket(a, "by the operator", email="operator@demo.test")
    second = new_ticket(a, "by the admin")
    # Meanwhile the platform takes support away from the operator.
    tok = owner_token(platform.url)
    with httpx.Client(base_url=platform.url, headers={"Authorization": f"Bearer {tok}"}) as http:
        users = http.get("/api/tenants/demo/users").json()["data"]
        op = next(u for u in users if u["email"] == "operator@demo.test")
        r = http.patch(f"/api/tenants/demo/users/{op['id']}", json={"userModules": ["inventory"]})
        assert r.status_code == 200, r.text
    status = a.sync()
    assert status.issues == 1 and status.pending == 0
    [issue] = st.issues(a.ctx())
    assert issue.status == "rejected" and issue.code == "FORBIDDEN" and issue.choices == ("retry", "discard")
    with platform_db(platform) as db:
        assert db.execute("SELECT COUNT(*) FROM support_tickets WHERE id = ?", (first.id,)).fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM support_tickets WHERE id = ?", (second.id,)).fetchone()[0] == 1

    # Retry sends it again at the end of the queue (here it is refused again: still forbidden).
    st.resolve_issue(a.ctx(), issue.id, "retry")
    assert a.outbox().get("pending") == 1
    assert a.sync().issues == 1


def test_a_change_altered_in_the_station_database_is_never_sent(platform: PlatformProcess, make_station: Any) -> None:
    a = make_station("tamper-a", platform)
    t = new_ticket(a, "honest subject")
    after = new_ticket(a, "after the tampered one")
    with a.rt.db.transaction(a.tenant.id) as ses:
        e = ses.execute(select(OutboxEntry).where(OutboxEntry.station_seq == 1)).scalar_one()
        e.body = {**(e.body or {}), "subject": "forged subject"}
    status = a.sync()
    assert status.issues == 1
    [issue] = st.issues(a.ctx())
    assert issue.code == "TAMPERED" and issue.choices == ("discard",)
    with platform_db(platform) as db:
        subjects = {
            r[0] for r in db.execute("SELECT subject FROM support_tickets WHERE id IN (?, ?)", (t.id, after.id))
        }
        last_seq = db.execute("SELECT last_seq FROM sync_stations WHERE station_id = 'tamper-a'").fetchone()[0]
    assert subjects == {"after the tampered one"} and last_seq == 2


def test_platform_changes_and_deletions_reach_the_station(platform: PlatformProcess, make_station: Any) -> None:
    a = make_station("pull-a", platform)
    tok = owner_token(platform.url)
    with httpx.Client(base_url=platform.url, headers={"Authorization": f"Bearer {tok}"}) as http:
        made = http.post("/api/tenants/demo/support/categories", json={"name": "Made on the platform"})
        assert made.status_code == 201, made.text
        cat = made.json()["data"]["id"]
    a.sync()
    with a.rt.db.reading(a.tenant.id) as ses:
        assert ses.execute(text("SELECT name FROM support_categories WHERE id = :i"), {"i": cat}).scalar_one()
    with httpx.Client(base_url=platform.url, headers={"Authorization": f"Bearer {tok}"}) as http:
        assert http.delete(f"/api/tenants/demo/support/categories/{cat}").status_code in (200, 204)
    a.sync()
    with a.rt.db.reading(a.tenant.id) as ses:
        assert ses.execute(text("SELECT COUNT(*) FROM support_categories WHERE id = :i"), {"i": cat}).scalar_one() == 0


def test_a_station_missing_records_is_rebuilt_when_counts_differ(platform: PlatformProcess, make_station: Any) -> None:
    a = make_station("count-a", platform)
    a.sync()
    with a.rt.db.transaction(a.tenant.id) as ses:
        ses.execute(text("DELETE FROM support_messages WHERE tenant_id = :t"), {"t": a.tenant.id})
    a.sync()
    with platform_db(platform) as db:
        want = db.execute("SELECT COUNT(*) FROM support_messages WHERE tenant_id = ?", (a.tenant.id,)).fetchone()[0]
    assert st.local_counts(a.rt, a.tenant.id)["support_messages"] == want > 0


# --- faults on the way ----------------------------------------------------------------------------


def _client(timeout: float) -> Any:
    return lambda link: PlatformClient(link, timeout=httpx.Timeout(timeout, connect=timeout))


def test_a_failing_then_hanging_then_cut_off_platform_loses_and_doubles_nothing(
    platform: PlatformProcess, make_station: Any
) -> None:
    proxy = FaultProxy(platform.url)
    url = proxy.start()
    try:
        a = make_station("faulty-a")
        a.link(url, secret=register(platform.url, "faulty-a"))
        made = [new_ticket(a, f"through faults {i}") for i in range(5)]

        proxy.mode = "500"
        with pytest.raises(SyncError) as exc:
            a.sync()
        assert exc.value.kind == "server" and exc.value.retry

        proxy.mode = "hang"
        with pytest.raises(SyncError) as exc:
            a.sync(client_factory=_client(0.5))
        assert exc.value.kind == "offline" and "in time" in exc.value.message
        proxy.release.set()

        proxy.mode = "truncate"  # the platform applies the batch, the answer is cut off
        with pytest.raises(SyncError):
            a.sync()
        assert a.outbox() == {"pending": 5}

        proxy.mode = "pass"
        status = a.sync()
        assert (status.state, status.pending, status.issues) == ("idle", 0, 0)
        with platform_db(platform) as db:
            n = db.execute("SELECT COUNT(*) FROM support_tickets WHERE subject LIKE 'through faults %'").fetchone()[0]
        assert n == len(made)
    finally:
        proxy.stop()


def test_the_engine_backs_off_with_jitter_and_recovers(platform: PlatformProcess, make_station: Any) -> None:
    proxy = FaultProxy(platform.url)
    url = proxy.start()
    try:
        a = make_station("backoff-a")
        a.link(url, secret=register(platform.url, "backoff-a"))
        new_ticket(a, "after the outage")
        proxy.mode = "500"
        states: list[str] = []

        async def run() -> None:
            e = a.engine(on_status=lambda s: states.append(s.state), backoff=Backoff(base=0.05, cap=0.2), interval=0.1)
            e.start()
            for _ in range(200):
                await asyncio.sleep(0.02)
                if sum(1 for s in proxy.seen if s.startswith("500 ")) >= 3:
                    break
            proxy.mode = "pass"
            for _ in range(300):
                await asyncio.sleep(0.02)
                if e.status.state == "idle" and e.status.pending == 0:
                    break
            await e.stop()

        asyncio.run(run())
        assert "error" in states and states[-1] == "idle"
        assert a.outbox() == {"sent": 1}
        assert sum(1 for s in proxy.seen if s.startswith("500 ")) >= 3  # it kept trying
    finally:
        proxy.stop()


def test_a_station_clock_five_minutes_off_does_not_sync(platform: PlatformProcess, make_station: Any) -> None:
    a = make_station("clock-a", platform)
    new_ticket(a, "wrong clock")
    a.rt.clock = FixedClock(datetime.now(UTC) + timedelta(minutes=7))
    with pytest.raises(SyncError) as exc:
        a.sync()
    assert exc.value.kind == "clock" and "7 min ahead" in exc.value.message
    assert a.outbox() == {"pending": 1}


def test_a_platform_without_sync_routes_gets_plain_calls_with_idempotency_keys(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, make_station: Any
) -> None:
    from tests.conftest import _copy_db, _demo_template

    d = tmp_path / "spec-only"
    _copy_db(_demo_template(tmp_path_factory), d)
    plain = PlatformProcess(d, PLATFORM_SYNC_ROUTES="0").start()
    try:
        tok = owner_token(plain.url)
        with httpx.Client(base_url=plain.url, headers={"Authorization": f"Bearer {tok}"}) as http:
            assert http.post("/api/tenants/demo/sync/push", json={}).status_code == 404
            r = http.post("/api/tenants/demo/api-keys", json={"name": "bench", "environment": "live",
                                                               "modules": ["support", "fulfillment"]})  # fmt: skip
            assert r.status_code == 201, r.text
            key = r.json()["data"]["key"]
        a = make_station("plain-a")
        a.link(plain.url, secret=key)
        t = new_ticket(a, "via the spec")
        a.do("support.messages.create", body={"body": "plain reply", "internal": False}, ticket_id=t.id)
        assert a.sync().pending == 0 and a.outbox() == {"sent": 2}
        # The answers were lost: the same calls again, with the same keys, change nothing.
        with a.rt.db.transaction(a.tenant.id) as ses:
            ses.execute(text("UPDATE outbox SET status = 'pending'"))
        assert a.sync().issues == 0
        with platform_db(plain) as db:
            assert db.execute("SELECT COUNT(*) FROM support_tickets WHERE subject = 'via the spec'").fetchone()[0] == 1
            assert db.execute("SELECT COUNT(*) FROM support_messages WHERE body = 'plain reply'").fetchone()[0] == 1
    finally:
        plain.stop()


def test_offline_stations_print_distinct_tracking_numbers_from_leased_blocks(
    platform: PlatformProcess, make_station: Any
) -> None:
    a, b = make_station("lease-a", platform), make_station("lease-b", platform)
    a.sync()
    b.sync()  # each took a block of tracking numbers
    platform.kill()
    orders = ["56354e7a-b4fa-519a-9e4c-c512045cdf39", "8c24a41a-3dc8-5e9a-9903-b1f45dc56c26"]  # packed demo orders
    a.do("fulfillment.orders.operate", body={"operation": "ship"}, id=orders[0])
    b.do("fulfillment.orders.operate", body={"operation": "ship"}, id=orders[1])

    def tracking(s: Station, order: str) -> str:
        with s.rt.db.reading(s.tenant.id) as ses:
            return str(
                ses.execute(select(FulfillmentOrder.tracking_number).where(FulfillmentOrder.id == order)).scalar_one()
            )

    printed = {tracking(a, orders[0]), tracking(b, orders[1])}
    assert len(printed) == 2
    platform.start()
    assert a.sync().issues == 0 and b.sync().issues == 0
    with platform_db(platform) as db:
        on_platform = {
            r[0] for r in db.execute("SELECT tracking_number FROM fulfillment_orders WHERE id IN (?, ?)", orders)
        }
    assert on_platform == printed  # the labels already on the boxes are the platform's numbers


def test_a_newly_linked_station_ships_offline_from_the_block_it_took_at_registration(
    platform: PlatformProcess, make_station: Any
) -> None:
    from services.core.commands import LEASE_END
    from services.core.errors import Conflict
    from services.sync.client import link_station

    # Registered the way the Sync panel and register-station do it, and never synced.
    a = make_station("fresh-a")
    asyncio.run(link_station(a.rt, a.tenant.id, platform.url, "demo", "fresh-a", token=owner_token(platform.url)))
    # Linked by hand (an older station): no block of numbers.
    b = make_station("fresh-b")
    st.save_link(b.rt, b.tenant.id, platform.url, b.station_id, register(platform.url, b.station_id))
    platform.kill()
    with a.rt.db.reading(None) as ses:
        sql = text("SELECT value FROM counters WHERE name = :n AND scope = :t")
        end = ses.execute(sql, {"n": "fulfillment.tracking" + LEASE_END, "t": a.tenant.id}).scalar_one()
    a.do("fulfillment.orders.operate", body={"operation": "ship"}, id=ORDER)
    with a.rt.db.reading(None) as ses:
        used = ses.execute(sql, {"n": "fulfillment.tracking", "t": a.tenant.id}).scalar_one()
    assert int(end) - 500 < int(used) <= int(end)  # the number printed came from the platform's block

    with pytest.raises(Conflict) as exc:
        b.do("fulfillment.orders.operate", body={"operation": "ship"}, id=ORDER)
    assert exc.value.details["reason"] == "lease_missing"
    assert "connect to the platform" in exc.value.message


def test_a_station_that_used_up_its_block_refuses_to_print_a_number_it_may_share(
    platform: PlatformProcess, make_station: Any
) -> None:
    from services.core.commands import LEASE_END
    from services.core.errors import Conflict

    a = make_station("lease-out", platform)
    a.sync()
    with a.rt.db.transaction(None) as ses:
        ses.execute(text("UPDATE counters SET value = (SELECT value FROM counters c2 WHERE c2.scope = counters.scope "
                         "AND c2.name = :end) WHERE name = 'fulfillment.tracking' AND scope = :t"),
                    {"end": "fulfillment.tracking" + LEASE_END, "t": a.tenant.id})  # fmt: skip
    with pytest.raises(Conflict) as exc:
        a.do("fulfillment.orders.operate", body={"operation": "ship"}, id=ORDER)
    assert exc.value.details["reason"] == "lease_used_up"
    a.sync()  # a new block
    a.do("fulfillment.orders.operate", body={"operation": "ship"}, id=ORDER)


def test_a_change_the_platform_keeps_failing_on_is_voided_after_five_tries(
    platform: PlatformProcess, make_station: Any
) -> None:
    a = make_station("fails-a", platform)
    stuck = new_ticket(a, "the platform chokes on this one")
    after = new_ticket(a, "behind it")
    # Five answers "retry" already recorded for the first change (the platform failed on it each time).
    with a.rt.db.transaction(a.tenant.id) as ses:
        ses.execute(text("UPDATE outbox SET attempts = 5, last_error = 'OperationalError' WHERE station_seq = 1"))
    status = a.sync()
    assert status.issues == 1 and status.pending == 0
    [issue] = st.issues(a.ctx())
    assert issue.code == "PLATFORM_FAILED" and "5 times" in issue.message and issue.choices == ("retry", "discard")
    with platform_db(platform) as db:
        assert db.execute("SELECT COUNT(*) FROM support_tickets WHERE id = ?", (stuck.id,)).fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM support_tickets WHERE id = ?", (after.id,)).fetchone()[0] == 1
    # Retry: it goes through this time, under the ids it was made with.
    st.resolve_issue(a.ctx(), issue.id, "retry")
    assert a.sync().issues == 0
    with platform_db(platform) as db:
        assert db.execute("SELECT COUNT(*) FROM support_tickets WHERE id = ?", (stuck.id,)).fetchone()[0] == 1


def _png() -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 30, 30)).save(buf, "PNG")
    return buf.getvalue()


def test_photos_and_attachments_taken_offline_reach_the_platform_with_their_files(
    platform: PlatformProcess, make_station: Any
) -> None:
    import hashlib

    from services.core.files import Upload

    a, b = make_station("photo-a", platform), make_station("photo-b", platform)
    platform.kill()
    png = _png()
    photo = a.do("upgrade.admin.photos.upload", "operator@demo.test", upload=Upload("scratch.png", "image/png", png))
    t = new_ticket(a, "with a picture")
    att = a.do("support.attachments.upload", query={"ticket_id": t.id}, upload=Upload("shot.png", "image/png", png))
    platform.start()
    assert a.sync().issues == 0 and a.outbox() == {"sent": 3}
    digest = hashlib.sha256(png).hexdigest()
    assert (platform.data_dir / "files" / a.tenant.id / digest).read_bytes() == png
    with platform_db(platform) as db:
        assert db.execute("SELECT sha256 FROM upgrade_photos WHERE id = ?", (photo.id,)).fetchone()[0] == digest
        assert db.execute("SELECT ticket_id FROM support_attachments WHERE id = ?", (att.id,)).fetchone()[0] == t.id
    # The other station gets the records (with the photo's thumbnail) in its pull.
    b.sync()
    with b.rt.db.reading(b.tenant.id) as ses:
        thumb = ses.execute(text("SELECT thumbnail FROM upgrade_photos WHERE id = :i"), {"i": photo.id}).scalar_one()
    assert thumb and bytes(thumb)[:4] in (b"\x89PNG", b"\xff\xd8\xff\xe0", b"\xff\xd8\xff\xdb", b"RIFF")


def test_retry_of_a_refused_upload_keeps_its_file(make_station: Any) -> None:
    from services.core.files import Upload

    a = make_station("retry-file")
    st.save_link(a.rt, a.tenant.id, "http://127.0.0.1:9", a.station_id, "sst_not-used")
    png = _png()
    a.do("upgrade.admin.photos.upload", "operator@demo.test", upload=Upload("again.png", "image/png", png))
    # The platform refused it (say, over a limit since raised): a sync issue; the person presses Retry.
    with a.rt.db.transaction(a.tenant.id) as ses:
        refusal = '{"code": "PAYLOAD_TOO_LARGE", "error": "file too large"}'
        ses.execute(text("UPDATE outbox SET status = 'rejected', answer = :a"), {"a": refusal})
    [issue] = st.issues(a.ctx())
    assert st.resolve_issue(a.ctx(), issue.id, "retry") == []
    with a.rt.db.reading(a.tenant.id) as ses:
        old, new = ses.execute(select(OutboxEntry).order_by(OutboxEntry.station_seq)).scalars().all()
    assert new.status == "pending" and new.file is not None and new.file == old.file
    assert new.result_id == old.result_id and new.ids == old.ids and new.idempotency_key != old.idempotency_key
    # Sent as the original was: its signature holds (not voided) and it names the file to put first.
    link = st.link_for(a.rt, a.tenant.id)
    assert link is not None
    batch = st.next_batch(a.rt, link)
    assert not batch.voided
    [entry] = batch.entries
    assert entry["file"] == old.file
    assert st.file_bytes(a.rt, a.tenant.id, old.file["sha256"]) == png


def test_a_platform_restored_from_an_older_backup_gets_the_missing_changes_again_once(
    platform: PlatformProcess, make_station: Any
) -> None:
    a = make_station("restore-a", platform)
    made = [new_ticket(a, f"before the restore {i}") for i in range(3)]
    a.sync()
    # The platform forgets the station's last two changes (receipts and sequence), as after a restore.
    platform.kill()
    with platform_db(platform) as db:
        db.execute("UPDATE sync_stations SET last_seq = 1 WHERE station_id = 'restore-a'")
        db.execute("DELETE FROM sync_receipts WHERE seq > 1")
        # ...and the third change itself, with its idempotency record (restored consistently).
        db.execute("DELETE FROM support_messages WHERE ticket_id = ?", (made[2].id,))
        db.execute("DELETE FROM support_tickets WHERE id = ?", (made[2].id,))
        with a.rt.db.reading(a.tenant.id) as ses:
            key, ids = ses.execute(
                select(OutboxEntry.idempotency_key, OutboxEntry.ids).where(OutboxEntry.station_seq == 3)
            ).one()
        db.execute("DELETE FROM idempotency_records WHERE key = ?", (key,))
        db.executemany("DELETE FROM event_deliveries WHERE event_id = ?", [(i,) for i in ids])
        db.executemany("DELETE FROM events WHERE id = ?", [(i,) for i in ids])
    platform.start()
    later = new_ticket(a, "after the restore")
    status = a.sync()
    assert (status.pending, status.issues) == (0, 0)
    with platform_db(platform) as db:
        for t in [*made, later]:
            assert db.execute("SELECT COUNT(*) FROM support_tickets WHERE id = ?", (t.id,)).fetchone()[0] == 1
        assert db.execute("SELECT last_seq FROM sync_stations WHERE station_id = 'restore-a'").fetchone()[0] == 4


def test_a_role_change_made_on_a_station_reaches_the_platform(platform: PlatformProcess, make_station: Any) -> None:
    from services.core.demo import demo_id

    a = make_station("roles-a", platform)
    operator = demo_id("user", "operator@demo.test")
    a.do("platform.users.update", "owner@demo.test", body={"role": "admin"}, user_id=operator)
    assert a.sync().issues == 0
    with platform_db(platform) as db:
        role = db.execute("SELECT role FROM memberships WHERE user_id = ? AND tenant_id = ?", (operator, a.tenant.id))
        assert role.fetchone()[0] == "admin"


def test_stop_ends_the_engine_even_when_a_wake_comes_with_the_cancel(make_station: Any) -> None:
    """Sign-out commits (a wake) and stops the engine in the same turn of the loop; the engine must
    end, not loop on because the cancel got lost in its wait for the next round."""
    a = make_station("stop-wake")
    ended: list[bool] = []

    async def run() -> None:
        for _ in range(20):
            e = a.engine(interval=30)
            e.start()
            for _ in range(200):  # until the first round is over and the engine waits
                await asyncio.sleep(0.01)
                if e.status.state != "offline" or e.status.message:
                    break
            await asyncio.sleep(0.02)
            e.wake()
            try:
                await asyncio.wait_for(e.stop(), 5)
            except TimeoutError:
                ended.append(False)
                return
            ended.append(True)

    asyncio.run(run())
    assert ended == [True] * 20

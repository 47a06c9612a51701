"""The scan at the service level: the cap and the threshold exact under concurrent scans, bots and
orphans apart, the validity window checked in SQL, and summaries from kept months equal to summaries
summed afresh."""

from __future__ import annotations

import threading
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import func, insert, select

from local_db.models.qr import QrDaily, QrScan
from services.core.clock import FixedClock
from services.core.commands import execute
from services.core.context import Ctx, Principal, Runtime
from services.core.errors import NotFound
from services.core.events import Event
from services.core.files import FileResult
from services.core.pages import Page
from services.qr import lookups
from tests.services.fulfillment.fulfillment_helpers import ctx_for

PHONE = {"user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Mobile Safari/604.1"}
BOT = {"user-agent": "facebookexternalhit/1.1"}


def _scan(owner: Ctx, short: str, headers: dict[str, str], ip: str = "198.51.100.9") -> str | None:
    ctx = Ctx(owner.runtime, owner.tenant, Principal(kind="public", id=f"ip:{ip}"), ip=ip)
    try:
        got = execute(ctx, "qr.scan", short_code=short, headers=headers)
    except NotFound:
        return None
    # A known code that does not serve answers its 410 page (no fallback address set).
    return None if isinstance(got, (FileResult, Page)) and got.status == 410 else str(got.location)


def _events(rt: Runtime, type_: str) -> list[Event]:
    with rt.db.reading(None) as s:
        return list(s.execute(select(Event).where(Event.type == type_)).scalars())


def test_cap_and_threshold_exact_under_concurrent_scans(station: Runtime) -> None:
    owner = ctx_for(station, "owner@demo.test")
    body = {"name": "Giveaway", "destination_url": "https://example.com/g", "max_scans": 40, "scan_alert_threshold": 25}
    code = execute(owner, "qr.codes.create", body=body)
    served: list[str | None] = []
    counted_from: set[int] = set()  # the networks whose phone scan was counted
    lock = threading.Lock()

    def scanner(n: int) -> None:
        for i in range(10):
            got = _scan(
                owner, code.short_code, BOT if i % 5 == 4 else PHONE, ip=f"198.51.{n}.9"
            )  # six networks: six visitors
            with lock:
                served.append(got)
                if got and i % 5 != 4:
                    counted_from.add(n)

    threads = [threading.Thread(target=scanner, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    after = execute(owner, "qr.codes.get", id=code.id)
    # 48 phone scans for a cap of 40: exactly 40 counted and redirected, the rest orphans.
    assert after.scans == 40
    assert [e.data["threshold"] for e in _events(station, "qr.threshold_reached")] == [25]
    assert sorted(e.data["scans"] for e in _events(station, "qr.scanned")) == list(range(1, 41))
    # Bots of a serving code are redirected and counted apart; once capped, they are orphans too.
    assert served.count(None) == 60 - 40 - after.bots and after.bots <= 12
    with station.db.reading(None) as s:
        scans = s.execute(select(func.count()).select_from(QrScan).where(QrScan.short_code == code.short_code)).scalar()
        orphans = s.execute(
            select(func.sum(QrDaily.count)).where(QrDaily.dim == "orphans", QrDaily.code_id == "")
        ).scalar()
    assert scans == 60 and orphans == 60 - 40 - after.bots
    summary = execute(owner, "qr.codes.analytics", id=code.id, query={})
    assert (summary.scans, summary.bots, summary.unique) == (40, after.bots, len(counted_from))
    assert _scan(owner, "nope", PHONE) is None  # unknown: an orphan, 404


def test_window_and_switch_are_checked_with_the_count(station: Runtime) -> None:
    owner = ctx_for(station, "owner@demo.test")
    now = station.clock.now()
    live = execute(
        owner,
        "qr.codes.create",
        body={
            "name": "Live",
            "destination_url": "https://example.com/live",
            "valid_since": (now - timedelta(days=1)).isoformat(),
            "valid_until": (now + timedelta(days=1)).isoformat(),
        },
    )
    later = execute(
        owner,
        "qr.codes.create",
        body={
            "name": "Later",
            "destination_url": "https://example.com/l",
            "valid_since": (now + timedelta(hours=1)).isoformat(),
        },
    )
    assert _scan(owner, live.short_code, PHONE) == "https://example.com/live"
    assert _scan(owner, later.short_code, PHONE) is None
    execute(owner, "qr.codes.update", id=live.id, body={"enabled": False})
    assert _scan(owner, live.short_code, PHONE) is None
    assert execute(owner, "qr.codes.get", id=live.id).scans == 1
    assert execute(owner, "qr.codes.get", id=later.id).scans == 0


def test_summary_from_kept_months_equals_a_fresh_sum(station: Runtime) -> None:
    station.clock = FixedClock(datetime(2026, 11, 23, 12, 0, tzinfo=UTC))
    owner = ctx_for(station, "owner@demo.test")
    code = execute(owner, "qr.codes.create", body={"name": "Year", "destination_url": "https://example.com/y"})
    rows = []
    for d in range(400):
        day = date(2026, 11, 23) - timedelta(days=d)
        for dim, key, n in (
            ("scans", "", d % 7 + 1),
            ("unique", "", 1),
            ("bots", "", d % 2),
            ("device", "mobile", d % 7 + 1),
        ):
            rows.append(
                {"tenant_id": owner.tenant_id, "code_id": code.id, "day": day, "dim": dim, "key": key, "count": n}
            )
        rows.append({"tenant_id": owner.tenant_id, "code_id": "", "day": day, "dim": "orphans", "key": "", "count": 2})
    with station.db.transaction(None) as s:
        s.execute(insert(QrDaily), rows)
    for frm, to in (("2025-11-24", None), ("2026-01-01", "2026-03-31"), ("2026-02-10", "2026-02-20"), (None, None)):
        query = {"from": frm, "to": to}
        first = execute(owner, "qr.codes.analytics", id=code.id, query=query)
        again = execute(owner, "qr.codes.analytics", id=code.id, query=query)  # months from the cache
        end = date.fromisoformat(to) if to else date(2026, 11, 23)
        start = date.fromisoformat(frm) if frm else end - timedelta(days=29)
        with station.db.reading(owner.tenant_id) as s:
            fresh = lookups.summary(s, owner.tenant_id, code.id, start, end)  # no cache: every day summed
        assert first.model_dump() == again.model_dump() == fresh.model_dump(), (frm, to)
    assert first.scans > 0 and first.device[0].key == "mobile"
    board = execute(owner, "qr.analytics", query={"from": "2025-11-24"})
    assert board.orphans is not None and board.orphans >= 365 * 2
    assert station.clock.now().date() == date(2026, 11, 23)

"""The public scan: user agent parsing, bot test, anonymised IP, and the write of one scan.

The write is one ``UPDATE ... RETURNING`` that checks the code serves and counts the scan on it,
one insert into ``qr_scans``, and one multi-row upsert of the day's counters (plus a visitor
insert that counts uniques). Summaries read the counters only.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
import secrets
import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, cast
from urllib.parse import urlsplit

from sqlalchemy import Boolean, Connection, Date, Table, and_, bindparam, or_, select, text, update
from sqlalchemy.orm import Session

from local_db.models.qr import QrCode, QrScan

# Crawlers, link previews (chat apps, social networks), headless browsers and HTTP tools.
BOT = re.compile(
    r"bot\b|bot/|crawl|spider|slurp|preview|facebookexternalhit|facebookcatalog|embedly|whatsapp|telegram"
    r"|slack|discord|skypeuri|linkedin|pinterest|vkshare|bingpreview|google-?inspectiontool|headless"
    r"|curl/|wget/|python-requests|python-httpx|go-http-client|okhttp|java/|libwww|httpclient|axios|node-fetch",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Agent:
    device: str
    browser: str
    os: str
    bot: bool


def parse_agent(ua: str) -> Agent:
    """Device, browser and OS from a user agent, in the few words analytics show."""
    bot = not ua.strip() or BOT.search(ua) is not None
    if re.search(r"iPad|Tablet|Android(?!.*Mobile)", ua):
        device = "tablet"
    elif re.search(r"Mobi|iPhone|iPod|Android", ua):
        device = "mobile"
    elif bot:
        device = "bot"
    else:
        device = "desktop"
    if "Edg" in ua:
        browser = "Edge"
    elif "OPR/" in ua or "Opera" in ua:
        browser = "Opera"
    elif "SamsungBrowser" in ua:
        browser = "Samsung Internet"
    elif "Firefox/" in ua or "FxiOS" in ua:
        browser = "Firefox"
    elif "Chrome/" in ua or "CriOS" in ua:
        browser = "Chrome"
    elif "Safari/" in ua:
        browser = "Safari"
    else:
        browser = "other"
    if re.search(r"iPhone|iPad|iPod", ua):
        os_ = "iOS"
    elif "Android" in ua:
        os_ = "Android"
    elif "Windows" in ua:
        os_ = "Windows"
    elif "Mac OS X" in ua or "Macintosh" in ua:
        os_ = "macOS"
    elif "CrOS" in ua:
        os_ = "ChromeOS"
    elif "Linux" in ua:
        os_ = "Linux"
    else:
        os_ = "other"
    return Agent(device, browser, os_, bot)


def referrer_host(referer: str | None) -> str:
    if not referer:
        return "direct"
    host = urlsplit(referer).hostname or ""
    return host[:200] or "direct"


def anonymise_ip(secret: bytes, tenant_id: str, day: date, ip: str | None) -> str:
    """A keyed hash of the IP with its host part dropped (/24, /48), salted by day: counts
    distinct visitors per day without keeping an address that identifies anyone."""
    try:
        addr = ipaddress.ip_address(ip or "")
        net = ipaddress.ip_network(f"{addr}/{24 if addr.version == 4 else 48}", strict=False)
        base = str(net.network_address)
    except ValueError:
        base = "unknown"
    msg = f"{tenant_id}|{day.isoformat()}|{base}".encode()
    return hmac.new(secret, msg, hashlib.sha256).hexdigest()[:16]


# Plain statements built once: the scan runs the same few with new values (no per-call compile).
_T = QrScan.__table__
_C = cast(Table, QrCode.__table__)
_SCAN = text(
    "INSERT INTO qr_scans (id, tenant_id, code_id, short_code, at, device, browser, os, referrer, ip_hash,"
    " user_agent, bot) VALUES (:id, :tenant_id, :code_id, :short_code, :at, :device, :browser, :os, :referrer,"
    " :ip_hash, :user_agent, :bot)"
).bindparams(bindparam("at", type_=_T.c.at.type), bindparam("bot", type_=Boolean()))
_COUNT = text(
    "INSERT INTO qr_daily (tenant_id, code_id, day, dim, key, count) VALUES (:tenant_id, :code_id, :day, :dim,"
    " :key, 1) ON CONFLICT (tenant_id, code_id, day, dim, key) DO UPDATE SET count = qr_daily.count + 1"
).bindparams(bindparam("day", type_=Date()))
_VISIT = text(
    "INSERT INTO qr_visitors (tenant_id, code_id, day, ip_hash) VALUES (:tenant_id, :code_id, :day, :ip_hash)"
    " ON CONFLICT DO NOTHING"
).bindparams(bindparam("day", type_=Date()))


def _serving_update(counter: str) -> Any:
    """``UPDATE qr_codes SET <counter> = <counter> + 1`` for the code at this short code, only while it
    serves (enabled, dynamic, inside its window, under its cap), returning what the redirect needs.
    The check and the count are one statement: the cap is exact under concurrency on any database,
    and a scan costs one statement where a lookup and an update took two."""
    c = _C.c
    now = bindparam("b_now", type_=c.valid_since.type)
    return (
        update(_C)
        .where(
            c.tenant_id == bindparam("b_tenant"),
            c.short_code == bindparam("b_short"),
            c.enabled.is_(True),
            c.dynamic.is_(True),
            # A URL code redirects; a text, vCard, Wi-Fi, e-mail, phone or SMS code may show a landing page.
            or_(c.destination_url.is_not(None), and_(c.type != "url", c.content != "")),
            or_(c.valid_since.is_(None), c.valid_since <= now),
            or_(c.valid_until.is_(None), c.valid_until > now),
            or_(c.max_scans.is_(None), c.scans < c.max_scans),
        )
        .values({counter: c[counter] + 1})
        .returning(
            c.id, c.destination_url, c.scans, c.scan_alert_threshold, c.threshold_sent, c.type, c.content, c.name
        )
    )


_SERVE = _serving_update("scans")
_SERVE_BOT = _serving_update("bots")
_SCANS = text("UPDATE qr_codes SET scans = scans + 1 WHERE id = :id AND tenant_id = :tenant_id RETURNING scans")
_BOTS = text("UPDATE qr_codes SET bots = bots + 1 WHERE id = :id AND tenant_id = :tenant_id")


def serve(conn: Connection, *, tenant_id: str, short_code: str, now: datetime, bot: bool) -> Any:
    """Count the scan on its code if the code serves; the code's row (id, destination_url, scans, ...)
    or None (an orphan: unknown, disabled, static, outside its window or capped)."""
    params = {"b_tenant": tenant_id, "b_short": short_code, "b_now": now}
    return conn.execute(_SERVE_BOT if bot else _SERVE, params).first()


def scan_id(at: datetime) -> str:
    """A time-ordered UUID (version 7 layout: milliseconds first): the scan table's key index grows at
    its end instead of taking a random page per insert (a million rows: a 60 MB index)."""
    ms = int(at.timestamp() * 1000) & ((1 << 48) - 1)
    rand = secrets.randbits(74)
    value = (ms << 80) | (0x7 << 76) | ((rand >> 62) << 64) | (0b10 << 62) | (rand & ((1 << 62) - 1))
    return str(uuid.UUID(int=value))


def record(s: Session, *, tenant_id: str, scan: dict[str, Any], code_id: str | None, agent: Agent) -> int | None:
    """Write one scan and its counters, the code's counter included (the demo's seeder); the code's new
    non-bot count (None for bots and orphans)."""
    conn = s.connection()
    count: int | None = None
    if code_id is not None:
        if agent.bot:
            conn.execute(_BOTS, {"id": code_id, "tenant_id": tenant_id})
        else:
            count = int(conn.execute(_SCANS, {"id": code_id, "tenant_id": tenant_id}).scalar_one())
    record_counted(conn, tenant_id=tenant_id, scan=scan, code_id=code_id, agent=agent)
    return count


def record_counted(
    conn: Connection, *, tenant_id: str, scan: dict[str, Any], code_id: str | None, agent: Agent
) -> None:
    """Write the scan row, the day's counters and the visitor of a scan whose code counter is already
    counted (``serve``)."""
    conn.execute(_SCAN, scan)
    key = {"tenant_id": tenant_id, "day": scan["at"].date()}
    if code_id is None:
        conn.execute(_COUNT, {**key, "code_id": "", "dim": "orphans", "key": ""})
        return
    if agent.bot:
        conn.execute(_COUNT, {**key, "code_id": code_id, "dim": "bots", "key": ""})
        return
    dims = [
        ("scans", ""),
        ("device", agent.device),
        ("browser", agent.browser),
        ("os", agent.os),
        ("referrer", scan["referrer"]),
    ]
    first = conn.execute(_VISIT, {**key, "code_id": code_id, "ip_hash": scan["ip_hash"]}).rowcount == 1
    if first:
        dims.append(("unique", ""))
    # One executemany of the same statement.
    conn.execute(_COUNT, [{**key, "code_id": code_id, "dim": d, "key": k} for d, k in dims])


_WHY = select(
    _C.c.enabled,
    _C.c.dynamic,
    _C.c.valid_since,
    _C.c.valid_until,
    _C.c.max_scans,
    _C.c.scans,
    _C.c.fallback_url,
    _C.c.name,
).where(_C.c.tenant_id == bindparam("b_tenant"), _C.c.short_code == bindparam("b_short"))


@dataclass(frozen=True)
class Refusal:
    """Why a known code does not serve, and where its scanners go instead."""

    reason: str  # disabled | not_yet_valid | expired | limit_reached | static
    fallback_url: str | None
    name: str


def refusal(conn: Connection, *, tenant_id: str, short_code: str, now: datetime) -> Refusal | None:
    """Why the code at this short code does not serve; None when there is no such code. Read only
    after ``serve`` found nothing: the serving path keeps its one statement."""
    r = conn.execute(_WHY, {"b_tenant": tenant_id, "b_short": short_code}).first()
    if r is None:
        return None
    if not r.enabled:
        reason = "disabled"
    elif r.valid_since is not None and now < _aware(r.valid_since):
        reason = "not_yet_valid"
    elif r.valid_until is not None and now >= _aware(r.valid_until):
        reason = "expired"
    elif r.max_scans is not None and r.scans >= r.max_scans:
        reason = "limit_reached"
    else:
        reason = "static"
    return Refusal(reason, r.fallback_url, r.name)


def _aware(d: datetime) -> datetime:
    return d if d.tzinfo is not None else d.replace(tzinfo=UTC)

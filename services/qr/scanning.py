"""The public scan: user agent parsing, bot test, anonymised IP, and the write of one scan.

The write is one insert into ``qr_scans``, one ``UPDATE ... RETURNING`` of the code's counter
and one multi-row upsert of the day's counters (plus a visitor insert that counts uniques).
Summaries read the counters only.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import insert, update
from sqlalchemy.orm import Session

from local_db.models.qr import QrCode, QrDaily, QrScan, QrVisitor

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


def _upsert(s: Session, rows: list[dict[str, Any]]) -> None:
    """Add each row's count to its counter (insert the first time)."""
    dialect = s.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as dialect_insert
    else:
        from sqlalchemy.dialects.sqlite import insert as dialect_insert  # type: ignore[assignment]
    stmt = dialect_insert(QrDaily).values(rows)
    stmt = stmt.on_conflict_do_update(
        index_elements=["tenant_id", "code_id", "day", "dim", "key"],
        set_={"count": QrDaily.count + stmt.excluded.count},
    )
    s.execute(stmt)


def _first_visit(s: Session, row: dict[str, Any]) -> bool:
    dialect = s.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as dialect_insert
    else:
        from sqlalchemy.dialects.sqlite import insert as dialect_insert  # type: ignore[assignment]
    res = s.execute(dialect_insert(QrVisitor).values(row).on_conflict_do_nothing())
    return bool(getattr(res, "rowcount", 0) == 1)


def record(
    s: Session, *, tenant_id: str, scan: dict[str, Any], code_id: str | None, agent: Agent
) -> int | None:
    """Write one scan and its counters; the code's new non-bot count (None for bots and orphans)."""
    s.execute(insert(QrScan).values(scan))
    day: date = scan["at"].date()
    key = {"tenant_id": tenant_id, "day": day}
    if code_id is None:
        _upsert(s, [{**key, "code_id": "", "dim": "orphans", "key": "", "count": 1}])
        return None
    if agent.bot:
        s.execute(update(QrCode).where(QrCode.id == code_id).values(bots=QrCode.bots + 1))
        _upsert(s, [{**key, "code_id": code_id, "dim": "bots", "key": "", "count": 1}])
        return None
    count = s.execute(
        update(QrCode).where(QrCode.id == code_id).values(scans=QrCode.scans + 1).returning(QrCode.scans)
    ).scalar_one()
    rows = [
        {**key, "code_id": code_id, "dim": "scans", "key": "", "count": 1},
        {**key, "code_id": code_id, "dim": "device", "key": agent.device, "count": 1},
        {**key, "code_id": code_id, "dim": "browser", "key": agent.browser, "count": 1},
        {**key, "code_id": code_id, "dim": "os", "key": agent.os, "count": 1},
        {**key, "code_id": code_id, "dim": "referrer", "key": scan["referrer"], "count": 1},
    ]
    if _first_visit(s, {**key, "code_id": code_id, "ip_hash": scan["ip_hash"]}):
        rows.append({**key, "code_id": code_id, "dim": "unique", "key": "", "count": 1})
    _upsert(s, rows)
    return int(count)

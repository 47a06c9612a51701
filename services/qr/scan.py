"""Qr: scan."""

from __future__ import annotations

from sqlalchemy import update

from local_db.models.qr import QrCode
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.events import emit
from services.core.files import Redirect
from services.qr import scanning


@use_case(
    "qr.scan",
    "GET /../r/{short_code}",
    tx="own",
    auth="public",
    headers=("user-agent", "referer"),
    limit="public_scan",
    summary="scan address: 302 to the destination",
)
def scan(ctx: Ctx, short_code: str, headers: dict[str, str | None] | None = None) -> Redirect:
    """Record the scan (always, orphans too) and redirect while the code serves; else 404."""
    h = headers or {}
    ua = (h.get("user-agent") or "")[:300]
    agent = scanning.parse_agent(ua)
    now = ctx.now()
    tenant_id = ctx.tenant_id
    short = short_code[:64]
    target: str | None = None
    secret = ctx.runtime.secret_key
    with ctx.write() as s:
        conn = s.connection()
        # One statement: counted on the code only if it serves (the cap exact under concurrency).
        hit = scanning.serve(conn, tenant_id=tenant_id, short_code=short, now=now, bot=agent.bot)
        code_id = hit.id if hit is not None else None
        row = {
            "id": scanning.scan_id(now),
            "tenant_id": tenant_id,
            "code_id": code_id,
            "short_code": short,
            "at": now,
            "device": agent.device,
            "browser": agent.browser,
            "os": agent.os,
            "referrer": scanning.referrer_host(h.get("referer")),
            "ip_hash": scanning.anonymise_ip(
                secret.encode() if isinstance(secret, str) else secret, tenant_id, now.date(), ctx.ip
            ),
            "user_agent": ua,
            "bot": agent.bot,
        }
        scanning.record_counted(conn, tenant_id=tenant_id, scan=row, code_id=code_id, agent=agent)
        if hit is not None:
            target = hit.destination_url
            if not agent.bot:
                count = int(hit.scans)
                emit(
                    ctx,
                    "qr.scanned",
                    {
                        "qr_id": hit.id,
                        "short_code": short_code,
                        "scans": count,
                        "device": agent.device,
                        "browser": agent.browser,
                        "os": agent.os,
                        "referrer": row["referrer"],
                    },
                )
                th = hit.scan_alert_threshold
                if th is not None and count >= th and not hit.threshold_sent:
                    flipped = s.execute(
                        update(QrCode)
                        .where(QrCode.id == hit.id, QrCode.threshold_sent.is_(False))
                        .values(threshold_sent=True)
                    )
                    if getattr(flipped, "rowcount", 0) == 1:
                        emit(ctx, "qr.threshold_reached", {"qr_id": hit.id, "threshold": th, "scans": count})
    if target is None:
        raise NotFound("no active QR code at this address", {"short_code": short_code})
    return Redirect(target)

"""Qr: scan."""

from __future__ import annotations

from sqlalchemy import select, update

from local_db.models.qr import QrCode
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.events import emit
from services.core.files import FileResult, Redirect
from services.core.pages import Page
from services.qr import landing, scanning
from services.qr.schemas import ScanQuery


@use_case(
    "qr.scan",
    "GET /../r/{short_code}",
    tx="own",
    auth="public",
    headers=("user-agent", "referer"),
    limit="public_scan",
    summary="scan address: 302 to the destination (the scanner's query forwarded), a landing page for "
    "codes that are not addresses, the fallback address or a 410 page for a code that does not serve",
)
def scan(
    ctx: Ctx, short_code: str, query: ScanQuery | None = None, headers: dict[str, str | None] | None = None
) -> Redirect | Page:
    """Record the scan (always, orphans too) and redirect while the code serves; a known code that
    does not serve sends to its fallback address or answers 410 saying why; an unknown one is 404."""
    h = headers or {}
    ua = (h.get("user-agent") or "")[:300]
    agent = scanning.parse_agent(ua)
    now = ctx.now()
    tenant_id = ctx.tenant_id
    short = short_code[:64]
    target: str | None = None
    shown: Page | None = None
    refused: scanning.Refusal | None = None
    forwarded = {k: str(v) for k, v in (query.model_extra or {}).items()} if query is not None else {}
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
        if hit is None:
            refused = scanning.refusal(conn, tenant_id=tenant_id, short_code=short, now=now)
        elif hit.destination_url is None:
            vcf = f"{short_code}/contact.vcf"
            shown = landing.landing(hit.type, hit.content, hit.name, vcf)
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
    if shown is not None:
        return shown
    if target is not None:
        return Redirect(landing.forward_query(target, forwarded))
    if refused is not None:
        if refused.fallback_url:
            return Redirect(landing.forward_query(refused.fallback_url, forwarded))
        return landing.gone(refused.reason)
    raise NotFound("no QR code at this address", {"short_code": short_code})


@use_case(
    "qr.scan_vcard",
    "GET /../r/{short_code}/contact.vcf",
    tx="read",
    auth="public",
    limit="public_scan",
    summary="the contact of a serving vCard code as a .vcf file (not counted as a scan)",
)
def scan_vcard(ctx: Ctx, short_code: str) -> FileResult:
    with ctx.read() as s:
        row = s.execute(
            select(QrCode.type, QrCode.content, QrCode.name, QrCode.enabled, QrCode.dynamic).where(
                QrCode.short_code == short_code[:64]
            )
        ).first()
    if row is None or row.type != "vcard" or not row.content or not row.enabled or not row.dynamic:
        raise NotFound("no contact at this address", {"short_code": short_code})
    # vCard lines end in CRLF (RFC 6350 3.2), whatever the code's content was typed with.
    body = "\r\n".join(row.content.splitlines()) + "\r\n"
    return FileResult(body.encode(), "text/vcard; charset=utf-8", f"{row.name or 'contact'}.vcf", inline=False)

"""Demo QR content: two templates, a folder, three codes (dynamic, static, capped) with a week of scans, barcodes.

Deterministic ids (``demo_id``) and short codes so a seeded station and platform agree.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from local_db.models.qr import QrBarcode, QrCode, QrFolder, QrTemplate
from services.core.context import Ctx
from services.core.demo import demo_id, demo_seeder
from services.qr import scanning
from services.qr.schemas import Style

TEMPLATES = [
    ("Brand blue", Style(fg="#1d3b8f", bg="#ffffff", error_correction="Q")),
    ("Print black (H)", Style(error_correction="H", border=4)),
]
CODES = [
    # name, short code, dynamic, destination or content, max scans
    ("Spring menu", "demoMNU", True, "https://example.com/menu", None),
    ("Wi-Fi for guests", "demoWIF", False, "WIFI:T:WPA;S:DemoGuest;P:welcome2026;;", None),
    ("Launch giveaway (first 500)", "demoGIV", True, "https://example.com/giveaway", 500),
]
AGENTS = [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/124.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36 Edg/124.0",
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
]


@demo_seeder
def seed(ctx: Ctx) -> None:
    slug = ctx.tenant.slug if ctx.tenant else "-"
    if slug != "demo":
        return
    with ctx.write() as s:
        if s.execute(select(QrCode.id).where(QrCode.id == demo_id("qr", "demoMNU"))).first():
            return
        now = ctx.now()
        tids = []
        for name, style in TEMPLATES:
            tid = demo_id("qr-template", name)
            tids.append(tid)
            s.add(QrTemplate(id=tid, tenant_id=ctx.tenant_id, name=name, style=style.model_dump(), created_at=now))
        folder = demo_id("qr-folder", "Campaigns")
        s.add(QrFolder(id=folder, tenant_id=ctx.tenant_id, name="Campaigns", parent_id=None, created_at=now))
        for name, short, dynamic, target, cap in CODES:
            s.add(
                QrCode(
                    id=demo_id("qr", short),
                    tenant_id=ctx.tenant_id,
                    name=name,
                    type="url" if dynamic else "wifi",
                    content="" if dynamic else target,
                    dynamic=dynamic,
                    short_code=short,
                    destination_url=target if dynamic else None,
                    folder_id=folder if dynamic else None,
                    template_id=tids[0],
                    style=TEMPLATES[0][1].model_dump(),
                    max_scans=cap,
                    scan_alert_threshold=100 if dynamic else None,
                    enabled=True,
                    scans=0,
                    bots=0,
                    threshold_sent=False,
                    created_at=now - timedelta(days=8),
                    updated_at=now,
                )
            )
        s.flush()
        # A week of scans of the menu code: the chart and the dashboard have something to show.
        code_id = demo_id("qr", "demoMNU")
        n = 0
        for day in range(7):
            for i in range(3 + day * 2):
                ua = AGENTS[(i + day) % len(AGENTS)]
                agent = scanning.parse_agent(ua)
                at = now - timedelta(days=6 - day, hours=i % 5)
                n += 1
                row = {
                    "id": demo_id("qr-scan", str(n)),
                    "tenant_id": ctx.tenant_id,
                    "code_id": code_id,
                    "short_code": "demoMNU",
                    "at": at,
                    "device": agent.device,
                    "browser": agent.browser,
                    "os": agent.os,
                    "referrer": "direct" if i % 3 else "instagram.com",
                    "ip_hash": f"demo{n % 9:012d}",
                    "user_agent": ua,
                    "bot": agent.bot,
                }
                scanning.record(s, tenant_id=ctx.tenant_id, scan=row, code_id=code_id, agent=agent)
        for kind, value in (("ean13", "4006381333931"), ("code128", "DEMO-0001"), ("upca", "036000241457")):
            s.add(
                QrBarcode(
                    id=demo_id("qr-barcode", kind), tenant_id=ctx.tenant_id, type=kind, value=value, created_at=now
                )
            )

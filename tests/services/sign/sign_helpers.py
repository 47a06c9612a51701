"""Shared by Sign's tests: a small PDF, a drawn signature, links read from the mail folder."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

from PIL import Image, ImageDraw
from reportlab.pdfgen import canvas

from services.core import auth
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.core.mail import mail_dir

# Mails link to the signing page (/sign/p/, issue 33); the API's /sign/api/sign/ takes the same token.
LINK = re.compile(r"https?://\S+/sign/(?:api/sign|p)/([A-Za-z0-9_-]{20,})")


def ctx_for(rt: Runtime, email: str = "owner@demo.test", slug: str = "demo", ip: str | None = None) -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", email), tenant), ip=ip)


def public_ctx(rt: Runtime, slug: str = "demo", ip: str = "203.0.113.7") -> Ctx:
    from services.core.context import Principal

    return Ctx(rt, auth.load_tenant(rt.db, slug), Principal(kind="public", id="anonymous"), ip=ip)


def make_pdf(pages: int = 2) -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf)
    for i in range(pages):
        c.drawString(72, 760, f"Agreement, page {i + 1}")
        c.showPage()
    c.save()
    return buf.getvalue()


def drawn_png() -> bytes:
    img = Image.new("RGBA", (300, 100), (255, 255, 255, 0))
    ImageDraw.Draw(img).line([(10, 80), (80, 20), (150, 70), (290, 15)], fill=(10, 20, 120, 255), width=5)
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def links(rt: Runtime, tenant_slug: str = "demo") -> dict[str, list[str]]:
    """Each recipient's signing tokens, oldest first, as read from the kept .eml files."""
    tenant = auth.load_tenant(rt.db, tenant_slug)
    assert tenant is not None
    found: dict[str, list[str]] = {}
    folder = mail_dir(rt, tenant.id)
    for path in sorted(folder.glob("*.eml")) if folder.exists() else []:
        text = path.read_text(errors="replace")
        to = re.search(r"^To: (.+)$", text, re.M)
        for token in LINK.findall(text.replace("=\n", "")):
            found.setdefault(to.group(1).strip() if to else "", []).append(token)
    return found


def pyhanko_validate(path: Path, cert_pem: Path) -> str:
    exe = Path(shutil.which("pyhanko") or Path(__import__("sys").executable).parent / "pyhanko")
    r = subprocess.run(
        [
            str(exe),
            "sign",
            "validate",
            "--trust",
            str(cert_pem),
            "--trust-replace",
            "--no-revocation-check",
            "--pretty-print",
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return r.stdout + r.stderr


def pdfsig(path: Path) -> str | None:
    exe = shutil.which("pdfsig")
    if exe is None:
        return None
    r = subprocess.run([exe, str(path)], capture_output=True, text=True, timeout=60)
    return r.stdout + r.stderr

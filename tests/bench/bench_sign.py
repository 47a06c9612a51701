"""Sign figures (plain script): `python tests/bench/bench_sign.py` (full: 30 seals per size)
or `BENCH_TINY=1 python tests/bench/bench_sign.py` (a few seconds, smoke run).

Sealing a completed document, p50/p95 for 1, 10 and 50 pages: every page's values stamped (a name,
a date and a drawn signature image), the audit certificate page appended, and one PAdES signature
of the tenant's certificate (ECDSA P-256) over the whole file. The last sealed PDF of each size is then
checked by poppler's ``pdfsig`` when it is installed (a failed check exits 1).
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from reportlab.pdfgen import canvas  # noqa: E402
from timing import fmt, timed  # noqa: E402 - tests/bench/timing.py, next to this script

from services.sign import pdf  # noqa: E402
from tests.services.sign.sign_helpers import drawn_png  # noqa: E402

TINY = os.environ.get("BENCH_TINY") == "1" or "--tiny" in sys.argv
RUNS = 3 if TINY else 30
SIZES = (1, 10) if TINY else (1, 10, 50)


def document(pages: int) -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf)
    for i in range(pages):
        c.setFont("Helvetica", 11)
        for line in range(40):
            c.drawString(60, 780 - line * 18, f"Page {i + 1}, clause {line + 1}: the parties agree as follows ...")
        c.showPage()
    c.save()
    return buf.getvalue()


def main() -> int:
    pair = pdf.self_signed("Bench seal", datetime.now(UTC))
    sig = drawn_png()
    failed = False
    print(f"seal a completed document ({RUNS} runs per size): stamp values, append the audit page, PAdES-sign")
    for pages in SIZES:
        original = document(pages)
        stamps = []
        for p in range(1, pages + 1):
            stamps += [
                pdf.Stamp(p, 0.1, 0.85, 0.3, 0.03, "name", "Ann Signer"),
                pdf.Stamp(p, 0.6, 0.85, 0.2, 0.03, "date", "2026-11-23"),
                pdf.Stamp(p, 0.1, 0.9, 0.3, 0.06, "signature", "", sig),
            ]
        trail = [
            pdf.AuditLine(datetime.now(UTC), a, "Ann Signer", "ann@example.test", "203.0.113.7", "0" * 64)
            for a in ("created", "sent", "viewed", "signed")
        ]
        cert = pdf.Certificate(
            "Bench", "bench", hashlib.sha256(original).hexdigest(), [("Ann", "ann@x", "signer", "signed")], trail
        )
        out: list[bytes] = []

        def seal_once(
            original: bytes = original,
            stamps: list[pdf.Stamp] = stamps,
            cert: pdf.Certificate = cert,
            out: list[bytes] = out,
        ) -> None:
            out.append(pdf.seal(pdf.stamp_and_append(original, stamps, cert, "Bench seal"), pair, reason="bench"))

        xs = timed(seal_once, RUNS, warmup=1)
        print(f"  {pages:>3} pages: {fmt(xs)}  ({len(out[-1]) // 1024} KiB)")
        exe = shutil.which("pdfsig")
        if exe:
            with tempfile.TemporaryDirectory() as d:
                path = Path(d) / "sealed.pdf"
                path.write_bytes(out[-1])
                r = subprocess.run([exe, str(path)], capture_output=True, text=True, timeout=60)
                ok = "Signature is Valid" in r.stdout and "Total document signed" in r.stdout
                print(f"        pdfsig: {'valid, total document signed' if ok else 'NOT VALID'}")
                failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

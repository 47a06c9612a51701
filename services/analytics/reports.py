"""Report files: CSV, XLSX (openpyxl, one sheet per metric) and one-file PDF (reportlab, DejaVu)."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from functools import cache
from pathlib import Path
from typing import Any

import resources
from local_db.models.analytics import AnalyticsReport
from services.analytics.lookups import series
from services.analytics.schemas import BucketOut
from services.core.context import Ctx
from services.core.jobs import Report, job_kind
from services.core.storage import keep_blob

FONT, BOLD = "DejaVuSans", "DejaVuSans-Bold"


@cache
def _fonts() -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    folder = Path(resources.__file__).parent / "fonts"
    pdfmetrics.registerFont(TTFont(FONT, str(folder / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(folder / "DejaVuSans-Bold.ttf")))


def to_csv(data: dict[str, list[BucketOut]]) -> bytes:
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator="\r\n")  # RFC 4180 line ends
    w.writerow(["metric", "bucket", "value", "count"])
    for name, points in data.items():
        for p in points:
            w.writerow([name, p.bucket.isoformat(), f"{p.value:g}", p.count])
    return buf.getvalue().encode()


def to_xlsx(title: str, data: dict[str, list[BucketOut]]) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook()
    summary = wb.active
    summary.title = "Summary"
    summary.append([title])
    summary["A1"].font = Font(bold=True, size=14)
    summary.append(["metric", "total", "count"])
    for name, points in data.items():
        summary.append([name, sum(p.value for p in points), sum(p.count for p in points)])
    used: set[str] = {"Summary"}
    for name, points in data.items():
        sheet_name = "".join(ch for ch in name if ch not in "[]:*?/\\")[:31] or "metric"
        while sheet_name in used:
            sheet_name = sheet_name[:28] + f"~{len(used)}"
        used.add(sheet_name)
        ws = wb.create_sheet(sheet_name)
        ws.append(["bucket", "value", "count"])
        for p in points:
            ws.append([p.bucket, p.value, p.count])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def to_pdf(title: str, period: str, data: dict[str, list[BucketOut]]) -> bytes:
    """One file: per metric a bar chart and its table, long tables carried over to new pages."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    _fonts()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, pageCompression=1)
    c.setTitle(title)
    width, height = A4
    left, top, bottom = 18 * mm, height - 20 * mm, 18 * mm
    y = top

    def heading() -> float:
        c.setFont(BOLD, 16)
        c.drawString(left, top, title)
        c.setFont(FONT, 9)
        c.drawString(left, top - 6 * mm, period)
        return top - 14 * mm

    y = heading()
    for name, points in data.items():
        if y < bottom + 70 * mm:
            c.showPage()
            y = heading()
        c.setFont(BOLD, 12)
        c.drawString(left, y, name)
        total = sum(p.value for p in points)
        c.setFont(FONT, 9)
        c.drawRightString(width - left, y, f"total {total:g}")
        y -= 4 * mm
        chart_h, chart_w = 40 * mm, width - 2 * left
        peak = max((p.value for p in points), default=0) or 1
        bar_w = chart_w / max(len(points), 1)
        c.setStrokeColorRGB(0.7, 0.7, 0.7)
        c.line(left, y - chart_h, left + chart_w, y - chart_h)
        c.setFillColorRGB(0.16, 0.42, 0.75)
        for i, p in enumerate(points):
            h = chart_h * max(p.value, 0) / peak
            if h > 0:
                c.rect(left + i * bar_w + bar_w * 0.1, y - chart_h, bar_w * 0.8, h, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        y -= chart_h + 8 * mm
        c.setFont(BOLD, 9)
        for x, label in ((left, "bucket"), (left + 50 * mm, "value"), (left + 90 * mm, "count")):
            c.drawString(x, y, label)
        y -= 5 * mm
        c.setFont(FONT, 9)
        for p in points:
            if y < bottom:
                c.showPage()
                y = heading()
                c.setFont(FONT, 9)
            c.drawString(left, y, p.bucket.isoformat())
            c.drawString(left + 50 * mm, y, f"{p.value:g}")
            c.drawString(left + 90 * mm, y, str(p.count))
            y -= 4.5 * mm
        y -= 6 * mm
    c.save()
    return buf.getvalue()


@job_kind("analytics.report", "Analytics report")
def run_report(ctx: Ctx, params: dict[str, Any], report: Report) -> dict[str, Any]:
    with ctx.read() as s:
        r = s.get(AnalyticsReport, str(params["report_id"]))
        if r is None:
            raise RuntimeError("the report is gone")
        name, metrics, start, end, fmt = r.name, list(r.metrics), r.date_from, r.date_to, r.format
    interval = str(params.get("interval") or "day")
    data: dict[str, list[BucketOut]] = {}
    for i, m in enumerate(metrics):
        with ctx.read() as s:
            data[m] = series(s, m, start, end, interval)
        report(i + 1, len(metrics) + 1, m)
    period = f"{start.isoformat()} to {end.isoformat()} ({(end - start + timedelta(days=1)).days} days, by {interval})"
    if fmt == "csv":
        content = to_csv(data)
    elif fmt == "xlsx":
        content = to_xlsx(name, data)
    else:
        content = to_pdf(name, period, data)
    digest, _path = keep_blob(ctx, content)  # made here: no sniffing of our own file
    with ctx.write() as s:
        r = s.get(AnalyticsReport, str(params["report_id"]))
        if r is not None:
            r.file_sha256 = digest
    return {"bytes": len(content), "format": fmt}

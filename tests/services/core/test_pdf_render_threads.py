"""Pages of a PDF rendered from many threads at once: the server's thread pool does this when
visitors open a signing page's images together. PDFium is not thread-safe; before its lock
(services/core/pdf.PDFIUM_LOCK) ten visitors at once crashed the server with a segmentation fault
(bench_pages.py, issue 33). The renders run in a child process, so a crash fails this test rather
than ending the test run. Without the lock this test failed 4 runs out of 5 (a segmentation fault each time)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import io, threading
from services.core.pdf import NoSuchPage, canvas, render_page_png

buf = io.BytesIO()
c = canvas(buf)
for i in range(3):
    c.drawString(72, 760, f"Page {i + 1}")
    c.showPage()
c.save()
pdf = buf.getvalue()
expected = {n: render_page_png(pdf, n, scale=0.2) for n in (1, 2, 3)}
wrong = []

def render() -> None:
    for i in range(300):
        n = 1 + i % 3
        if render_page_png(pdf, n, scale=0.2) != expected[n]:  # small: many pdfium calls, few pixels
            wrong.append(n)

threads = [threading.Thread(target=render) for _ in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
try:
    render_page_png(pdf, 4)
except NoSuchPage:
    print("distinct", len(set(expected.values())), "wrong", len(wrong))
"""


def test_pages_rendered_from_eight_threads_at_once_do_not_crash_the_process() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONFAULTHANDLER": "1"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=240
    )
    # -11 is SIGSEGV, -6 SIGABRT (glibc's "double free or corruption").
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stderr[-3000:]}"
    # Three pages, three different images, and every thread got the image of the page it asked for.
    assert done.stdout.split() == ["distinct", "3", "wrong", "0"], done.stdout

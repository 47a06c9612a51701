"""Public pages benchmark (not part of `make test`, which smoke-runs it tiny): run

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_pages.py
    BENCH_TINY=1 ... (a few seconds)

Time to first byte (the response's headers arrived) of each public page on a real uvicorn
server over the demo data, 10 visitors at once (one HTTP client each), p50 and p95 per page.
Target (issue 33): p95 under 50 ms. The signing page's figure includes nothing of its page
images (fetched by the browser afterwards); the image itself is measured on its own.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import httpx  # noqa: E402
from timing import fmt  # noqa: E402 - tests/bench/timing.py, next to this script

from app.settings import Settings  # noqa: E402
from services.core.demo import DEMO_PASSWORD  # noqa: E402
from tests.conftest import start_server  # noqa: E402
from tests.services.sign.sign_helpers import links, make_pdf  # noqa: E402

TINY = os.environ.get("BENCH_TINY") == "1" or os.environ.get("BENCH_SMOKE") == "1"
VISITORS = 10
EACH = 2 if TINY else 30


def ttfb(url: str, path: str, cookies: dict[str, str] | None = None) -> list[float]:
    """Every visitor fetches ``path`` EACH times; the seconds until the headers, all visitors."""
    times: list[float] = []
    lock = threading.Lock()
    start = threading.Barrier(VISITORS)

    def visitor() -> None:
        with httpx.Client(base_url=url, timeout=60, cookies=cookies) as c:
            c.get(path).raise_for_status()  # warm: the CSRF cookie set, connection open
            start.wait()
            mine = []
            for _ in range(EACH):
                t0 = time.perf_counter()
                with c.stream("GET", path) as r:
                    mine.append(time.perf_counter() - t0)
                    assert r.status_code == 200, r.status_code
                    r.read()
            with lock:
                times.extend(mine)

    threads = [threading.Thread(target=visitor) for _ in range(VISITORS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(times)


def cpu_ms(url: str, path: str, cookies: dict[str, str] | None = None) -> float:
    """This process's CPU time per request (server and client, one visitor after another): a figure
    the machine's load hardly moves, unlike the time to first byte on a shared machine."""
    n = 3 if TINY else 60
    with httpx.Client(base_url=url, timeout=60, cookies=cookies) as c:
        c.get(path).raise_for_status()
        t0 = time.process_time()
        for _ in range(n):
            c.get(path).raise_for_status()
        return (time.process_time() - t0) / n * 1000


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp) / "d", secret_key="b" * 32, demo=True)
        srv = start_server(settings, rate_limits="off", challenge="demo")
        try:
            with httpx.Client(base_url=srv.url, timeout=60) as c:
                new = c.get("/demo/support/p/new")
                tok = re.search(r'name="csrf_token" value="([^"]+)"', new.text)
                assert tok is not None
                form = {"csrf_token": tok.group(1), "name": "Bench", "email": "b@example.com", "subject": "s"}
                done = c.post("/demo/support/p/new", data={**form, "description": "d"})
                track = re.search(r'href="https?://[^"]+(/demo/support/p/t/[\w-]+)"', done.text)
                assert track is not None, done.text[:500]
                login = c.post("/api/auth/login", json={"email": "owner@demo.test", "password": DEMO_PASSWORD})
                h = {"Authorization": f"Bearer {login.json()['data']['token']}"}
                files = {"file": ("b.pdf", make_pdf(1), "application/pdf")}
                doc = c.post("/demo/sign/api/documents", files=files, data={"title": "Bench"}, headers=h).json()
                did = doc["data"]["id"]
                c.post(
                    f"/demo/sign/api/documents/{did}/signers", json={"name": "S", "email": "s@example.test"}, headers=h
                )
                assert c.post(f"/demo/sign/api/documents/{did}/send", json={}, headers=h).status_code == 200
                # The portals' signed-in pages: the customer's token in the portal's cookie.
                portal = {}
                for module, email in (
                    ("upgrade", "customer@demo.test"),
                    ("aftersale", "customer@demo.test"),
                    ("rewards", "dealer@demo.test"),
                ):
                    r = c.post(f"/demo/{module}/api/auth/login", json={"email": email, "password": DEMO_PASSWORD})
                    portal[module] = {f"portal_{module}": r.json()["data"]["token"]}
            sign = "/demo/sign/p/" + links(srv.runtime)["s@example.test"][-1]
            pages: dict[str, str | tuple[str, dict[str, str]]] = {
                "support: new ticket form": "/demo/support/p/new",
                "support: tracking page": track.group(1),
                "sign: signer page": sign,
                "sign: page image (PNG)": sign + "/page/1",
                "shared stylesheet": "/_pages/pages.css",
                "upgrade: quote form": "/demo/upgrade/p/quote",
                "upgrade: trade-ins (signed in)": ("/demo/upgrade/p/", portal["upgrade"]),
                "aftersale: products (signed in)": ("/demo/aftersale/p/", portal["aftersale"]),
                "aftersale: register a product": "/demo/aftersale/p/register-product",
                "rewards: points (signed in)": ("/demo/rewards/p/", portal["rewards"]),
                "rewards: catalogue (signed in)": ("/demo/rewards/p/catalogue", portal["rewards"]),
            }
            print(f"time to first byte, {VISITORS} visitors at once, {EACH} requests each (target p95 < 50 ms)")
            print(
                f"  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; cpu: one visitor, server and client)"
            )
            for name, where in pages.items():
                path, cookies = where if isinstance(where, tuple) else (where, None)
                xs = ttfb(srv.url, path, cookies)
                print(f"  {name:32s} {fmt(xs)}  cpu {cpu_ms(srv.url, path, cookies):5.1f} ms/request")
        finally:
            srv.stop()
            srv.runtime.db.dispose()


if __name__ == "__main__":
    main()

"""Public pages benchmark (not part of `make test`, which smoke-runs it tiny): run

    .venv/bin/python tests/bench/bench_pages.py                 # 1 worker (SQLite), 2 workers (PostgreSQL)
    .venv/bin/python tests/bench/bench_pages.py --workers 2     # one of them
    .venv/bin/python tests/bench/bench_pages.py --profile 8     # and where each page's CPU goes (py-spy)
    BENCH_TINY=1 ... (1 worker on SQLite, 2 requests a visitor: the smoke test's size)

The server is a separate process, started as production starts it: ``python -m app serve --demo``
on a loopback port, with ``--workers 2`` on PostgreSQL (SQLite serves one process; PostgreSQL:
PLATFORM_TEST_POSTGRES_URL, else the local test server at 127.0.0.1:55432, an empty database of
its own that the server migrates and seeds, dropped at the end; without PostgreSQL the 2-worker run
is skipped with a line saying so) and with ``--workers 1`` on SQLite, the single-process
deployment. The visitors are this process: 10 at once (``--visitors``), each its own connection
(httpx, asyncio), each fetching the page ``--each`` times after one warm-up visit.

Per page: p50 and p95 of the time to first byte (the response's headers arrived), and the server's
CPU time per request: the server's processes' CPU (``/proc``: the supervisor and its workers) read
before and after the page's visits, divided by the visits. The CPU figure hardly moves with the
machine's load, unlike the time to first byte on a shared machine. Target (issue 33): p95 under
50 ms with 10 visitors at once against 2 workers. The signing page's figure includes nothing of its
page images (fetched by the browser afterwards); the image is measured as a page of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import httpx  # noqa: E402
from timing import fmt  # noqa: E402 - tests/bench/timing.py, next to this script

from services.core.demo import DEMO_PASSWORD, demo_id  # noqa: E402
from tests.services.sign.sign_helpers import LINK, make_pdf  # noqa: E402

TINY = os.environ.get("BENCH_TINY") == "1" or os.environ.get("BENCH_SMOKE") == "1"
DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:55432/platform_test"
TICKS = os.sysconf("SC_CLK_TCK")


def tree(pid: int) -> list[int]:
    """The process and its descendants (a supervisor's workers), read from /proc."""
    children: dict[int, list[int]] = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
        except OSError:  # ended while we looked
            continue
        # The parent pid is the 2nd field after the command name, which is in parentheses.
        children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(proc.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of these processes so far."""
    total = 0
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / TICKS


# --- the server -------------------------------------------------------------------------------


class Server:
    def __init__(self, workers: int, data: Path, db_url: str | None) -> None:
        env = {
            **os.environ,
            "PLATFORM_SECRET_KEY": "pages-bench-secret-0123456789abcdefghij",
            "PLATFORM_RATE_LIMITS": "off",  # the point is the pages' speed, not the limiter's answers
            "PLATFORM_CHALLENGE": "demo",
            "PYTHONFAULTHANDLER": "1",  # a crash in C code prints every thread's Python stack
        }
        env.pop("PLATFORM_TEST_BACKEND", None)
        if db_url:
            env["PLATFORM_DATABASE_URL"] = db_url
        self.log = data.parent / f"server-{workers}.log"
        data.mkdir(parents=True, exist_ok=True)
        with self.log.open("w") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app", "serve", "--demo", "--workers", str(workers), "--port", "0"]
                + ["--data-dir", str(data)],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
            )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("listening on "):
            self.stop()
            raise SystemExit(f"the server did not start: {line}{self.log.read_text()[-4000:]}")
        # Whatever else it prints is read: a full pipe would block the server's next write.
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        self.url = line.split()[-1]
        self.data = data
        deadline = time.monotonic() + 120
        while workers > 1 and len(tree(self.proc.pid)) < workers + 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        # The workers answer once their start-up is over: wait for one answer from each.
        with httpx.Client(base_url=self.url, timeout=60) as c:
            for _ in range(workers * 4):
                c.get("/_pages/pages.css", headers={"Connection": "close"}).raise_for_status()

    def pids(self) -> list[int]:
        return tree(self.proc.pid)

    def workers(self) -> list[int]:
        """The processes that serve requests: the workers under a supervisor, else the one process."""
        return [p for p in self.pids() if p != self.proc.pid] or [self.proc.pid]

    def stop(self) -> None:
        died = self.proc.poll()
        if died is not None:
            # The server ended before we asked it to: what it said is the only clue (faulthandler's
            # traceback, glibc's "double free"), and the log goes with the temporary directory.
            print(f"THE SERVER DIED (exit {died}); its log:\n{self.log.read_text()[-6000:]}", file=sys.stderr)
        if keep := os.environ.get("BENCH_KEEP_LOGS"):
            shutil.copy(self.log, Path(keep) / f"{self.log.stem}-{os.getpid()}.log")
        if died is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def pg_database(admin_url: str) -> tuple[str, str] | None:
    """An empty database of its own for this run (the server migrates it and seeds the demo, as
    production's first start does); None when no PostgreSQL answers. Databases that earlier runs
    left behind are dropped first: a run killed before its end, and the templates the benchmark
    kept before (``pages_tpl_*``, a copy of the demo per migration set that nothing ever dropped)."""
    from sqlalchemy import create_engine

    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            names = (
                c.exec_driver_sql("SELECT datname FROM pg_database WHERE left(datname, 6) = 'pages_'").scalars().all()
            )
    except Exception as exc:  # noqa: BLE001 - no server: the caller says so and skips the run
        print(f"no PostgreSQL at {admin_url.split('@')[-1]}: {type(exc).__name__}")
        return None
    with admin.connect() as c:
        for old in names:
            m = re.fullmatch(r"pages_(\d+)_\d+", old)
            if m and Path(f"/proc/{m.group(1)}").exists():
                continue  # another run's, still going (its process is alive on this machine)
            if m or old.startswith("pages_tpl_"):
                try:  # without FORCE: a database someone is still connected to is left alone
                    c.exec_driver_sql(f'DROP DATABASE IF EXISTS "{old}"')
                except Exception:  # noqa: BLE001, S112 - in use: its own run drops it
                    continue
        name = f"pages_{os.getpid()}_{int(time.time())}"
        c.exec_driver_sql(f"CREATE DATABASE {name}")
    admin.dispose()
    return name, admin_url.rsplit("/", 1)[0] + "/" + name


def drop_database(admin_url: str, name: str) -> None:
    from sqlalchemy import create_engine

    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    admin.dispose()


# --- what the visitors open -------------------------------------------------------------------

Where = tuple[str, dict[str, str] | None]


def prepare(srv: Server) -> dict[str, Where]:
    """A ticket, a document to sign and the portals' sign-ins, made through the server's own API
    and pages; the signer's link read from the mail the server kept, as a signer gets it."""
    with httpx.Client(base_url=srv.url, timeout=60) as c:
        new = c.get("/demo/support/p/new")
        tok = re.search(r'name="csrf_token" value="([^"]+)"', new.text)
        assert tok is not None, new.text[:500]
        form = {"csrf_token": tok.group(1), "name": "Bench", "email": "b@example.com", "subject": "s"}
        done = c.post("/demo/support/p/new", data={**form, "description": "d"})
        track = re.search(r'href="https?://[^"]+(/demo/support/p/t/[\w-]+)"', done.text)
        assert track is not None, done.text[:500]
        login = c.post("/api/auth/login", json={"email": "owner@demo.test", "password": DEMO_PASSWORD})
        h = {"Authorization": f"Bearer {login.json()['data']['token']}"}
        files = {"file": ("b.pdf", make_pdf(1), "application/pdf")}
        doc = c.post("/demo/sign/api/documents", files=files, data={"title": "Bench"}, headers=h).json()
        did = doc["data"]["id"]
        signer = f"s{os.getpid()}@example.test"
        c.post(f"/demo/sign/api/documents/{did}/signers", json={"name": "S", "email": signer}, headers=h)
        assert c.post(f"/demo/sign/api/documents/{did}/send", json={}, headers=h).status_code == 200
        portal = {}
        for module, email in (
            ("upgrade", "customer@demo.test"),
            ("aftersale", "customer@demo.test"),
            ("rewards", "dealer@demo.test"),
        ):
            r = c.post(f"/demo/{module}/api/auth/login", json={"email": email, "password": DEMO_PASSWORD})
            portal[module] = {f"portal_{module}": r.json()["data"]["token"]}
    sign = "/demo/sign/p/" + signing_token(srv.data, signer)
    return {
        "support: new ticket form": ("/demo/support/p/new", None),
        "support: tracking page": (track.group(1), None),
        "sign: signer page": (sign, None),
        "sign: page image (PNG)": (sign + "/page/1", None),
        "shared stylesheet": ("/_pages/pages.css", None),
        "docs: help centre": ("/demo/docs/p/", None),
        "upgrade: quote form": ("/demo/upgrade/p/quote", None),
        "upgrade: trade-ins (signed in)": ("/demo/upgrade/p/", portal["upgrade"]),
        "aftersale: products (signed in)": ("/demo/aftersale/p/", portal["aftersale"]),
        "aftersale: register a product": ("/demo/aftersale/p/register-product", None),
        "rewards: points (signed in)": ("/demo/rewards/p/", portal["rewards"]),
        "rewards: catalogue (signed in)": ("/demo/rewards/p/catalogue", portal["rewards"]),
    }


def signing_token(data: Path, to: str) -> str:
    """The signing link's token from the invitation the server wrote to its mail folder."""
    folder = data / "mail" / demo_id("tenant", "demo")
    deadline = time.monotonic() + 120  # the mail goes out from the server's outbox worker
    while time.monotonic() < deadline:
        for path in sorted(folder.glob("*.eml")) if folder.exists() else []:
            text = path.read_text(errors="replace")
            if re.search(rf"^To: .*{re.escape(to)}", text, re.M) and (m := LINK.search(text.replace("=\n", ""))):
                return m.group(1)
        time.sleep(0.2)
    raise SystemExit(f"no signing mail to {to} in {folder}")


# --- the visitors -----------------------------------------------------------------------------


async def visitors(url: str, path: str, cookies: dict[str, str] | None, n: int, each: int) -> list[float]:
    """``n`` visitors at once, each on its own connection, fetch ``path`` ``each`` times; the
    seconds until each answer's headers arrived."""
    times: list[float] = []
    clients = [httpx.AsyncClient(base_url=url, timeout=60, cookies=cookies) for _ in range(n)]
    try:
        # Warm: the connection open and the CSRF cookie set, as a visitor who has opened the page.
        await asyncio.gather(*(c.get(path) for c in clients))

        async def visit(c: httpx.AsyncClient) -> None:
            for _ in range(each):
                t0 = time.perf_counter()
                async with c.stream("GET", path) as r:
                    times.append(time.perf_counter() - t0)
                    if r.status_code != 200:
                        raise SystemExit(f"{path} answered {r.status_code}")
                    await r.aread()

        await asyncio.gather(*(visit(c) for c in clients))
    finally:
        for c in clients:
            await c.aclose()
    return sorted(times)


def profile(srv: Server, path: str, cookies: dict[str, str] | None, seconds: float, top: int = 14) -> None:
    """Where a page's server CPU goes: py-spy samples the workers while the visitors load it;
    the functions with the most samples (their own and below them) are printed."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    out = Path(tempfile.mkdtemp()) / "spy.txt"
    pids = srv.workers()
    spies = [
        subprocess.Popen(
            [spy, "record", "--pid", str(p), "--duration", str(int(seconds)), "--rate", "400", "--format", "raw"]
            + ["--output", f"{out}.{p}", "--nonblocking"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for p in pids
    ]
    time.sleep(1)  # py-spy attached
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        asyncio.run(visitors(srv.url, path, cookies, 10, 5))
    for s in spies:
        s.wait(timeout=120)
    inclusive: dict[str, int] = {}
    own: dict[str, int] = {}
    total = 0
    for p in pids:
        f = Path(f"{out}.{p}")
        for line in f.read_text().splitlines() if f.exists() else []:
            stack, _, count = line.rpartition(" ")
            frames = stack.split(";")
            # Only samples of a request's work, on the event loop or in the thread pool (py-spy leaves
            # idle threads out; the server's background workers are not the page's cost).
            request = any("api/pages.py" in fr or "uvicorn/protocols" in fr for fr in frames)
            if not request and not os.environ.get("BENCH_PROFILE_ALL"):
                continue
            n = int(count)
            total += n
            for fr in set(frames):
                inclusive[fr] = inclusive.get(fr, 0) + n
            own[frames[-1]] = own.get(frames[-1], 0) + n
    print(f"    profile of {path}: {total} samples of request work")
    if total:
        print("    inclusive:")
        for fr, n in sorted(inclusive.items(), key=lambda kv: -kv[1])[:top]:
            print(f"      {n / total:6.1%}  {fr[:150]}")
        print("    own:")
        for fr, n in sorted(own.items(), key=lambda kv: -kv[1])[:top]:
            print(f"      {n / total:6.1%}  {fr[:150]}")


def run(workers: int, db_url: str | None, tmp: Path, args: argparse.Namespace) -> None:
    t0 = time.perf_counter()
    srv = Server(workers, tmp / f"data-{workers}", db_url)
    try:
        where = "PostgreSQL" if db_url else "SQLite"
        print(f"\n{workers} worker(s) on {where}, up in {time.perf_counter() - t0:.1f} s")
        pages = prepare(srv)
        print(f"time to first byte, {args.visitors} visitors at once, {args.each} requests each (target p95 < 50 ms)")
        print(f"  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; cpu: the server's per request)")
        for name, (path, cookies) in pages.items():
            if args.only and args.only not in name:
                continue
            pids = srv.pids()
            cpu0 = cpu_seconds(pids)
            xs = asyncio.run(visitors(srv.url, path, cookies, args.visitors, args.each))
            cpu = (cpu_seconds(pids) - cpu0) / (args.visitors * (args.each + 1)) * 1000
            print(f"  {name:32s} {fmt(xs)}  cpu {cpu:5.1f} ms/request")
            if args.profile:
                profile(srv, path, cookies, args.profile, args.top)
        print(f"  (load average {os.getloadavg()[0]:.1f} at the end)")
    finally:
        srv.stop()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, choices=(1, 2), help="one run only (default: 1, then 2)")
    ap.add_argument("--visitors", type=int, default=10)
    ap.add_argument("--each", type=int, default=2 if TINY else 30, help="requests per visitor and page")
    ap.add_argument("--only", default="", help="the pages whose name holds this text")
    ap.add_argument("--profile", type=float, default=0, metavar="SECONDS", help="py-spy each page this long")
    ap.add_argument("--top", type=int, default=14, help="with --profile: lines of each list")
    args = ap.parse_args()
    runs = [args.workers] if args.workers else [1] if TINY else [1, 2]
    admin_url = os.environ.get("PLATFORM_TEST_POSTGRES_URL") or DEFAULT_PG
    with tempfile.TemporaryDirectory() as tmp:
        for workers in runs:
            if workers == 1:
                run(1, None, Path(tmp), args)
                continue
            db = pg_database(admin_url)
            if db is None:
                print("2 workers need PostgreSQL: skipped")
                continue
            try:
                run(workers, db[1], Path(tmp), args)
            finally:
                drop_database(admin_url, db[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())

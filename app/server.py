"""Running the platform server (uvicorn) from the command line or inside the desktop app."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import uvicorn
from fastapi import FastAPI
from uvicorn.supervisors import Multiprocess

from api.app import create_app
from api.http_protocol import EnvelopeH11Protocol
from app.events_worker import events_lifespan
from app.settings import VERSION, Settings
from app.wiring import platform_runtime
from services.core.clock import Clock
from services.core.context import Runtime
from services.core.demo import seed_demo
from services.core.jobs import JobWorker
from services.core.links import learn_address
from services.core.scheduler import Scheduler

log = logging.getLogger("server")

# Hooks run in the app's lifespan: (app, runtime, settings) -> async hook. The
# events module adds its delivery worker here.
LIFESPAN_FACTORIES: list[Callable[[Runtime, Settings], Callable[[FastAPI], Any]]] = []
LIFESPAN_FACTORIES.append(events_lifespan)


def jobs_lifespan(rt: Runtime, settings: Settings) -> Callable[[FastAPI], Any]:
    """The process's job worker (PDF catalogs, imports, sends) runs while the server does."""

    async def start(app: FastAPI) -> Callable[[], Any]:
        worker = JobWorker(rt).start()

        async def stop() -> None:
            worker.stop()

        return stop

    return start


LIFESPAN_FACTORIES.append(jobs_lifespan)


def scheduler_lifespan(rt: Runtime, settings: Settings) -> Callable[[FastAPI], Any]:
    """The process's scheduler (periodic and delayed jobs, leased across worker processes)."""

    async def start(app: FastAPI) -> Callable[[], Any]:
        if not settings.scheduler:

            async def nothing() -> None:
                return None

            return nothing
        scheduler = await asyncio.to_thread(Scheduler(rt).start)

        async def stop() -> None:
            await asyncio.to_thread(scheduler.stop)

        return stop

    return start


def support_smtp_lifespan(rt: Runtime, settings: Settings) -> Callable[[FastAPI], Any]:
    """The helpdesk's SMTP endpoint while the server runs, when PLATFORM_SUPPORT_SMTP_LISTEN asks for
    it; in one worker process (the others find the port taken)."""

    async def start(app: FastAPI) -> Callable[[], Any]:
        from services.support import smtp_in

        async def nothing() -> None:
            return None

        where = smtp_in.listen_address()
        if where is None:
            return nothing
        try:
            controller = await asyncio.to_thread(smtp_in.start, rt, *where)
        except (OSError, RuntimeError) as e:
            log.info("helpdesk SMTP endpoint not started in this process: %s", type(e).__name__)
            return nothing

        async def stop() -> None:
            await asyncio.to_thread(controller.stop)

        return stop

    return start


def demo_carrier_lifespan(rt: Runtime, settings: Settings) -> Callable[[FastAPI], Any]:
    """The carrier stand-in (app/carrier_standin.py) while a demo server runs, when asked for
    (``--demo-carrier``): labels are bought over the aggregator's real HTTP protocol on loopback."""

    async def start(app: FastAPI) -> Callable[[], Any]:
        if not (settings.demo and settings.demo_carrier):

            async def nothing() -> None:
                return None

            return nothing
        from app.carrier_standin import CarrierBehaviour, CarrierServer, configure_demo_tenant

        behaviour = CarrierBehaviour()
        standin = CarrierServer(behaviour).start()
        await asyncio.to_thread(configure_demo_tenant, rt, standin.url, behaviour.api_key)
        log.info("demo carrier stand-in on %s", standin.url)

        async def stop() -> None:
            await asyncio.to_thread(standin.stop)

        return stop

    return start


LIFESPAN_FACTORIES.append(scheduler_lifespan)
LIFESPAN_FACTORIES.append(support_smtp_lifespan)
LIFESPAN_FACTORIES.append(demo_carrier_lifespan)


def build_app(
    settings: Settings, clock: Clock | None = None, *, seed: bool = True, migrate: bool = True
) -> tuple[FastAPI, Runtime]:
    rt = platform_runtime(settings, clock, migrate=migrate)
    if settings.demo and seed:
        seed_demo(rt)
    origins = [o.strip() for o in (settings.allowed_origins or "").split(",") if o.strip()]
    app = create_app(
        rt,
        rate_limits=settings.rate_limits,
        force_https=settings.https_forced(),
        allowed_origins=origins,
        trusted_proxies={p.strip() for p in settings.trusted_proxies.split(",") if p.strip()},
        body_limit=settings.body_limit,
        version=VERSION,
        cookie_domain=settings.cookie_domain,
        sync_routes=settings.sync_routes,
        metrics_token=settings.metrics_token,
        traces=settings.traces,
        lifespan_hooks=[factory(rt, settings) for factory in LIFESPAN_FACTORIES],
    )
    return app, rt


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def serve(
    settings: Settings,
    host: str,
    port: int,
    tls_cert: str | None = None,
    tls_key: str | None = None,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    app, rt = build_app(settings)
    if port == 0:
        port = free_port(host)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ssl_certfile=tls_cert,
        ssl_keyfile=tls_key,
        log_level="warning",
        access_log=False,
        lifespan="on",
        # X-Forwarded-For is believed from PLATFORM_TRUSTED_PROXIES only (uvicorn's default: 127.0.0.1).
        forwarded_allow_ips=settings.trusted_proxies,
        http=EnvelopeH11Protocol,
    )
    server = uvicorn.Server(config)
    scheme = "https" if tls_cert else "http"
    learn_address(rt, scheme, host, port)  # links sent before any request start with it

    async def run() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started and not task.done():
            await asyncio.sleep(0.02)
        if server.started:
            url = f"{scheme}://{host}:{port}"
            print(f"listening on {url}", flush=True)
            if on_ready:
                on_ready(url)
        await task

    try:
        asyncio.run(run())
    finally:
        rt.db.dispose()


def worker_app() -> FastAPI:
    """The app of one worker process of ``serve --workers N`` (uvicorn imports it by name in each
    worker). Its settings come from the environment the parent set; the parent migrated and
    seeded the database before starting the workers, so a worker does neither twice."""
    app, _rt = build_app(Settings(), seed=False, migrate=False)
    return app


class WorkersNeedPostgres(ValueError):
    pass


def serve_workers(
    settings: Settings,
    host: str,
    port: int,
    workers: int,
    tls_cert: str | None = None,
    tls_key: str | None = None,
) -> None:
    """N worker processes on one listening socket (uvicorn's supervisor: a worker that dies is
    started again). Each has its own event worker and delivery workers; deliveries are claimed
    across processes with SKIP LOCKED and rate limits are counted in PostgreSQL, so the workers
    need the database on PostgreSQL (SQLite serves one process)."""
    url = settings.resolved_database_url()
    if not url.startswith("postgresql"):
        raise WorkersNeedPostgres("--workers > 1 needs PLATFORM_DATABASE_URL on PostgreSQL (SQLite serves one process)")
    # Once, before any worker: the schema, the secret key in the data dir, the demo data.
    rt = platform_runtime(settings)
    if settings.demo:
        seed_demo(rt)
    rt.db.dispose()
    # The workers' metrics in files every worker reads, so any worker's /metrics answers for all.
    metrics_dir = settings.data_dir / "metrics"
    shutil.rmtree(metrics_dir, ignore_errors=True)
    metrics_dir.mkdir(parents=True)
    os.environ.update(
        {
            "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
            "PLATFORM_DATA_DIR": str(settings.data_dir),
            "PLATFORM_DEMO": "1" if settings.demo else "0",
            "PLATFORM_SECRET_KEY": settings.resolved_secret_key(),
        }
    )
    if port == 0:
        port = free_port(host)
    config = uvicorn.Config(
        "app.server:worker_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        ssl_certfile=tls_cert,
        ssl_keyfile=tls_key,
        log_level="warning",
        access_log=False,
        lifespan="on",
        # X-Forwarded-For is believed from PLATFORM_TRUSTED_PROXIES only (uvicorn's default: 127.0.0.1).
        forwarded_allow_ips=settings.trusted_proxies,
        http=EnvelopeH11Protocol,
    )
    scheme = "https" if tls_cert else "http"
    url = f"{scheme}://{host}:{port}"
    threading.Thread(target=_say_when_ready, args=(url,), daemon=True).start()
    sock = config.bind_socket()
    try:
        Multiprocess(config, sockets=[sock]).run()
    finally:
        sock.close()


def _say_when_ready(url: str) -> None:
    """Print ``listening on URL`` (CONTRACT.md) once a worker answers /health."""
    import httpx

    for _ in range(1200):
        try:
            if httpx.get(url + "/health", verify=False, timeout=2).status_code == 200:
                print(f"listening on {url}", flush=True)
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)


class EmbeddedServer:
    """A platform server on a loopback port in a background thread (``python -m app --demo``).

    The port is chosen up front so the desktop knows the URL at once; the
    server (seeding its demo data on first start) comes up in the background
    and the shell's health check sees it when it answers.
    """

    def __init__(self, settings: Settings, port: int | None = None) -> None:
        self.settings = settings
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None

    def start(self) -> str:
        self._thread = threading.Thread(target=self._run, name="embedded-platform", daemon=True)
        self._thread.start()
        return self.url

    def _run(self) -> None:
        try:
            app, rt = build_app(self.settings)
            self._server = uvicorn.Server(
                uvicorn.Config(
                    app,
                    host="127.0.0.1",
                    port=self.port,
                    log_level="warning",
                    access_log=False,
                    http=EnvelopeH11Protocol,
                )
            )
            self._server.run()
            rt.db.dispose()
        except BaseException as exc:  # noqa: BLE001 - reported, the desktop keeps working offline
            self.error = exc
            log.exception("embedded platform server failed: %s", type(exc).__name__)

    def wait_started(self, timeout: float = 30) -> bool:
        deadline = threading.Event()
        for _ in range(int(timeout / 0.05)):
            if self._server is not None and self._server.started:
                return True
            if self.error is not None:
                return False
            deadline.wait(0.05)
        return False

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)

"""The platform server: every declared operation mounted as a route, plus auth and health."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import quote

from anyio import to_thread
from fastapi import FastAPI, Request, Response
from fastapi.middleware.cors import CORSMiddleware
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from api.auth import client_ip, credentials, principal_for, tenant_for
from api.errors import error_response, install_error_handlers
from api.middleware import BodyLimit, HttpsRedirect
from api.observe import Observe, metrics_allowed, metrics_text, telemetry_config
from api.openapi import Builder
from api.openapi import build as build_openapi
from api.pages import mount_pages, template_response
from api.routetable import install as install_route_table
from services.core import auth
from services.core import service as core_service
from services.core.authcache import Resolver
from services.core.bodies import parse_json, validate_body
from services.core.commands import REGISTRY, Operation, execute
from services.core.context import Ctx, Runtime
from services.core.errors import RateLimited, ServiceError, Unauthorized, ValidationFailed
from services.core.files import FileResult, Redirect, Upload
from services.core.filesafety import clean_filename, disposition_kind, download_type
from services.core.links import learn_address
from services.core.pages import Page as PageRecipe
from services.core.pagination import Page
from services.core.ratelimit import Decision, RateLimiter, store_for
from services.core.schemas import LoginOut, LoginRequest, MeOut

log = logging.getLogger("api")


def content_disposition(disposition: str, filename: str) -> str:
    """RFC 6266: headers are Latin-1, so a name beyond ASCII travels percent-encoded in ``filename*``
    (RFC 5987) beside an ASCII stand-in for old clients."""
    fallback = "".join(c if 32 <= ord(c) < 127 and c not in '"\\' else "_" for c in filename)
    value = f'{disposition}; filename="{fallback}"'
    if fallback != filename:
        value += "; filename*=UTF-8''" + quote(filename, safe="")
    return value


def file_response(result: FileResult) -> Response:
    """The one download answer: the sniffed type, ``nosniff``, and ``attachment`` unless the file is
    a safe image or a PDF (services.core.filesafety); the name cleaned and encoded per RFC 6266."""
    if result.page:
        media, kind = result.media_type, "inline"
    else:
        media = download_type(result.content, result.media_type)
        kind = disposition_kind(media, result.inline)
    headers = {"X-Content-Type-Options": "nosniff"}
    if result.filename or kind == "attachment":
        headers["Content-Disposition"] = (
            content_disposition(kind, clean_filename(result.filename)) if result.filename else kind
        )
    return Response(result.content, status_code=result.status, media_type=media, headers=headers)


def serialize(result: Any, status_code: int) -> Response:
    if isinstance(result, FileResult):
        return file_response(result)
    if isinstance(result, Response):
        return result
    if isinstance(result, Redirect):
        return Response(status_code=result.status, headers={"Location": result.location})
    if result is None:
        return Response(status_code=204)
    if isinstance(result, Page):
        items = [i.model_dump(mode="json") if isinstance(i, BaseModel) else i for i in result.items]
        body: dict[str, Any] = {"data": items, **result.meta()}
    elif isinstance(result, BaseModel) and getattr(result, "json_in_one_pass", False):
        # A large answer (a sync pull's page of a thousand records): pydantic writes the JSON itself,
        # the same values as model_dump(mode="json") without the dicts and json.dumps in between.
        content = b'{"data":' + result.model_dump_json().encode() + b"}"
        return Response(content, status_code=status_code, media_type="application/json")
    elif isinstance(result, BaseModel):
        body = {"data": result.model_dump(mode="json")}
    else:
        body = {"data": result}
    return Response(json.dumps(body, default=str), status_code=status_code, media_type="application/json")


def rate_headers(d: Decision | None) -> dict[str, str]:
    if d is None:
        return {}
    return {
        "X-RateLimit-Limit": str(d.limit),
        "X-RateLimit-Remaining": str(d.remaining),
        "X-RateLimit-Reset": str(d.reset),
    }


async def read_json(request: Request) -> Any:
    raw = await request.body()
    if not raw:
        return None
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json" and not ctype.endswith("+json"):
        raise ValidationFailed("Content-Type must be application/json", {"content_type": ctype or None})
    return parse_json(raw)


async def read_upload(request: Request) -> Upload:
    """A file from a multipart ``file`` part or from the raw body (``?filename=``)."""
    ctype = request.headers.get("content-type", "application/octet-stream")
    if ctype.lower().startswith("multipart/form-data"):
        form = await request.form()
        part = form.get("file")
        if part is None or isinstance(part, str):
            raise ValidationFailed("multipart body needs a 'file' part")
        content = await part.read()
        fields = {k: v for k, v in form.multi_items() if isinstance(v, str)}
        return Upload(part.filename or "upload", part.content_type or "application/octet-stream", content, fields)
    content = await request.body()
    name = request.query_params.get("filename") or request.headers.get("x-filename") or "upload"
    return Upload(name, ctype.split(";")[0].strip(), content)


class Server:
    """Holds what the routes share: the runtime and the rate limiter."""

    def __init__(self, rt: Runtime, limiter: RateLimiter, cookie_domain: str | None = None) -> None:
        self.rt = rt
        self.limiter = limiter
        self.cookie_domain = cookie_domain

    def set_session_cookie(self, response: Response, name: str, token: str) -> None:
        """The spec's cookie: HttpOnly, Secure, SameSite=Lax, 24 h; a Domain when one is configured
        (``PLATFORM_COOKIE_DOMAIN``) so it is shared across the platform's subdomains."""
        response.set_cookie(
            name,
            token,
            max_age=auth.TOKEN_LIFETIME,
            httponly=True,
            secure=True,
            samesite="lax",
            path="/",
            domain=self.cookie_domain,
        )

    def limit(self, request: Request, category: str, tenant: str, subject: str) -> Decision | None:
        d = self.limiter.check(category, tenant=tenant, subject=subject, ip=client_ip(request))
        if d is not None and not d.allowed:
            exc = RateLimited("too many requests, retry later", d.retry_after)
            raise _Limited(exc, rate_headers(d))
        return d

    def endpoint(self, op: Operation) -> Callable[..., Any]:
        rt = self.rt

        async def handle(request: Request) -> Response:
            if (where := request.scope.get("server")) is not None:
                # The socket's own address (not the caller's Host header): links' default start.
                learn_address(rt, str(request.scope.get("scheme", "http")), str(where[0]), where[1])
            params = dict(request.path_params)
            slug = params.pop("tenant", None)
            try:
                body = await read_json(request) if op.body is not None else None
                upload = await read_upload(request) if op.upload else None
            except ClientDisconnect:
                # The caller went away mid-request (a station killed while sending): nothing was done.
                return Response(status_code=400)
            query = dict(request.query_params)
            idem = request.headers.get("idempotency-key")
            wanted = {h: request.headers.get(h) for h in op.headers}

            decision: Decision | None = None

            def work() -> Any:
                nonlocal decision
                # One statement (the auth cache's version) instead of one for each of these.
                resolver = Resolver(rt.db)
                tenant = auth.load_tenant(rt.db, slug, resolver) if slug else None
                principal = principal_for(rt, request, op, tenant, resolver)
                request.state.principal_kind = principal.kind  # for the request's log line
                tenant = tenant_for(rt, request, principal, tenant)  # pk_test_ keys: the sandbox
                category = self.limiter.category(method=op.method, principal_kind=principal.kind, override=op.limit)
                decision = self.limit(
                    request, category, tenant.id if tenant else "-", f"{principal.kind}:{principal.id}"
                )
                ctx = Ctx(rt, tenant, principal, ip=client_ip(request))
                return execute(
                    ctx, op, body=body, query=query, idempotency_key=idem, upload=upload, headers=wanted, **params
                )

            try:
                result = await to_thread.run_sync(work)
            except _Limited as lim:
                return error_response(lim.exc, lim.headers)
            except ServiceError as exc:
                # Failures of a limited route still say how much of the limit is left.
                return error_response(exc, rate_headers(decision))
            if isinstance(result, PageRecipe) and slug:
                # A public page a use case answers (a QR code's landing or 410 page): the pages' templates.
                response = await to_thread.run_sync(template_response, rt, request, slug, op.module, result)
            else:
                # A result may answer another success status than declared (an upsert: 201 made, 200 updated).
                response = serialize(result, getattr(result, "_http_status", None) or op.status_code)
            response.headers.update(rate_headers(decision))
            if op.cookie and getattr(result, "token", None):
                self.set_session_cookie(response, op.cookie, result.token)
            if op.clears_cookie:
                response.delete_cookie(op.clears_cookie, path="/", secure=True, httponly=True, samesite="lax")
            return response

        handle.__name__ = op.name.replace(".", "_")
        return handle


class _Limited(Exception):
    def __init__(self, exc: RateLimited, headers: dict[str, str]) -> None:
        self.exc, self.headers = exc, headers


def auth_paths(b: Builder) -> dict[str, Any]:
    """The sign-in routes written by hand in ``create_app``, in the document like the declared ones."""
    errors = {str(c): {"$ref": f"#/components/responses/E{c}"} for c in (400, 401, 429)}
    body = {"required": True, "content": {"application/json": {"schema": b.request_schema_of(LoginRequest)}}}
    return {
        "/api/auth/login": {
            "post": {
                "operationId": "platform.auth.login",
                "tags": ["platform"],
                "security": [],
                "summary": "Sign in; sets the service_token cookie and returns the token",
                "requestBody": body,
                "responses": {
                    "200": {
                        "description": "Signed in",
                        "content": {"application/json": {"schema": b.data_envelope(LoginOut)}},
                    },
                    **errors,
                },
            }
        },
        "/api/auth/logout": {
            "post": {
                "operationId": "platform.auth.logout",
                "tags": ["platform"],
                "summary": "Sign out; clears the cookie",
                "security": [{"session": []}, {"bearer": []}, {}],
                "responses": {"204": {"description": "Signed out"}, **errors},
            }
        },
        "/api/auth/me": {
            "get": {
                "operationId": "platform.auth.me",
                "tags": ["platform"],
                "summary": "The signed-in user and their tenants",
                "security": [{"session": []}, {"bearer": []}],
                "responses": {
                    "200": {
                        "description": "The signed-in user",
                        "content": {"application/json": {"schema": b.data_envelope(MeOut)}},
                    },
                    **errors,
                },
            }
        },
    }


def route_path(op: Operation) -> str:
    if op.path.startswith("/../"):
        # At the module root, beside its api (the QR scan address /<tenant>/qr/r/<code>).
        return "/{tenant}/" + op.module + op.path[3:]
    return op.path if op.path.startswith("/api/") else "/{tenant}/" + op.module + "/api" + op.path


def create_app(
    rt: Runtime,
    *,
    rate_limits: str = "A",
    force_https: bool = False,
    allowed_origins: list[str] | None = None,
    trusted_proxies: set[str] | None = None,
    body_limit: int = 1024 * 1024,
    version: str = "0.2.0",
    cookie_domain: str | None = None,
    lifespan_hooks: list[Callable[[FastAPI], Any]] | None = None,
    sync_routes: bool = True,
    metrics_token: str | None = None,
    traces: bool = False,
) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        stops = []
        for hook in lifespan_hooks or []:
            stop = await hook(app)
            if stop is not None:
                stops.append(stop)
        yield
        for stop in reversed(stops):
            await stop()

    app = FastAPI(
        title="Multi-tenant business platform",
        version=version,
        lifespan=lifespan,
        docs_url="/docs",
        redoc_url=None,
        telemetry=telemetry_config(traces),  # type: ignore[arg-type]
    )
    # Shared by every worker process on PostgreSQL; in memory on SQLite (one process).
    server = Server(rt, RateLimiter(rate_limits, store_for(rt.db.engine)), cookie_domain)
    app.state.server = server
    install_error_handlers(app)

    @app.get("/health", include_in_schema=False)
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/health/ready", include_in_schema=False)
    async def ready() -> Response:
        """Ready to serve: the database answers and the background workers run (liveness is /health)."""
        checks: dict[str, str] = {}
        try:
            await to_thread.run_sync(rt.db.ping)
            checks["database"] = "ok"
        except Exception as exc:  # noqa: BLE001 - any failure of the database is "not ready"
            checks["database"] = type(exc).__name__
        for name, alive in getattr(app.state, "workers", {}).items():
            checks[name] = "ok" if alive() else "stopped"
        ok = all(v == "ok" for v in checks.values())
        return Response(
            json.dumps({"status": "ok" if ok else "unavailable", "checks": checks}),
            status_code=200 if ok else 503,
            media_type="application/json",
        )

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        if not metrics_allowed(client_ip(request), request.headers.get("authorization"), metrics_token):
            raise StarletteHTTPException(404)
        body, media = await to_thread.run_sync(lambda: metrics_text(rt))
        return Response(body, media_type=media)

    @app.post("/api/auth/login", include_in_schema=False)
    async def login(request: Request) -> Response:
        # The limit first: every answer of the sign-in, a refused body included, says what is left.
        try:
            headers = rate_headers(await to_thread.run_sync(lambda: server.limit(request, "auth", "-", "")))
        except _Limited as lim:
            return error_response(lim.exc, lim.headers)
        try:
            creds = validate_body(LoginRequest, await read_json(request))
            out = await to_thread.run_sync(
                lambda: core_service.login(rt.db, rt.secret_key, creds.email, creds.password, rt.clock.now())
            )
        except ServiceError as exc:
            return error_response(exc, headers)
        response = serialize(out, 200)
        response.headers.update(headers)
        server.set_session_cookie(response, auth.COOKIE_NAME, out.token)
        return response

    @app.post("/api/auth/logout", include_in_schema=False)
    async def logout(request: Request) -> Response:
        creds = credentials(request)
        if creds is not None and creds[0] == "token":
            token = creds[1]
            await to_thread.run_sync(lambda: auth.revoke_session(rt.db, rt.secret_key, token, rt.clock.now()))
        response = Response(status_code=204)
        response.delete_cookie(auth.COOKIE_NAME, path="/", secure=True, httponly=True, samesite="lax")
        return response

    @app.get("/api/auth/me", include_in_schema=False)
    async def me(request: Request) -> Response:
        creds = credentials(request)
        if creds is None or creds[0] != "token":
            raise Unauthorized("sign in first")

        def work() -> Any:
            claims = auth.verify_session(rt.db, rt.secret_key, creds[1], rt.clock.now())
            return core_service.me_from_claims(rt.db, claims["sub"])

        return serialize(await to_thread.run_sync(work), 200)

    mount_pages(app, server)  # the public HTML pages (services/core/pages.py)

    def skip(op: Operation) -> bool:
        return not sync_routes and op.name.startswith("sync.")

    for op in sorted(REGISTRY.values(), key=lambda o: (o.module, o.path, o.method)):
        if skip(op):
            continue
        app.add_api_route(
            route_path(op),
            server.endpoint(op),
            methods=[op.method],
            status_code=op.status_code,
            name=op.name,
            include_in_schema=False,
        )

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build_openapi(app.title, app.version, route_path, auth_paths, skip)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    app.add_middleware(
        CORSMiddleware,
        allow_origins=allowed_origins or [],
        allow_credentials=True,
        allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
        allow_headers=["Content-Type", "Authorization", "X-API-Key", "Idempotency-Key", "X-Access-Token"],
        expose_headers=["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After"],
    )
    app.add_middleware(BodyLimit, json_limit=body_limit, upload_limit=rt.upload_limit)
    app.add_middleware(HttpsRedirect, enabled=force_https, trusted=trusted_proxies or set())
    app.add_middleware(
        Observe, fast_health=not traces
    )  # outermost: every answer, a redirect or a 413 too, has its request id
    install_route_table(app)  # api/routetable.py: a few candidate routes, not a scan of all
    return app


__all__ = ["ServiceError", "create_app"]

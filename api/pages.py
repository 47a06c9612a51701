"""The public pages' HTTP side: one route per ``@page`` declaration (services/core/pages.py).

Every answer carries the same headers: a Content-Security-Policy with a fresh nonce (no
``'unsafe-inline'`` anywhere), ``frame-ancestors 'none'``, ``Referrer-Policy: no-referrer``
(tokens travel in paths), ``nosniff``. Every POST must carry the signed double-submit CSRF token
(cookie ``pages_csrf`` and the form's hidden field). Pages share the rate-limit categories of the
module's public API routes.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from anyio import to_thread
from fastapi import FastAPI, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from starlette.datastructures import UploadFile
from starlette.requests import ClientDisconnect

from api.auth import client_ip
from services.core import auth
from services.core import pages as P
from services.core.authcache import Resolver
from services.core.errors import NotFound, ServiceError
from services.core.files import FileResult, Redirect, Upload
from services.core.links import learn_address

log = logging.getLogger("api.pages")

CSS_PATH = "/_pages/pages.css"
_CSS = (P.TEMPLATES / "pages.css").read_bytes()
MAX_FILES = 5


def security_headers(nonce: str, logo: str | None = None) -> dict[str, str]:
    img = "'self' data:"
    if logo and logo.startswith("https://"):
        # The tenant's own logo host, and only it: the one outside address a page may load.
        img += " " + "/".join(logo.split("/", 3)[:3])
    csp = (
        "default-src 'none'; "
        f"script-src 'nonce-{nonce}'; "
        f"style-src 'self' 'nonce-{nonce}'; "
        f"img-src {img}; "
        "form-action 'self'; "
        "frame-ancestors 'none'; "
        "base-uri 'none'"
    )
    return {
        "Content-Security-Policy": csp,
        "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Cache-Control": "no-store",
    }


def raw_headers() -> dict[str, str]:
    """A tenant's own HTML (a campaign mail): no script can run (sandbox without allow-scripts, no
    script source), no form posts, nothing frames it; styles and images as the mail has them."""
    csp = (
        "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; form-action 'none'; "
        "frame-ancestors 'none'; base-uri 'none'; sandbox allow-popups allow-popups-to-escape-sandbox"
    )
    return {**security_headers("-"), "Content-Security-Policy": csp}


async def _read_form(request: Request) -> tuple[dict[str, str], dict[str, list[Upload]]]:
    form = await request.form(max_files=MAX_FILES + 1, max_fields=100)
    fields: dict[str, str] = {}
    files: dict[str, list[Upload]] = {}
    for key, value in form.multi_items():
        if isinstance(value, UploadFile):
            content = await value.read()
            if value.filename and content:  # an empty file input sends a nameless empty part
                files.setdefault(key, []).append(
                    Upload(value.filename, value.content_type or "application/octet-stream", content)
                )
        else:
            fields[key] = value
    return fields, files


def mount_pages(app: FastAPI, server: Any) -> None:
    """Mount every declared page and the shared stylesheet."""
    rt = server.rt

    @app.get(CSS_PATH, include_in_schema=False)
    async def css() -> Response:
        return Response(_CSS, media_type="text/css", headers={"Cache-Control": "public, max-age=3600"})

    for decl in sorted(P.PAGES.values(), key=lambda d: d.name):
        app.add_api_route(
            P.route_of(decl),
            _endpoint(rt, server, decl),
            methods=list(decl.methods),
            name=f"page.{decl.name}",
            include_in_schema=False,
        )


def _endpoint(rt: Any, server: Any, decl: P.PageDecl) -> Any:
    async def handle(request: Request) -> Response:
        if (where := request.scope.get("server")) is not None:
            learn_address(rt, str(request.scope.get("scheme", "http")), str(where[0]), where[1])
        params = dict(request.path_params)
        slug = params.pop("tenant")
        lang = P.pick_language(request.headers.get("accept-language"))
        nonce = secrets.token_urlsafe(16)
        cookie = request.cookies.get(P.CSRF_COOKIE)
        fresh = cookie is None or not P.csrf_ok(rt.secret_key, cookie, cookie)
        csrf = P.new_csrf(rt.secret_key) if fresh else str(cookie)
        form: dict[str, str] = {}
        files: dict[str, list[Upload]] = {}
        if request.method == "POST":
            try:
                form, files = await _read_form(request)
            except ClientDisconnect:
                return Response(status_code=400)
            except Exception as exc:  # noqa: BLE001 - a malformed or oversized form is the visitor's error
                log.info("unreadable form: %s", type(exc).__name__)
                return _plain(400, P.UNREADABLE, nonce, lang)

        calls: list[P.PageCall] = []

        def work() -> tuple[P.Page | Redirect | FileResult | P.RawHtml, P.Brand]:
            cache = Resolver(rt.db)
            tenant, brand = P.tenant_and_brand(rt, slug, cache)
            # "platform" pages (an invitation's set-password page) belong to every tenant, like its users.
            if (decl.module != "platform" and decl.module not in tenant.modules) or tenant.status != "active":
                raise NotFound("page not found")
            limit = decl.post_limit if request.method == "POST" and decl.post_limit else decl.limit
            if limit:
                server.limit(request, limit, tenant.id, f"public:ip:{client_ip(request)}")
            call = P.PageCall(
                rt,
                tenant,
                lang,
                client_ip(request),
                request.method,
                form,
                files,
                dict(request.query_params),
                request.headers.get("user-agent", "")[:300],
                dict(request.cookies),
                cache=cache,
            )
            calls.append(call)
            if request.method == "POST" and not P.csrf_ok(rt.secret_key, cookie, form.get(P.CSRF_FIELD)):
                return P.Page(
                    "error.html",
                    {"message": call.gettext(P.FORM_EXPIRED)},
                    status=403,
                ), brand
            return decl.fn(call, **params), brand

        try:
            result, brand = await to_thread.run_sync(work)
        except ServiceError as exc:
            if exc.status == 429:
                return _plain(429, P.TOO_MANY, nonce, lang)
            if exc.status == 404:
                return _plain(404, P.NOT_FOUND, nonce, lang)
            return _plain(exc.status, exc.message, nonce, lang)
        path = f"/{slug}/{decl.module}/p"
        if isinstance(result, Redirect):
            moved = RedirectResponse(result.location, status_code=303 if request.method == "POST" else result.status)
            _set_cookies(moved, calls, path, request.url.scheme == "https")
            return moved
        if isinstance(result, P.RawHtml):
            return HTMLResponse(result.html, headers=raw_headers())
        if isinstance(result, FileResult):
            from api.app import file_response

            resp = file_response(result)
            resp.headers.update(security_headers(nonce))
            return resp
        html = P.render(result, lang=lang, brand=brand, nonce=nonce, csrf=csrf, base=path)
        resp = HTMLResponse(html, status_code=result.status, headers=security_headers(nonce, brand.logo_url))
        resp.headers["Content-Language"] = lang
        if fresh:
            # Read by no script (HttpOnly); Lax keeps it off cross-site POSTs, the token check does the rest.
            resp.set_cookie(P.CSRF_COOKIE, csrf, httponly=True, samesite="lax", path=f"/{slug}/")
        _set_cookies(resp, calls, path, request.url.scheme == "https")
        return resp

    handle.__name__ = "page_" + decl.name.replace(".", "_")
    return handle


def template_response(rt: Any, request: Request, slug: str, module: str, result: P.Page) -> Response:
    """A page an API use case answers (a QR scan's landing or 410 page) on the pages' templates:
    the tenant's look, the visitor's language, the same security headers. It has no form."""
    lang = P.pick_language(request.headers.get("accept-language"))
    nonce = secrets.token_urlsafe(16)
    _tenant, brand = P.tenant_and_brand(rt, slug)
    if not result.context.get("literal"):
        result.title = P.translations(lang).gettext(result.title)
    html = P.render(result, lang=lang, brand=brand, nonce=nonce, csrf="", base=f"/{slug}/{module}/p")
    resp = HTMLResponse(html, status_code=result.status, headers=security_headers(nonce, brand.logo_url))
    resp.headers["Content-Language"] = lang
    return resp


def _set_cookies(resp: Response, calls: list[P.PageCall], path: str, secure: bool) -> None:
    """A portal's session cookie: HttpOnly (no script reads it), Lax (off cross-site POSTs), Secure
    when the page came over HTTPS, and only for this module's pages, so no other module's page
    ever receives it."""
    for call in calls:
        for name, value in call.set_cookies.items():
            if value is None:
                resp.delete_cookie(name, path=path, httponly=True, samesite="lax", secure=secure)
            else:
                resp.set_cookie(
                    name, value, httponly=True, samesite="lax", path=path, max_age=auth.TOKEN_LIFETIME, secure=secure
                )


def _plain(status: int, message: str, nonce: str, lang: str) -> Response:
    """A page with one sentence (no tenant look: the tenant may be the unknown part)."""
    from html import escape

    message = P.translations(lang).gettext(message)
    body = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(message)}</title><link rel="stylesheet" href="{CSS_PATH}"></head>'
        f'<body><main class="page"><h1>{escape(message)}</h1></main></body></html>'
    )
    return HTMLResponse(body, status_code=status, headers=security_headers(nonce))

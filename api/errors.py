"""The error envelope: every failure answers ``{"error", "code", "details"?}``."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from services.core.errors import RateLimited, ServiceError, validation_details
from services.core.logsafe import bare_traceback

log = logging.getLogger("api")

_HTTP_CODES = {
    400: "VALIDATION_ERROR",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    409: "CONFLICT",
    413: "PAYLOAD_TOO_LARGE",
    414: "URI_TOO_LONG",
    429: "RATE_LIMITED",
}


def error_response(exc: ServiceError, headers: dict[str, str] | None = None) -> JSONResponse:
    h = dict(headers or {})
    if isinstance(exc, RateLimited):
        h["Retry-After"] = str(exc.retry_after)
    return JSONResponse(exc.to_body(), status_code=exc.status, headers=h)


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def _service(_req: Request, exc: ServiceError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(_req: Request, exc: RequestValidationError) -> JSONResponse:
        body = {"error": "request failed validation", "code": "VALIDATION_ERROR"}
        body["details"] = validation_details(exc)  # type: ignore[assignment]
        return JSONResponse(body, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_req: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _HTTP_CODES.get(exc.status_code, "ERROR")
        msg = {404: "not found", 405: "method not allowed on this path"}.get(exc.status_code, str(exc.detail))
        return JSONResponse({"error": msg, "code": code}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def _unexpected(_req: Request, exc: Exception) -> JSONResponse:
        # Log the class only: messages may carry request data.
        log.error("unhandled error: %s\n%s", type(exc).__name__, bare_traceback(exc))
        return JSONResponse({"error": "internal server error", "code": "INTERNAL_ERROR"}, status_code=500)

"""Talking to the platform from a station (httpx coroutines; run on the app's qasync loop).

The sync engine builds on this; the shell uses it to tell whether the platform
answers and to sign in there too (its token then goes to the credential store).
"""

from __future__ import annotations

from dataclasses import dataclass

import httpx

HEALTH_TIMEOUT = 3.0


@dataclass(frozen=True)
class Health:
    ok: bool
    detail: str = ""


async def health(url: str, timeout: float = HEALTH_TIMEOUT) -> Health:
    try:
        async with httpx.AsyncClient(timeout=timeout) as client:
            r = await client.get(f"{url.rstrip('/')}/health")
    except httpx.HTTPError as exc:
        # The class name says enough (refused, timed out, TLS); the message may be long.
        return Health(False, type(exc).__name__)
    return Health(r.status_code == 200, "" if r.status_code == 200 else f"HTTP {r.status_code}")


@dataclass(frozen=True)
class PlatformSignIn:
    token: str | None
    status: int


async def sign_in(url: str, email: str, password: str, timeout: float = 2 * HEALTH_TIMEOUT) -> PlatformSignIn:
    """The platform's session token for these credentials (``token`` None when refused)."""
    async with httpx.AsyncClient(timeout=timeout) as client:
        r = await client.post(f"{url.rstrip('/')}/api/auth/login", json={"email": email, "password": password})
    if r.status_code != 200:
        return PlatformSignIn(None, r.status_code)
    return PlatformSignIn(str(r.json()["data"]["token"]), r.status_code)


# --- changes made on the platform (online only) ---------------------------------------------------
# What carries a secret (an API key's value, a password, a station's secret) is made on the platform,
# over HTTPS with the person's platform sign-in, never queued in a station's outbox.


def _refusal(r: httpx.Response) -> Exception:
    from services.core import errors

    try:
        body = r.json()
        message, code, details = str(body.get("error") or ""), str(body.get("code") or ""), body.get("details")
    except (ValueError, AttributeError):
        message, code, details = "", "", None
    known = (errors.ValidationFailed, errors.NotFound, errors.Forbidden, errors.Unauthorized, errors.Conflict)
    kinds: dict[str, type[errors.ServiceError]] = {c.code: c for c in (*known, errors.TenantInactive)}
    cls = kinds.get(code, errors.Conflict)
    text = message or f"the platform refused (HTTP {r.status_code})"
    if cls is errors.Unauthorized:
        text = "the platform did not accept your sign-in (it may have expired); sign out, then sign in again"
    return cls(text, details if isinstance(details, dict) else None)


async def call(
    url: str, token: str | None, method: str, path: str, *, json: object = None, timeout: float = 10.0
) -> object:
    """One platform route as the signed-in person; answers its ``data``. Failures are ServiceErrors
    that say what to do (unreachable: try again when it answers; no sign-in there: sign in again)."""
    from services.core.errors import Conflict, Unauthorized

    if not url:
        raise Conflict("no platform is set for this station (Settings)", {"reason": "no_platform"})
    if not token:
        raise Unauthorized(
            "you have no sign-in on the platform on this station (it did not answer when you signed in); "
            "sign out, then sign in again while it answers"
        )
    try:
        async with httpx.AsyncClient(base_url=url.rstrip("/"), timeout=timeout) as client:
            r = await client.request(method, path, json=json, headers={"Authorization": f"Bearer {token}"})
    except httpx.HTTPError as exc:
        raise Conflict(
            f"the platform at {url} does not answer ({type(exc).__name__}); this is made on the platform, "
            "so try again when it is reachable",
            {"reason": "platform_unreachable"},
        ) from exc
    if r.status_code >= 400:
        raise _refusal(r)
    return r.json().get("data") if r.content else None


async def sign_out(url: str, token: str, timeout: float = HEALTH_TIMEOUT) -> int:
    """End the platform session of this token (``POST /api/auth/logout``); the HTTP status."""
    async with httpx.AsyncClient(timeout=timeout) as client:
        r = await client.post(f"{url.rstrip('/')}/api/auth/logout", headers={"Authorization": f"Bearer {token}"})
    return r.status_code

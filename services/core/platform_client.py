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


async def sign_out(url: str, token: str, timeout: float = HEALTH_TIMEOUT) -> int:
    """End the platform session of this token (``POST /api/auth/logout``); the HTTP status."""
    async with httpx.AsyncClient(timeout=timeout) as client:
        r = await client.post(f"{url.rstrip('/')}/api/auth/logout", headers={"Authorization": f"Bearer {token}"})
    return r.status_code

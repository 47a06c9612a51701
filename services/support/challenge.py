"""Bot-challenge verification of public ticket creation, behind one small interface.

``PLATFORM_CHALLENGE`` picks the verifier (runtime option ``challenge``):

* ``demo``: accepts exactly the token ``demo-challenge-ok`` (CONTRACT.md);
* ``turnstile``: Cloudflare Turnstile's siteverify call with the secret of
  ``PLATFORM_CHALLENGE_SECRET`` (runtime option ``challenge_secret``).

A missing token is a 400 (the body fails validation); a token the verifier
refuses is a 403 FORBIDDEN; a provider that cannot be reached is a 503 (we
fail closed: no ticket without a verified challenge).
"""

from __future__ import annotations

import hmac
import logging
from dataclasses import dataclass
from typing import Any, Protocol

import httpx

from services.core.context import Runtime
from services.core.errors import Forbidden, ServiceError

log = logging.getLogger("support.challenge")

DEMO_TOKEN = "demo-challenge-ok"
TURNSTILE_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify"


class ChallengeUnavailable(ServiceError):
    code = "CHALLENGE_UNAVAILABLE"
    status = 503


class ChallengeVerifier(Protocol):
    def verify(self, token: str, remote_ip: str | None) -> bool:
        """True when the token proves a person solved the challenge."""
        ...


class DemoVerifier:
    def verify(self, token: str, remote_ip: str | None) -> bool:
        return hmac.compare_digest(token.encode(), DEMO_TOKEN.encode())


class TurnstileVerifier:
    """POST secret, response, remoteip to siteverify; the answer's ``success`` decides."""

    def __init__(self, secret: str, url: str = TURNSTILE_URL, timeout: float = 5.0) -> None:
        if not secret:
            raise ValueError("the turnstile verifier needs PLATFORM_CHALLENGE_SECRET")
        self.secret, self.url, self.timeout = secret, url, timeout

    def verify(self, token: str, remote_ip: str | None) -> bool:
        # Turnstile tokens are at most 2048 characters; longer is never valid.
        if len(token) > 2048:
            return False
        data = {"secret": self.secret, "response": token}
        if remote_ip:
            data["remoteip"] = remote_ip
        try:
            r = httpx.post(self.url, data=data, timeout=self.timeout)
            answer: Any = r.json()
        except (httpx.HTTPError, ValueError) as exc:
            log.warning("turnstile siteverify failed: %s", type(exc).__name__)
            raise ChallengeUnavailable("the bot-challenge service cannot be reached, try again") from exc
        if r.status_code != 200 or not isinstance(answer, dict):
            raise ChallengeUnavailable("the bot-challenge service answered with an error, try again")
        if not answer.get("success"):
            log.info("turnstile refused a token: %s", answer.get("error-codes"))
            return False
        return True


@dataclass(frozen=True)
class ChallengeConfig:
    """``PLATFORM_CHALLENGE`` and its secret and address (``app.wiring``); ``verifier``: a stand-in."""

    kind: str | None = None
    secret: str = ""
    url: str = TURNSTILE_URL
    verifier: ChallengeVerifier | None = None


def verifier_for(rt: Runtime) -> ChallengeVerifier | None:
    """The configured verifier."""
    cfg = rt.part(ChallengeConfig)
    if cfg.verifier is not None:
        return cfg.verifier
    kind = (cfg.kind or "").strip().lower()
    if kind == "demo":
        return DemoVerifier()
    if kind == "turnstile":
        return TurnstileVerifier(cfg.secret, cfg.url or TURNSTILE_URL)
    return None


def check_challenge(rt: Runtime, token: str, remote_ip: str | None) -> None:
    verifier = verifier_for(rt)
    if verifier is None:
        # PLATFORM_CHALLENGE is required outside --demo: without it, no public tickets.
        raise ChallengeUnavailable("public ticket creation is not configured (PLATFORM_CHALLENGE)")
    if not verifier.verify(token, remote_ip):
        raise Forbidden("bot-challenge verification failed", {"field": "challenge_token"})

"""The one client of the tenant's e-commerce shop (DECISIONS, Tax: the documented ``generic`` provider).

``GET {base_url}/account`` checks the key; ``GET {base_url}/orders?since=`` and ``/refunds?since=``
give pages of orders and refunds (Tax's transaction sync); ``GET {base_url}/products/{sku}`` looks a product up;
``PUT {base_url}/products/{sku}`` creates or replaces it (an upsert keyed by SKU, so a repeat never
makes a second product). The client paces itself to the shop's rate, honours ``Retry-After`` on 429,
and after an answer that leaves the outcome unknown (a 5xx, a dropped connection) it looks the
product up before writing again.
"""

from __future__ import annotations

import email.utils
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

import httpx

from services.core.safety import address_problem, parse_ip

MAX_WAIT = 120.0  # longest Retry-After honoured; longer waits end the attempt


class ShopError(Exception):
    """The shop refused or could not be reached; ``status`` is its HTTP status (0: no answer)."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


def url_problem(url: str, *, allow_private: bool) -> str | None:
    """Why the platform must not call this connection URL (CONTRACT: PLATFORM_CONNECTIONS_ALLOW_PRIVATE)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError as exc:
        return f"not a valid URL: {exc}"
    if parts.scheme not in ("https", "http") or not parts.hostname:
        return "base_url must be an https:// URL"
    if parts.username is not None or parts.password is not None:
        return "base_url must not carry credentials (they go in credentials.api_key)"
    if allow_private:
        return None
    if parts.scheme != "https":
        return "base_url must be an https:// URL"
    host = parts.hostname
    ip = parse_ip(host)
    if ip is not None:
        why = address_problem(ip)
        return f"base_url host {host} {why}" if why else None
    if host.lower() == "localhost" or host.lower().endswith((".localhost", ".local", ".internal")):
        return f"base_url host {host} is a local name"
    import socket

    try:
        infos = socket.getaddrinfo(host, parts.port or 443, type=socket.SOCK_STREAM)
    except OSError:
        return None  # unresolvable now: the request itself will fail and say so
    for info in infos:
        a = parse_ip(str(info[4][0]))
        why = address_problem(a) if a is not None else "is not an IP address"
        if why:
            return f"base_url host {host} resolves to {a}, which {why}"
    return None


def retry_after(value: str | None, default: float) -> float:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date)."""
    if not value:
        return default
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return default
    return max(0.0, when.timestamp() - time.time())


@dataclass
class ShopClient:
    base_url: str
    api_key: str
    rate: float = 2.0  # requests per second the shop allows
    timeout: float = 10.0
    attempts: int = 8  # tries per call (429s and failures together)
    sleep: Callable[[float], None] = time.sleep
    retries: int = 0  # 429s and failures retried so far (reported by the sync)
    requests: int = 0
    _next: float = field(default=0.0, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _http: httpx.Client | None = field(default=None, repr=False)

    def __enter__(self) -> ShopClient:
        self._http = httpx.Client(
            base_url=self.base_url.rstrip("/"),
            timeout=self.timeout,
            follow_redirects=False,
            headers={
                "Authorization": f"Bearer {self.api_key}",
                "Accept": "application/json",
                "User-Agent": "platform-catalog-sync/1",
            },
        )
        return self

    def __exit__(self, *exc: object) -> None:
        if self._http is not None:
            self._http.close()
            self._http = None

    def _pace(self) -> None:
        """Space request starts 1/rate apart: the shop's limit is met before it has to say 429."""
        with self._lock:
            now = time.monotonic()
            wait = self._next - now
            # 5 % slower than the limit: the shop's clock and the network's jitter are not ours.
            self._next = max(now, self._next) + 1.05 / self.rate
        if wait > 0:
            self.sleep(wait)

    def _send(self, method: str, path: str, body: Any = None) -> httpx.Response:
        """One call with its retries: 429 waits Retry-After; 5xx and dropped connections back off.
        Raises ShopError(status) with ``ambiguous`` set when a write may have landed."""
        assert self._http is not None, "use the client in a with block"
        delay = 0.5
        last = ""
        for attempt in range(self.attempts):
            if attempt:
                self.retries += 1
            self._pace()
            self.requests += 1
            try:
                r = self._http.request(method, path, json=body)
            except httpx.TimeoutException as exc:
                last = f"timeout: {type(exc).__name__}"
                raise _Ambiguous(last) from exc
            except httpx.TransportError as exc:
                last = f"no answer: {type(exc).__name__}"
                if method != "GET":
                    raise _Ambiguous(last) from exc
                self.sleep(delay)
                delay = min(delay * 2, 10)
                continue
            if r.status_code == 429:
                wait = retry_after(r.headers.get("Retry-After"), 1.0 / self.rate)
                if wait > MAX_WAIT:
                    raise ShopError(f"the shop asks to wait {wait:.0f} s", 429)
                # The shop refused the request (RFC 6585): nothing was written, the same call is repeated.
                with self._lock:
                    self._next = max(self._next, time.monotonic() + wait)
                last = "429"
                continue
            if r.status_code >= 500:
                last = f"HTTP {r.status_code}"
                if method != "GET":
                    raise _Ambiguous(last, r.status_code)
                self.sleep(delay)
                delay = min(delay * 2, 10)
                continue
            return r
        raise ShopError(
            f"the shop did not accept the call after {self.attempts} tries ({last})", 429 if last == "429" else 0
        )

    def account(self) -> dict[str, Any]:
        r = self._send("GET", "/account")
        if not r.is_success:
            raise ShopError(f"the shop refused the key (HTTP {r.status_code})", r.status_code)
        try:
            data = r.json()
        except ValueError:
            raise ShopError("the shop's /account answer is not JSON", r.status_code) from None
        if not isinstance(data, dict) or not data.get("name"):
            raise ShopError("the shop's /account answer has no name", r.status_code)
        return data

    def pages(self, what: str, since: str | None = None) -> Iterator[list[dict[str, Any]]]:
        """The shop's ``orders`` or ``refunds`` dated ``since`` or later, a page at a time
        (``{"data": [...], "next_page": n | null}``)."""
        page = 1
        while True:
            params: dict[str, Any] = {"page": page}
            if since:
                params["since"] = since
            r = self._send("GET", f"/{what}?{urlencode(params)}")
            if not r.is_success:
                raise ShopError(f"listing {what}: HTTP {r.status_code}", r.status_code)
            try:
                data = r.json()
            except ValueError:
                raise ShopError(f"the shop's /{what} answer is not JSON", r.status_code) from None
            rows = data.get("data") if isinstance(data, dict) else None
            if not isinstance(rows, list):
                raise ShopError(f"the shop's /{what} answer has no data list", r.status_code)
            yield [row for row in rows if isinstance(row, dict)]
            nxt = data.get("next_page")
            if not rows or not isinstance(nxt, int) or nxt <= page:
                return
            page = nxt

    def get_product(self, sku: str) -> dict[str, Any] | None:
        r = self._send("GET", f"/products/{quote(sku, safe='')}")
        if r.status_code == 404:
            return None
        if not r.is_success:
            raise ShopError(f"looking up {sku}: HTTP {r.status_code}", r.status_code)
        data = r.json()
        return data if isinstance(data, dict) else None

    def upsert(self, sku: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Create or replace the product with this SKU; never two of it."""
        for _ in range(self.attempts):
            try:
                r = self._send("PUT", f"/products/{quote(sku, safe='')}", payload)
            except _Ambiguous:
                # The write may have landed: look it up before writing again.
                self.retries += 1
                found = self.get_product(sku)
                if found is not None and found.get("hash") == payload.get("hash"):
                    return found
                continue
            if not r.is_success:
                raise ShopError(f"{sku}: HTTP {r.status_code} {r.text[:200]}", r.status_code)
            try:
                data = r.json()
            except ValueError:
                data = {}
            return data if isinstance(data, dict) else {}
        raise ShopError(f"{sku}: the shop kept failing", 0)


class _Ambiguous(ShopError):
    """No clear answer to a write: it may or may not have been applied."""

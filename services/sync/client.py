"""The station's HTTP calls to the platform (httpx coroutines on the app's loop).

Every failure becomes a ``SyncError`` that says whether trying again later
can help (network down, timeout, 5xx, a cut-off answer) or not (refused).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import httpx
from pydantic import BaseModel, ValidationError, create_model

from services.core.clock import Clock, SystemClock
from services.sync import protocol as p
from services.sync.schemas import (
    CountsOut,
    EntryAnswer,
    FileStored,
    IdsOut,
    LeaseOut,
    PullOut,
    PushOut,
    SyncStatusOut,
)
from services.sync.station import Link

TIMEOUT = httpx.Timeout(20.0, connect=5.0)


class SyncError(Exception):
    """``kind``: offline (no answer), server (5xx or a broken answer), clock, refused (4xx)."""

    def __init__(self, kind: str, message: str, *, retry: bool, status: int | None = None) -> None:
        super().__init__(message)
        self.kind, self.message, self.retry, self.status = kind, message, retry, status


def _error_message(r: httpx.Response) -> tuple[str, dict[str, Any]]:
    try:
        body = r.json()
        return str(body.get("error") or r.reason_phrase), dict(body.get("details") or {})
    except (ValueError, AttributeError):
        return f"HTTP {r.status_code}", {}


class PlatformClient:
    """One keep-alive client per link (PERFORMANCE.md: a client per target is the fast shape)."""

    def __init__(
        self,
        link: Link,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: httpx.Timeout = TIMEOUT,
        clock: Clock | None = None,
    ) -> None:
        self.link = link
        # The station's clock signs requests (the platform checks it against its own).
        self.clock = clock or SystemClock()
        self.http = httpx.AsyncClient(base_url=link.platform_url, timeout=timeout, transport=transport)
        self.base = f"/api/tenants/{link.slug}/sync"

    def _time(self) -> float:
        return self.clock.now().timestamp()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def _send(self, method: str, url: str, headers: dict[str, str], **kw: Any) -> httpx.Response:
        try:
            return await self.http.request(method, url, headers=headers, **kw)
        except httpx.TimeoutException as exc:
            raise SyncError(
                "offline", f"the platform did not answer in time ({type(exc).__name__})", retry=True
            ) from exc
        except httpx.HTTPError as exc:
            raise SyncError("offline", f"the platform cannot be reached ({type(exc).__name__})", retry=True) from exc

    async def _signed(self, method: str, path: str, purpose: str, model: type[BaseModel], **kw: Any) -> Any:
        link = self.link
        headers = p.signed_headers(link.secret, link.slug, link.station_id, purpose, self._time())
        r = await self._send(method, self.base + path, headers, **kw)
        return self._parse(r, model)

    def _parse(self, r: httpx.Response, model: type[BaseModel]) -> Any:
        if r.status_code >= 500:
            raise SyncError("server", f"the platform failed (HTTP {r.status_code})", retry=True, status=r.status_code)
        if r.status_code >= 400:
            msg, details = _error_message(r)
            if details.get("reason") == "clock_skew":
                raise SyncError("clock", msg, retry=True, status=r.status_code)
            raise SyncError("refused", msg, retry=False, status=r.status_code)
        try:
            # Parsed and validated in one pass by pydantic's JSON parser: a page of a thousand
            # records cost about twice as much through json.loads and model_validate.
            return _envelope(model).model_validate_json(r.content).data
        except (ValueError, KeyError, TypeError, ValidationError) as exc:
            # A cut-off or garbled answer: nothing was recorded here, so asking again is safe.
            raise SyncError("server", "the platform's answer was incomplete", retry=True) from exc

    async def status(self) -> SyncStatusOut:
        out: SyncStatusOut = await self._signed("GET", "/status", "status", SyncStatusOut)
        return out

    async def push(self, entries: list[dict[str, Any]]) -> PushOut:
        link = self.link
        purpose = p.push_purpose([e["signature"] for e in entries])
        headers = p.signed_headers(link.secret, link.slug, link.station_id, purpose, self._time())
        headers["content-type"] = "application/json"
        content = json.dumps({"entries": entries}, separators=(",", ":")).encode()
        out: PushOut = self._parse(await self._send("POST", self.base + "/push", headers, content=content), PushOut)
        return out

    async def pull(self, cursor: str, limit: int) -> PullOut:
        out: PullOut = await self._signed(
            "GET", "/pull", f"pull:{cursor}:{limit}", PullOut, params={"cursor": cursor, "limit": limit}
        )
        return out

    async def rows(self, ids: list[str], table: str | None = None) -> PullOut:
        joined = ",".join(ids)
        if table is None:
            out: PullOut = await self._signed("GET", "/rows", f"rows:{joined}", PullOut, params={"ids": joined})
        else:
            params = {"ids": joined, "table": table}
            out = await self._signed("GET", "/rows", f"rows:{table}:{joined}", PullOut, params=params)
        return out

    async def ids(self, table: str, page: int = 5000) -> set[str]:
        """Every id of one synced table's records of the tenant on the platform."""
        got: set[str] = set()
        after = ""
        while True:
            params: dict[str, Any] = {"table": table, "after": after, "limit": page}
            out: IdsOut = await self._signed("GET", "/ids", f"ids:{table}:{after}:{page}", IdsOut, params=params)
            got.update(out.ids)
            if not out.more or not out.ids:
                return got
            after = out.ids[-1]

    async def counts(self) -> CountsOut:
        out: CountsOut = await self._signed("GET", "/counts", "counts", CountsOut)
        return out

    async def put_file(self, sha256: str, content: bytes, content_type: str) -> None:
        link = self.link
        headers = p.signed_headers(link.secret, link.slug, link.station_id, f"file:{sha256}", self._time())
        headers["content-type"] = "application/octet-stream"
        r = await self._send("PUT", f"{self.base}/files/{sha256}", headers, content=content)
        self._parse(r, FileStored)

    async def lease(self, counter: str) -> LeaseOut:
        out: LeaseOut = await self._signed("POST", "/leases", f"lease:{counter}", LeaseOut, json={"counter": counter})
        return out

    async def replay(self, entry: dict[str, Any]) -> EntryAnswer:
        """Fallback for a platform without the push route: the plain spec call, with its Idempotency-Key."""
        headers = {"Idempotency-Key": entry["idempotency_key"], "X-API-Key": self.link.secret}
        kw: dict[str, Any] = {"json": entry["body"]} if entry.get("body") is not None else {}
        if entry.get("content") is not None:  # an upload: the raw file as the body
            file = entry["file"]
            headers["content-type"] = file["content_type"]
            headers["x-filename"] = file["filename"]
            kw = {"content": entry["content"]}
        r = await self._send(entry["method"], entry["path"], headers, **kw)
        seq = int(entry["seq"])
        if r.status_code >= 500:
            return EntryAnswer(
                seq=seq, status="retry", error={"code": "INTERNAL_ERROR", "error": f"HTTP {r.status_code}"}
            )
        if r.status_code in (401, 429):
            # The key is wrong or the platform asks to slow down: the change itself is fine.
            msg, _ = _error_message(r)
            raise SyncError(
                "refused" if r.status_code == 401 else "server", msg, retry=r.status_code == 429, status=r.status_code
            )
        if r.status_code >= 400:
            try:
                error = dict(r.json())
            except ValueError:
                error = {"code": "HTTP_ERROR", "error": f"HTTP {r.status_code}"}
            return EntryAnswer(seq=seq, status="conflict" if r.status_code == 409 else "rejected", error=error)
        try:
            data = r.json().get("data")
        except (ValueError, AttributeError):
            data = None
        return EntryAnswer(seq=seq, status="applied", result=data if isinstance(data, dict) else None)


@cache
def _envelope(model: type[BaseModel]) -> Any:
    """The API's answer around ``model``: ``{"data": ...}``."""
    return create_model(f"{model.__name__}Answer", data=(model, ...))


async def register_station(
    platform_url: str, slug: str, station_id: str, name: str, *, token: str, timeout: float = 10.0
) -> str:
    """Register this station with the platform as a signed-in owner or admin; answers the secret (shown once)."""
    async with httpx.AsyncClient(base_url=platform_url.rstrip("/"), timeout=timeout) as http:
        try:
            r = await http.post(
                f"/api/tenants/{slug}/sync/stations",
                json={"stationId": station_id, "name": name},
                headers={"Authorization": f"Bearer {token}"},
            )
        except httpx.HTTPError as exc:
            raise SyncError("offline", f"the platform cannot be reached ({type(exc).__name__})", retry=True) from exc
    if r.status_code != 201:
        msg, _ = _error_message(r)
        raise SyncError("refused", msg, retry=False, status=r.status_code)
    return str(r.json()["data"]["secret"])


async def take_leases(rt: Any, tenant_id: str) -> int:
    """Take the blocks of numbers this station has none (or little) of yet; answers how many.

    At registration: a station linked but not yet synced must never print a number another
    station printed (it would otherwise count on its own until its first round).
    """
    import asyncio

    from services.sync import station as st

    link = await asyncio.to_thread(st.link_for, rt, tenant_id)
    if link is None:
        return 0
    client = PlatformClient(link)
    try:
        taken = 0
        for counter in await asyncio.to_thread(st.leases_to_renew, rt, tenant_id):
            block = await client.lease(counter)
            await asyncio.to_thread(st.apply_lease, rt, tenant_id, counter, block.start, block.end)
            taken += 1
        return taken
    finally:
        await client.aclose()


async def link_station(rt: Any, tenant_id: str, platform_url: str, slug: str, name: str, *, token: str) -> None:
    """Register, keep the secret, and take the first leases of numbers (the one way a station links)."""
    import asyncio

    from services.sync import station as st

    secret = await register_station(platform_url, slug, rt.station_id, name, token=token)
    await asyncio.to_thread(st.save_link, rt, tenant_id, platform_url, rt.station_id, secret)
    try:
        await take_leases(rt, tenant_id)
    except SyncError as exc:  # linked all the same: the engine's first round takes them, and until then
        # shipping offline is refused (no block) rather than risking a number another station used.
        import logging

        logging.getLogger("services.sync").warning("first lease of numbers failed: %s", exc.message)

"""The start of every link the platform sends (QR scan addresses, mail links, signing links).

``PLATFORM_PUBLIC_URL`` when set (CONTRACT: the address people and outside systems reach the
platform at); unset, the server's own address: the one it was started at (``serve``), else the
address of the socket the first request arrived on (never the request's ``Host`` header, which
the caller chooses). A runtime with neither (a desktop without a server) falls back to
``http://127.0.0.1:8000``, the address ``make serve`` listens at.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from services.core.context import Runtime

FALLBACK = "http://127.0.0.1:8000"
_ANY = ("0.0.0.0", "::", "")


@dataclass
class ServerAddress:
    """The server's own address, learned when it starts or from its first request."""

    url: str | None = None


def public_url(rt: Runtime) -> str:
    configured = os.environ.get("PLATFORM_PUBLIC_URL", "").strip()
    if configured:
        return configured.rstrip("/")
    return rt.part(ServerAddress).url or FALLBACK


def learn_address(rt: Runtime, scheme: str, host: str, port: int | None) -> None:
    """Keep the server's own address (the first one known); an any-address bind tells nothing."""
    part = rt.part(ServerAddress)
    if part.url is not None or host in _ANY:
        return
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(scheme)
    part.url = f"{scheme}://{host}" + (f":{port}" if port and port != default else "")


def use_platform_address(rt: Runtime, url: str) -> None:
    """A station runs no server of its own: its links (QR scan addresses, mail and signing links)
    point at the platform it syncs with (its Settings' platform URL), not at the fallback
    127.0.0.1:8000. ``PLATFORM_PUBLIC_URL`` still wins; an empty ``url`` changes nothing."""
    url = url.strip().rstrip("/")
    if url:
        rt.part(ServerAddress).url = url

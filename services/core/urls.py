"""The one URL type of stored addresses that a person or a client will follow or fetch.

``Url``: ``http://`` or ``https://`` only (no ``javascript:``, ``data:``, ``vbscript:``, ``file:``),
a host, no credentials, no spaces or control characters. ``FetchUrl`` (webhook, connection and
media addresses the platform itself calls) adds the address rules of the webhook sender: the host
in the form every reader agrees on (``0127.0.0.1`` and ``00000000000000000000127.0.0.1`` are
refused, an HTTP client reads them differently or not at all) and a usable port. The rules that
depend on the installation (private and loopback addresses, plain http) stay with the caller,
which knows its settings: :func:`address_problem` and :func:`host_problem` are shared for that.

Both types say ``format: uri`` in the OpenAPI document; ``tests/api/hardening`` walks the document
and fails on a URL-like field of another type.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Annotated
from urllib.parse import unquote, urlsplit

from pydantic import AfterValidator, Field

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_SHARED = ipaddress.ip_network("100.64.0.0/10")
MAX_URL = 2000


class UnsafeUrl(ValueError):
    """An address the platform refuses to store or to call."""


def _embedded_v4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def address_problem(ip: IPAddress) -> str | None:
    """Why this address is refused, or None when it is a public unicast address."""
    if isinstance(ip, ipaddress.IPv6Address):
        inner = _embedded_v4(ip)
        if inner is not None:
            why = address_problem(inner)
            return f"embeds {inner}, which {why}" if why else None
        if ip.scope_id:
            return "is a scoped (link-local) address"
    checks = [
        (ip.is_loopback, "is a loopback address"),
        (ip.is_link_local, "is a link-local address"),
        (isinstance(ip, ipaddress.IPv4Address) and ip in _SHARED, "is in the shared address space 100.64.0.0/10"),
        (ip.is_private, "is a private address"),
        (ip.is_multicast, "is a multicast address"),
        (ip.is_unspecified, "is the unspecified address"),
        (ip.is_reserved, "is a reserved address"),
        (not ip.is_global, "is not a globally routable address"),
    ]
    for bad, why in checks:
        if bad:
            return why
    return None


def parse_ip(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return None


_HOST_CHARS = re.compile(r"^[a-z0-9._:\[\]%-]+$")
_NUMERIC_LABEL = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$")


def normalize_host(host: str, field: str = "webhook_url") -> str:
    """The host as a resolver or an HTTP client may end up reading it, or UnsafeUrl.

    Percent-escapes are decoded (URL parsers decode them in hosts), case is folded and a
    trailing dot (the DNS root) is dropped. A host whose last label is a number is an IPv4
    address to URL parsers and to ``inet_aton``, which read leading zeros as octal, ``0x`` as
    hex and fewer than four parts as a packed integer; readers disagree on those forms
    (``0127.0.0.1`` is 87.0.0.1 to one, 127.0.0.1 to another), so only the canonical
    dotted-decimal form is accepted.
    """
    h = unquote(host).lower().rstrip(".")
    if not h or not _HOST_CHARS.match(h):
        raise UnsafeUrl(f"{field} host {host!r} is not a valid host name")
    if ":" not in h and _NUMERIC_LABEL.match(h.rsplit(".", 1)[-1]):
        try:
            return str(ipaddress.IPv4Address(h))
        except ValueError:
            raise UnsafeUrl(
                f"{field} host {host!r} is a numeric address in a non-canonical form; write it as a.b.c.d"
            ) from None
    return h


def host_problem(host: str, field: str = "url") -> str | None:
    """Why the platform must not call this (normalized) host, without resolving it: a
    non-public address or a local name. None when fine."""
    ip = parse_ip(host)
    if ip is not None:
        why = address_problem(ip)
        return f"{field} host {host} {why}" if why else None
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
        return f"{field} host {host} is a local name"
    return None


def url_problem(url: str, *, fetch: bool = False, field: str = "the URL") -> str | None:
    """Why ``url`` is not an address to store (``fetch``: nor one to call), or None."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        return f"{field} is not a valid URL: {exc}"
    if parts.scheme.lower() not in ("http", "https"):
        return f"{field} must be an http:// or https:// URL"
    if any(c.isspace() or not c.isprintable() for c in url):
        return f"{field} must not contain spaces or control characters"
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        return f"{field} must not carry credentials"
    if not parts.hostname:
        return f"{field} has no host"
    if fetch:
        if port == 0:
            return f"{field} port 0 is not a port anyone listens on"
        try:
            normalize_host(parts.hostname, field)
        except UnsafeUrl as exc:
            return str(exc)
    return None


def _check(url: str) -> str:
    why = url_problem(url)
    if why:
        raise ValueError(why)
    return url


def _check_fetch(url: str) -> str:
    why = url_problem(url, fetch=True)
    if why:
        raise ValueError(why)
    return url


# The schema's ``format: uri`` marks the type in the OpenAPI document (the walking test reads it).
Url = Annotated[
    str, Field(min_length=8, max_length=MAX_URL, json_schema_extra={"format": "uri"}), AfterValidator(_check)
]
FetchUrl = Annotated[
    str,
    Field(min_length=8, max_length=MAX_URL, json_schema_extra={"format": "uri", "x-fetched": True}),
    AfterValidator(_check_fetch),
]

"""TXT lookups for the e-mail domain check, behind a Protocol that tests replace.

The default resolver asks the first name server of ``/etc/resolv.conf`` with
one plain DNS query over UDP (RFC 1035), so no DNS library is needed. Tests
provide a stand-in with ``runtime.provide(Resolver(fake))``.
"""

from __future__ import annotations

import secrets
import socket
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from services.core.context import Runtime

TXT = 16


class TxtResolver(Protocol):
    def txt_records(self, name: str) -> list[str]:
        """Every TXT string published at ``name`` (empty when there is none or the lookup failed)."""
        ...


def encode_query(name: str, qid: int) -> bytes:
    header = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0)  # recursion desired, one question
    qname = b"".join(bytes([len(p)]) + p.encode("ascii") for p in name.rstrip(".").split(".")) + b"\x00"
    return header + qname + struct.pack(">HH", TXT, 1)


def _skip_name(msg: bytes, pos: int) -> int:
    while True:
        length = msg[pos]
        if length & 0xC0 == 0xC0:  # compression pointer ends the name
            return pos + 2
        if length == 0:
            return pos + 1
        pos += 1 + length


def decode_txt_answer(msg: bytes, qid: int) -> list[str]:
    """The TXT strings of a response (the strings of one record are joined, as SPF and others expect)."""
    if len(msg) < 12:
        return []
    rid, flags, qd, an, _ns, _ar = struct.unpack(">HHHHHH", msg[:12])
    if rid != qid or flags & 0x000F != 0:  # another answer, or NXDOMAIN and friends
        return []
    pos = 12
    for _ in range(qd):
        pos = _skip_name(msg, pos) + 4
    out: list[str] = []
    for _ in range(an):
        pos = _skip_name(msg, pos)
        rtype, _cls, _ttl, rdlen = struct.unpack(">HHIH", msg[pos : pos + 10])
        pos += 10
        rdata = msg[pos : pos + rdlen]
        pos += rdlen
        if rtype != TXT:
            continue
        parts, i = [], 0
        while i < len(rdata):
            n = rdata[i]
            parts.append(rdata[i + 1 : i + 1 + n].decode("utf-8", "replace"))
            i += 1 + n
        out.append("".join(parts))
    return out


def system_nameserver(resolv_conf: Path = Path("/etc/resolv.conf")) -> str | None:
    try:
        for line in resolv_conf.read_text().splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[0] == "nameserver":
                return parts[1]
    except OSError:
        return None
    return None


class UdpResolver:
    """One UDP question to a name server (the system's by default); failures read as 'not found'."""

    def __init__(self, server: str | None = None, port: int = 53, timeout: float = 3.0) -> None:
        self.server, self.port, self.timeout = server, port, timeout

    def txt_records(self, name: str) -> list[str]:
        server = self.server or system_nameserver()
        if server is None:
            return []
        qid = secrets.randbelow(0x10000)
        family = socket.AF_INET6 if ":" in server else socket.AF_INET
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as sock:
                sock.settimeout(self.timeout)
                sock.sendto(encode_query(name, qid), (server, self.port))
                msg, _ = sock.recvfrom(4096)
            return decode_txt_answer(msg, qid)
        except (OSError, struct.error, IndexError, UnicodeError):
            return []


@dataclass(frozen=True)
class Resolver:
    """The TXT resolver a runtime uses (the system's DNS servers unless a stand-in is provided)."""

    txt: TxtResolver


def resolver_for(rt: Runtime) -> TxtResolver:
    return rt.part(Resolver, lambda: Resolver(UdpResolver())).txt

"""A small real IMAP4rev1 server on loopback for the mailbox tests: one folder, the commands a
polling client sends (CAPABILITY, LOGIN, SELECT, UID SEARCH, UID FETCH, UID STORE, NOOP, LOGOUT),
literals and sequence sets as the protocol writes them (RFC 3501)."""

from __future__ import annotations

import re
import socketserver
import threading
from dataclasses import dataclass, field
from typing import Any

_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|(\([^)]*\))|(\S+)')


@dataclass
class StoredMail:
    uid: int
    data: bytes
    flags: set[str] = field(default_factory=set)


def _args(text: str) -> list[str]:
    out = []
    for quoted, group, atom in _TOKEN.findall(text):
        out.append(re.sub(r"\\(.)", r"\1", quoted) if quoted else (group or atom))
    return out


def _uids(spec: str, known: list[int]) -> list[int]:
    top = max(known, default=0)
    wanted: set[int] = set()
    for part in spec.split(","):
        lo, _, hi = part.partition(":")
        a = top if lo == "*" else int(lo)
        b = a if not hi else (top if hi == "*" else int(hi))
        wanted.update(range(min(a, b), max(a, b) + 1))
    return [u for u in known if u in wanted]


class _Handler(socketserver.StreamRequestHandler):
    def _send(self, data: bytes | str) -> None:
        self.wfile.write(data.encode() if isinstance(data, str) else data)

    def handle(self) -> None:
        server: Any = self.server
        self._send("* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] test-imap ready\r\n")
        authed = False
        while True:
            line = self.rfile.readline()
            if not line:
                return
            tag, _, rest = line.decode("utf-8", "replace").strip().partition(" ")
            verb, _, args = rest.partition(" ")
            verb = verb.upper()
            if verb == "UID":
                verb, _, args = args.partition(" ")
                verb = "UID " + verb.upper()
            server.commands.append(verb)
            if verb == "CAPABILITY":
                self._send(f"* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n{tag} OK done\r\n")
            elif verb == "LOGIN":
                user, password = _args(args)[:2]
                if (user, password) != (server.user, server.password):
                    self._send(f"{tag} NO [AUTHENTICATIONFAILED] wrong user or password\r\n")
                    continue
                authed = True
                self._send(f"{tag} OK logged in\r\n")
            elif not authed and verb not in ("NOOP", "LOGOUT"):
                self._send(f"{tag} BAD log in first\r\n")
            elif verb in ("SELECT", "EXAMINE"):
                with server.lock:
                    n = len(server.mails)
                self._send(
                    "* FLAGS (\\Seen \\Deleted)\r\n"
                    f"* {n} EXISTS\r\n* 0 RECENT\r\n* OK [UIDVALIDITY 7] ok\r\n"
                    f"* OK [UIDNEXT {server.next_uid}] ok\r\n{tag} OK [READ-WRITE] selected\r\n"
                )
            elif verb == "UID SEARCH":
                with server.lock:
                    unseen = "UNSEEN" in args.upper()
                    uids = [m.uid for m in server.mails if not (unseen and "\\Seen" in m.flags)]
                self._send(f"* SEARCH {' '.join(map(str, uids))}".rstrip() + f"\r\n{tag} OK search done\r\n")
            elif verb == "UID FETCH":
                spec, _, _what = args.partition(" ")
                with server.lock:
                    by_uid = {m.uid: (i + 1, m) for i, m in enumerate(server.mails)}
                    chosen = [by_uid[u] for u in _uids(spec, list(by_uid))]
                for seq, m in chosen:
                    self._send(f"* {seq} FETCH (UID {m.uid} BODY[] {{{len(m.data)}}}\r\n".encode() + m.data + b")\r\n")
                self._send(f"{tag} OK fetch done\r\n")
            elif verb == "UID STORE":
                if server.before_store is not None:
                    server.before_store()  # a test stops here: the mails are filed, not yet marked
                spec, _, change = args.partition(" ")
                flags = set(re.findall(r"\\\w+", change))
                with server.lock:
                    by_uid = {m.uid: (i + 1, m) for i, m in enumerate(server.mails)}
                    chosen = [by_uid[u] for u in _uids(spec, list(by_uid))]
                    for _seq, m in chosen:
                        m.flags = (m.flags | flags) if change.upper().startswith("+") else (m.flags - flags)
                for seq, m in chosen:
                    self._send(f"* {seq} FETCH (UID {m.uid} FLAGS ({' '.join(sorted(m.flags))}))\r\n")
                self._send(f"{tag} OK store done\r\n")
            elif verb == "LOGOUT":
                self._send(f"* BYE see you\r\n{tag} OK bye\r\n")
                return
            elif verb == "NOOP":
                self._send(f"{tag} OK noop\r\n")
            else:
                self._send(f"{tag} BAD unknown command {verb}\r\n")


class ImapServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, user: str = "helpdesk", password: str = "s3cret") -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.user, self.password = user, password
        self.mails: list[StoredMail] = []
        self.next_uid = 1
        self.lock = threading.Lock()
        self.commands: list[str] = []
        self.before_store: Any = None
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)

    def deliver(self, data: bytes) -> int:
        with self.lock:
            uid = self.next_uid
            self.next_uid += 1
            self.mails.append(StoredMail(uid, data))
        return uid

    def seen(self) -> list[int]:
        with self.lock:
            return [m.uid for m in self.mails if "\\Seen" in m.flags]

    def url(self, tenant: str = "demo") -> str:
        host, port = self.server_address[:2]
        return f"imap://{self.user}:{self.password}@{host!s}:{port}/INBOX?tenant={tenant}"

    def __enter__(self) -> ImapServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()

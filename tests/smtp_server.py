"""A small real SMTP server on loopback for the mail tests (speaks the protocol, keeps what it got)."""

from __future__ import annotations

import socketserver
import threading
from typing import Any


class _Handler(socketserver.StreamRequestHandler):
    def _say(self, line: str) -> None:
        self.wfile.write((line + "\r\n").encode())

    def handle(self) -> None:
        server: Any = self.server
        self._say("220 test-smtp ready")
        envelope: dict[str, Any] = {"rcpt": []}
        while True:
            raw = self.rfile.readline()
            if not raw:
                return
            cmd = raw.decode("utf-8", "replace").strip()
            verb = cmd.split(" ", 1)[0].upper()
            if verb in ("EHLO", "HELO"):
                tls = b"250-STARTTLS\r\n" if server.starttls else b""
                self.wfile.write(b"250-test-smtp\r\n" + tls + b"250-AUTH PLAIN\r\n250 8BITMIME\r\n")
            elif verb == "STARTTLS":
                server.seen.append("STARTTLS")
                self._say("220 go ahead")
                return  # no certificate here: the client's handshake fails, nothing follows in clear
            elif verb == "AUTH":
                server.auth.append(cmd)
                self._say("235 authenticated")
            elif verb == "MAIL":
                envelope = {"from": cmd[10:].strip("<> "), "rcpt": []}
                self._say("250 ok")
            elif verb == "RCPT":
                rcpt = cmd[8:].strip("<> ")
                if rcpt.lower() in server.reject:  # a mailbox that does not exist: a hard bounce
                    self._say("550 5.1.1 no such user")
                    continue
                envelope["rcpt"].append(rcpt)
                self._say("250 ok")
            elif verb == "DATA":
                self._say("354 end with .")
                lines = []
                while (line := self.rfile.readline()) not in (b".\r\n", b".\n", b""):
                    lines.append(line[1:] if line.startswith(b"..") else line)
                envelope["data"] = b"".join(lines)
                server.messages.append(envelope)
                if server.hold:  # stored, the answer kept back: the sender can be killed mid-reply
                    server.released.wait(60)
                self._say("250 queued")
            elif verb == "QUIT":
                self._say("221 bye")
                return
            else:
                self._say("250 ok")


class SmtpServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, host: str = "127.0.0.1", *, starttls: bool = False) -> None:
        super().__init__((host, 0), _Handler)
        self.starttls = starttls  # offer STARTTLS (the handshake then fails: no certificate)
        self.seen: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.auth: list[str] = []
        self.reject: set[str] = set()  # recipients refused with 550 (bounces)
        self.hold = False  # keep back the answer to each message stored, until released
        self.released = threading.Event()
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"smtp://mailer:s3cret@{self.server_address[0]}:{self.server_address[1]}"

    def __enter__(self) -> SmtpServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.released.set()
        self.shutdown()
        self.server_close()

"""uvicorn's HTTP/1.1 protocol, answering requests it cannot parse in the error envelope.

A request line or header block over h11's buffer limit (16 KiB), or bytes that are not HTTP,
never reach the application: uvicorn answers them itself, by default in plain text. This
subclass answers the same cases with ``{"error", "code"}``: 414 ``URI_TOO_LONG`` when the
request line alone is over the limit, 400 ``VALIDATION_ERROR`` otherwise. The connection is
closed either way (the stream cannot be resynchronised).
"""

from __future__ import annotations

import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

# h11's default maximum for a request line plus headers.
LINE_LIMIT = 16 * 1024


class EnvelopeH11Protocol(H11Protocol):
    def send_400_response(self, msg: str) -> None:
        pending = self.conn.trailing_data[0]
        line_end = pending.find(b"\r\n")
        if line_end > LINE_LIMIT or (line_end == -1 and len(pending) > LINE_LIMIT):
            status, body = 414, {"error": f"request line over {LINE_LIMIT} bytes", "code": "URI_TOO_LONG"}
        else:
            status, body = 400, {"error": "malformed HTTP request", "code": "VALIDATION_ERROR"}
        raw = json.dumps(body).encode()
        headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
        for event in (h11.Response(status_code=status, headers=headers), h11.Data(data=raw), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()

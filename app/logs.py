"""Log lines to stderr: JSON objects (the default of ``serve``) or plain text (PLATFORM_LOG_FORMAT)."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

from api.observability import REQUEST_ID
from services.core.logsafe import bare_traceback

# The access line's fields (api.observability.Observe); nothing else of a record's extras is
# written, so a field added elsewhere cannot carry personal data into the log by accident.
FIELDS = ("request_id", "tenant", "principal_kind", "route", "method", "status", "duration_ms")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": REQUEST_ID.get(),
        }
        for name in FIELDS:
            if hasattr(record, name):
                line[name] = getattr(record, name)
        if record.exc_info and record.exc_info[1] is not None:
            # Frames and class names, never the exception's message (it may hold request data).
            line["error"] = bare_traceback(record.exc_info[1])
        return json.dumps(line, default=str)


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        record.request_id = getattr(record, "request_id", None) or REQUEST_ID.get()
        exc, record.exc_info = record.exc_info, None
        out = super().format(record)
        if exc and exc[1] is not None:
            out += "\n" + bare_traceback(exc[1])
        return out


def configure(fmt: str | None, default: str = "json") -> None:
    """One stderr handler on the root logger, the access lines at INFO, the rest at WARNING."""
    chosen = (fmt or default).lower()
    if chosen not in ("json", "text"):
        raise ValueError("PLATFORM_LOG_FORMAT must be json or text")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if chosen == "json" else TextFormatter())
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(logging.WARNING)
    logging.getLogger("platform.access").setLevel(logging.INFO)

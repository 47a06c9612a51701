"""No personal data and no secret reaches a log (issue 13, item 13): SQL parameters are hidden
and unexpected errors are logged with their class and frames, not their messages."""

from __future__ import annotations

import logging

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from tests.conftest import LiveServer, auth_headers

EMAIL = "private.person.7731@example.test"
TEXT = "my secret medical condition 5512"
KEY = "idem-" + "k" * 200 + "-4419"


def _logged(caplog: pytest.LogCaptureFixture) -> str:
    out = []
    for rec in caplog.records:
        out.append(rec.getMessage())
        if rec.exc_info:
            out.append(logging.Formatter().formatException(rec.exc_info))
        if rec.exc_text:
            out.append(rec.exc_text)
    return "\n".join(out)


def test_an_idempotency_key_replay_logs_no_key_email_or_ticket_text(
    client: httpx.Client, server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    """The issue's input: an Idempotency-Key over 200 characters, sent twice, with a
    requester's e-mail and ticket text in the body."""
    h = {**auth_headers(client, "admin@demo.test"), "Idempotency-Key": KEY}
    body = {"subject": TEXT, "description": TEXT, "email": EMAIL, "name": "Private Person"}
    with caplog.at_level(logging.DEBUG):
        answers = [client.post("/api/tenants/demo/support/tickets", json=body, headers=h) for _ in range(2)]
    for r in answers:
        assert set(r.json()) >= {"data"} or {"error", "code"} <= set(r.json()), r.text
    logged = _logged(caplog)
    for secret in (EMAIL, TEXT, KEY, "kkkkkkkkkk"):
        assert secret not in logged


def test_a_failed_statement_carries_no_parameters(server: LiveServer, caplog: pytest.LogCaptureFixture) -> None:
    engine = server.runtime.db.engine
    with engine.connect() as conn:
        tid = conn.execute(text("SELECT id FROM tenants LIMIT 1")).scalar()
    # A connection of its own: a read and then a write in one SQLite transaction fails at once
    # (instead of waiting) when the server's workers committed in between.
    with engine.connect() as conn, pytest.raises(IntegrityError) as err:
        # A tenant with an id already taken: a UNIQUE failure whose parameters hold the e-mail.
        conn.execute(text("INSERT INTO tenants (id, slug, name) VALUES (:i, :s, :n)"),
                     {"i": tid, "s": "x", "n": EMAIL})  # fmt: skip
    assert EMAIL not in str(err.value) and "hidden" in str(err.value)
    log = logging.getLogger("test.private")
    with caplog.at_level(logging.DEBUG):
        try:
            raise RuntimeError("wrapped") from err.value
        except RuntimeError:
            log.exception("failed")
    assert EMAIL not in _logged(caplog)

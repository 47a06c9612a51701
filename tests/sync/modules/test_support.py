"""Support syncs: tickets, replies, a state move and an attachment made offline."""

from __future__ import annotations

from typing import Any

from services.core.files import Upload
from tests.sync.modules.kit import PNG, Move, Platform, applied_once, conflict, offline, row


def _ticket(s: Any, subject: str) -> Any:
    body = {"subject": subject, "description": "It broke.", "email": "ann@example.test", "name": "Ann"}
    return s.do("support.tickets.create", body=body)


def test_support(platform: Platform, pair: Any) -> None:
    a, b = pair
    with offline(a):
        t = _ticket(a, "scanner dead")
        a.do("support.tickets.update", ticket_id=t.id, body={"priority": "high"})
        a.do("support.tickets.update", ticket_id=t.id, body={"state": "pending"})
        m = a.do("support.messages.create", ticket_id=t.id, body={"body": "on it", "internal": False})
        att = a.do("support.attachments.upload", query={"ticket_id": t.id}, upload=Upload("s.png", "image/png", PNG))
    applied_once(platform, a, b, [
        row("support_tickets", t.id, priority="high", state="pending"),
        row("support_messages", m.id, body="on it"),
        row("support_attachments", att.id, ticket_id=t.id),
    ])  # fmt: skip
    conflict(
        platform, a, b,
        theirs=(
            Move("support.tickets.update", {"ticket_id": t.id}, {"state": "resolved"}),
            Move("support.tickets.update", {"ticket_id": t.id}, {"state": "closed"}),
        ),
        mine=Move("support.tickets.update", {"ticket_id": t.id}, {"state": "open"}),
        state=row("support_tickets", t.id, state="closed"),
        current="closed",
        behind=lambda s: row("support_tickets", _ticket(s, "behind the conflict").id),
    )  # fmt: skip

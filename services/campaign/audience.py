"""Campaign: who a campaign goes to now, and a segment's size (read by sending and lists)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.campaign import Campaign, CampaignContact, CampaignMessage, CampaignSegment
from services.campaign import segments


def recipients(s: Session, c: Campaign, now: datetime) -> list[str]:
    """Contact ids the campaign goes to now: its lists (all contacts when none), the segment,
    not suppressed, with an address for the channel, not yet sent to by this campaign."""
    rules: dict[str, Any] = {}
    if c.segment_id:
        seg = s.get(CampaignSegment, c.segment_id)
        rules = seg.rules if seg is not None else {}
    # Without a segment only the lists and the phone decide: the attributes (JSON) are not read.
    columns: list[Any] = [CampaignContact.id, CampaignContact.phone, CampaignContact.list_ids]
    if rules:
        columns += [
            CampaignContact.email,
            CampaignContact.name,
            CampaignContact.status,
            CampaignContact.created_at,
            CampaignContact.attributes,
        ]
    stmt = select(*columns).where(CampaignContact.status == "active")
    done = set(s.scalars(select(CampaignMessage.contact_id).where(CampaignMessage.campaign_id == c.id)))
    wanted = set(c.list_ids or [])
    out: list[str] = []
    for row in s.execute(stmt).mappings():
        if row["id"] in done:
            continue
        if wanted and not wanted.intersection(row["list_ids"] or []):
            continue
        if c.channel == "sms" and not row["phone"]:
            continue
        if rules and not segments.matches(dict(row), rules, now):
            continue
        out.append(row["id"])
    return out


def segment_size(s: Session, rules: dict[str, Any], now: datetime) -> int:
    rows = s.execute(
        select(
            CampaignContact.email,
            CampaignContact.name,
            CampaignContact.phone,
            CampaignContact.status,
            CampaignContact.created_at,
            CampaignContact.list_ids,
            CampaignContact.attributes,
        )
    ).mappings()
    return sum(1 for r in rows if segments.matches(dict(r), rules, now))

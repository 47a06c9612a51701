"""Flow steps: durations, enrolment, the steps' checks (conditions, no cycles) and the branch a
condition takes. Kept apart from sending.py, which runs the steps, so the use cases that check a
flow do not import the sender."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.campaign import CampaignFlow, CampaignFlowRun
from services.core.context import Ctx

_DURATION = re.compile(r"^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$")


def parse_duration(text: str) -> timedelta | None:
    """ISO 8601 durations of weeks, days, hours, minutes and seconds (``P2D``, ``PT1H30M``)."""
    m = _DURATION.match(text or "")
    if not m or text in ("P", "PT") or text.endswith("T"):
        return None
    w, d, h, mi, sec = m.groups()
    return timedelta(
        weeks=int(w or 0), days=int(d or 0), hours=int(h or 0), minutes=int(mi or 0), seconds=float(sec or 0)
    )


def enroll(
    ctx: Ctx, s: Session, contact_ids: Iterable[str], *, list_ids: Iterable[str] = (), event_type: str | None = None
) -> int:
    """Start live flows triggered by these lists (or this event) for the contacts, once each."""
    lists = set(list_ids)
    flows = [
        f
        for f in s.scalars(select(CampaignFlow).where(CampaignFlow.status == "live"))
        if (lists and f.trigger.get("list_id") in lists) or (event_type and f.trigger.get("event_type") == event_type)
    ]
    if not flows:
        return 0
    ids = list(dict.fromkeys(contact_ids))
    n = 0
    for f in flows:
        have = set(
            s.scalars(
                select(CampaignFlowRun.contact_id).where(
                    CampaignFlowRun.flow_id == f.id, CampaignFlowRun.contact_id.in_(ids)
                )
            )
        )
        for cid in ids:
            if cid not in have:
                s.add(
                    CampaignFlowRun(
                        flow_id=f.id, contact_id=cid, step=0, status="waiting", due_at=ctx.now(), created_at=ctx.now()
                    )
                )
                n += 1
    s.flush()
    return n

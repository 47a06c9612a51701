"""A/B subject tests (issue 35, part 4), as listmonk and Mautic do them: a share of the list gets
the subjects in turn, and after a set time the subject with the best open (or click) rate goes to
the rest.

The test rides on the campaign's own send job. Its first run sends only to the test share (each
recipient's subject recorded as the message's ``variant``), then asks the scheduler
(``services/core/scheduler.py``) for ``campaign.ab_decide`` at ``decide_at``. That job counts the
variants' messages, records the winner on the campaign, emits ``campaign.ab_decided`` and queues
the send job again, which now sends the winner's subject to everyone not yet sent to. A paused
campaign is not decided by the scheduler: its resume decides when the time has passed. The
test's state lives in ``campaigns.ab_test``: ``{subjects, share, wait, metric, test_size,
decide_at, winner}``.
"""

from __future__ import annotations

import hashlib
import math
from datetime import datetime
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from local_db.models import Tenant
from local_db.models.campaign import Campaign, CampaignMessage
from services.campaign import render
from services.campaign import schemas as sc
from services.campaign.events import AbDecided, AbVariant
from services.campaign.flowsteps import parse_duration
from services.core import auth
from services.core.context import SYSTEM, Ctx, Runtime
from services.core.errors import ValidationFailed
from services.core.events import emit
from services.core.jobs import submit
from services.core.scheduler import delayed, schedule

DECIDE = "campaign.ab_decide"


def stored(body: sc.AbTestIn | None, channel: str) -> dict[str, Any] | None:
    """The test as the campaign keeps it, checked: 400 names the field."""
    if body is None:
        return None
    if channel != "email":
        raise ValidationFailed("an A/B subject test is for e-mail campaigns", {"field": "ab_test"})
    for i, subject in enumerate(body.subjects):
        render.check(subject, f"ab_test.subjects[{i}]")
    wait = parse_duration(body.wait)
    if wait is None or wait.total_seconds() < 60:
        raise ValidationFailed("ab_test.wait is an ISO 8601 duration of a minute or more", {"field": "ab_test.wait"})
    return {
        "subjects": list(body.subjects),
        "share": body.share,
        "wait": body.wait,
        "metric": body.metric,
        "test_size": None,
        "decide_at": None,
        "winner": None,
    }


def _order(campaign_id: str, contact_id: str) -> bytes:
    # A stable shuffle: the same contacts are tested on a resume, with no random state kept.
    return hashlib.blake2b(f"{campaign_id}:{contact_id}".encode(), digest_size=8).digest()


def plan(ctx: Ctx, s: Session, c: Campaign, todo: list[str], now: datetime) -> tuple[list[str], dict[str, int], str]:
    """Who this run of the send job sends to, their variants, and the phase:
    ``test`` (the test share), ``wait`` (the test is out, the winner not yet chosen: send nothing)
    or ``rest`` (the winner's subject to everyone left)."""
    ab = dict(c.ab_test or {})
    if ab.get("winner") is not None:
        return todo, {}, "rest"
    done = int(
        s.scalar(select(func.count()).where(CampaignMessage.campaign_id == c.id, CampaignMessage.variant.is_not(None)))
        or 0
    )
    if ab.get("test_size") is None:
        ab["test_size"] = min(len(todo), max(1, math.ceil(ab["share"] * (len(todo) + done))))
        c.ab_test = ab
    left = int(ab["test_size"]) - done
    if ab.get("decide_at") is None:
        if left <= 0 or not todo:
            return [], {}, "test"  # the share is out: the end of this run asks for the decision
        pick = sorted(todo, key=lambda cid: _order(c.id, cid))[:left]
        n = len(ab["subjects"])
        return pick, {cid: (done + k) % n for k, cid in enumerate(pick)}, "test"
    if datetime.fromisoformat(ab["decide_at"]) <= now:
        decide(s, c, ctx)  # a resume after the decision time: decide here and send the rest
        return todo, {}, "rest"
    return [], {}, "wait"


def tested(ctx: Ctx, s: Session, c: Campaign) -> None:
    """The test share is out: wait ``wait``, then decide (the scheduler's delayed job)."""
    ab = dict(c.ab_test or {})
    at = ctx.now() + (parse_duration(ab["wait"]) or parse_duration("PT1H"))  # type: ignore[operator]
    ab["decide_at"] = at.isoformat()
    c.ab_test = ab
    schedule(s, DECIDE, at, {"campaign_id": c.id}, tenant_id=c.tenant_id)


def variants(s: Session, c: Campaign) -> list[dict[str, Any]]:
    """Each subject's figures: sent, opened, clicked, and the rate of the test's metric."""
    ab = c.ab_test or {}
    m = CampaignMessage

    def n(cond: Any) -> Any:
        return func.coalesce(func.sum(case((cond, 1), else_=0)), 0)

    rows = {
        int(r[0]): r[1:]
        for r in s.execute(
            select(m.variant, n(m.status == "sent"), func.count(m.opened_at), func.count(m.clicked_at))
            .where(m.campaign_id == c.id, m.variant.is_not(None))
            .group_by(m.variant)
        )
    }
    out = []
    for i, subject in enumerate(ab.get("subjects", [])):
        sent, opened, clicked = (int(v) for v in rows.get(i, (0, 0, 0)))
        hits = clicked if ab.get("metric") == "clicks" else opened
        out.append(
            {
                "subject": subject,
                "sent": sent,
                "opened": opened,
                "clicked": clicked,
                "rate": round(hits / sent, 4) if sent else 0.0,
                "winner": ab.get("winner") == i,
            }
        )
    return out


def decide(s: Session, c: Campaign, ctx: Ctx | None = None) -> int:
    """Record the winner (the best rate; a tie goes to the first subject) and emit the event."""
    figures = variants(s, c)
    winner = max(range(len(figures)), key=lambda i: (figures[i]["rate"], -i))
    ab = dict(c.ab_test or {})
    ab["winner"] = winner
    c.ab_test = ab
    if ctx is not None:
        payload = AbDecided(
            campaign_id=c.id,
            name=c.name,
            metric=ab["metric"],
            winner=winner,
            subject=ab["subjects"][winner],
            variants=[AbVariant(**{k: v for k, v in f.items() if k != "winner"}) for f in figures],
        )
        emit(ctx, "campaign.ab_decided", payload.model_dump(mode="json"))
    return winner


@delayed(DECIDE)
def _decide_job(rt: Runtime, tenant_id: str | None, params: dict[str, Any]) -> dict[str, Any] | None:
    with rt.db.reading(None) as s:
        t = s.get(Tenant, tenant_id)
        info = auth.tenant_info(t) if t is not None else None
    if info is None:
        return {"skipped": "no tenant"}
    ctx = Ctx(rt, info, SYSTEM)
    ctx.operation = ("campaign.campaigns.send", "campaign.campaign")
    with ctx.write() as s:
        c = s.get(Campaign, str(params.get("campaign_id")))
        if c is None or not c.ab_test or c.ab_test.get("winner") is not None:
            return {"skipped": "decided or gone"}
        if c.status != "running":
            return {"waiting": c.status}  # paused: the resume decides; cancelled: nothing to send
        winner = decide(s, c, ctx)
        job = submit(ctx, "campaign.send", {"campaign_id": c.id}, title=f"Send {c.name} (A/B winner)")
        c.job_id = job.id
        return {"winner": winner}

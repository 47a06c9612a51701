"""Campaign: lookups."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from local_db.models.campaign import (
    CampaignContact,
    CampaignList,
    CampaignMessage,
)
from services.core.context import Ctx
from services.core.errors import Forbidden, NotFound, ValidationFailed
from services.core.events import emit

MODULE = "campaign"


def _get(s: Session, model: Any, id: str, what: str) -> Any:
    row = s.get(model, id)  # another tenant's row reads as None
    if row is None:
        raise NotFound(f"{what} not found", {"id": id})
    return row


def _require_module(ctx: Ctx) -> None:
    """Public routes skip the central module check: the tenant must still have Campaign."""
    if ctx.tenant is None or MODULE not in ctx.tenant.modules:
        raise Forbidden("campaign is not enabled for this tenant")


def _check_lists(s: Session, list_ids: list[str]) -> None:
    if not list_ids:
        return
    have = set(s.scalars(select(CampaignList.id).where(CampaignList.id.in_(list_ids))))
    missing = [i for i in list_ids if i not in have]
    if missing:
        raise ValidationFailed("unknown list", {"field": "list_ids", "missing": missing})


def _unsubscribed(ctx: Ctx, c: CampaignContact, source: str, message: CampaignMessage | None = None) -> None:
    emit(
        ctx,
        "contact.unsubscribed",
        {
            "contact_id": c.id,
            "email": c.email,
            "source": source,
            "campaign_id": message.campaign_id if message else None,
        },
    )


@dataclass(frozen=True)
class Counts:
    """A campaign's figures counted from its send records (one ``campaign_messages`` row per
    recipient handled), so they never lag or run ahead of what was sent (issue 35)."""

    recipients: int = 0
    sent: int = 0
    failed: int = 0
    bounced: int = 0
    opened: int = 0
    clicked: int = 0
    unsubscribed: int = 0


def message_counts(s: Session, campaign_ids: list[str]) -> dict[str, Counts]:
    """Counts per campaign in one grouped query (the recipient key's index leads with the campaign)."""
    if not campaign_ids:
        return {}
    m = CampaignMessage

    def n(cond: Any) -> Any:
        return func.coalesce(func.sum(case((cond, 1), else_=0)), 0)

    rows = s.execute(
        select(
            m.campaign_id,
            func.count(),
            n(m.status == "sent"),
            n(m.status == "failed"),
            n(m.status == "bounced"),
            n(m.opened_at.is_not(None)),
            n(m.clicked_at.is_not(None)),
            n(m.unsubscribed_at.is_not(None)),
        )
        .where(m.campaign_id.in_(campaign_ids))
        .group_by(m.campaign_id)
    )
    return {str(r[0]): Counts(*(int(v) for v in r[1:])) for r in rows}

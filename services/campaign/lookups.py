"""Campaign: lookups."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
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

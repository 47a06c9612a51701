"""Campaign event types beyond the spec's (campaign.sent, campaign.completed, contact.unsubscribed)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from services.core.events import register_event_type

M = "campaign"


class AbVariant(BaseModel):
    subject: str
    sent: int
    opened: int
    clicked: int
    rate: float  # opens or clicks per sent message, as the test's metric says


class AbDecided(BaseModel):
    model_config = ConfigDict(extra="allow")

    campaign_id: str
    name: str
    metric: str  # opens | clicks
    winner: int  # the index of the winning subject
    subject: str
    variants: list[AbVariant]


register_event_type(
    "campaign.ab_decided",
    M,
    "an A/B subject test chose its winner (by opens or clicks); the rest of the list gets that subject",
    AbDecided,
)

"""Requests and responses of Campaign: the one definition the HTTP door, the desktop and sync use."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from services.core.pagination import ListQuery
from services.core.schemas import FreeText, NonBlankText, Strict
from services.core.urls import Url

# pending: subscribed through the public form, until the confirmation link is used (double opt-in).
ContactStatus = Literal["active", "pending", "unsubscribed", "bounced", "blocked"]
Channel = Literal["email", "sms"]
CampaignStatus = Literal["draft", "scheduled", "running", "paused", "cancelled", "finished"]
FlowStatus = Literal["draft", "live", "paused"]
SurveyStatus = Literal["draft", "open", "closed"]
EMAIL = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"
Email = Field(min_length=3, max_length=320, pattern=EMAIL)
OptionalEmail = Field(default=None, min_length=3, max_length=320, pattern=EMAIL)


def _aware(v: datetime | None) -> datetime | None:
    if v is not None and v.tzinfo is None:
        raise ValueError("a time needs its offset (e.g. 2026-01-01T09:00:00Z)")
    return v


# --- lists ---------------------------------------------------------------------------------


class ListIn(Strict):
    name: str = Field(min_length=1, max_length=200)
    description: FreeText = Field(default="", max_length=2000)
    public: bool = False  # open to the public subscribe form (double opt-in)


class ListOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    name: str
    description: FreeText
    public: bool = False
    contacts: int = 0
    created_at: datetime


# --- contacts ------------------------------------------------------------------------------


class Consent(Strict):
    """How the contact agreed (GDPR Art. 7(1): consent must be provable)."""

    source: str = Field(min_length=1, max_length=200)
    at: datetime | None = None
    ip: str | None = Field(default=None, max_length=64)
    text: FreeText | None = Field(default=None, max_length=2000)

    @field_validator("at")
    @classmethod
    def _aware_at(cls, v: datetime | None) -> datetime | None:
        return _aware(v)


class ContactIn(Strict):
    email: str = Email
    name: str = Field(default="", max_length=200)
    phone: str | None = Field(default=None, max_length=40, pattern=r"^\+?[0-9 ()./-]{3,40}$")
    attributes: dict[str, Any] = Field(default_factory=dict)
    status: ContactStatus = "active"
    consent: Consent | None = None
    list_ids: list[str] = Field(default_factory=list, max_length=100)


class ContactUpdate(Strict):
    email: str | None = OptionalEmail
    name: str | None = Field(default=None, max_length=200)
    phone: str | None = Field(default=None, max_length=40, pattern=r"^\+?[0-9 ()./-]{3,40}$")
    attributes: dict[str, Any] | None = None
    status: ContactStatus | None = None
    consent: Consent | None = None
    list_ids: list[str] | None = Field(default=None, max_length=100)


class ContactOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    email: str
    name: str
    phone: str | None
    attributes: dict[str, Any]
    status: ContactStatus
    consent: dict[str, Any] | None
    list_ids: list[str]
    created_at: datetime
    updated_at: datetime


class ContactQuery(ListQuery):
    status: ContactStatus | None = None
    list_id: str | None = None


class ImportQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")

    list_id: str | None = None  # every imported contact joins this list
    consent_source: str | None = Field(default=None, max_length=200)


class ImportError_(BaseModel):
    row: int
    error: str


class ImportOut(BaseModel):
    imported: int
    updated: int
    skipped: int
    errors: list[ImportError_]


# --- segments ------------------------------------------------------------------------------


class SegmentIn(Strict):
    name: str = Field(min_length=1, max_length=200)
    rules: dict[str, Any]


class SegmentOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    name: str
    rules: dict[str, Any]
    contacts: int | None = None  # evaluated now (the send evaluates again)
    created_at: datetime


# --- templates -----------------------------------------------------------------------------


class EmailTemplateIn(Strict):
    name: str = Field(min_length=1, max_length=200)
    subject: str = Field(min_length=1, max_length=500)
    html: FreeText = Field(default="", max_length=200_000)
    text: FreeText = Field(default="", max_length=100_000)


class EmailTemplateOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    name: str
    subject: str
    html: FreeText
    text: FreeText
    created_at: datetime


class EmailTemplateUpdate(Strict):
    """``PUT templates/email/{id}``: the fields sent are replaced, each checked as on create."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    subject: str | None = Field(default=None, min_length=1, max_length=500)
    html: FreeText | None = Field(default=None, max_length=200_000)
    text: FreeText | None = Field(default=None, max_length=100_000)


class PreviewQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")

    contact_id: str | None = Field(default=None, max_length=36)  # none: a sample contact


class PreviewOut(BaseModel):
    """The message as the chosen contact would get it (links signed as in a send)."""

    to: str
    subject: str
    text: str | None = None
    html: str | None = None
    body: str | None = None  # an SMS template's text
    segments: int | None = None


class TestSendIn(Strict):
    email: str = Email  # the address the test goes to (not the contact's)
    contact_id: str | None = Field(default=None, max_length=36)  # whose values fill it; none: a sample


class TestSendOut(BaseModel):
    sent: bool
    to: str
    subject: str


class SmsTemplateUpdate(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    body: NonBlankText | None = Field(default=None, min_length=1, max_length=1600)


class SmsTemplateIn(Strict):
    name: str = Field(min_length=1, max_length=200)
    body: NonBlankText = Field(min_length=1, max_length=1600)


class SmsTemplateOut(BaseModel):
    id: str
    name: str
    body: FreeText
    segments: int
    encoding: Literal["gsm7", "ucs2"]
    characters: int
    created_at: datetime


# --- campaigns -----------------------------------------------------------------------------


class AbTestIn(Strict):
    """An A/B subject test: ``share`` of the recipients get the subjects in turn; after ``wait``
    the subject with the best ``metric`` rate goes to the rest (the template's subject is unused)."""

    subjects: list[str] = Field(min_length=2, max_length=5)
    share: float = Field(default=0.2, gt=0, le=1)  # of the recipients, all subjects together
    wait: str = Field(default="PT4H", max_length=40)  # ISO 8601, at least a minute
    metric: Literal["opens", "clicks"] = "opens"

    @field_validator("subjects")
    @classmethod
    def _subjects(cls, v: list[str]) -> list[str]:
        if any(not x.strip() or len(x) > 500 for x in v):
            raise ValueError("each subject is 1 to 500 characters")
        if len({x.strip() for x in v}) != len(v):
            raise ValueError("the subjects differ from each other")
        return v


class CampaignIn(Strict):
    name: str = Field(min_length=1, max_length=200)
    channel: Channel = "email"
    list_ids: list[str] = Field(default_factory=list, max_length=100)
    segment_id: str | None = None
    template_id: str
    send_at: datetime | None = None
    rate: float | None = Field(default=None, gt=0, le=10_000)  # messages per second
    ab_test: AbTestIn | None = None

    @field_validator("send_at")
    @classmethod
    def _aware_at(cls, v: datetime | None) -> datetime | None:
        return _aware(v)


class CampaignUpdate(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    list_ids: list[str] | None = Field(default=None, max_length=100)
    segment_id: str | None = None
    template_id: str | None = None
    send_at: datetime | None = None
    rate: float | None = Field(default=None, gt=0, le=10_000)
    status: CampaignStatus | None = None
    ab_test: AbTestIn | None = None  # null removes the test (only before it started)

    @field_validator("send_at")
    @classmethod
    def _aware_at(cls, v: datetime | None) -> datetime | None:
        return _aware(v)


class SendIn(Strict):
    send_at: datetime | None = None

    @field_validator("send_at")
    @classmethod
    def _aware_at(cls, v: datetime | None) -> datetime | None:
        return _aware(v)


class CampaignOut(BaseModel):
    id: str
    name: str
    channel: Channel
    list_ids: list[str]
    segment_id: str | None
    template_id: str | None
    status: CampaignStatus
    send_at: datetime | None
    rate: float | None
    job_id: str | None
    progress: int  # percent of the recipients handled
    total: int
    sent: int
    # The stats with the campaign, so a list or a record panel shows them (GET stats adds the rates).
    recipients: int = 0
    failed: int = 0
    bounced: int = 0
    opened: int = 0
    clicked: int = 0
    unsubscribed: int = 0
    started_at: datetime | None
    finished_at: datetime | None
    created_at: datetime
    updated_at: datetime
    # {subjects, share, wait, metric, test_size, decide_at, winner}; winner: the subject's index.
    ab_test: dict[str, Any] | None = None


class CampaignQuery(ListQuery):
    status: CampaignStatus | None = None
    channel: Channel | None = None


class StatsOut(BaseModel):
    recipients: int
    sent: int
    failed: int
    bounced: int
    opened: int
    clicked: int
    unsubscribed: int
    open_rate: float
    click_rate: float
    # An A/B test's subjects: {subject, sent, opened, clicked, rate, winner}.
    variants: list[dict[str, Any]] | None = None


class OverviewOut(BaseModel):
    """``GET analytics`` of Campaign: the tenant's totals."""

    contacts: dict[str, int]
    campaigns: dict[str, int]
    recipients: int
    sent: int
    bounced: int
    opened: int
    clicked: int
    unsubscribed: int


# --- flows ---------------------------------------------------------------------------------


class FlowIn(Strict):
    name: str = Field(min_length=1, max_length=200)
    trigger: dict[str, Any]
    steps: list[dict[str, Any]] = Field(default_factory=list, max_length=50)
    status: FlowStatus = "draft"


class FlowUpdate(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    trigger: dict[str, Any] | None = None
    steps: list[dict[str, Any]] | None = Field(default=None, max_length=50)
    status: FlowStatus | None = None


class FlowOut(BaseModel):
    id: str
    name: str
    trigger: dict[str, Any]
    steps: list[dict[str, Any]]
    status: FlowStatus
    enrolled: int = 0
    completed: int = 0
    created_at: datetime
    updated_at: datetime


# --- surveys -------------------------------------------------------------------------------


class Question(Strict):
    id: str = Field(min_length=1, max_length=64)
    type: Literal["text", "choice", "rating"]
    label: str = Field(min_length=1, max_length=500)
    options: list[str] = Field(default_factory=list, max_length=50)


class SurveyIn(Strict):
    name: str = Field(min_length=1, max_length=200)
    questions: list[Question] = Field(min_length=1, max_length=100)
    status: SurveyStatus = "draft"


class SurveyOut(BaseModel):
    id: str
    name: str
    questions: list[dict[str, Any]]
    status: SurveyStatus
    responses: int = 0
    created_at: datetime


class AnswerIn(Strict):
    answers: dict[str, Any]
    email: str | None = OptionalEmail


class ResponseOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    survey_id: str
    answers: dict[str, Any]
    email: str | None
    created_at: datetime


class UnsubscribeOut(BaseModel):
    unsubscribed: bool
    email: str  # masked


class TrackQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")

    url: Url | None = Field(default=None, max_length=2000)

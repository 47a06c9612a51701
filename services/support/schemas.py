"""Requests (Strict: unknown fields refused) and responses of the support module."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, Field, RootModel, field_validator, model_validator

from services.core.pagination import ListQuery
from services.core.schemas import Email, FreeText, NonBlankText, StatefulOut, Strict
from services.support.states import TICKET

Priority = Literal["low", "normal", "high", "urgent"]
PRIORITIES: tuple[str, ...] = ("low", "normal", "high", "urgent")
Subject = Annotated[str, Field(min_length=1, max_length=300)]
# Free text of a ticket: stored as sent (DECISIONS), but never blank.
Body = Annotated[NonBlankText, Field(min_length=1, max_length=20000)]
Tag = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[\w\-. ]+$")]
_DOMAIN = re.compile(r"^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")
_HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")

# --- tickets -------------------------------------------------------------------


class PublicTicketCreate(Strict):
    """The spec's public creation body."""

    email: Email
    name: Annotated[str, Field(min_length=1, max_length=200)]
    subject: Subject
    description: Body
    challenge_token: Annotated[str, Field(min_length=1, max_length=4096)]


class PublicTicketCreated(BaseModel):
    ticket_number: str
    access_token: str
    message: FreeText
    # The guest token is shown once: never kept for an idempotent replay.
    secret_fields: ClassVar[frozenset[str]] = frozenset({"access_token"})


FieldValue = str | int | float | None


class AgentTicketCreate(Strict):
    email: Email
    name: Annotated[str, Field(min_length=1, max_length=200)]
    subject: Subject
    description: Body
    priority: Priority = "normal"
    category_id: str | None = None
    tags: list[Tag] = Field(default_factory=list, max_length=20)
    custom_fields: dict[str, FieldValue] = Field(default_factory=dict, max_length=50)


class TicketUpdate(Strict):
    state: Literal["open", "pending", "resolved", "closed"] | None = None
    priority: Priority | None = None
    category_id: str | None = None
    assignee_id: str | None = None
    tags: list[Tag] | None = Field(default=None, max_length=20)
    # The keys given are set (null clears one); the others stay.
    custom_fields: dict[str, FieldValue] | None = Field(default=None, max_length=50)


class TicketOut(StatefulOut):
    machine = TICKET

    id: str
    number: str
    provisional: bool
    subject: str
    description: FreeText
    requester_email: str
    requester_name: str
    state: str
    priority: str
    category_id: str | None
    category_name: str | None
    assignee_id: str | None
    assignee_name: str | None
    tags: list[str]
    source: str
    created_at: datetime
    updated_at: datetime
    first_response_at: datetime | None
    resolved_at: datetime | None
    closed_at: datetime | None
    first_response_due: datetime | None
    resolution_due: datetime | None
    sla_breached: bool
    allowed_states: list[str]
    # Merged: closed, and the ticket it continues in (its id).
    merged_into_id: str | None = None
    # Requesters of tickets merged into this one: they get its replies in copy.
    other_requesters: list[str] = []
    custom_fields: dict[str, FieldValue] = {}
    # The requester's rating on the tracking page once the ticket is solved (1 to 5) and comment.
    satisfaction_rating: int | None = None
    satisfaction_comment: str | None = None
    rated_at: datetime | None = None


class TicketQuery(ListQuery):
    state: str | None = None
    priority: str | None = None
    category: str | None = None
    assignee: str | None = None  # a user id, "me" or "none"
    queue: Literal["new", "mine", "unassigned", "waiting", "breaching", "all"] | None = None
    requester: str | None = None  # exact e-mail (requester history)
    field: str | None = Field(default=None, max_length=200)  # "<custom field key>:<value>"


class QueueCounts(BaseModel):
    new: int
    mine: int
    unassigned: int
    waiting: int
    breaching: int
    all: int


class MyTicketOut(BaseModel):
    tenant: str
    number: str
    subject: str
    state: str
    priority: str
    created_at: datetime
    updated_at: datetime


# --- messages --------------------------------------------------------------------


class AttachmentOut(BaseModel):
    id: str
    filename: str
    content_type: str
    size: int
    sha256: str
    ticket_id: str | None
    message_id: str | None
    created_at: datetime


class MessageOut(BaseModel):
    id: str
    ticket_id: str
    author_kind: str
    author_name: str
    body: FreeText
    internal: bool
    created_at: datetime
    attachments: list[AttachmentOut]


class PublicMessageOut(BaseModel):
    """What a guest sees of a message: no author ids, never an internal note."""

    id: str
    author_kind: str
    author_name: str
    body: FreeText
    created_at: datetime
    attachments: list[AttachmentOut]


class AgentMessageCreate(Strict):
    body: Body
    internal: bool = False
    attachment_ids: list[str] = Field(default_factory=list, max_length=10)


class PublicReply(Strict):
    access_token: Annotated[str, Field(min_length=1, max_length=200)]
    body: Body
    attachment_ids: list[str] = Field(default_factory=list, max_length=10)


class LookupRequest(Strict):
    ticket_number: Annotated[str, Field(min_length=1, max_length=40)]
    access_token: Annotated[str, Field(min_length=1, max_length=200)]


class PublicTicketOut(BaseModel):
    number: str
    subject: str
    state: str
    priority: str
    requester_name: str
    created_at: datetime
    updated_at: datetime
    messages: list[PublicMessageOut]


class MessageList(RootModel[list[MessageOut]]):
    pass


class PublicMessageList(RootModel[list[PublicMessageOut]]):
    pass


class AttachmentQuery(BaseModel):
    ticket_id: str | None = None
    filename: str | None = None


class AgentOut(BaseModel):
    id: str
    name: str
    email: str
    role: str


class AgentList(RootModel[list[AgentOut]]):
    pass


class PublicUploadQuery(BaseModel):
    ticket_number: str = Field(min_length=1, max_length=40)
    filename: str | None = None


# --- categories ------------------------------------------------------------------


class CategoryCreate(Strict):
    name: Annotated[str, Field(min_length=1, max_length=100)]
    description: Annotated[FreeText, Field(max_length=2000)] = ""
    keywords: list[Annotated[str, Field(min_length=1, max_length=40)]] = Field(default_factory=list, max_length=50)


class CategoryUpdate(Strict):
    name: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    description: Annotated[FreeText, Field(max_length=2000)] | None = None
    keywords: list[Annotated[str, Field(min_length=1, max_length=40)]] | None = Field(default=None, max_length=50)


class CategoryDeleteQuery(BaseModel):
    # Tickets of a deleted category move here; without it, a used category answers 409.
    reassign_to: str | None = None


class CategoryOut(BaseModel):
    id: str
    name: str
    description: FreeText
    keywords: list[str]
    ticket_count: int


class PublicCategoryOut(BaseModel):
    id: str
    name: str
    description: FreeText


class CategoryList(RootModel[list[CategoryOut]]):
    pass


class PublicCategoryList(RootModel[list[PublicCategoryOut]]):
    pass


# --- helpdesk configuration --------------------------------------------------------


class BusinessHours(Strict):
    enabled: bool = True
    timezone: str = "UTC"
    days: list[Annotated[int, Field(ge=0, le=6)]] = Field(default_factory=lambda: [0, 1, 2, 3, 4])  # Mon=0
    start: str = "09:00"
    end: str = "17:00"

    @field_validator("start", "end")
    @classmethod
    def _hhmm(cls, v: str) -> str:
        if not _HHMM.match(v):
            raise ValueError("use HH:MM")
        return v

    @field_validator("timezone")
    @classmethod
    def _tz(cls, v: str) -> str:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            ZoneInfo(v)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError("unknown time zone") from exc
        return v


class SlaTarget(Strict):
    first_response_minutes: int = Field(ge=1, le=60 * 24 * 60)
    resolution_minutes: int = Field(ge=1, le=60 * 24 * 365)


def _default_sla() -> dict[Priority, SlaTarget]:
    return {
        "urgent": SlaTarget(first_response_minutes=60, resolution_minutes=8 * 60),
        "high": SlaTarget(first_response_minutes=4 * 60, resolution_minutes=2 * 8 * 60),
        "normal": SlaTarget(first_response_minutes=8 * 60, resolution_minutes=5 * 8 * 60),
        "low": SlaTarget(first_response_minutes=2 * 8 * 60, resolution_minutes=10 * 8 * 60),
    }


class AutoReply(Strict):
    enabled: bool = True
    body: Annotated[FreeText, Field(max_length=5000)] = (
        "Hello {requester_name}, thank you for contacting us. Your ticket {ticket_number} was received; "
        "we answer within our business hours."
    )


class HelpdeskMail(Strict):
    """The helpdesk's mail: its address (Reply-To of every mail it sends, and where inbound mail for
    this tenant arrives) and which mails are sent besides agents' replies."""

    address: Email | None = None
    # A short "we received your request" mail to the requester when a ticket is opened.
    send_on_create: bool = False
    # The auto-reply (when enabled) is mailed as well as added to the ticket; it replaces the
    # creation mail, so the requester gets one mail for one request.
    send_auto_reply: bool = False
    # A mail with the rating link when a ticket is solved (services/support/rating.py).
    send_rating_request: bool = True
    # The loop rule: more mails than this from one sender within an hour are kept but not answered.
    max_mails_per_sender_per_hour: Annotated[int, Field(ge=1, le=10000)] = 20


class CannedResponse(Strict):
    id: Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z0-9\-_]+$")]
    title: Annotated[str, Field(min_length=1, max_length=100)]
    body: Annotated[NonBlankText, Field(min_length=1, max_length=5000)]


class MacroChanges(Strict):
    """What a macro sets on the ticket; a field left out is left as it is."""

    state: Literal["open", "pending", "resolved", "closed"] | None = None
    priority: Priority | None = None
    category_id: str | None = None
    # A user id, or "me": whoever applies the macro.
    assignee_id: str | None = None
    add_tags: list[Tag] = Field(default_factory=list, max_length=20)
    remove_tags: list[Tag] = Field(default_factory=list, max_length=20)


class MacroReply(Strict):
    body: Annotated[NonBlankText, Field(min_length=1, max_length=5000)]
    internal: bool = False


class Macro(Strict):
    """A set of changes plus a reply, applied to a ticket in one action."""

    id: Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z0-9\-_]+$")]
    title: Annotated[str, Field(min_length=1, max_length=100)]
    changes: MacroChanges = Field(default_factory=MacroChanges)
    reply: MacroReply | None = None


class AutoAssign(Strict):
    """Round robin among the available agents of a ticket's category (``"*"``: any other ticket)."""

    enabled: bool = False
    agents: dict[str, list[str]] = Field(default_factory=dict)  # category id or "*" -> user ids
    away: list[str] = Field(default_factory=list)  # user ids not taking tickets now


class CustomField(Strict):
    """A ticket field of the tenant's own."""

    key: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
    label: Annotated[str, Field(min_length=1, max_length=100)]
    type: Literal["text", "number", "choice", "date"]
    choices: list[Annotated[str, Field(min_length=1, max_length=100)]] = Field(default_factory=list, max_length=100)
    required: bool = False  # at agent creation, and never cleared

    @field_validator("choices")
    @classmethod
    def _unique(cls, v: list[str]) -> list[str]:
        if len(v) != len(set(v)):
            raise ValueError("choices must be unique")
        return v

    @model_validator(mode="after")
    def _choices_for_choice_only(self) -> CustomField:
        if (self.type == "choice") != bool(self.choices):
            raise ValueError("a choice field lists its choices; other fields list none")
        return self


class Escalation(Strict):
    """What happens once to a ticket whose SLA target is breached (the job worker's rounds)."""

    enabled: bool = False  # the tenant opts in: it writes notes and mails on its own
    raise_priority: bool = False  # one step up (low -> normal -> high -> urgent)
    notify_assignee: bool = True  # a mail to the assigned agent


class HelpdeskConfig(Strict):
    business_hours: BusinessHours = Field(default_factory=BusinessHours)
    # SLA targets per priority, in business minutes when business hours are enabled.
    sla: dict[Priority, SlaTarget] = Field(default_factory=_default_sla)
    auto_reply: AutoReply = Field(default_factory=AutoReply)
    canned_responses: list[CannedResponse] = Field(default_factory=list, max_length=200)
    mail: HelpdeskMail = Field(default_factory=HelpdeskMail)
    macros: list[Macro] = Field(default_factory=list, max_length=200)
    auto_assign: AutoAssign = Field(default_factory=AutoAssign)
    custom_fields: list[CustomField] = Field(default_factory=list, max_length=50)
    escalation: Escalation = Field(default_factory=Escalation)

    @field_validator("sla")
    @classmethod
    def _every_priority(cls, v: dict[str, SlaTarget]) -> dict[str, SlaTarget]:
        missing = [p for p in PRIORITIES if p not in v]
        if missing:
            raise ValueError(f"SLA targets missing for {', '.join(missing)}")
        return v


# --- e-mail domain ---------------------------------------------------------------


class EmailDomainRegister(Strict):
    domain: Annotated[str, Field(min_length=3, max_length=253)]

    @field_validator("domain")
    @classmethod
    def _domain(cls, v: str) -> str:
        v = v.lower().rstrip(".")
        if not _DOMAIN.match(v):
            raise ValueError("not a valid domain name")
        return v


class EmailDomainOut(BaseModel):
    """The tenant's sending domain; ``status`` "none" (and nulls) while no domain is registered."""

    domain: str | None
    status: Literal["none", "pending", "verified"]
    txt_name: str | None
    txt_value: str | None
    created_at: datetime | None
    verified_at: datetime | None
    last_checked_at: datetime | None


# --- triage ----------------------------------------------------------------------


class TriageRequest(Strict):
    """Triage a stored ticket (``ticket_id``) or a text not stored yet (``subject`` + ``description``)."""

    ticket_id: str | None = None
    subject: Annotated[str, Field(max_length=300)] | None = None
    description: Annotated[FreeText, Field(max_length=20000)] | None = None


class SimilarTicket(BaseModel):
    ticket_id: str
    number: str
    subject: str
    category_id: str | None
    score: float


class TriageOut(BaseModel):
    category_id: str | None
    category_name: str | None
    priority: str
    confidence: float
    category_confidence: float
    priority_confidence: float
    matched_terms: list[str]
    similar: list[SimilarTicket]
    method: str


class SuggestedReplyOut(BaseModel):
    reply: FreeText | None
    source_ticket_id: str | None
    source_number: str | None
    score: float
    method: str

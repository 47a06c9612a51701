"""Campaign tables: contacts with consent, lists, segments, templates, campaigns and their
messages, flows with their runs, surveys and their answers.

A contact's lists are kept on the contact (``list_ids``): segments read them as a field and an
import writes one row per contact. ``campaign_messages`` holds one row per recipient (campaign
or flow step): what was sent, how it ended, and when it was opened, clicked or unsubscribed
from; the figures shown are counted from these rows (the campaign's counter columns are still
written, not shown: they lag a send by a batch).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Float, Index, Integer, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class CampaignList(TenantScoped, Base):
    __tablename__ = "campaign_lists"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text, default="")
    # Open to the public subscribe form (/{tenant}/campaign/p/subscribe/{id}, double opt-in).
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CampaignContact(TenantScoped, Base):
    __tablename__ = "campaign_contacts"
    # E-mail unique per tenant, case-insensitive: the lower-cased key carries the constraint.
    __table_args__ = (UniqueConstraint("tenant_id", "email_key", name="uq_campaign_contacts_email"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    email: Mapped[str] = mapped_column(String(320))
    email_key: Mapped[str] = mapped_column(String(320))
    name: Mapped[str] = mapped_column(String(200), default="")
    phone: Mapped[str | None] = mapped_column(String(40), default=None)
    attributes: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(20), default="active")
    consent: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    list_ids: Mapped[list[Any]] = mapped_column(default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class CampaignSegment(TenantScoped, Base):
    __tablename__ = "campaign_segments"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    rules: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CampaignEmailTemplate(TenantScoped, Base):
    __tablename__ = "campaign_email_templates"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    subject: Mapped[str] = mapped_column(String(500))
    html: Mapped[str] = mapped_column(Text, default="")
    text: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CampaignSmsTemplate(TenantScoped, Base):
    __tablename__ = "campaign_sms_templates"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Campaign(TenantScoped, Base):
    __tablename__ = "campaigns"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    channel: Mapped[str] = mapped_column(String(10), default="email")
    list_ids: Mapped[list[Any]] = mapped_column(default=list)
    segment_id: Mapped[str | None] = mapped_column(String(36), default=None)
    template_id: Mapped[str | None] = mapped_column(String(36), default=None)
    status: Mapped[str] = mapped_column(String(20), default="draft")
    send_at: Mapped[datetime | None] = mapped_column(default=None)
    # Messages per second (None: as fast as the server takes them).
    rate: Mapped[float | None] = mapped_column(Float, default=None)
    # An A/B subject test: {subjects, share, wait, metric, test_size, decide_at, winner} (abtest.py).
    ab_test: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    job_id: Mapped[str | None] = mapped_column(String(36), default=None)
    total: Mapped[int] = mapped_column(Integer, default=0)
    recipients: Mapped[int] = mapped_column(Integer, default=0)
    sent: Mapped[int] = mapped_column(Integer, default=0)
    failed: Mapped[int] = mapped_column(Integer, default=0)
    bounced: Mapped[int] = mapped_column(Integer, default=0)
    opened: Mapped[int] = mapped_column(Integer, default=0)
    clicked: Mapped[int] = mapped_column(Integer, default=0)
    unsubscribed: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[datetime | None] = mapped_column(default=None)
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class CampaignMessage(TenantScoped, Base):
    """One message to one contact, from a campaign or a flow step."""

    __tablename__ = "campaign_messages"
    __table_args__ = (
        # A paused send resumes where it stopped: one message per (campaign, contact).
        UniqueConstraint("tenant_id", "campaign_id", "contact_id", name="uq_campaign_messages_recipient"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    campaign_id: Mapped[str | None] = mapped_column(String(36), default=None)
    flow_id: Mapped[str | None] = mapped_column(String(36), default=None)
    contact_id: Mapped[str] = mapped_column(String(36))
    channel: Mapped[str] = mapped_column(String(10), default="email")
    status: Mapped[str] = mapped_column(String(20), default="sent")
    error: Mapped[str | None] = mapped_column(String(300), default=None)
    sent_at: Mapped[datetime] = mapped_column(default=utcnow)
    opened_at: Mapped[datetime | None] = mapped_column(default=None)
    clicked_at: Mapped[datetime | None] = mapped_column(default=None)
    unsubscribed_at: Mapped[datetime | None] = mapped_column(default=None)
    variant: Mapped[int | None] = mapped_column(Integer, default=None)  # the A/B test subject it got


class CampaignFlow(TenantScoped, Base):
    __tablename__ = "campaign_flows"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    trigger: Mapped[dict[str, Any]] = mapped_column(default=dict)
    steps: Mapped[list[Any]] = mapped_column(default=list)
    status: Mapped[str] = mapped_column(String(20), default="draft")
    # Events of the trigger type up to here have been read (event-triggered flows).
    cursor_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class CampaignFlowRun(TenantScoped, Base):
    """A contact's way through a flow: the next step and when it is due."""

    __tablename__ = "campaign_flow_runs"
    __table_args__ = (
        UniqueConstraint("tenant_id", "flow_id", "contact_id", name="uq_campaign_flow_runs_contact"),
        Index("ix_campaign_flow_runs_due", "status", "due_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    flow_id: Mapped[str] = mapped_column(String(36))
    contact_id: Mapped[str] = mapped_column(String(36))
    step: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(20), default="waiting")
    due_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CampaignSurvey(TenantScoped, Base):
    __tablename__ = "campaign_surveys"
    __synced__ = True

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    questions: Mapped[list[Any]] = mapped_column(default=list)
    status: Mapped[str] = mapped_column(String(20), default="draft")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CampaignSurveyResponse(TenantScoped, Base):
    __tablename__ = "campaign_survey_responses"
    __table_args__ = (Index("ix_campaign_survey_responses_survey", "tenant_id", "survey_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    survey_id: Mapped[str] = mapped_column(String(36))
    answers: Mapped[dict[str, Any]] = mapped_column(default=dict)
    email: Mapped[str | None] = mapped_column(String(320), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

"""Support & Helpdesk tables: tickets, messages, categories, attachments, helpdesk config, e-mail domain."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class SupportCategory(TenantScoped, Base):
    __tablename__ = "support_categories"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (UniqueConstraint("tenant_id", "name", name="uq_support_categories_tenant_name"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(100))
    description: Mapped[str] = mapped_column(Text, default="")
    # Words that point to this category (triage uses them next to resolved tickets).
    keywords: Mapped[list[Any]] = mapped_column(default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class SupportTicket(TenantScoped, Base):
    __tablename__ = "support_tickets"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        UniqueConstraint("tenant_id", "number", name="uq_support_tickets_tenant_number"),
        # Queues: state first, newest activity first.
        Index("ix_support_tickets_tenant_state_updated", "tenant_id", "state", "updated_at"),
        # The "all" list, newest activity first, without sorting the whole tenant.
        Index("ix_support_tickets_tenant_updated", "tenant_id", "updated_at"),
        # Queue counts: covers every column the queue filters read, so the active tickets
        # (open, pending) are counted from the index alone; due times serve the breaching queue.
        Index(
            "ix_support_tickets_tenant_queue",
            "tenant_id",
            "state",
            "assignee_id",
            "first_response_at",
            "first_response_due",
            "resolution_due",
        ),
        Index("ix_support_tickets_tenant_assignee_state", "tenant_id", "assignee_id", "state"),
        Index("ix_support_tickets_requester_email", "requester_email"),
        # A mail answering the helpdesk's first mail of a ticket names it (services/support/inbound.py).
        Index("ix_support_tickets_tenant_mail_root", "tenant_id", "mail_root_id"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    number: Mapped[str] = mapped_column(String(40))
    # A station offline gives a provisional number until the platform assigns one.
    provisional: Mapped[bool] = mapped_column(default=False)
    subject: Mapped[str] = mapped_column(String(300))
    description: Mapped[str] = mapped_column(Text, default="")
    requester_email: Mapped[str] = mapped_column(String(320))
    requester_name: Mapped[str] = mapped_column(String(200), default="")
    state: Mapped[str] = mapped_column(String(20), default="open")  # open, pending, resolved, closed
    priority: Mapped[str] = mapped_column(String(10), default="normal")  # low, normal, high, urgent
    category_id: Mapped[str | None] = mapped_column(
        String(36), ForeignKey("support_categories.id", ondelete="RESTRICT"), default=None, index=True
    )
    assignee_id: Mapped[str | None] = mapped_column(
        String(36), ForeignKey("users.id", ondelete="SET NULL"), default=None
    )
    tags: Mapped[list[Any]] = mapped_column(default=list)
    source: Mapped[str] = mapped_column(String(10), default="agent")  # public, agent
    access_token_hash: Mapped[str | None] = mapped_column(String(64), default=None)  # SHA-256 hex
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    first_response_at: Mapped[datetime | None] = mapped_column(default=None)
    resolved_at: Mapped[datetime | None] = mapped_column(default=None)
    closed_at: Mapped[datetime | None] = mapped_column(default=None)
    first_response_due: Mapped[datetime | None] = mapped_column(default=None)
    resolution_due: Mapped[datetime | None] = mapped_column(default=None)
    # The requester's satisfaction, given on the tracking page after the ticket is solved.
    satisfaction_rating: Mapped[int | None] = mapped_column(default=None)
    satisfaction_comment: Mapped[str | None] = mapped_column(Text, default=None)
    rated_at: Mapped[datetime | None] = mapped_column(default=None)
    # The Message-ID that began the ticket's mail thread (the customer's first mail, or the first
    # mail the helpdesk sent): first of every later mail's References.
    mail_root_id: Mapped[str | None] = mapped_column(String(255), default=None)
    # Merged into another ticket: this one is closed and points there.
    merged_into_id: Mapped[str | None] = mapped_column(String(36), default=None)
    # Requesters of tickets merged into this one (besides requester_email): they get its replies too.
    other_requesters: Mapped[list[Any]] = mapped_column(default=list, server_default="[]")
    # The tenant's own ticket fields (helpdesk configuration ``custom_fields``), validated by the service.
    custom_fields: Mapped[dict[str, Any]] = mapped_column(default=dict, server_default="{}")
    # When the SLA escalation acted on each breached target (once each; services/support/escalation.py).
    first_response_escalated_at: Mapped[datetime | None] = mapped_column(default=None)
    resolution_escalated_at: Mapped[datetime | None] = mapped_column(default=None)


class SupportMessage(TenantScoped, Base):
    __tablename__ = "support_messages"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (
        Index("ix_support_messages_ticket_created", "ticket_id", "created_at"),
        # A mail answering one of ours names it in In-Reply-To/References: found by this index. A
        # unique index, not a constraint: SQLite adds it without rebuilding the table (its FTS triggers).
        Index("uq_support_messages_tenant_mail_id", "tenant_id", "mail_message_id", unique=True),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    ticket_id: Mapped[str] = mapped_column(String(36), ForeignKey("support_tickets.id", ondelete="CASCADE"))
    author_kind: Mapped[str] = mapped_column(String(10))  # customer, agent, system
    author_id: Mapped[str | None] = mapped_column(String(36), default=None)
    author_name: Mapped[str] = mapped_column(String(200), default="")
    body: Mapped[str] = mapped_column(Text)
    # An internal note is for agents only: no guest route ever returns it.
    internal: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The message's Message-ID when it came or went by mail (without the angle brackets).
    mail_message_id: Mapped[str | None] = mapped_column(String(255), default=None)


class SupportAttachment(TenantScoped, Base):
    __tablename__ = "support_attachments"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    ticket_id: Mapped[str | None] = mapped_column(
        String(36), ForeignKey("support_tickets.id", ondelete="CASCADE"), default=None, index=True
    )
    message_id: Mapped[str | None] = mapped_column(
        String(36), ForeignKey("support_messages.id", ondelete="CASCADE"), default=None, index=True
    )
    filename: Mapped[str] = mapped_column(String(255))
    content_type: Mapped[str] = mapped_column(String(100))
    size: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    uploaded_by: Mapped[str] = mapped_column(String(10))  # customer, agent
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class SupportConfig(TenantScoped, Base):
    """The helpdesk configuration of a tenant (one row; the document is validated by the service)."""

    __tablename__ = "support_config"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (UniqueConstraint("tenant_id", name="uq_support_config_tenant"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class SupportEmailDomain(TenantScoped, Base):
    __tablename__ = "support_email_domains"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (UniqueConstraint("tenant_id", name="uq_support_email_domains_tenant"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    domain: Mapped[str] = mapped_column(String(253))
    token: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(10), default="pending")  # pending, verified
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    verified_at: Mapped[datetime | None] = mapped_column(default=None)
    last_checked_at: Mapped[datetime | None] = mapped_column(default=None)


class SupportInboundMail(TenantScoped, Base):
    """Every mail the helpdesk received, once (its Message-ID is unique per tenant): what became of it.

    Written in the same transaction as the ticket or message it made, so a mail fetched again after
    a crash (the mailbox was not yet told it was read) is recognised and stored once. Platform only.
    """

    __tablename__ = "support_inbound_mail"
    __table_args__ = (
        UniqueConstraint("tenant_id", "message_id", name="uq_support_inbound_mail_tenant_message"),
        # The loop rule counts a sender's recent mails.
        Index("ix_support_inbound_mail_tenant_sender_received", "tenant_id", "sender", "received_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    message_id: Mapped[str] = mapped_column(String(255))
    sender: Mapped[str] = mapped_column(String(320), default="")
    subject: Mapped[str] = mapped_column(String(300), default="")
    received_at: Mapped[datetime] = mapped_column(default=utcnow)
    source: Mapped[str] = mapped_column(String(10), default="imap")  # imap, smtp, api
    # ticket (a new ticket), message (on a ticket), auto_reply, loop, bounce, refused
    outcome: Mapped[str] = mapped_column(String(12))
    ticket_id: Mapped[str | None] = mapped_column(
        String(36), ForeignKey("support_tickets.id", ondelete="SET NULL"), default=None
    )
    support_message_id: Mapped[str | None] = mapped_column(String(36), default=None)
    # Bounces: the recipient that failed and the DSN's status (5.1.1); refusals: why.
    recipient: Mapped[str | None] = mapped_column(String(320), default=None)
    status: Mapped[str | None] = mapped_column(String(20), default=None)
    detail: Mapped[str] = mapped_column(Text, default="")

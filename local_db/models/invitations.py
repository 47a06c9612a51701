"""Invitations of people to a tenant: a single-use token (its SHA-256 kept, never the token) that
lets the invited person set their first password (services/core/invitations.py)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class UserInvitation(TenantScoped, Base):
    __tablename__ = "user_invitations"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    user_id: Mapped[str] = mapped_column(String(36), ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 hex of the mailed token
    expires_at: Mapped[datetime] = mapped_column()
    used_at: Mapped[datetime | None] = mapped_column(default=None)
    revoked_at: Mapped[datetime | None] = mapped_column(default=None)
    invited_by: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The language its mail was written in ("en", "de"): a resend writes in the same one.
    language: Mapped[str] = mapped_column(String(8), default="en", server_default="en")

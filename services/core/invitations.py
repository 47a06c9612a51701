"""Invitations: a manager invites a person by e-mail instead of choosing their password.

The user is made disabled, with a password nobody knows, and an invitation whose token is mailed
(a link to the platform's set-password page) and kept only as its SHA-256: a copy of the database
does not let anyone in. The token lasts ``VALID`` (7 days) and works once; setting a password
through it enables the user. Resending revokes every open invitation of the user and mails a new
token; revoking closes them. The page is ``/{tenant}/platform/p/invite/{token}`` (services/core/
invite_page.py); a token that is unknown, used, revoked or expired is refused with the same answer,
so a guess tells nothing.

The mail (text and HTML) is in the invitee's language: the one the inviter gives (the desktop sends
its own), else the tenant's ``language`` setting, else English; a resend keeps the invitation's.
Its words are the platform pages' catalogue (``resources/locale/de/LC_MESSAGES/pages.po``).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, Field
from sqlalchemy import select

from local_db import new_id
from local_db.models import Membership, User
from local_db.models.invitations import UserInvitation
from services.core import auth
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.links import public_url
from services.core.mail import Mail, send_after_commit
from services.core.roles import MANAGERS
from services.core.schemas import Email, ModuleList, Name, Strict, UserOut

VALID = timedelta(days=7)
MIN_PASSWORD = 10


class UserInvite(Strict):
    email: Email
    name: Name
    role: Literal["owner", "admin", "operator", "warehouse-device"]
    userModules: ModuleList = Field(default_factory=list)  # noqa: N815
    language: Literal["en", "de"] | None = None  # the invitation mail's; None: the tenant's


class InvitationOut(BaseModel):
    user: UserOut
    expires_at: str


class SetPassword(Strict):
    password: str = Field(min_length=1, max_length=1024)


class InvitationAccepted(BaseModel):
    email: str
    name: str


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def password_problem(password: str, email: str, name: str) -> str | None:
    """Why ``password`` is too weak to keep, in the person's words; None when it will do."""
    if len(password) < MIN_PASSWORD:
        return f"Use at least {MIN_PASSWORD} characters."
    if len(set(password)) < 4:
        return "Use more different characters."
    lowered = password.lower()
    if lowered in (email.lower(), email.split("@")[0].lower(), name.lower()) or lowered.isdigit():
        return "Do not use your e-mail address, your name or only digits."
    return None


def mail_language(ctx: Ctx, s: object, given: str | None) -> str:
    """The invitation mail's language: ``given``, else the tenant's ``language`` setting, else English."""
    from local_db.models import Tenant
    from services.core.pages import LANGUAGES

    if given in LANGUAGES:
        return given
    tenant = s.get(Tenant, ctx.tenant_id)  # type: ignore[attr-defined]
    setting = str(((tenant.settings if tenant is not None else None) or {}).get("language") or "")
    return setting[:2].lower() if setting[:2].lower() in LANGUAGES else "en"


def invitation_mail(lang: str, name: str, tenant: str, link: str, days: int) -> tuple[str, str, str]:
    """(subject, text, HTML) of an invitation in ``lang``."""
    from services.core.pages import environment, translations

    _ = translations(lang).gettext
    subject = _("Your invitation to %(tenant)s") % {"tenant": tenant}
    text = (
        _("Hello %(name)s,") % {"name": name}
        + "\n\n"
        + _(
            "you are invited to work in %(tenant)s. Choose your password here (the link works once, for %(days)s days):"
        )
        % {"tenant": tenant, "days": days}
        + f"\n\n{link}\n\n"
        + _("Then sign in with this e-mail address and that password.")
        + "\n"
    )
    html = (
        environment(lang)
        .get_template("platform/invite_mail.html")
        .render(lang=lang, name=name, tenant=tenant, link=link, days=days, subject=subject)
    )
    return subject, text, html


def _issue(ctx: Ctx, s: object, user: User, language: str) -> UserInvitation:
    """A new invitation of ``user`` (the open ones closed) mailed after the commit, in ``language``."""
    now = ctx.now()
    for old in s.execute(  # type: ignore[attr-defined]
        select(UserInvitation).where(
            UserInvitation.user_id == user.id, UserInvitation.used_at.is_(None), UserInvitation.revoked_at.is_(None)
        )
    ).scalars():
        old.revoked_at = now
    token = secrets.token_urlsafe(32)
    inv = UserInvitation(
        id=new_id(),
        user_id=user.id,
        token_hash=_digest(token),
        expires_at=now + VALID,
        invited_by=ctx.principal.id,
        created_at=now,
        language=language,
    )
    s.add(inv)  # type: ignore[attr-defined]
    assert ctx.tenant is not None
    link = f"{public_url(ctx.runtime)}/{ctx.tenant.slug}/platform/p/invite/{token}"
    subject, text, html = invitation_mail(language, user.name, ctx.tenant.name, link, VALID.days)
    send_after_commit(ctx, Mail(to=user.email, subject=subject, text=text, html=html, private=True))
    return inv


def _member(ctx: Ctx, s: object, user_id: str) -> tuple[Membership, User]:
    m = s.execute(select(Membership).where(Membership.user_id == user_id)).scalar_one_or_none()  # type: ignore[attr-defined]
    u = s.get(User, user_id) if m is not None else None  # type: ignore[attr-defined]
    if m is None or u is None:
        raise NotFound("user not found")
    return m, u


@use_case(
    "platform.users.invite",
    "POST /api/tenants/{tenant}/users/invitations",
    tx="write",
    online=True,
    roles=MANAGERS,
    status=201,
    says="New invitation",
    summary="invite a user by e-mail (made disabled until they set a password)",
)
def invite_user(ctx: Ctx, body: UserInvite) -> InvitationOut:
    from services.core.service import _check_owner_rules, _user_out, add_member

    _check_owner_rules(ctx, body.role, None)
    with ctx.write() as s:
        # A password nobody knows (not even the inviter): the account opens only through the link.
        m, u = add_member(
            ctx, s, body.email, body.name, body.role, body.userModules, secrets.token_urlsafe(32), disabled=True
        )
        inv = _issue(ctx, s, u, mail_language(ctx, s, body.language))
        return InvitationOut(user=_user_out(m, u), expires_at=inv.expires_at.isoformat())


@use_case(
    "platform.users.invitation.resend",
    "POST /api/tenants/{tenant}/users/{user_id}/invitation",
    tx="write",
    online=True,
    roles=MANAGERS,
    says="Send invitation again",
    summary="send a user's invitation again (the earlier link stops working)",
)
def resend_invitation(ctx: Ctx, user_id: str) -> InvitationOut:
    from services.core.service import _user_out

    with ctx.write() as s:
        m, u = _member(ctx, s, user_id)
        if not u.disabled or _accepted(s, u.id):
            raise Conflict("this user has set a password already", {"current_state": "active"})
        last = s.execute(  # type: ignore[attr-defined]
            select(UserInvitation.language)
            .where(UserInvitation.user_id == u.id)
            .order_by(UserInvitation.created_at.desc())
            .limit(1)
        ).scalar_one_or_none()
        inv = _issue(ctx, s, u, last or mail_language(ctx, s, None))
        return InvitationOut(user=_user_out(m, u), expires_at=inv.expires_at.isoformat())


@use_case(
    "platform.users.invitation.revoke",
    "DELETE /api/tenants/{tenant}/users/{user_id}/invitation",
    tx="write",
    online=True,
    roles=MANAGERS,
    says="Revoke invitation",
    summary="revoke a user's open invitation (its link stops working)",
)
def revoke_invitation(ctx: Ctx, user_id: str) -> UserOut:
    from services.core.service import _user_out

    with ctx.write() as s:
        m, u = _member(ctx, s, user_id)
        open_ = _open(s, u.id)
        if not open_:
            raise Conflict("this user has no open invitation", {"current_state": "none"})
        for inv in open_:
            inv.revoked_at = ctx.now()
        return _user_out(m, u)


def _open(s: object, user_id: str) -> list[UserInvitation]:
    q = select(UserInvitation).where(
        UserInvitation.user_id == user_id, UserInvitation.used_at.is_(None), UserInvitation.revoked_at.is_(None)
    )
    return list(s.execute(q).scalars())  # type: ignore[attr-defined]


def _accepted(s: object, user_id: str) -> bool:
    q = select(UserInvitation.id).where(UserInvitation.user_id == user_id, UserInvitation.used_at.is_not(None))
    return s.execute(q).first() is not None  # type: ignore[attr-defined]


@use_case(
    "platform.invitations.accept",
    "POST /api/tenants/{tenant}/invitations/{token}",
    tx="own",
    auth="public",
    limit="public_sign",
    summary="set the first password through an invitation's link (the user is enabled)",
)
def accept_invitation(ctx: Ctx, token: str, body: SetPassword) -> InvitationAccepted:
    with ctx.write() as s:
        inv = s.execute(
            select(UserInvitation).where(UserInvitation.token_hash == _digest(token)).with_for_update()
        ).scalar_one_or_none()
        now = ctx.now()
        if inv is None or inv.used_at is not None or inv.revoked_at is not None or inv.expires_at <= now:
            # One answer for unknown, used, revoked and expired: a guessed token learns nothing.
            raise NotFound("this invitation link is not valid any more: ask for a new invitation")
        u = s.get(User, inv.user_id)
        assert u is not None
        problem = password_problem(body.password, u.email, u.name)
        if problem is not None:
            raise ValidationFailed(f"the password is too weak: {problem}", {"field": "password", "reason": problem})
        u.password_hash = auth.hash_password(body.password)
        u.disabled = False
        u.updated_at = now
        inv.used_at = now
        return InvitationAccepted(email=u.email, name=u.name)


def invitation_of(ctx: Ctx, token: str) -> UserInvitation | None:
    """The open invitation of ``token`` (the page shows its form only for one)."""
    with ctx.read() as s:
        inv = s.execute(select(UserInvitation).where(UserInvitation.token_hash == _digest(token))).scalar_one_or_none()
        if inv is None or inv.used_at is not None or inv.revoked_at is not None or inv.expires_at <= ctx.now():
            return None
        return inv

"""Station-side use cases: local sign-in with the tenant check, the outbox status, station settings.

The desktop shell signs people in against the station's own database (so a
station works offline) and shows how many changes wait in the outbox; the
sync issue adds the rest of the sync state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlparse

from pydantic import BaseModel, Field, ValidationError, field_validator
from sqlalchemy import func, select

from local_db.models import OutboxEntry
from services.core import auth
from services.core import service as core_service
from services.core.commands import use_case
from services.core.context import Ctx, Principal, Runtime, TenantInfo
from services.core.errors import Forbidden, TenantInactive, ValidationFailed, validation_details
from services.core.local_signin import TenantChoice
from services.core.roles import ANYONE
from services.core.schemas import LoginOut, LoginRequest, Strict

# --- sign-in ----------------------------------------------------------------------


@dataclass(frozen=True)
class StationSignIn:
    login: LoginOut
    tenants: list[TenantChoice]


def sign_in(rt: Runtime, *, email: str, password: str) -> StationSignIn:
    """Check the credentials against the local database; the memberships with their tenant status."""
    try:
        body = LoginRequest(email=email, password=password)
    except ValidationError as exc:
        raise ValidationFailed("check the highlighted fields", validation_details(exc)) from exc
    out = core_service.login(rt.db, rt.secret_key, body.email, body.password, rt.clock.now())
    choices = []
    for m in out.tenants:
        info = auth.load_tenant(rt.db, m.slug)
        choices.append(
            TenantChoice(m.slug, m.name, m.role, info.status, frozenset(m.userModules) & frozenset(m.modules))
        )
    if not choices:
        raise Forbidden("this account has no tenant membership; ask an administrator to add you")
    return StationSignIn(out, choices)


def session_for(rt: Runtime, user_id: str) -> LoginOut:
    """The session of a person whose password the station's own data accepted before the service
    layer was loaded (services/core/local_signin.py): what ``sign_in`` answers, without checking
    the password again (argon2 costs 0.1-0.5 s)."""
    return core_service.session_for(rt.db, rt.secret_key, auth.active_user(rt.db, user_id), rt.clock.now())


def open_tenant(rt: Runtime, user_id: str, slug: str) -> tuple[TenantInfo, Principal]:
    """The tenant and the person's principal in it; refuses a tenant that is not active."""
    tenant = auth.load_tenant(rt.db, slug)
    if tenant.status != "active":
        raise TenantInactive(f"tenant {tenant.name} is {tenant.status}: signing in is not possible now")
    principal = auth.user_principal(rt.db, user_id, tenant)
    if not principal.modules:
        raise Forbidden(f"your account has no modules in {tenant.name}; ask an administrator to give you access")
    return tenant, principal


# --- outbox status ------------------------------------------------------------------


class OutboxStatus(BaseModel):
    pending: int
    failed: int
    conflict: int
    sent: int


@use_case(
    "station.outbox_status",
    "GET /api/tenants/{tenant}/station/outbox-status",
    tx="read",
    roles=ANYONE,
    module="platform",
    summary="read the outbox status",
)
def outbox_status(ctx: Ctx) -> OutboxStatus:
    """Counts of this tenant's outbox entries by status (pending = waiting to be sent)."""
    with ctx.read() as s:
        rows = s.execute(select(OutboxEntry.status, func.count()).group_by(OutboxEntry.status)).all()
    counts = {status: int(n) for status, n in rows}
    return OutboxStatus(
        pending=counts.get("pending", 0),
        failed=counts.get("failed", 0),
        conflict=counts.get("conflict", 0),
        sent=counts.get("sent", 0),
    )


# --- station settings -----------------------------------------------------------------


class StationSettings(Strict):
    """What the settings dialog edits (kept in the station's settings file, not in the database)."""

    platform_url: str = Field(default="", max_length=500)
    station_name: str = Field(default="Station", min_length=1, max_length=80)
    theme: Literal["light", "dark", "kiosk"] = "light"
    scanner_suffix: Literal["enter", "tab"] = "enter"
    sound: bool = True
    kiosk_idle_minutes: int = Field(default=5, ge=1, le=240)
    kiosk_theme: bool = True
    language: Literal["system", "en", "de"] = "system"  # the desktop's language (views.i18n)
    # The desk's printers (views.shell.printing): "" the system default, "pdf" a PDF file, or a
    # system printer's name; the label format is a page the label is printed on.
    label_printer: str = Field(default="", max_length=200)
    label_format: Literal["4x6in", "100x150mm", "62mm", "a4"] = "4x6in"
    document_printer: str = Field(default="", max_length=200)
    # A new admin PIN (4 to 12 digits); empty keeps the current one.
    new_pin: str = Field(default="", max_length=12)

    @field_validator("platform_url")
    @classmethod
    def _url(cls, v: str) -> str:
        v = v.strip().rstrip("/")
        if not v:
            return v
        u = urlparse(v)
        if u.scheme not in ("http", "https") or not u.netloc:
            raise ValueError("a platform URL looks like https://platform.example.com")
        return v

    @field_validator("new_pin")
    @classmethod
    def _pin(cls, v: str) -> str:
        if v and (not v.isdigit() or len(v) < 4):
            raise ValueError("the PIN is 4 to 12 digits")
        return v

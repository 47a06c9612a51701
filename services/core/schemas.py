"""Request and response models of the platform routes (auth, API keys, users)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, ClassVar, Literal, Self

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from services.core.context import MODULES
from services.core.local_signin import EMAIL_PATTERN
from services.core.states import CURRENT_CTX, Machine

_EMAIL = EMAIL_PATTERN  # one pattern: the station's sign-in check before the service layer uses it too


def _check_email(v: str) -> str:
    v = v.strip().lower()
    if len(v) > 320 or not _EMAIL.match(v):
        raise ValueError("not a valid e-mail address")
    return v


def _check_modules(v: list[str]) -> list[str]:
    unknown = sorted(set(v) - set(MODULES))
    if unknown:
        raise ValueError(f"unknown modules: {', '.join(unknown)}")
    return sorted(set(v))


Email = Annotated[str, AfterValidator(_check_email)]
ModuleList = Annotated[list[str], AfterValidator(_check_modules)]
Name = Annotated[str, Field(min_length=1, max_length=200)]


def _not_blank(v: str) -> str:
    if not v.strip():
        raise ValueError("must not be blank")
    return v


# Free text (document bodies, templates, descriptions, messages) is stored exactly as sent
# (DECISIONS, 2026-11-26): a body keeps its last newline, an indented code block its indent.
# Names and codes are still stripped (``Strict``). FREE_TEXT names the fields that must use
# these types; tests/api/hardening walks every request model for them.
FreeText = Annotated[str, StringConstraints(strip_whitespace=False)]
# Free text that must say something: whitespace alone is refused, but kept as sent otherwise.
NonBlankText = Annotated[str, StringConstraints(strip_whitespace=False), AfterValidator(_not_blank)]
FREE_TEXT = frozenset(
    {"body", "description", "text", "html", "notes", "note", "message", "content", "resolution", "reply"}
)


class Strict(BaseModel):
    """Requests refuse unknown fields, so a typo is an error, not silently ignored."""

    # defer_build: the validator is built on first use, not at import. A station imports ~430
    # models to reach its sign-in and uses a handful before the person works (issue 38).
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, defer_build=True)


class Out(BaseModel):
    """A response read from its row: ``ItemOut.model_validate(row)`` takes the row's attributes of
    the same names, so a column added to the model and the response needs no mapper line."""

    model_config = ConfigDict(from_attributes=True, defer_build=True)  # built on first use, as Strict


class StatefulOut(Out):
    """The response of a record with a state machine (``machine``): it carries the actions its state
    allows to the caller (the table's rule, its actors, and the roles of the use cases linked to each
    action), so a screen offers those and greys out the others."""

    machine: ClassVar[Machine]
    allowed_actions: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _allowed_actions(self) -> Self:
        if "allowed_actions" not in self.model_fields_set:
            state = getattr(self, self.machine.state_field)
            self.allowed_actions = self.machine.allowed_for(CURRENT_CTX.get(), state)
        return self


class LoginRequest(Strict):
    email: Email
    password: str = Field(min_length=1, max_length=1024)


class TenantMembership(BaseModel):
    id: str
    slug: str
    name: str
    role: str
    modules: list[str]
    userModules: list[str]  # noqa: N815 - the spec's claim name


class MeOut(BaseModel):
    id: str
    email: str
    name: str
    tenants: list[TenantMembership]


class LoginOut(MeOut):
    token: str
    expires_at: datetime


class ApiKeyCreate(Strict):
    name: Name
    modules: ModuleList = Field(min_length=1)
    environment: Literal["live", "test"] = "live"
    expires_at: datetime | None = None

    @field_validator("expires_at")
    @classmethod
    def _aware(cls, v: datetime | None) -> datetime | None:
        if v is not None and v.tzinfo is None:
            raise ValueError("expires_at needs a time zone (e.g. 2027-01-01T00:00:00Z)")
        return v


class ApiKeyOut(BaseModel):
    id: str
    name: str
    environment: str
    prefix: str
    modules: list[str]
    status: Literal["active", "expired", "revoked"]
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None
    last_used_at: datetime | None


class ApiKeyCreated(ApiKeyOut):
    # Shown once: never stored, not even in an idempotency record.
    secret_fields: ClassVar[frozenset[str]] = frozenset({"key"})

    key: str


class UserCreate(Strict):
    email: Email
    name: Name
    password: str = Field(min_length=8, max_length=1024)
    role: Literal["owner", "admin", "operator", "warehouse-device"]
    userModules: ModuleList = Field(default_factory=list)  # noqa: N815


class UserUpdate(Strict):
    name: Name | None = None
    role: Literal["owner", "admin", "operator", "warehouse-device"] | None = None
    userModules: ModuleList | None = None  # noqa: N815
    disabled: bool | None = None
    password: str | None = Field(default=None, min_length=8, max_length=1024)


class TenantModules(Strict):
    modules: ModuleList


class TenantOut(BaseModel):
    id: str
    slug: str
    name: str
    status: str
    modules: list[str]


class UserOut(BaseModel):
    id: str
    email: str
    name: str
    role: str
    userModules: list[str]  # noqa: N815
    disabled: bool
    created_at: datetime

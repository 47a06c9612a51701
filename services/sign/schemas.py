"""Requests and responses of Sign: the one definition the HTTP door, the desktop and sync use.

No staff answer carries a signing token: signers are answered without one (DECISIONS, Sign).
"""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from services.core.pagination import ListQuery
from services.core.schemas import FreeText, Strict

DocumentStatus = Literal["draft", "sent", "completed", "declined", "voided", "expired"]
SigningOrder = Literal["parallel", "sequential"]
SignerRole = Literal["signer", "approver", "viewer", "cc"]
SignerStatus = Literal["pending", "sent", "viewed", "signed", "declined"]
FieldType = Literal["signature", "initials", "name", "email", "date", "text", "checkbox"]

MAX_SIGNATURE_IMAGE = 512 * 1024  # base64 characters of a drawn signature (PNG)
MAX_VALUE = 2000


def _email(v: str) -> str:
    v = v.strip()
    if v and ("@" not in v or " " in v or v.startswith("@") or v.endswith("@") or len(v) > 320):
        raise ValueError("not an e-mail address")
    return v.lower()


class DocumentOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    title: str
    status: DocumentStatus
    signing_order: SigningOrder
    message: FreeText
    expires_at: datetime | None
    pages: int
    sha256: str
    signed_sha256: str | None = None
    template_id: str | None = None
    void_reason: str | None = None
    sent_at: datetime | None = None
    completed_at: datetime | None = None
    created_at: datetime
    updated_at: datetime


class DocumentFields(Strict):
    """The fields beside an uploaded PDF (multipart parts or query parameters)."""

    title: str = Field(min_length=1, max_length=200)
    signing_order: SigningOrder = "parallel"
    message: FreeText = Field(default="", max_length=5000)
    expires_at: datetime | None = None


class DocumentFromTemplate(Strict):
    template_id: str = Field(min_length=1, max_length=36)
    title: str = Field(min_length=1, max_length=200)
    signing_order: SigningOrder = "parallel"
    message: FreeText = Field(default="", max_length=5000)
    expires_at: datetime | None = None


class DocumentQuery(ListQuery):
    status: DocumentStatus | None = None


class DocumentCreateQuery(BaseModel):
    """Fields of an upload given as query parameters (a raw PDF body); multipart parts win."""

    model_config = ConfigDict(extra="ignore")

    title: str | None = Field(default=None, max_length=200)
    signing_order: SigningOrder | None = None
    message: FreeText | None = Field(default=None, max_length=5000)
    expires_at: datetime | None = None


class SendRequest(Strict):
    expires_at: datetime | None = None
    message: FreeText | None = Field(default=None, max_length=5000)


class VoidRequest(Strict):
    reason: str | None = Field(default=None, max_length=1000)


class SignerIn(Strict):
    name: str = Field(min_length=1, max_length=200)
    email: str = Field(default="", max_length=320)
    role: SignerRole = "signer"
    order: int | None = Field(default=None, ge=1, le=100)
    # Signs at a station in front of staff: never e-mailed, no link exists.
    in_person: bool = False

    _check_email = field_validator("email")(classmethod(lambda cls, v: _email(v)))


class SignerOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    document_id: str
    name: str
    email: str
    role: SignerRole
    order: int
    status: SignerStatus
    in_person: bool
    signature_type: str | None = None
    decline_reason: str | None = None
    sent_at: datetime | None = None
    viewed_at: datetime | None = None
    acted_at: datetime | None = None


class FieldIn(Strict):
    signer_id: str = Field(min_length=1, max_length=36)
    type: FieldType
    page: int = Field(ge=1, le=10_000)
    x: float = Field(ge=0, le=1)
    y: float = Field(ge=0, le=1)
    width: float = Field(gt=0, le=1)
    height: float = Field(gt=0, le=1)
    required: bool = True


class FieldOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    signer_id: str | None
    type: FieldType
    page: int
    x: float
    y: float
    width: float
    height: float
    required: bool
    value: str | None = None


class TemplateField(Strict):
    """A template's field: ``slot`` is the signer it belongs to, by the order signers are added (1..)."""

    slot: int = Field(default=1, ge=1, le=100)
    type: FieldType
    page: int = Field(ge=1, le=10_000)
    x: float = Field(ge=0, le=1)
    y: float = Field(ge=0, le=1)
    width: float = Field(gt=0, le=1)
    height: float = Field(gt=0, le=1)
    required: bool = True


class TemplateFromDocument(Strict):
    name: str = Field(min_length=1, max_length=200)
    document_id: str = Field(min_length=1, max_length=36)


class TemplateUpdate(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    fields: list[TemplateField] | None = Field(default=None, max_length=500)


class TemplateOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    name: str
    sha256: str
    pages: int
    fields: list[TemplateField]
    created_at: datetime
    updated_at: datetime


class SignatureIn(Strict):
    type: Literal["drawn", "typed"]
    image: str | None = Field(default=None, max_length=MAX_SIGNATURE_IMAGE)
    text: FreeText | None = Field(default=None, max_length=200)


class SignAction(Strict):
    """The public POST body: sign (values, signature, consent) or decline (reason)."""

    action: Literal["sign", "decline"]
    values: dict[str, str | bool] = Field(default_factory=dict, max_length=500)
    signature: SignatureIn | None = None
    consent: bool = False
    reason: str | None = Field(default=None, max_length=1000)


class PublicField(BaseModel):
    id: str
    type: FieldType
    page: int
    x: float
    y: float
    width: float
    height: float
    required: bool
    value: str | None = None


class PublicDocument(BaseModel):
    """What a signer sees on their link: nothing about the other signers but their names' count."""

    title: str
    message: FreeText
    status: DocumentStatus
    pages: int
    sha256: str
    expires_at: datetime | None
    signer: dict[str, str]
    signer_status: SignerStatus
    fields: list[PublicField]


class SignResult(BaseModel):
    document_status: DocumentStatus
    signer_status: SignerStatus


class AuditOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    at: datetime
    action: str
    actor: str
    email: str | None
    ip: str | None
    user_agent: str | None
    document_sha256: str


class AuditList(BaseModel):
    items: list[AuditOut]


class SignSettingsData(Strict):
    """Expiry and reminders, per tenant (Documenso's defaults: first reminder after 5 days, then
    every 2; DECISIONS: expiry 30 days)."""

    expiry_days: int = Field(default=30, ge=1, le=365)
    reminders: bool = True
    first_reminder_days: int = Field(default=5, ge=1, le=365)
    reminder_every_days: int = Field(default=2, ge=1, le=365)


class SweepOut(BaseModel):
    expired: int
    reminded: int


class CertificateIn(Strict):
    certificate_pem: str = Field(min_length=1, max_length=20_000)
    private_key_pem: str = Field(min_length=1, max_length=20_000)
    chain_pem: str = Field(default="", max_length=60_000)
    password: str | None = Field(default=None, max_length=200)


class CertificateOut(BaseModel):
    subject: str
    issuer: str
    fingerprint_sha256: str
    not_before: datetime
    not_after: datetime
    self_signed: bool


class InPersonSign(Strict):
    """A staff-authenticated signing at a station: the customer signs in front of staff."""

    signer_id: str = Field(min_length=1, max_length=36)
    values: dict[str, str | bool] = Field(default_factory=dict, max_length=500)
    signature: SignatureIn
    consent: bool = False


class TradeInAgreement(Strict):
    submission_id: str = Field(min_length=1, max_length=36)

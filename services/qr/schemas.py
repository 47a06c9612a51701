"""Request and response models of the QR Codes module (DECISIONS: QR Codes)."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from services.core.pagination import ListQuery
from services.core.schemas import FreeText, Strict
from services.core.urls import Url, url_problem

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
QrType = Literal["url", "text", "email", "phone", "sms", "vcard", "wifi"]
BarcodeType = Literal["code128", "ean13", "ean8", "upca", "itf14", "code39"]


class Style(Strict):
    fg: str = "#000000"
    bg: str = "#ffffff"
    error_correction: Literal["L", "M", "Q", "H"] = "M"
    border: int = Field(default=4, ge=0, le=20)
    logo_file_id: str | None = Field(default=None, max_length=64)

    @field_validator("fg", "bg")
    @classmethod
    def _colour(cls, v: str) -> str:
        if not _COLOUR.match(v):
            raise ValueError("a colour is #rrggbb")
        return v.lower()


class QrCreate(Strict):
    name: str = Field(min_length=1, max_length=200)
    type: QrType = "url"
    dynamic: bool = True  # before content: content's check reads it
    content: FreeText = Field(default="", max_length=2000)
    destination_url: Url | None = Field(default=None, max_length=2000)
    fallback_url: Url | None = Field(default=None, max_length=2000)
    folder_id: str | None = Field(default=None, max_length=36)
    template_id: str | None = Field(default=None, max_length=36)
    style: Style | None = None
    valid_since: datetime | None = None
    valid_until: datetime | None = None
    max_scans: int | None = Field(default=None, ge=1)
    scan_alert_threshold: int | None = Field(default=None, ge=1)
    enabled: bool = True

    @field_validator("content")
    @classmethod
    def _static_url(cls, v: str, info: ValidationInfo) -> str:
        if not info.data.get("dynamic", True) and (why := static_content_problem(info.data.get("type", "url"), v)):
            raise ValueError(why)
        return v


def static_content_problem(qr_type: str, content: str) -> str | None:
    """A static URL code carries its address in the printed code itself: the one URL rule holds."""
    if qr_type != "url" or not content:
        return None
    return url_problem(content, field="content")


class QrUpdate(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    content: FreeText | None = Field(default=None, max_length=2000)
    fallback_url: Url | None = Field(default=None, max_length=2000)  # null clears it
    folder_id: str | None = Field(default=None, max_length=36)
    template_id: str | None = Field(default=None, max_length=36)
    style: Style | None = None
    valid_since: datetime | None = None
    valid_until: datetime | None = None
    max_scans: int | None = Field(default=None, ge=1)
    scan_alert_threshold: int | None = Field(default=None, ge=1)
    enabled: bool | None = None

    @field_validator("name", "content", "enabled")
    @classmethod
    def _not_null(cls, v: Any) -> Any:
        # Left out means unchanged; null would clear a value every code must have (a 500 before).
        if v is None:
            raise ValueError("may be left out but not null")
        return v


class DestinationUpdate(Strict):
    destination_url: Url = Field(max_length=2000)


class QrOut(BaseModel):
    id: str
    name: str
    type: str
    content: FreeText
    dynamic: bool
    short_code: str
    destination_url: str | None
    fallback_url: str | None = None
    folder_id: str | None
    template_id: str | None
    style: dict[str, Any]
    valid_since: datetime | None
    valid_until: datetime | None
    max_scans: int | None
    scan_alert_threshold: int | None
    enabled: bool
    scans: int
    bots: int
    created_at: datetime


class QrQuery(ListQuery):
    folder_id: str | None = None


class DownloadQuery(BaseModel):
    format: Literal["png", "svg", "pdf"] = "png"
    size: int = Field(default=512, ge=64, le=4096)


class PreviewQuery(BaseModel):
    format: Literal["png", "svg", "pdf"] = "png"
    size: int = Field(default=512, ge=64, le=4096)


class AnalyticsQuery(BaseModel):
    # Inclusive day range; default the last 30 days.
    from_: date | None = Field(default=None, alias="from")
    to: date | None = None


class Breakdown(BaseModel):
    key: str
    count: int


class DayCount(BaseModel):
    day: date
    scans: int
    unique: int
    bots: int


class AnalyticsOut(BaseModel):
    code_id: str | None
    scans: int
    unique: int
    bots: int
    orphans: int | None = None
    by_day: list[DayCount]
    device: list[Breakdown]
    browser: list[Breakdown]
    os: list[Breakdown]
    referrer: list[Breakdown]


class RealtimeQuery(BaseModel):
    minutes: int = Field(default=5, ge=1, le=1440)
    code_id: str | None = None


class ScanOut(BaseModel):
    id: str
    code_id: str | None
    short_code: str
    at: datetime
    device: str
    browser: str
    os: str
    referrer: str
    ip_hash: str
    bot: bool


class RealtimeOut(BaseModel):
    minutes: int
    count: int
    scans: list[ScanOut]


class ExportQuery(BaseModel):
    format: Literal["csv", "json"] = "csv"
    from_: date | None = Field(default=None, alias="from")
    to: date | None = None
    code_id: str | None = None


class TemplateCreate(Strict):
    name: str = Field(min_length=1, max_length=200)
    style: Style = Field(default_factory=Style)


class TemplateUpdate(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    style: Style | None = None


class TemplateOut(BaseModel):
    id: str
    name: str
    style: dict[str, Any]
    created_at: datetime


class FolderCreate(Strict):
    name: str = Field(min_length=1, max_length=200)
    parent_id: str | None = Field(default=None, max_length=36)


class FolderUpdate(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    parent_id: str | None = Field(default=None, max_length=36)


class FolderOut(BaseModel):
    id: str
    name: str
    parent_id: str | None
    created_at: datetime


class BarcodeCreate(Strict):
    type: BarcodeType
    value: str = Field(min_length=1, max_length=80)


class BarcodeOut(BaseModel):
    id: str
    type: str
    value: str
    created_at: datetime


class BarcodeQuery(BaseModel):
    format: Literal["png", "svg"] | None = None


class ScanQuery(BaseModel):
    """The scanner's query string (``?utm_source=poster``): every parameter kept, forwarded to the
    destination."""

    model_config = ConfigDict(extra="allow")


class LogoOut(BaseModel):
    file_id: str
    size: int
    content_type: str

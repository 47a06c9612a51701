"""Requests and responses of Analytics."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from services.core.pagination import ListQuery
from services.core.schemas import Strict

Interval = Literal["day", "week", "month"]
METRIC_NAME = r"^[A-Za-z0-9_.:-]{1,200}$"


class MetricIn(Strict):
    name: str = Field(pattern=METRIC_NAME)
    value: float = Field(default=1.0, allow_inf_nan=False)
    at: datetime | None = None
    dimensions: dict[str, str | int | float | bool | None] = Field(default_factory=dict, max_length=20)

    @field_validator("at")
    @classmethod
    def _aware(cls, v: datetime | None) -> datetime | None:
        if v is not None and v.tzinfo is None:
            raise ValueError("a time needs its offset (e.g. 2026-01-01T09:00:00Z)")
        return v


class MetricOut(BaseModel):
    id: str
    name: str
    value: float
    at: datetime
    dimensions: dict[str, Any]


def as_day(v: Any) -> Any:
    """A timestamp given for a date is read as its UTC day."""
    if isinstance(v, str) and "T" in v:
        return datetime.fromisoformat(v.replace("Z", "+00:00")).date()
    return v


class SeriesQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")

    # Without a name: every metric's total over the window (``group`` names the metric).
    name: str | None = Field(default=None, pattern=METRIC_NAME)
    # Dates, inclusive; a timestamp is read as its UTC day. Default: the last 30 days.
    from_: date | None = Field(default=None, alias="from")
    to: date | None = None
    interval: Interval = "day"
    group_by: str | None = Field(default=None, max_length=100)

    @field_validator("from_", "to", mode="before")
    @classmethod
    def _day(cls, v: Any) -> Any:
        return as_day(v)


class BucketOut(BaseModel):
    bucket: date
    value: float
    count: int
    group: str | None = None


class Widget(Strict):
    title: str = Field(min_length=1, max_length=200)
    metric: str = Field(pattern=METRIC_NAME)
    interval: Interval = "day"
    chart: Literal["number", "line", "bar"] = "line"
    # {"days": 30, "group_by": "carrier"}: the window and an optional breakdown.
    filters: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _filters(self) -> Widget:
        days = self.filters.get("days", 30)
        if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= 3660:
            raise ValueError("filters.days is a whole number of days from 1 to 3660")
        extra = set(self.filters) - {"days", "group_by"}
        if extra:
            raise ValueError(f"unknown filters {sorted(extra)}: days and group_by are known")
        return self


class DashboardIn(Strict):
    name: str = Field(min_length=1, max_length=200)
    widgets: list[Widget] = Field(default_factory=list, max_length=50)


class DashboardOut(BaseModel):
    id: str
    name: str
    widgets: list[dict[str, Any]]
    created_at: datetime
    updated_at: datetime


class WidgetData(BaseModel):
    title: str
    metric: str
    chart: str
    interval: str
    total: float
    series: list[BucketOut]


class DashboardData(BaseModel):
    model_config = ConfigDict(serialize_by_alias=True)

    id: str
    name: str
    widgets: list[WidgetData]
    # The date range shared by every card, when the read asked for one (else each card's own days).
    from_: date | None = Field(default=None, serialization_alias="from")
    to: date | None = None


class DashboardRange(BaseModel):
    """``?from=&to=`` on a dashboard's read: one range for every card (dates, inclusive; a
    timestamp is read as its UTC day). One given alone: ``to`` defaults to today, ``from`` to 29
    days before ``to``."""

    model_config = ConfigDict(extra="ignore")

    from_: date | None = Field(default=None, alias="from")
    to: date | None = None

    @field_validator("from_", "to", mode="before")
    @classmethod
    def _day(cls, v: Any) -> Any:
        return as_day(v)


class ReportIn(Strict):
    name: str = Field(min_length=1, max_length=200)
    metrics: list[str] = Field(min_length=1, max_length=50)
    from_: date = Field(alias="from")
    to: date
    format: Literal["csv", "xlsx", "pdf"] = "csv"
    interval: Interval = "day"

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    @model_validator(mode="after")
    def _range(self) -> ReportIn:
        if self.to < self.from_:
            raise ValueError("to is before from")
        if (self.to - self.from_).days > 3660:
            raise ValueError("a report covers at most ten years")
        return self


class ReportOut(BaseModel):
    model_config = ConfigDict(serialize_by_alias=True)

    id: str
    name: str
    metrics: list[str]
    from_: date = Field(serialization_alias="from")
    to: date
    format: str
    status: str
    progress: int
    job_id: str | None
    download_url: str | None
    error: str | None = None
    created_at: datetime


class ReportQuery(ListQuery):
    status: str | None = None


class CustomerIn(Strict):
    email: str | None = Field(default=None, min_length=3, max_length=320, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
    external_id: str | None = Field(default=None, min_length=1, max_length=200)
    set: dict[str, Any] = Field(default_factory=dict, max_length=200)
    set_once: dict[str, Any] = Field(default_factory=dict, max_length=200)

    @model_validator(mode="after")
    def _key(self) -> CustomerIn:
        if not self.email and not self.external_id:
            raise ValueError("a profile needs email or external_id")
        return self


class CustomerOut(BaseModel):
    id: str
    email: str | None
    external_id: str | None
    attributes: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    _http_status: int | None = PrivateAttr(default=None)


class CustomerQuery(ListQuery):
    pass


# --- alerts and scheduled deliveries (issue 35) ---------------------------------------------------

EMAIL = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"
Recipients = list[Annotated[str, Field(min_length=3, max_length=320, pattern=EMAIL)]]


class AlertIn(Strict):
    name: str = Field(min_length=1, max_length=200)
    metric: str = Field(pattern=METRIC_NAME)
    # Fires when the metric's sum over the last ``window_days`` days (today included) is above or
    # below the threshold.
    condition: Literal["above", "below"] = "above"
    threshold: float = Field(allow_inf_nan=False)
    window_days: int = Field(ge=1, le=366)
    recipients: Recipients = Field(min_length=1, max_length=20)


class AlertOut(BaseModel):
    id: str
    name: str
    metric: str
    condition: str
    threshold: float
    window_days: int
    recipients: list[str]
    state: str
    last_value: float | None
    last_checked_at: datetime | None
    fired_at: datetime | None
    created_at: datetime


class ScheduleIn(Strict):
    """Either ``metrics`` (a report) or ``dashboard_id`` (every card of a dashboard)."""

    name: str = Field(min_length=1, max_length=200)
    metrics: list[Annotated[str, Field(pattern=METRIC_NAME)]] | None = Field(default=None, min_length=1, max_length=50)
    dashboard_id: str | None = Field(default=None, min_length=1, max_length=36)
    format: Literal["csv", "pdf"] = "pdf"
    every: Literal["day", "week", "month"] = "week"
    # The range each mail covers: the last ``range_days`` days up to the sending day.
    range_days: int = Field(default=7, ge=1, le=366)
    recipients: Recipients = Field(min_length=1, max_length=20)
    # The first mail; later ones follow every day, week or month. Default: one period from now.
    first_at: datetime | None = None

    @model_validator(mode="after")
    def _one_source(self) -> ScheduleIn:
        if (self.metrics is None) == (self.dashboard_id is None):
            raise ValueError("give either metrics (a report) or dashboard_id (a dashboard)")
        if self.first_at is not None and self.first_at.tzinfo is None:
            raise ValueError("first_at needs its offset (e.g. 2026-01-01T07:00:00Z)")
        return self


class ScheduleOut(BaseModel):
    id: str
    name: str
    metrics: list[str]
    dashboard_id: str | None
    format: str
    every: str
    range_days: int
    recipients: list[str]
    next_run_at: datetime
    last_sent_at: datetime | None
    last_error: str | None
    sends: int
    created_at: datetime

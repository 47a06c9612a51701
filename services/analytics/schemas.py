"""Requests and responses of Analytics."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

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
        if isinstance(v, str) and "T" in v:
            return datetime.fromisoformat(v.replace("Z", "+00:00")).date()
        return v


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
    id: str
    name: str
    widgets: list[WidgetData]


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

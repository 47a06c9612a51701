"""Requests and responses of MES: the one definition the HTTP door, the desktop and sync use."""

from __future__ import annotations

import datetime as _dt
import re
from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator, model_validator

from services.core.pagination import ListQuery
from services.core.schemas import FreeText, Strict

MachineStatus = Literal["running", "idle", "setup", "down", "offline"]
RunStatus = Literal["planned", "running", "paused", "completed", "aborted"]
AlarmState = Literal["active_unacknowledged", "active_acknowledged", "cleared_unacknowledged", "cleared"]
Severity = Literal["low", "medium", "high", "critical"]
_HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")

# Stop reasons an operator picks when a machine stops (OPC UA keeps a configurable list of >= 10).
STOP_REASONS: tuple[str, ...] = (
    "breakdown",
    "changeover",
    "material shortage",
    "waiting for operator",
    "quality check",
    "planned maintenance",
    "cleaning",
    "tooling",
    "blocked downstream",
    "break",
    "other",
)


StopCategory = Literal["planned", "unplanned"]
# The six big losses (TPM): availability (equipment_failure, setup_adjustments), performance
# (idling_minor_stops, reduced_speed), quality (process_defects, reduced_yield).
BigLoss = Literal[
    "equipment_failure", "setup_adjustments", "idling_minor_stops", "reduced_speed", "process_defects", "reduced_yield"
]


class StopReasonOut(BaseModel):
    reason: str
    category: StopCategory
    loss: BigLoss | None  # None for a planned stop: it is no loss


class StopReasonIn(Strict):
    reason: str = Field(min_length=1, max_length=100)
    category: StopCategory
    loss: BigLoss | None = None

    @model_validator(mode="after")
    def _loss(self) -> StopReasonIn:
        if self.category == "unplanned" and self.loss is None:
            raise ValueError("an unplanned stop names its loss (one of the six big losses)")
        if self.category == "planned" and self.loss is not None:
            raise ValueError("a planned stop is no loss: leave loss out")
        return self


class StopReasonsIn(Strict):
    reasons: list[StopReasonIn] = Field(min_length=1, max_length=100)


class StopReasonsOut(BaseModel):
    reasons: list[StopReasonOut]


# --- machines ----------------------------------------------------------------------------


class MachineIn(Strict):
    code: str = Field(min_length=1, max_length=40)
    name: str = Field(min_length=1, max_length=200)
    line: str | None = Field(default=None, max_length=100)
    ideal_cycle_seconds: float = Field(default=60.0, gt=0, le=86_400)
    status: MachineStatus = "offline"
    planned_from: datetime | None = None  # planned time starts here (else with its history)


class MachineUpdate(Strict):
    code: str | None = Field(default=None, min_length=1, max_length=40)
    name: str | None = Field(default=None, min_length=1, max_length=200)
    line: str | None = Field(default=None, max_length=100)
    ideal_cycle_seconds: float | None = Field(default=None, gt=0, le=86_400)
    status: MachineStatus | None = None
    reason: str | None = Field(default=None, max_length=100)
    planned_from: datetime | None = None


class MachineOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    code: str
    name: str
    line: str | None
    ideal_cycle_seconds: float
    status: MachineStatus
    status_since: datetime
    reason: str | None
    planned_from: datetime | None = None
    created_at: datetime
    updated_at: datetime


class MachineQuery(ListQuery):
    status: MachineStatus | None = None
    line: str | None = Field(default=None, max_length=100)


class StatusEvent(Strict):
    type: Literal["status"]
    at: datetime | None = None
    status: MachineStatus
    reason: str | None = Field(default=None, max_length=100)


class CountEvent(Strict):
    type: Literal["count"]
    at: datetime | None = None
    good: int = Field(default=0, ge=0, le=1_000_000)
    scrap: int = Field(default=0, ge=0, le=1_000_000)


class AlarmEvent(Strict):
    type: Literal["alarm"]
    at: datetime | None = None
    code: str = Field(min_length=1, max_length=60)
    message: FreeText = Field(default="", max_length=2000)
    severity: Severity = "medium"


class AlarmClearEvent(Strict):
    type: Literal["alarm_clear"]
    at: datetime | None = None
    code: str = Field(min_length=1, max_length=60)


MachineEvent = Annotated[StatusEvent | CountEvent | AlarmEvent | AlarmClearEvent, Field(discriminator="type")]
_ONE: TypeAdapter[StatusEvent | CountEvent | AlarmEvent | AlarmClearEvent] = TypeAdapter(MachineEvent)


class MachineEventsIn(Strict):
    """``{"events": [...]}``; one event alone (its fields at the top level) is a list of one."""

    events: list[MachineEvent] | None = Field(default=None, min_length=1, max_length=1000)
    # One event sent alone: the fields of the event types above.
    type: Literal["status", "count", "alarm", "alarm_clear"] | None = None
    at: datetime | None = None
    status: MachineStatus | None = None
    reason: str | None = Field(default=None, max_length=100)
    good: int = Field(default=0, ge=0, le=1_000_000)
    scrap: int = Field(default=0, ge=0, le=1_000_000)
    code: str | None = Field(default=None, min_length=1, max_length=60)
    message: FreeText = Field(default="", max_length=2000)
    severity: Severity = "medium"

    @model_validator(mode="after")
    def _one(self) -> MachineEventsIn:
        if self.events is not None:
            if self.type is not None:
                raise ValueError('send "events" or one event, not both')
            return self
        if self.type is None:
            raise ValueError('"events" (a list) or one event with its "type" is required')
        one = {k: getattr(self, k) for k in self.model_fields_set if k != "events"}
        one.setdefault("type", self.type)
        self.events = [_ONE.validate_python(one)]
        return self


class MachineEventsOut(BaseModel):
    machine: MachineOut
    accepted: int
    status_changes: int
    counts: dict[str, int]
    alarms_raised: int
    alarms_cleared: int


# --- OEE ---------------------------------------------------------------------------------


class OeeOut(BaseModel):
    availability: float
    performance: float
    quality: float
    oee: float
    planned_seconds: float
    run_seconds: float
    total_count: int
    good_count: int
    ideal_seconds: float = 0.0
    # Where the rest of the window went: stops that count against availability, stops that were
    # planned (not planned production time), offline, and time nothing was recorded (before the
    # machine existed, or its gateway said nothing): never counted as down.
    unplanned_stop_seconds: float = 0.0
    planned_stop_seconds: float = 0.0
    offline_seconds: float = 0.0
    unrecorded_seconds: float = 0.0


class OeeMachineOut(OeeOut):
    machine_id: str
    code: str
    name: str


class OeeShiftOut(OeeOut):
    shift_id: str
    name: str


class Window(BaseModel):
    """``from``/``to``: timestamps or dates (a date is its whole UTC day); default: today (UTC)."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    from_: datetime | date | None = Field(default=None, alias="from")
    to: datetime | date | None = None
    machine_id: str | None = Field(default=None, max_length=36)
    line: str | None = Field(default=None, max_length=100)


class WindowQuery(Window, ListQuery):
    """A window over a list (OEE by machine, by shift): both pagination forms."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)


# --- live status -------------------------------------------------------------------------


class RunOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    machine_id: str
    product: str
    planned_quantity: int
    status: RunStatus
    started_at: datetime | None
    ended_at: datetime | None
    good_count: int
    scrap_count: int
    created_at: datetime
    updated_at: datetime
    bom_id: str | None = None
    routing_id: str | None = None
    location: str | None = None


class AlarmOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    machine_id: str
    code: str
    message: FreeText
    severity: Severity
    state: AlarmState
    raised_at: datetime
    acknowledged_at: datetime | None
    cleared_at: datetime | None


class LiveStatusOut(BaseModel):
    machine: MachineOut
    status: MachineStatus
    status_since: datetime
    reason: str | None
    current_run: RunOut | None
    today: dict[str, int]
    oee: OeeOut
    alarms: list[AlarmOut]
    stop_reasons: list[str]


# --- production runs ---------------------------------------------------------------------


class RunIn(Strict):
    machine_id: str = Field(min_length=1, max_length=36)
    product: str = Field(min_length=1, max_length=200)
    planned_quantity: int = Field(default=0, ge=0, le=100_000_000)
    status: Literal["planned", "running"] = "planned"
    # A run made by a bill of materials takes its parts out of Inventory at ``location`` and puts
    # its good parts in there when it completes (``location``: an Inventory location id or code).
    bom_id: str | None = Field(default=None, min_length=1, max_length=36)
    routing_id: str | None = Field(default=None, min_length=1, max_length=36)
    location: str | None = Field(default=None, min_length=1, max_length=100)


class RunUpdate(Strict):
    """Move the run (``status``) and/or add counts (``good``, ``scrap``, increments)."""

    status: RunStatus | None = None
    good: int = Field(default=0, ge=0, le=1_000_000)
    scrap: int = Field(default=0, ge=0, le=1_000_000)
    reason: str | None = Field(default=None, max_length=100)
    product: str | None = Field(default=None, min_length=1, max_length=200)
    planned_quantity: int | None = Field(default=None, ge=0, le=100_000_000)


class RunQuery(ListQuery):
    status: RunStatus | None = None
    machine_id: str | None = Field(default=None, max_length=36)


class PartOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    run_id: str | None
    machine_id: str
    at: datetime
    good: int
    scrap: int
    source: str


# --- alarms ------------------------------------------------------------------------------


class AlarmQuery(ListQuery):
    state: AlarmState | None = None
    machine_id: str | None = Field(default=None, max_length=36)
    severity: Severity | None = None


# --- shifts ------------------------------------------------------------------------------


class ShiftIn(Strict):
    name: str = Field(min_length=1, max_length=100)
    start: str
    end: str
    days: list[int] = Field(default_factory=lambda: [1, 2, 3, 4, 5], min_length=1, max_length=7)

    @field_validator("start", "end")
    @classmethod
    def _hhmm(cls, v: str) -> str:
        if not _HHMM.match(v):
            raise ValueError('a time is "HH:MM" (00:00 to 23:59)')
        return v

    @field_validator("days")
    @classmethod
    def _days(cls, v: list[int]) -> list[int]:
        if any(d < 1 or d > 7 for d in v):
            raise ValueError("days are ISO weekdays 1 (Monday) to 7 (Sunday)")
        return sorted(set(v))


class ShiftOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    name: str
    start: str
    end: str
    days: list[int]
    created_at: datetime


class ReportQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")

    date: _dt.date | None = None


class StopOut(BaseModel):
    reason: str
    status: str
    seconds: float
    stops: int


class ShiftReportOut(BaseModel):
    shift: ShiftOut
    date: _dt.date
    window_start: datetime | None
    window_end: datetime | None
    oee: OeeOut
    machines: list[OeeMachineOut]
    good_count: int
    scrap_count: int
    stops: list[StopOut]


# --- bills of materials, routings, operator time ------------------------------------------------

Sku = Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]*$")]


class Component(Strict):
    sku: Sku
    quantity: int = Field(ge=1, le=1_000_000)  # per unit made


class BomIn(Strict):
    product: Sku
    name: str = Field(min_length=1, max_length=200)
    components: list[Component] = Field(min_length=1, max_length=500)


class BomOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    product: str
    name: str
    components: list[dict[str, object]]
    active: bool
    created_at: datetime


class Step(Strict):
    sequence: int = Field(ge=1, le=10_000)
    operation: str = Field(min_length=1, max_length=200)
    machine_id: str | None = Field(default=None, min_length=1, max_length=36)
    setup_minutes: float = Field(default=0, ge=0, le=10_000)
    minutes_per_unit: float = Field(ge=0, le=10_000)


class RoutingIn(Strict):
    product: Sku
    name: str = Field(min_length=1, max_length=200)
    steps: list[Step] = Field(min_length=1, max_length=200)


class RoutingOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    product: str
    name: str
    steps: list[dict[str, object]]
    active: bool
    created_at: datetime


class BomQuery(ListQuery):
    product: str | None = Field(default=None, max_length=100)


class OperatorTimeIn(Strict):
    """``operator_id``: a user of the tenant; ``started_at``..``ended_at``: when they worked on the run."""

    operator_id: str = Field(min_length=1, max_length=36)
    started_at: datetime
    ended_at: datetime


class OperatorTimeOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    run_id: str
    operator_id: str
    operator_name: str
    started_at: datetime
    ended_at: datetime
    minutes: float = 0


class RunMaterials(BaseModel):
    """What a run takes and makes: the BOM's parts for its good and scrap units, its good units,
    its routing's standard minutes, and the operators' minutes recorded."""

    run_id: str
    bom_id: str | None
    location: str | None
    units: int
    consumed: list[dict[str, object]]
    produced: dict[str, object] | None
    standard_minutes: float | None
    operator_minutes: float

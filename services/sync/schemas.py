"""Request and response models of the sync routes."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from services.core.schemas import Strict

STATION_ID = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
MAX_BATCH = 250


class StationCreate(Strict):
    station_id: str = Field(alias="stationId", pattern=STATION_ID)
    name: str = Field(min_length=1, max_length=80)


class StationOut(BaseModel):
    id: str
    stationId: str
    name: str
    createdAt: datetime
    revokedAt: datetime | None
    lastSeq: int
    lastSeenAt: datetime | None


class StationCreated(StationOut):
    """Answered once, at registration: the secret is not kept in clear anywhere after."""

    secret_fields: ClassVar[tuple[str, ...]] = ("secret",)
    secret: str


class FileRef(Strict):
    """The file an upload carried; its bytes were put to ``/sync/files/<sha256>`` first."""

    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    filename: str = Field(min_length=1, max_length=255)
    content_type: str = Field(min_length=1, max_length=100)


class PushEntry(Strict):
    """One station change, as signed by the station (see ``services.core.commands.SIGNED_FIELDS``)."""

    seq: int = Field(ge=1)
    command: str = Field(max_length=100)
    method: Literal["POST", "PUT", "PATCH", "DELETE"]
    path: str = Field(min_length=1, max_length=2000)
    body: dict[str, Any] | None = None
    idempotency_key: str = Field(min_length=1, max_length=200)
    actor_id: str | None = Field(default=None, max_length=64)
    created_at: datetime
    ids: list[str] = Field(default_factory=list, max_length=10_000)
    file: FileRef | None = None
    # A change the station could not send as written (its row failed the
    # station's own check): it only consumes its sequence number.
    void: bool = False
    signature: str = Field(min_length=1, max_length=80)


class PushIn(Strict):
    entries: list[PushEntry] = Field(min_length=1, max_length=MAX_BATCH)


EntryStatus = Literal["applied", "duplicate", "conflict", "rejected", "void", "gap", "retry", "deferred"]


class EntryAnswer(BaseModel):
    """applied / duplicate: done (a duplicate carries the first answer); conflict: refused
    with the current state; rejected: refused with the error; void: consumed unapplied;
    gap: an earlier number is missing (nothing after it was looked at: deferred);
    retry: the platform failed, send it again later."""

    seq: int
    status: EntryStatus
    first: str | None = None  # a duplicate's first outcome
    result: Any = None
    error: dict[str, Any] | None = None
    expected: int | None = None


class PushOut(BaseModel):
    answers: list[EntryAnswer]
    lastSeq: int
    serverTime: datetime


class PullQuery(Strict):
    cursor: str = Field(default="", max_length=200)
    limit: int = Field(default=1000, ge=1, le=5000)


class RowsQuery(Strict):
    ids: str = Field(min_length=1, max_length=4000)  # comma-separated record ids
    # A synced table: the rows are read from it (a station repairing a difference), rather than
    # found through the change log; an id it lacks comes back as a deletion.
    table: str | None = Field(default=None, max_length=64)


class IdsQuery(Strict):
    table: str = Field(min_length=1, max_length=64)
    after: str = Field(default="", max_length=64)  # the last id of the previous page
    limit: int = Field(default=5000, ge=1, le=10000)


class IdsOut(BaseModel):
    """The ids of one synced table's records of the tenant, in order, a page at a time."""

    table: str
    ids: list[str]
    more: bool


class Change(BaseModel):
    table: str
    id: str
    deleted: bool = False
    row: dict[str, Any] | None = None


class PullOut(BaseModel):
    # Serialized by pydantic in one pass (api/app.py ``serialize``): pages are large.
    json_in_one_pass: ClassVar[bool] = True

    changes: list[Change]
    cursor: str
    more: bool
    serverTime: datetime
    remaining: int = 0  # changes after this page (a station shows how far it got)


class SyncStatusOut(BaseModel):
    serverTime: datetime
    stationId: str
    name: str
    lastSeq: int
    cursor: str  # the newest change of the tenant


class CountsOut(BaseModel):
    counts: dict[str, int]
    # Per table, the SHA-256 of its record ids sorted and joined by newlines: equal counts can
    # still hide a record on each side under different ids.
    digests: dict[str, str] = {}
    cursor: str
    serverTime: datetime


class LeaseIn(Strict):
    counter: str = Field(min_length=1, max_length=64)


class LeaseOut(BaseModel):
    """A block of counter values for one station alone: ``start`` to ``end``, both included."""

    counter: str
    start: int
    end: int


class FileStored(BaseModel):
    sha256: str
    size: int

"""The platform's registry of stations, and who is calling: a request signed by a registered station."""

from __future__ import annotations

import hmac
import math
import secrets
from dataclasses import dataclass

from sqlalchemy import select

from local_db.models.sync import SyncStation
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, TenantInactive, Unauthorized
from services.core.pagination import ListQuery, Page, paginate
from services.core.roles import MANAGERS
from services.core.sealing import seal, unseal
from services.sync import protocol as p
from services.sync.schemas import StationCreate, StationCreated, StationOut

# --- stations -------------------------------------------------------------------------------


def _out(st: SyncStation) -> StationOut:
    return StationOut(
        id=st.id,
        stationId=st.station_id,
        name=st.name,
        createdAt=st.created_at,
        revokedAt=st.revoked_at,
        lastSeq=st.last_seq,
        lastSeenAt=st.last_seen_at,
    )


@use_case(
    "sync.stations.register",
    "POST /api/tenants/{tenant}/sync/stations",
    tx="write",
    online=True,
    roles=MANAGERS,
    status=201,
    module="platform",
    summary="register a station (its secret is shown once)",
)
def register_station(ctx: Ctx, body: StationCreate) -> StationCreated:
    """Register (or re-register a revoked) station; its secret is answered this once."""
    secret = "sst_" + secrets.token_urlsafe(32)
    with ctx.write() as s:
        st = s.execute(select(SyncStation).where(SyncStation.station_id == body.station_id)).scalar_one_or_none()
        if st is not None and st.revoked_at is None:
            raise Conflict(
                "this station is already registered; revoke it first to issue a new secret",
                {"station": _out(st).model_dump(mode="json")},
            )
        if st is None:
            st = SyncStation(station_id=body.station_id, tenant_id=ctx.tenant_id, last_seq=0)
            s.add(st)
        # A re-registered station keeps its sequence: its outbox goes on where it was.
        st.name, st.secret_sealed, st.revoked_at = body.name, seal(ctx.runtime.secret_key, secret), None
        st.created_by, st.created_at = ctx.principal.user_id, ctx.now()
        s.flush()
        return StationCreated(**_out(st).model_dump(), secret=secret)


@use_case(
    "sync.stations.list",
    "GET /api/tenants/{tenant}/sync/stations",
    tx="read",
    roles=MANAGERS,
    module="platform",
    summary="list registered stations",
)
def list_stations(ctx: Ctx, query: ListQuery) -> Page[StationOut]:
    cols = {"created_at": SyncStation.created_at, "name": SyncStation.name, "station_id": SyncStation.station_id}
    with ctx.read() as s:
        page = paginate(s, select(SyncStation), query, columns=cols)
    return page.map(_out)


@use_case(
    "sync.stations.revoke",
    "DELETE /api/tenants/{tenant}/sync/stations/{station_id}",
    tx="write",
    roles=MANAGERS,
    module="platform",
    summary="revoke a station",
)
def revoke_station(ctx: Ctx, station_id: str) -> StationOut:
    with ctx.write() as s:
        st = s.execute(select(SyncStation).where(SyncStation.station_id == station_id)).scalar_one_or_none()
        if st is None:
            raise NotFound("station not found")
        if st.revoked_at is None:
            st.revoked_at = ctx.now()
        return _out(st)


# --- who is calling -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Caller:
    pk: str
    station_id: str
    name: str
    secret: str


def authenticate(ctx: Ctx, headers: dict[str, str | None], purpose: str) -> Caller:
    """The registered station that signed this request, or Unauthorized saying why."""
    if ctx.tenant is None:
        raise NotFound("tenant not found")
    if ctx.tenant.status != "active":
        raise TenantInactive(f"tenant {ctx.tenant.slug} is {ctx.tenant.status}")
    sid, ts, sig = (headers.get(h) or "" for h in p.HEADERS)
    if not (sid and ts and sig):
        raise Unauthorized("a station signs its sync requests (X-Station-Id, X-Station-Timestamp, X-Station-Signature)")
    now = ctx.now()
    try:
        skew = float(ts) - now.timestamp()
    except ValueError:
        skew = math.nan
    if not math.isfinite(skew):  # "inf" and "nan" parse as floats but are no time
        raise Unauthorized("X-Station-Timestamp is Unix seconds", {"reason": "bad_timestamp"})
    if abs(skew) > p.CLOCK_TOLERANCE:
        raise Unauthorized(
            f"the station's clock is {abs(skew) / 60:.0f} min {'ahead of' if skew > 0 else 'behind'} the platform's; "
            "fix the station's clock to sync",
            {"reason": "clock_skew", "skewSeconds": round(skew), "serverTime": now.isoformat()},
        )
    with ctx.read() as s:
        st = s.execute(select(SyncStation).where(SyncStation.station_id == sid)).scalar_one_or_none()
    if st is None:
        raise Unauthorized("this station is not registered for this tenant", {"reason": "unknown_station"})
    if st.revoked_at is not None:
        raise Unauthorized("this station's registration was revoked", {"reason": "revoked_station"})
    secret = unseal(ctx.runtime.secret_key, st.secret_sealed)
    want = p.request_signature(secret, ts, ctx.tenant.slug, sid, purpose)
    if not hmac.compare_digest(want, sig):
        raise Unauthorized("the request's signature does not match", {"reason": "bad_signature"})
    return Caller(st.id, st.station_id, st.name, secret)

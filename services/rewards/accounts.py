"""Dealers: the registration request, sign-in, profile, and staff deciding on requests.

Dealers are the module's customer accounts: the same machinery as Upgrade's customers
(services.core.auth's argon2 passwords, a JWT with the module's own audience, registered in
``CUSTOMER_AUTHENTICATORS``), so cookies, bearer tokens and ``check_access`` need nothing new.
Only an approved dealer signs in; a token stops when the dealer signs out or is suspended.
"""

from __future__ import annotations

import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.rewards import RewardsDealer
from services.core import customers
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Forbidden, NotFound, Unauthorized
from services.core.events import emit
from services.core.pagination import Page, contains, paginate
from services.core.roles import STAFF
from services.core.signing import token_hash
from services.rewards import states
from services.rewards.schemas import (
    Address,
    AdminDealerOut,
    DealerLogin,
    DealerOut,
    DealerQuery,
    DealerSession,
    DecideRequest,
    ProfileOut,
    ProfileUpdate,
    RegisterRequestCreated,
    RegisterRequestIn,
    RegisterRequestStatus,
)

MODULE = "rewards"
COOKIE = "rewards_token"


def _may_sign_in(d: RewardsDealer, signing_in: bool) -> None:
    """Only an approved dealer signs in; a suspension ends the dealer's sessions at once."""
    if d.status != "approved":
        if signing_in:
            raise Forbidden(f"this dealer account is {d.status}", {"status": d.status})
        raise Forbidden("this dealer account is not active", {"status": d.status})


ACCOUNTS = customers.Accounts(
    module=MODULE,
    audience="rewards-dealer",
    cookie=COOKIE,
    model=RewardsDealer,
    not_enabled="the rewards program is not enabled for this tenant",
    active=_may_sign_in,
)
authenticate = ACCOUNTS.authenticate

record_kind("rewards.dealer", get="rewards.admin.register_requests.get", label="email")


def dealer_out(d: RewardsDealer) -> DealerOut:
    return DealerOut(
        id=d.id,
        email=d.email,
        name=d.name,
        company=d.company,
        phone=d.phone,
        status=d.status,  # type: ignore[arg-type]
        created_at=d.created_at,
    )


def admin_out(d: RewardsDealer) -> AdminDealerOut:
    return AdminDealerOut(
        **dealer_out(d).model_dump(),
        balance=d.balance,
        owed=max(0, -d.balance),
        reason=d.decline_reason,
        decided_at=d.decided_at,
    )


def _enabled(ctx: Ctx) -> None:
    ACCOUNTS.enabled(ctx)


def is_dealer(ctx: Ctx) -> bool:
    return ctx.principal.kind == "customer"


def find_dealer(s: Session, dealer_id: str) -> RewardsDealer:
    d = s.get(RewardsDealer, dealer_id)
    if d is None:
        raise NotFound("dealer not found", {"dealer_id": dealer_id})
    return d


@use_case(
    "rewards.register_request.create",
    "POST /register-request",
    tx="write",
    auth="public",
    status=201,
    limit="auth",
    online=True,
    summary="ask to join the rewards program (public); the access_token reads the request's status",
)
def create_register_request(ctx: Ctx, body: RegisterRequestIn) -> RegisterRequestCreated:
    _enabled(ctx)
    access = "rr_" + secrets.token_urlsafe(24)
    with ctx.write() as s:
        d = ACCOUNTS.create(
            ctx,
            s,
            email=body.email,
            password=body.password,
            exists="a dealer with this e-mail has asked already",
            name=body.name,
            company=body.company,
            phone=body.phone,
            status="pending",
            access_token_hash=token_hash(access),
            address={},
            balance=0,
        )
        emit(ctx, "dealer.requested", {"dealer_id": d.id, "company": d.company})
        return RegisterRequestCreated(id=d.id, status="pending", access_token=access)


@use_case(
    "rewards.register_request.status",
    "GET /register-request",
    tx="read",
    auth="public",
    headers=("x-access-token",),
    summary="the status of a registration request (header X-Access-Token)",
)
def register_request_status(ctx: Ctx, headers: dict[str, str | None]) -> RegisterRequestStatus:
    _enabled(ctx)
    token = (headers.get("x-access-token") or "").strip()
    if not token:
        raise Unauthorized("send the access token of the request in X-Access-Token")
    with ctx.read() as s:
        d = s.execute(
            select(RewardsDealer).where(RewardsDealer.access_token_hash == token_hash(token))
        ).scalar_one_or_none()
    if d is None:
        raise NotFound("no registration request for this access token")
    return RegisterRequestStatus(
        id=d.id,
        status=d.status,  # type: ignore[arg-type]
        company=d.company,
        email=d.email,
        reason=d.decline_reason,
        created_at=d.created_at,
    )


@use_case(
    "rewards.auth.login",
    "POST /auth/login",
    tx="own",
    auth="public",
    limit="auth",
    cookie=COOKIE,
    summary="dealer sign-in; sets the rewards_token cookie and returns the token",
)
def login(ctx: Ctx, body: DealerLogin) -> DealerSession:
    d = ACCOUNTS.sign_in(ctx, body.email, body.password)
    return ACCOUNTS.session(ctx, d, DealerSession, dealer_out(d))


@use_case(
    "rewards.auth.logout",
    "POST /auth/logout",
    tx="write",
    auth="customer",
    clears_cookie=COOKIE,
    summary="dealer sign-out (ends every session of the dealer)",
)
def logout(ctx: Ctx) -> None:
    with ctx.write() as s:
        ACCOUNTS.sign_out(s, ctx)


def _profile(d: RewardsDealer) -> ProfileOut:
    return ProfileOut(**dealer_out(d).model_dump(), address=Address.model_validate(d.address or {}), balance=d.balance)


@use_case("rewards.profile.get", "GET /profile", tx="read", auth="customer", summary="the dealer's profile")
def get_profile(ctx: Ctx) -> ProfileOut:
    with ctx.read() as s:
        return _profile(find_dealer(s, ctx.principal.id))


@use_case("rewards.profile.update", "PUT /profile", tx="write", auth="customer", summary="update the dealer's profile")
def update_profile(ctx: Ctx, body: ProfileUpdate) -> ProfileOut:
    with ctx.write() as s:
        d = find_dealer(s, ctx.principal.id)
        if body.name is not None:
            d.name = body.name
        if body.company is not None:
            d.company = body.company
        if "phone" in body.model_fields_set:
            d.phone = body.phone or None
        if body.address is not None:
            d.address = body.address.model_dump()
        d.updated_at = ctx.now()
        s.flush()
        return _profile(d)


@use_case(
    "rewards.admin.register_requests.list",
    "GET /admin/register-requests",
    tx="read",
    roles=STAFF,
    summary="dealers and their registration requests (filter status=pending for the queue)",
)
def list_register_requests(ctx: Ctx, query: DealerQuery) -> Page[AdminDealerOut]:
    stmt = select(RewardsDealer)
    if query.status:
        stmt = stmt.where(RewardsDealer.status == query.status)
    if query.owing is not None:  # the staff's list of dealers who owe points after a reversal
        stmt = stmt.where(RewardsDealer.balance < 0 if query.owing else RewardsDealer.balance >= 0)
    if query.search:
        stmt = stmt.where(
            contains(RewardsDealer.email, query.search)
            | contains(RewardsDealer.name, query.search)
            | contains(RewardsDealer.company, query.search)
        )
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={"created_at": RewardsDealer.created_at, "email": RewardsDealer.email},
        )
    return page.map(admin_out)


@use_case(
    "rewards.admin.register_requests.get",
    "GET /admin/register-requests/{id}",
    tx="read",
    roles=STAFF,
    summary="one dealer and the state of their request",
)
def get_register_request(ctx: Ctx, id: str) -> AdminDealerOut:
    with ctx.read() as s:
        return admin_out(find_dealer(s, id))


@use_case(
    "rewards.admin.register_requests.decide",
    "POST /admin/register-requests/{id}",
    tx="write",
    roles=STAFF,
    says="{action} dealer",
    record="rewards.dealer",
    summary="approve or decline a registration request (suspend and reinstate an approved dealer)",
)
def decide_register_request(ctx: Ctx, id: str, body: DecideRequest) -> AdminDealerOut:
    now = ctx.now()
    with ctx.write() as s:
        d = find_dealer(s, id)
        d.status = states.DEALER_MACHINE.check(d.status, body.action, states.STAFF)
        if body.action in ("decline", "suspend"):
            d.decline_reason = body.reason
            d.token_version += 1  # a suspended dealer's sessions end at once
        else:
            d.decline_reason = None
        d.decided_at = now
        d.updated_at = now
        s.flush()
        if body.action == "approve":
            emit(ctx, "dealer.approved", {"dealer_id": d.id, "company": d.company})
        return admin_out(d)

"""Upgrade: each customer's credit ledger: trade-in credits in, payouts out, never paid twice.

A completed trade-in posts its credit once (the entry's id is derived from the submission, so a
second posting, or a station's replay, meets the same row). A payout is taken under the
customer's row lock (PostgreSQL ``FOR UPDATE``; SQLite: one writer) and only up to the balance in
its currency, so two payouts of the same credit cannot both pass. Payouts by bank transfer or
PayPal leave as a CSV export for the finance tool; store credit stays with the shop.
"""

from __future__ import annotations

import csv
import io
import uuid

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.upgrade import UpgradeCreditEntry, UpgradeCustomer, UpgradeSubmission
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound
from services.core.events import emit
from services.core.files import FileResult
from services.core.roles import MANAGERS
from services.upgrade import grading
from services.upgrade.schemas import CreditEntryOut, CreditLedgerOut, PayoutExportQuery, PayoutIn

_NS = uuid.UUID("5c8e1f2a-3b4d-4e6f-8a9b-0c1d2e3f4a5b")
LEDGER_LINES = 200  # the newest lines a ledger answer carries


def post_credit(s: Session, ctx: Ctx, sub: UpgradeSubmission, cents: int, currency: str) -> None:
    """The completed trade-in's credit, once."""
    eid = str(uuid.uuid5(_NS, f"{ctx.tenant_id}/{sub.id}/credit"))
    if s.get(UpgradeCreditEntry, eid) is not None:
        return
    s.add(
        UpgradeCreditEntry(
            id=eid,
            customer_id=sub.customer_id,
            submission_id=sub.id,
            kind="credit",
            amount_cents=cents,
            currency=currency,
            created_by=ctx.principal.id,
            created_at=ctx.now(),
        )
    )
    s.flush()


def balances(s: Session, customer_id: str) -> dict[str, int]:
    rows = s.execute(
        select(UpgradeCreditEntry.currency, func.sum(UpgradeCreditEntry.amount_cents))
        .where(UpgradeCreditEntry.customer_id == customer_id)
        .group_by(UpgradeCreditEntry.currency)
    ).all()
    return {cur: int(total or 0) for cur, total in rows}


def _entry_out(e: UpgradeCreditEntry) -> CreditEntryOut:
    return CreditEntryOut(
        id=e.id,
        kind=e.kind,  # type: ignore[arg-type]
        method=e.method,
        amount=grading.from_cents(e.amount_cents),
        currency=e.currency,
        submission_id=e.submission_id,
        reference=e.reference,
        created_at=e.created_at,
    )


def _ledger(s: Session, customer_id: str) -> CreditLedgerOut:
    entries = s.execute(
        select(UpgradeCreditEntry)
        .where(UpgradeCreditEntry.customer_id == customer_id)
        .order_by(UpgradeCreditEntry.created_at.desc(), UpgradeCreditEntry.id)
        .limit(LEDGER_LINES)
    ).scalars()
    return CreditLedgerOut(
        customer_id=customer_id,
        balances={cur: grading.from_cents(c) for cur, c in sorted(balances(s, customer_id).items())},
        entries=[_entry_out(e) for e in entries],
    )


def _customer(s: Session, id: str, *, lock: bool = False) -> UpgradeCustomer:
    c = s.get(UpgradeCustomer, id, with_for_update=lock or None)
    if c is None:
        raise NotFound("customer not found", {"id": id})
    return c


@use_case("upgrade.credit.mine", "GET /credit", tx="read", auth="customer", summary="my credit: balance and ledger")
def my_credit(ctx: Ctx, session: Session = SESSION) -> CreditLedgerOut:
    return _ledger(session, ctx.principal.id)


@use_case("upgrade.admin.credit.get", "GET /admin/customers/{id}/credit", tx="read", summary="a customer's credit")
def customer_credit(ctx: Ctx, id: str, session: Session = SESSION) -> CreditLedgerOut:
    return _ledger(session, _customer(session, id).id)


@use_case(
    "upgrade.admin.payouts.create",
    "POST /admin/customers/{id}/payouts",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="Payout",
    summary="pay out a customer's credit (store credit, bank transfer or PayPal), up to the balance",
)
def pay_out(ctx: Ctx, id: str, body: PayoutIn, session: Session = SESSION) -> CreditEntryOut:
    c = _customer(session, id, lock=True)  # the ledger's lock: one payout of a customer at a time
    cents = grading.to_cents(body.amount)
    balance = balances(session, c.id).get(body.currency, 0)
    if cents > balance:
        raise Conflict(
            f"the customer has {grading.from_cents(balance)} {body.currency} of credit; {body.amount} asked",
            {"reason": "insufficient_credit", "balance": float(grading.from_cents(balance)), "currency": body.currency},
        )
    e = UpgradeCreditEntry(
        id=new_id(),
        customer_id=c.id,
        kind="payout",
        method=body.method,
        amount_cents=-cents,
        currency=body.currency,
        reference=body.reference,
        created_by=ctx.principal.id,
        created_at=ctx.now(),
    )
    session.add(e)
    session.flush()
    emit(
        ctx,
        "tradein.paid_out",
        {"entry_id": e.id, "customer_id": c.id, "amount": float(body.amount), "currency": body.currency,
         "method": body.method},
    )  # fmt: skip
    return _entry_out(e)


@use_case(
    "upgrade.admin.payouts.export",
    "GET /admin/payouts/export",
    tx="read",
    roles=MANAGERS,
    summary="payouts as CSV for the finance tool (bank transfers or PayPal, a date range)",
)
def export_payouts(ctx: Ctx, query: PayoutExportQuery, session: Session = SESSION) -> FileResult:
    stmt = (
        select(UpgradeCreditEntry, UpgradeCustomer.name, UpgradeCustomer.email)
        .join(UpgradeCustomer, UpgradeCustomer.id == UpgradeCreditEntry.customer_id)
        .where(UpgradeCreditEntry.kind == "payout", UpgradeCreditEntry.method == query.method)
        .order_by(UpgradeCreditEntry.created_at, UpgradeCreditEntry.id)
    )
    if query.from_ is not None:
        stmt = stmt.where(UpgradeCreditEntry.created_at >= query.from_)
    if query.to is not None:
        stmt = stmt.where(UpgradeCreditEntry.created_at <= query.to)
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["payout_id", "date", "customer_name", "customer_email", "amount", "currency", "reference"])
    for e, name, email in session.execute(stmt):
        w.writerow(
            [e.id, e.created_at.date().isoformat(), name, email, grading.from_cents(-e.amount_cents), e.currency,
             e.reference or ""]
        )  # fmt: skip
    return FileResult(out.getvalue().encode(), "text/csv; charset=utf-8", f"payouts-{query.method}.csv", inline=False)

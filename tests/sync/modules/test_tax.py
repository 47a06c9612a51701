"""Sales tax syncs: an exemption certificate, a transaction amended and a filing approved offline;
a filed return accepted on one station and rejected on the other."""

from __future__ import annotations

from typing import Any

from tests.sync.modules.kit import Move, Platform, applied_once, conflict, ids_where, offline, row


def _certificate(s: Any, name: str) -> Any:
    return s.do("tax.certificates.create", body={"customer_name": name, "state": "CA", "exemption_number": name})


def test_tax(platform: Platform, pair: Any) -> None:
    a, b = pair
    [ready] = ids_where(a, "tax_filings", 1, status="ready")
    [filed] = ids_where(a, "tax_filings", 1, status="filed")
    tx = ids_where(a, "tax_transactions", 1)[0]
    with offline(a):
        cert = _certificate(a, "Sync Resale")
        a.do("tax.transactions.amend", id=tx, body={"tax_collected": "1.00", "reason": "coupon"})
        a.do("tax.filings.act", id=ready, body={"action": "approve"})
    applied_once(
        platform,
        a,
        b,
        [
            row("tax_certificates", cert.id, customer_name="Sync Resale"),
            row("tax_filings", ready, status="approved"),
        ],
    )  # fmt: skip (transactions and their revisions are the platform's: stations do not pull them)
    conflict(
        platform, a, b,
        theirs=Move("tax.filings.act", {"id": filed}, {"action": "accept"}),
        mine=Move("tax.filings.act", {"id": filed}, {"action": "reject"}),
        state=row("tax_filings", filed, status="accepted"),
        current="accepted",
        behind=lambda s: row("tax_certificates", _certificate(s, "Behind").id),
    )  # fmt: skip

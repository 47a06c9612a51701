"""Signing syncs: a PDF uploaded, a signer and a field added and the document sent offline; a
document sent from one station while the other adds a signer to it."""

from __future__ import annotations

from typing import Any

from services.core.files import Upload
from tests.services.sign.sign_helpers import make_pdf
from tests.sync.modules.kit import Move, Platform, applied_once, conflict, offline, row, sync_a_then_b


def _document(s: Any, title: str) -> Any:
    up = Upload("lease.pdf", "application/pdf", make_pdf(1), {"title": title})
    doc = s.do("sign.documents.create", upload=up, query={})
    signer = s.do("sign.signers.add", id=doc.id, body={"name": "Ann First", "email": "ann@example.test"})
    field = {"signer_id": signer.id, "type": "signature", "page": 1, "x": 0.1, "y": 0.7, "width": 0.4, "height": 0.08}
    s.do("sign.fields.add", id=doc.id, body=field)
    return doc, signer


def test_sign(platform: Platform, pair: Any) -> None:
    a, b = pair
    with offline(a):
        doc, signer = _document(a, "Sync lease")
        a.do("sign.documents.send", id=doc.id, body={})
    applied_once(platform, a, b, [
        row("sign_documents", doc.id, title="Sync lease", status="sent"),
        row("sign_signers", signer.id, email="ann@example.test"),
    ], also=("sign_fields",))  # fmt: skip
    doc2, _ = _document(a, "Contested lease")
    sync_a_then_b(a, b)
    conflict(
        platform, a, b,
        theirs=Move("sign.documents.send", {"id": doc2.id}, {}),
        mine=Move("sign.signers.add", {"id": doc2.id}, {"name": "Late", "email": "late@example.test"}),
        state=row("sign_documents", doc2.id, status="sent"),
        current="sent",
        behind=lambda s: row("sign_documents", _document(s, "Behind")[0].id),
    )  # fmt: skip

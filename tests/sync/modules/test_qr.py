"""QR codes sync: a code made, renamed, retargeted and a logo uploaded offline; a code moved twice."""

from __future__ import annotations

from typing import Any

from services.core.files import Upload
from tests.sync.modules.kit import PNG, Move, Platform, applied_once, both_apply, offline, row


def _code(s: Any, name: str) -> Any:
    return s.do("qr.codes.create", body={"name": name, "destination_url": "https://example.test/a"})


def test_qr(platform: Platform, pair: Any) -> None:
    a, b = pair
    with offline(a):
        folder = a.do("qr.folders.create", body={"name": "Sync folder"})
        c = _code(a, "Sync code")
        a.do("qr.codes.update", id=c.id, body={"name": "Sync code 2", "folder_id": folder.id})
        a.do("qr.codes.destination", id=c.id, body={"destination_url": "https://example.test/b"})
        a.do("qr.codes.update", id=c.id, body={"enabled": False, "fallback_url": "https://example.test/off"})
        logo = a.do("qr.logos.upload", upload=Upload("logo.png", "image/png", PNG))
    applied_once(platform, a, b, [
        row("qr_folders", folder.id, name="Sync folder"),
        row("qr_codes", c.id, name="Sync code 2", destination_url="https://example.test/b", enabled=False,
            fallback_url="https://example.test/off"),
    ])  # fmt: skip
    assert logo is not None
    # A code's only moves (enable, disable, retarget) are each allowed from either state: two
    # stations' moves of one code both apply, in the order they reach the platform, with no issue.
    c2 = _code(a, "Second code")
    both_apply(
        platform, a, b,
        theirs=Move("qr.codes.update", {"id": c2.id}, {"enabled": False}),
        mine=Move("qr.codes.destination", {"id": c2.id}, {"destination_url": "https://example.test/c"}),
        want=row("qr_codes", c2.id, enabled=False, destination_url="https://example.test/c"),
    )  # fmt: skip

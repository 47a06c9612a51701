"""Trade-in (upgrade) syncs: a valuation set, kits shipped, a device received and a photo taken
offline; a submission received and rejected on one station while the other receives it."""

from __future__ import annotations

from typing import Any

from services.core.files import Upload
from tests.sync.modules.kit import PNG, Move, Platform, applied_once, conflict, ids_where, offline, row


def _valuation(s: Any, product: str) -> Any:
    body = {"product_id": product, "product_name": f"Phone {product}", "base_value": "120.00"}
    return s.do("upgrade.valuations.create", body=body)


def test_upgrade(platform: Platform, pair: Any) -> None:
    a, b = pair
    [accepted] = ids_where(a, "upgrade_submissions", 1, status="accepted")
    shipped, contested = ids_where(a, "upgrade_submissions", 2, status="shipped")
    with offline(a):
        v = _valuation(a, "SYNC-PH-1")
        a.do("upgrade.valuations.update", id=v.id, body={"base_value": "130.00"})
        a.do("upgrade.submissions.ship", id=accepted, body={"kind": "kit"})
        a.do("upgrade.submissions.receive", id=shipped, body={})
        photo = a.do("upgrade.admin.photos.upload", upload=Upload("scratch.png", "image/png", PNG))
    applied_once(platform, a, b, [
        row("upgrade_valuations", v.id, product_name="Phone SYNC-PH-1"),
        row("upgrade_submissions", accepted, status="shipped"),
        row("upgrade_submissions", shipped, status="received"),
        row("upgrade_photos", photo.id),
    ], also=("upgrade_shipments",))  # fmt: skip
    conflict(
        platform, a, b,
        theirs=(
            Move("upgrade.submissions.receive", {"id": contested}, {}),
            Move("upgrade.submissions.reject", {"id": contested}, {"reason": "not the model declared"}),
        ),
        mine=Move("upgrade.submissions.receive", {"id": contested}, {}),
        state=row("upgrade_submissions", contested, status="declined"),
        current="declined",
        behind=lambda s: row("upgrade_valuations", _valuation(s, "SYNC-PH-2").id),
    )  # fmt: skip

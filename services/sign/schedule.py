"""Sign's periodic work on the scheduler: expiry and reminders (``POST documents/sweep`` stays as
the manual trigger of the same sweep)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from services.core.context import Ctx, Runtime
from services.core.scheduler import each_tenant, periodic
from services.sign.documents import sweep


def _sweep_one(ctx: Ctx) -> Any:
    ctx.operation = ("sign.documents.sweep", "sign.document")  # open document lists refresh
    return sweep(ctx)


@periodic("sign.sweep", every=timedelta(minutes=15), lease=timedelta(minutes=10))
def sweep_all(rt: Runtime) -> dict[str, Any]:
    """Expire documents past their date and remind signers, for every tenant."""
    done = each_tenant(rt, _sweep_one)
    return {
        "tenants": len(done),
        "expired": sum(r["expired"] for r in done.values()),
        "reminded": sum(r["reminded"] for r in done.values()),
    }

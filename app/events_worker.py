"""The webhook delivery worker in the platform server's lifespan (started with the app, stopped cleanly)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from app.settings import Settings
from services.core.context import Runtime
from services.events.delivery import DeliveryWorker
from services.events.fanout import DeliveryConfig, config_of

if TYPE_CHECKING:  # app.wiring imports this file, and the service layer must load without FastAPI
    from fastapi import FastAPI


def delivery_config(settings: Settings) -> DeliveryConfig:
    """PLATFORM_RETRY_POLICY / _RETRY_DELAYS / _WEBHOOK_TIMEOUT / _WEBHOOK_CA_BUNDLE / _WEBHOOK_ALLOW_PRIVATE."""
    return DeliveryConfig.from_settings(
        policy=settings.retry_policy,
        delays=settings.retry_delays,
        timeout=settings.webhook_timeout,
        ca_bundle=settings.webhook_ca_bundle,
        allow_private=settings.webhook_allow_private,
    )


def events_lifespan(rt: Runtime, settings: Settings) -> Callable[[FastAPI], Awaitable[Any]]:
    async def start(app: FastAPI) -> Callable[[], Awaitable[None]]:
        worker = DeliveryWorker(rt, config_of(rt))
        await worker.start()
        app.state.events_worker = worker
        if not hasattr(app.state, "workers"):
            app.state.workers = {}
        app.state.workers["webhook deliveries"] = worker.alive  # GET /health/ready asks it
        return worker.stop

    return start

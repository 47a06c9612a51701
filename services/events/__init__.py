"""The events module: event history, subscriptions and signed webhook delivery.

Platform and station split: ``emit`` (services.core.events) writes the event
on both. Only a platform runtime has the fan-out hook
(``fanout.install_platform``, called from ``app.wiring.platform_runtime``) that
turns each event into deliveries in the emitting transaction, and only the
platform server runs the delivery worker (``app.events_worker``). A station
keeps its events as local history and the sync engine carries them to the
platform, which delivers them.
"""

from services.core.modules import Module
from services.events import catalogue, health, published, replays, schedule, settings, subscriptions  # noqa: F401 - declarations

MODULE = Module(
    name="events",
    events=("webhook.endpoint_disabled",),
    position=90,
    title="Events",
)

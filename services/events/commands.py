"""Declarations of the events module (the spec's Events table plus subscription management)."""

from services.core.commands import MANAGERS, STAFF, command, query
from services.events import schemas, service

M = "events"

query(
    name="events.list",
    module=M,
    method="GET",
    path="/events",
    handler=service.list_events,
    query=schemas.EventQuery,
    roles=STAFF,
    summary="list events",
)
command(
    name="events.publish",
    module=M,
    method="POST",
    path="/events",
    handler=service.publish,
    body=schemas.PublishRequest,
    roles=STAFF,
    status_code=201,
    summary="publish an event",
)
command(
    name="events.publish_public",
    module=M,
    method="POST",
    path="/p/events",
    handler=service.publish_public,
    body=schemas.PublishRequest,
    auth="public",
    limit="public_events",
    status_code=201,
    summary="publish an event (public, rate-limited)",
)
query(
    name="events.get",
    module=M,
    method="GET",
    path="/events/{event_id}",
    handler=service.get_event,
    roles=STAFF,
    summary="read an event",
)
command(
    name="events.replay",
    module=M,
    method="POST",
    path="/events/{event_id}/replay",
    handler=service.replay_event,
    roles=MANAGERS,
    summary="replay an event",
)
command(
    name="events.replay_range",
    module=M,
    method="POST",
    path="/events/replay",
    handler=service.replay_range,
    body=schemas.ReplayRange,
    roles=MANAGERS,
    summary="replay events by type and time range",
)

query(
    name="events.subscriptions.list",
    module=M,
    method="GET",
    path="/subscriptions",
    handler=service.list_subscriptions,
    query=schemas.SubscriptionQuery,
    roles=STAFF,
    summary="list subscriptions",
)
command(
    name="events.subscriptions.create",
    module=M,
    method="POST",
    path="/subscriptions",
    handler=service.create_subscription,
    body=schemas.SubscriptionCreate,
    roles=MANAGERS,
    status_code=201,
    summary="create a subscription",
)
query(
    name="events.subscriptions.get",
    module=M,
    method="GET",
    path="/subscriptions/{sub_id}",
    handler=service.get_subscription,
    roles=STAFF,
    summary="read a subscription",
)
command(
    name="events.subscriptions.update",
    module=M,
    method="PATCH",
    path="/subscriptions/{sub_id}",
    handler=service.update_subscription,
    body=schemas.SubscriptionUpdate,
    roles=MANAGERS,
    summary="change a subscription",
)
command(
    name="events.subscriptions.delete",
    module=M,
    method="DELETE",
    path="/subscriptions/{sub_id}",
    handler=service.delete_subscription,
    roles=MANAGERS,
    summary="delete a subscription",
)
command(
    name="events.subscriptions.activate",
    module=M,
    method="POST",
    path="/subscriptions/{sub_id}/activate",
    handler=service.activate,
    roles=MANAGERS,
    summary="activate a subscription",
)
command(
    name="events.subscriptions.deactivate",
    module=M,
    method="POST",
    path="/subscriptions/{sub_id}/deactivate",
    handler=service.deactivate,
    roles=MANAGERS,
    summary="deactivate a subscription",
)
command(
    name="events.subscriptions.rotate_secret",
    module=M,
    method="POST",
    path="/subscriptions/{sub_id}/rotate-secret",
    handler=service.rotate_secret,
    body=schemas.RotateSecret,
    roles=MANAGERS,
    summary="rotate a subscription's secret",
)
command(
    name="events.subscriptions.test",
    module=M,
    method="POST",
    path="/subscriptions/{sub_id}/test",
    handler=service.send_test,
    roles=MANAGERS,
    summary="send a test event",
)
query(
    name="events.subscriptions.deliveries",
    module=M,
    method="GET",
    path="/subscriptions/{sub_id}/deliveries",
    handler=service.list_deliveries,
    query=schemas.DeliveryQuery,
    roles=STAFF,
    summary="delivery history",
)
query(
    name="events.deliveries.get",
    module=M,
    method="GET",
    path="/deliveries/{delivery_id}",
    handler=service.get_delivery,
    roles=STAFF,
    summary="read a delivery with its attempts",
)
query(
    name="events.settings.get",
    module=M,
    method="GET",
    path="/settings",
    handler=service.get_settings,
    roles=STAFF,
    summary="the tenant's events settings (public publishing on or off)",
)
command(
    name="events.settings.update",
    module=M,
    method="PUT",
    path="/settings",
    handler=service.update_settings,
    body=schemas.EventSettings,
    roles=MANAGERS,
    summary="turn public event publishing on or off",
)

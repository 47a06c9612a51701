"""Fulfillment: orders, pick/pack/ship operations, shipping labels, device settings, inbound webhooks."""

from services.fulfillment import events, service, webhooks  # noqa: F401 - declarations and event types

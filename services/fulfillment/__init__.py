"""Fulfillment: orders, pick/pack/ship operations, shipping labels, device settings, inbound webhooks."""

from services.fulfillment import auth, events, labels, orders, settings, webhooks  # noqa: F401 - declarations and event types

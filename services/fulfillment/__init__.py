"""Fulfillment: orders, pick/pack/ship operations, shipping labels, device settings, inbound webhooks."""

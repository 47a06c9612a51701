"""Upgrade: trade-in submissions, offers, kits and returns, inspection and grading, valuations."""

from services.upgrade import customers, events, inspections, offers, photos, submissions, valuations  # noqa: F401 - declarations and event types

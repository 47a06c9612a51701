"""Rewards event types beyond the spec's (sale.recorded, sale.approved, redemption.created)."""

from services.core.events import register_event_type

M = "rewards"

for _name, _desc in [
    ("sale.declined", "a receipt was declined, with the reason"),
    ("dealer.requested", "a dealer asked to join the program"),
    ("dealer.approved", "a dealer's registration request was approved"),
    ("redemption.shipped", "a redemption order was shipped"),
    ("redemption.delivered", "a redemption order was delivered"),
    ("redemption.cancelled", "a redemption order was cancelled and its points refunded"),
    ("sale.reversed", "an approved receipt was reversed: its points taken back, the points owed when already spent"),
    ("dealer.tier_changed", "a dealer reached another tier by the points earned over the tier period"),
    ("points.reminded", "a dealer was mailed that points expire soon"),
    ("points.expired", "a dealer's points passed their date and were written off"),
    ("reward_code.redeemed", "a coupon or gift card code was redeemed (used once)"),
]:
    register_event_type(_name, M, _desc)

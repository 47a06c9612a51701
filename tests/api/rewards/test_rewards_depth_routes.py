"""Rewards' new routes over HTTP on a real server: tiers for a dealer, earning rules' bad input
(400 in the error envelope, nothing stored), a gift card redeemed once (409 the second time)."""

from __future__ import annotations

import httpx

from services.core.demo import demo_id
from tests.api.rewards.test_rewards_routes import ADDRESS, BASE, dealer_login
from tests.conftest import auth_headers


def test_tiers_rules_and_codes_over_http(client: httpx.Client) -> None:
    staff = auth_headers(client, "owner@demo.test")
    token = dealer_login(client).json()["data"]["token"]
    me = {"Authorization": f"Bearer {token}"}
    tiers = client.get(f"{BASE}/tiers", headers=me)
    assert tiers.status_code == 200, tiers.text
    assert [t["name"] for t in tiers.json()["data"]] == ["Bronze", "Silver", "Gold"]
    pts = client.get(f"{BASE}/points", headers=me).json()["data"]
    assert pts["tier"]["tier"]["name"] == "Bronze" and pts["tier"]["next_tier"]["name"] == "Silver" and pts["owed"] == 0
    # Earning rules: staff only; bad input is a 400 and stores nothing.
    assert client.post(
        f"{BASE}/admin/earning-rules", json={"name": "x", "multiplier": "2"}, headers=me
    ).status_code in (401, 403)
    before = client.get(f"{BASE}/admin/earning-rules", headers=staff).json()["meta"]
    bad = client.post(
        f"{BASE}/admin/earning-rules", json={"name": "Both", "points_per_dollar": 5, "multiplier": "2"}, headers=staff
    )
    assert bad.status_code == 400 and bad.json()["code"] == "VALIDATION_ERROR"
    assert client.get(f"{BASE}/admin/earning-rules", headers=staff).json()["meta"] == before
    ok = client.post(
        f"{BASE}/admin/earning-rules", json={"name": "Saws x2", "category": "saws", "multiplier": "2"}, headers=staff
    )
    assert ok.status_code == 201 and ok.json()["data"]["multiplier"] == "2"
    # The demo's gift card: a code per unit, shown to its dealer, redeemed once.
    gift = demo_id("rewards-product", "gift")
    order = client.post(
        f"{BASE}/cart/checkout",
        json={"shipping_address": ADDRESS, "items": [{"product_id": gift, "quantity": 1}]},
        headers=me,
    )
    assert order.status_code == 201, order.text
    (code,) = order.json()["data"]["codes"]
    assert code["kind"] == "gift_card" and code["value"] == "25.00" and code["status"] == "issued"
    first = client.post(f"{BASE}/admin/codes/redeem", json={"code": code["code"]}, headers=staff)
    assert first.status_code == 200 and first.json()["data"]["status"] == "redeemed"
    second = client.post(f"{BASE}/admin/codes/redeem", json={"code": code["code"]}, headers=staff)
    assert second.status_code == 409 and code["code"] not in second.text  # the code is not echoed
    assert client.post(f"{BASE}/admin/codes/redeem", json={"code": code["code"]}, headers=me).status_code in (401, 403)

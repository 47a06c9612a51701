"""Campaigns sync: a list, a contact and an import made and changed offline. Sending is the
platform's (it applies the station's change and sends from there), so its moves are not raced here:
a list renamed on two stations keeps the name that arrived last."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from services.core.files import Upload
from tests.sync.modules.kit import Move, Platform, applied_once, assert_once, both_apply, offline, row

CSV = "email,name\r\nimp1@shop.test,Imported One\r\nimp2@shop.test,Imported Two\r\n"


def test_campaign(platform: Platform, pair: Any) -> None:
    a, b = pair
    with offline(a):
        lst = a.do("campaign.lists.create", body={"name": "Sync buyers"})
        a.do("campaign.lists.update", id=lst.id, body={"name": "Sync buyers 2"})
        c = a.do("campaign.contacts.create", body={"email": "sync@shop.test", "name": "Sy", "list_ids": [lst.id]})
        a.do("campaign.contacts.update", id=c.id, body={"status": "unsubscribed"})
        a.do("campaign.contacts.import", query={"list_id": lst.id}, upload=Upload("c.csv", "text/csv", CSV.encode()))
    applied_once(platform, a, b, [row("campaign_lists", lst.id, name="Sync buyers 2")])
    # Contacts are not pulled by stations (the table is not synced): on the platform once.
    assert_once(platform.db, a.tenant.id, [row("campaign_contacts", c.id, status="unsubscribed")], "platform")
    with platform.db.reading(a.tenant.id) as s:
        sql = text("SELECT COUNT(*) FROM campaign_contacts WHERE email LIKE 'imp_@shop.test' AND tenant_id = :t")
        assert s.execute(sql, {"t": a.tenant.id}).scalar_one() == 2
    both_apply(
        platform, a, b,
        theirs=Move("campaign.lists.update", {"id": lst.id}, {"name": "From b"}),
        mine=Move("campaign.lists.update", {"id": lst.id}, {"name": "From a"}),
        want=row("campaign_lists", lst.id, name="From a"),
    )  # fmt: skip

"""Demo content of Campaign (CONTRACT.md): contacts, a list, a segment, templates, a finished
campaign with stats, a draft, a welcome flow and an open survey. Deterministic ids: idempotent.
"""

from __future__ import annotations

from datetime import timedelta

from local_db.models.campaign import (
    Campaign,
    CampaignContact,
    CampaignEmailTemplate,
    CampaignFlow,
    CampaignList,
    CampaignMessage,
    CampaignSegment,
    CampaignSmsTemplate,
    CampaignSurvey,
    CampaignSurveyResponse,
)
from services.core.context import Ctx
from services.core.demo import demo_id, demo_seeder

FIRST = ["Ava", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hugo", "Iris", "Jonas", "Kemal", "Lena"]
LAST = ["Adams", "Brook", "Chen", "Diaz", "Evans", "Fischer", "Gupta", "Hale"]
STATUSES = ["active"] * 9 + ["unsubscribed", "bounced", "active"]


@demo_seeder
def seed_campaign(ctx: Ctx) -> None:
    if ctx.tenant is None or ctx.tenant.slug != "demo":
        return
    now = ctx.now()
    with ctx.write() as s:
        # Campaigns are never deleted: the finished one marks a seeded tenant (lists may be gone).
        if s.get(Campaign, demo_id("campaign", "spring")) is not None:
            return
        news = CampaignList(
            id=demo_id("campaign-list", "newsletter"),
            name="Newsletter",
            description="Monthly news",
            public=True,  # the demo's subscribe form: /demo/campaign/p/subscribe/<this id>
            created_at=now,
        )
        vip = CampaignList(id=demo_id("campaign-list", "vip"), name="VIP customers", description="", created_at=now)
        s.add_all([news, vip])
        contacts = []
        for i in range(48):
            name = f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]}"
            email = f"{name.lower().replace(' ', '.')}{i}@example.com"
            status = STATUSES[i % len(STATUSES)]
            c = CampaignContact(
                id=demo_id("campaign-contact", str(i)),
                email=email,
                email_key=email,
                name=name,
                phone=f"+1555010{i:02d}",
                attributes={
                    "city": ["Springfield", "Shelbyville"][i % 2],
                    "orders": i % 7,
                    "last_order_at": (now - timedelta(days=(i * 5) % 200)).isoformat(),
                },
                status=status,
                consent={
                    "source": "checkout form",
                    "at": (now - timedelta(days=300 - i)).isoformat(),
                    "ip": "203.0.113.7",
                    "text": "Send me news and offers (v2)",
                },
                list_ids=[news.id] + ([vip.id] if i % 4 == 0 else []),
                created_at=now - timedelta(days=300 - i),
                updated_at=now - timedelta(days=300 - i),
            )
            contacts.append(c)
        s.add_all(contacts)
        seg = CampaignSegment(
            id=demo_id("campaign-segment", "recent"),
            name="Bought in the last 90 days",
            rules={
                "all": [
                    {"field": "attributes.last_order_at", "op": "within_days", "value": 90},
                    {"field": "status", "op": "eq", "value": "active"},
                ]
            },
            created_at=now,
        )
        tpl = CampaignEmailTemplate(
            id=demo_id("campaign-template", "spring"),
            name="Spring sale",
            subject="{{ contact.first_name }}, the spring sale is on",
            html="<html><body><h1>Hello {{ contact.first_name }}</h1><p>20 % off everything this week.</p>"
            '<p><a href="https://shop.example.com/sale">Shop the sale</a></p>'
            '<p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p></body></html>',
            text="Hello {{ contact.first_name }},\n20 % off everything this week: https://shop.example.com/sale\n",
            created_at=now,
        )
        welcome = CampaignEmailTemplate(
            id=demo_id("campaign-template", "welcome"),
            name="Welcome",
            subject="Welcome, {{ contact.first_name }}",
            html="",
            text="Hello {{ contact.first_name }}, thanks for joining.\n",
            created_at=now,
        )
        sms = CampaignSmsTemplate(
            id=demo_id("campaign-sms", "pickup"),
            name="Pickup ready",
            body="Hi {{ contact.first_name }}, your order is ready for pickup.",
            created_at=now,
        )
        s.add_all([seg, tpl, welcome, sms])
        done = Campaign(
            id=demo_id("campaign", "spring"),
            name="Spring sale",
            channel="email",
            list_ids=[news.id],
            template_id=tpl.id,
            status="finished",
            started_at=now - timedelta(days=3),
            finished_at=now - timedelta(days=3),
            created_at=now - timedelta(days=4),
            updated_at=now - timedelta(days=3),
        )
        s.add(done)
        # One reader unsubscribed through this campaign's link: its message records it.
        left = next(c for c in contacts if c.status == "unsubscribed")
        sent = [c for c in contacts if c.status != "unsubscribed" or c is left]
        for n, c in enumerate(sent):
            bounced = c.status == "bounced"
            s.add(
                CampaignMessage(
                    id=demo_id("campaign-message", "spring", c.id),
                    campaign_id=done.id,
                    contact_id=c.id,
                    channel="email",
                    status="bounced" if bounced else "sent",
                    sent_at=now - timedelta(days=3),
                    opened_at=None if bounced or n % 3 == 0 else now - timedelta(days=2),
                    clicked_at=now - timedelta(days=2) if not bounced and n % 5 == 1 else None,
                    unsubscribed_at=now - timedelta(days=2) if c is left else None,
                )
            )
        done.total = done.recipients = len(sent)
        done.bounced = sum(1 for c in sent if c.status == "bounced")
        done.sent = done.recipients - done.bounced
        done.opened = sum(1 for n, c in enumerate(sent) if c.status != "bounced" and n % 3 != 0)
        done.clicked = sum(1 for n, c in enumerate(sent) if c.status != "bounced" and n % 5 == 1)
        done.unsubscribed = 1
        s.add(
            Campaign(
                id=demo_id("campaign", "summer"),
                name="Summer preview",
                channel="email",
                list_ids=[vip.id],
                segment_id=seg.id,
                template_id=tpl.id,
                status="draft",
                created_at=now,
                updated_at=now,
            )
        )
        s.add(
            CampaignFlow(
                id=demo_id("campaign-flow", "welcome"),
                name="Welcome series",
                trigger={"list_id": news.id},
                steps=[{"send_template_id": welcome.id}, {"wait": "P2D"}, {"send_template_id": tpl.id}],
                status="live",
                cursor_at=now,
                created_at=now,
                updated_at=now,
            )
        )
        survey = CampaignSurvey(
            id=demo_id("campaign-survey", "nps"),
            name="How did we do?",
            questions=[
                {"id": "score", "type": "rating", "label": "How likely are you to recommend us (1-10)?", "options": []},
                {
                    "id": "channel",
                    "type": "choice",
                    "label": "How did you find us?",
                    "options": ["Search", "Friend", "Store"],
                },
                {"id": "comment", "type": "text", "label": "Anything else?", "options": []},
            ],
            status="open",
            created_at=now,
        )
        s.add(survey)
        for i, (score, ch) in enumerate([(9, "Friend"), (7, "Search"), (10, "Store")]):
            s.add(
                CampaignSurveyResponse(
                    id=demo_id("campaign-response", str(i)),
                    survey_id=survey.id,
                    answers={"score": score, "channel": ch},
                    created_at=now - timedelta(hours=i),
                )
            )

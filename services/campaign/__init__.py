"""Campaign: contacts with consent, lists, imports, segments, e-mail and SMS campaigns, flows, surveys
(docs/campaign.md).

Importing the package imports the modules that declare its use cases, its job and its demo
content; the job worker's rounds run its scheduler (due sends, flow steps: ``periodic``).
The A/B test (abtest.py, its delayed job) and the event types of events.py come in through
campaigns.py and sending.py, which import them.
"""

from services.campaign import campaigns, contacts, demo, flows, lists, pages, public, sending, surveys, templates  # noqa: F401 - declarations, event types and demo seeders register on import
from services.core.modules import Module

MODULE = Module(
    name="campaign",
    events=("campaign.sent", "campaign.completed", "contact.unsubscribed", "campaign.ab_decided"),
    records=(
        "campaign.list",
        "campaign.contact",
        "campaign.segment",
        "campaign.email_template",
        "campaign.sms_template",
        "campaign.campaign",
        "campaign.flow",
        "campaign.survey",
    ),
    seeders=(demo.seed_campaign,),
    periodic=(sending.tick,),
    position=70,
    title="Campaigns",
)

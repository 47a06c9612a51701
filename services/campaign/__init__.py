"""Campaign: contacts with consent, lists, imports, segments, e-mail and SMS campaigns, flows, surveys
(docs/campaign.md).

Importing the package imports the modules that declare its use cases, its job and its demo
content; the job worker's rounds run its scheduler (due sends, flow steps).
"""

from services.campaign import campaigns, contacts, demo, flows, lists, public, sending, surveys, templates  # noqa: F401 - declarations, job kind and demo seeders
from services.core.jobs import TICKS

if sending.tick not in TICKS:
    TICKS.append(sending.tick)

"""Campaign, flow and survey states as data (docs/campaign.md), after listmonk's campaign rules.

``draft -> scheduled -> running -> finished``, ``running <-> paused``, ``running|paused ->
cancelled``, ``scheduled -> draft``; a draft may also start at once, and a paused campaign may
be scheduled again. ``finish`` is the sender's, when the last recipient is handled.
"""

from __future__ import annotations

from services.core.states import machine, move

SYSTEM = "system"
CAMPAIGN_STATES = ("draft", "scheduled", "running", "paused", "cancelled", "finished")
CAMPAIGN = machine(
    "campaign",
    CAMPAIGN_STATES,
    [
        move("draft", "schedule", "scheduled", note="POST campaigns/[id]/send {send_at}"),
        move("paused", "schedule", "scheduled", note="PATCH {status: scheduled} with send_at"),
        move("scheduled", "unschedule", "draft", note="PATCH {status: draft}"),
        move("draft", "start", "running", note="POST campaigns/[id]/send {}"),
        move("scheduled", "start", "running", note="send_at reached, or POST send {}"),
        move("paused", "resume", "running", note="PATCH {status: running} or POST send {}"),
        move("running", "pause", "paused", note="PATCH {status: paused}"),
        move("running", "cancel", "cancelled", note="PATCH {status: cancelled}"),
        move("paused", "cancel", "cancelled", note="PATCH {status: cancelled}"),
        move("running", "finish", "finished", SYSTEM, note="the last recipient handled"),
    ],
    terminal=("cancelled", "finished"),
)
# The PATCH {"status"} target -> the action that reaches it.
CAMPAIGN_TARGETS = {
    "scheduled": "schedule",
    "draft": "unschedule",
    "running": "resume",
    "paused": "pause",
    "cancelled": "cancel",
}
EDITABLE = frozenset({"draft", "scheduled", "paused"})

FLOW = machine(
    "flow",
    ("draft", "live", "paused"),
    [
        move("draft", "go_live", "live"),
        move("paused", "go_live", "live"),
        move("live", "pause", "paused"),
        move("live", "to_draft", "draft"),
        move("paused", "to_draft", "draft"),
    ],
)
FLOW_TARGETS = {"live": "go_live", "paused": "pause", "draft": "to_draft"}

SURVEY = machine(
    "survey",
    ("draft", "open", "closed"),
    [move("draft", "open", "open"), move("open", "close", "closed"), move("closed", "open", "open")],
)
SURVEY_TARGETS = {"open": "open", "closed": "close"}

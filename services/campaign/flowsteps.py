"""Flow steps: durations, enrolment, the steps' checks (conditions, no cycles) and the branch a
condition takes. Kept apart from sending.py, which runs the steps, so the use cases that check a
flow do not import the sender."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.campaign import (
    CampaignContact,
    CampaignEmailTemplate,
    CampaignFlow,
    CampaignFlowRun,
    CampaignMessage,
    CampaignSegment,
)
from services.campaign import segments
from services.core.context import Ctx
from services.core.errors import ValidationFailed

_DURATION = re.compile(r"^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$")


def parse_duration(text: str) -> timedelta | None:
    """ISO 8601 durations of weeks, days, hours, minutes and seconds (``P2D``, ``PT1H30M``)."""
    m = _DURATION.match(text or "")
    if not m or text in ("P", "PT") or text.endswith("T"):
        return None
    w, d, h, mi, sec = m.groups()
    return timedelta(
        weeks=int(w or 0), days=int(d or 0), hours=int(h or 0), minutes=int(mi or 0), seconds=float(sec or 0)
    )


def enroll(
    ctx: Ctx, s: Session, contact_ids: Iterable[str], *, list_ids: Iterable[str] = (), event_type: str | None = None
) -> int:
    """Start live flows triggered by these lists (or this event) for the contacts, once each."""
    lists = set(list_ids)
    flows = [
        f
        for f in s.scalars(select(CampaignFlow).where(CampaignFlow.status == "live"))
        if (lists and f.trigger.get("list_id") in lists) or (event_type and f.trigger.get("event_type") == event_type)
    ]
    if not flows:
        return 0
    ids = list(dict.fromkeys(contact_ids))
    n = 0
    for f in flows:
        have = set(
            s.scalars(
                select(CampaignFlowRun.contact_id).where(
                    CampaignFlowRun.flow_id == f.id, CampaignFlowRun.contact_id.in_(ids)
                )
            )
        )
        for cid in ids:
            if cid not in have:
                s.add(
                    CampaignFlowRun(
                        flow_id=f.id, contact_id=cid, step=0, status="waiting", due_at=ctx.now(), created_at=ctx.now()
                    )
                )
                n += 1
    s.flush()
    return n


# --- steps: checks, cycles, branches ---------------------------------------------------------
#
# A flow's steps run in order; a condition step jumps:
#   {"id"?, "if": {field, op, value} | {"segment_id"} | {"opened": "last"} | {"clicked": "last"},
#    "then"?: <step id> | "end", "else"?: <step id> | "end"}
# (an omitted branch goes on to the next step). Any step may carry an "id" for a branch to name.

END = "end"
_KINDS = ({"wait"}, {"send_template_id"})
MAX_HOPS = 200  # steps one run takes in one go at most: a stored flow can never spin a worker


def _name(steps: list[dict[str, Any]], i: int) -> str:
    sid = steps[i].get("id") if i < len(steps) else None
    return str(sid) if sid else f"steps[{i}]"


def targets(steps: list[dict[str, Any]]) -> list[list[int]]:
    """Each step's next steps by index (``len(steps)`` is the end). Assumes checked steps."""
    ids = {str(st["id"]): i for i, st in enumerate(steps) if st.get("id")}
    n = len(steps)
    out: list[list[int]] = []
    for i, st in enumerate(steps):
        if "if" not in st:
            out.append([i + 1])
            continue
        nxt = []
        for key in ("then", "else"):
            to = st.get(key)
            nxt.append(i + 1 if to is None else n if to == END else ids[str(to)])
        out.append(nxt)
    return out


def check_steps(s: Session, steps: list[dict[str, Any]]) -> None:
    """400 naming the step: unknown kinds, bad waits, templates, segments and branch targets, and a
    cycle (naming the steps on it: a flow must end)."""
    ids: dict[str, int] = {}
    for i, step in enumerate(steps):
        at = f"steps[{i}]"
        if not isinstance(step, dict):
            raise ValidationFailed("a step is an object", {"field": at})
        sid = step.get("id")
        if sid is not None:
            if not isinstance(sid, str) or not sid or len(sid) > 64 or sid == END:
                raise ValidationFailed('a step id is a name of 1 to 64 characters (not "end")', {"field": at})
            if sid in ids:
                raise ValidationFailed(f"two steps have the id {sid!r}", {"field": at})
            ids[sid] = i
        kind = set(step) - {"id"}
        if kind == {"wait"}:
            if parse_duration(str(step["wait"])) is None:
                raise ValidationFailed("wait is an ISO 8601 duration (P1D, PT2H)", {"field": at})
        elif kind == {"send_template_id"}:
            if s.get(CampaignEmailTemplate, str(step["send_template_id"])) is None:
                raise ValidationFailed("no e-mail template with that id", {"field": at})
        elif "if" in kind and kind <= {"if", "then", "else"}:
            _check_condition(s, step["if"], f"{at}.if")
        else:
            raise ValidationFailed(
                "a step is {wait}, {send_template_id} or {if, then, else} (each may have an id)", {"field": at}
            )
    for i, step in enumerate(steps):
        for key in ("then", "else"):
            to = step.get(key)
            if to is not None and to != END and (not isinstance(to, str) or to not in ids):
                raise ValidationFailed(
                    f'{key} names no step: a step id or "end"', {"field": f"steps[{i}].{key}", "value": to}
                )
    cycle = find_cycle(targets(steps))
    if cycle:
        names = [_name(steps, i) for i in cycle]
        raise ValidationFailed(
            f"the flow has a cycle: {' -> '.join([*names, names[0]])}", {"field": "steps", "cycle": names}
        )


def _check_condition(s: Session, cond: Any, at: str) -> None:
    if not isinstance(cond, dict):
        raise ValidationFailed("a condition is an object", {"field": at})
    if set(cond) == {"segment_id"}:
        if s.get(CampaignSegment, str(cond["segment_id"])) is None:
            raise ValidationFailed("no segment with that id", {"field": at})
    elif set(cond) in ({"opened"}, {"clicked"}):
        if next(iter(cond.values())) != "last":
            raise ValidationFailed('opened and clicked take "last" (the last message of this flow)', {"field": at})
    elif "field" in cond:
        segments.check_rules({"all": [cond]}, where=at)
    else:
        raise ValidationFailed(
            'a condition is {field, op, value}, {segment_id}, {"opened": "last"} or {"clicked": "last"}',
            {"field": at},
        )


def find_cycle(edges: list[list[int]]) -> list[int]:
    """The steps of one cycle in order, or [] (an iterative depth-first search: 50 steps at most,
    but no recursion limit to think about)."""
    n = len(edges)
    state = [0] * n  # 0 new, 1 on the path, 2 done
    for root in range(n):
        if state[root]:
            continue
        path: list[int] = [root]
        todo: list[Iterator[int]] = [iter(edges[root])]
        state[root] = 1
        while todo:
            nxt = next(todo[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                todo.pop()
                continue
            if nxt >= n or state[nxt] == 2:
                continue
            if state[nxt] == 1:
                return path[path.index(nxt) :]
            state[nxt] = 1
            path.append(nxt)
            todo.append(iter(edges[nxt]))
    return []


def branch(s: Session, flow: CampaignFlow, contact: CampaignContact, step: dict[str, Any], now: datetime) -> bool:
    """Whether a condition step holds for the contact now."""
    cond = step.get("if") or {}
    if "opened" in cond or "clicked" in cond:
        col = CampaignMessage.opened_at if "opened" in cond else CampaignMessage.clicked_at
        last = s.execute(
            select(col)
            .where(CampaignMessage.flow_id == flow.id, CampaignMessage.contact_id == contact.id)
            .order_by(CampaignMessage.sent_at.desc())
            .limit(1)
        ).first()
        return last is not None and last[0] is not None
    values = {
        "email": contact.email,
        "name": contact.name,
        "phone": contact.phone,
        "status": contact.status,
        "created_at": contact.created_at,
        "list_ids": list(contact.list_ids or []),
        "attributes": dict(contact.attributes or {}),
    }
    if "segment_id" in cond:
        seg = s.get(CampaignSegment, str(cond["segment_id"]))
        return seg is not None and segments.matches(values, seg.rules or {}, now)
    return segments.matches(values, {"all": [cond]}, now)

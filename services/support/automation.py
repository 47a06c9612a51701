"""Macros (a set of changes plus a reply, in one action) and automatic assignment (round robin).

Both are part of the helpdesk configuration (``macros``, ``auto_assign``), checked when it is saved.

* ``POST /tickets/{id}/macros/{macro_id}`` applies a macro in one transaction: its reply first (so a
  "reply and resolve" macro gives the first response before the resolution), then its changes, with
  the same rules as ``PATCH /tickets/{id}`` (state moves of the table, a known category, an agent).
* Automatic assignment: a ticket without an assignee gets the next available agent of its category
  (``agents[category_id]``, else ``agents["*"]``), leaving out disabled users, people who are no
  longer support agents and those listed ``away``; the turn is the tenant's counter
  ``support-assign-<key>``, taken in the ticket's transaction, so two tickets at once never get
  the same turn. At creation (agent, public, mail) and when an unassigned ticket gets a category.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models import Membership, User
from local_db.models.support import SupportTicket
from services.core.commands import SESSION, next_value, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.roles import STAFF
from services.support import schemas as sc
from services.support.helpdesk import MODULE, load_config
from services.support.tickets import (
    NewTicket,
    _add_message,
    _check_assignee,
    _check_category,
    _fill,
    _find_ticket,
    _one_out,
    update_ticket,
)


def check_config(ctx: Ctx, s: Session, cfg: sc.HelpdeskConfig) -> None:
    """The macros and the assignment name things that exist (400 naming the first that does not)."""
    ids = [m.id for m in cfg.macros]
    if len(ids) != len(set(ids)):
        raise ValidationFailed("macro ids must be unique")
    keys = [f.key for f in cfg.custom_fields]
    if len(keys) != len(set(keys)):
        raise ValidationFailed("custom field keys must be unique")
    for m in cfg.macros:
        _check_category(s, m.changes.category_id)
        if m.changes.assignee_id not in (None, "me"):
            _check_assignee(s, ctx, m.changes.assignee_id)
    for key, agents in cfg.auto_assign.agents.items():
        if key != "*":
            _check_category(s, key)
        for user_id in agents:
            _check_assignee(s, ctx, user_id)


@use_case(
    "support.macros.apply",
    "POST /api/tenants/{tenant}/support/tickets/{ticket_id}/macros/{macro_id}",
    tx="write",
    says="Apply macro {macro_id}",
    record="support.ticket",
    summary="apply a macro (its changes and its reply) to a ticket",
)
def apply_macro(ctx: Ctx, ticket_id: str, macro_id: str, session: Session = SESSION) -> sc.TicketOut:
    macro = next((m for m in load_config(session).macros if m.id == macro_id), None)
    if macro is None:
        raise NotFound("macro not found", {"macro_id": macro_id})
    t = _find_ticket(session, ticket_id)
    if t.state == "closed":
        raise Conflict("the ticket is closed", {"current_state": t.state, "action": "apply a macro"})
    if macro.reply is not None:
        body = _fill(macro.reply.body, t, agent_name=ctx.principal.name or "")
        _add_message(ctx, session, t, body=body, internal=macro.reply.internal, kind="agent", attachment_ids=[])
    c = macro.changes
    change: dict[str, object] = {}
    for name in ("state", "priority", "category_id"):
        if getattr(c, name) is not None:
            change[name] = getattr(c, name)
    if c.assignee_id is not None:
        change["assignee_id"] = ctx.principal.user_id if c.assignee_id == "me" else c.assignee_id
    if c.add_tags or c.remove_tags:
        change["tags"] = sorted((set(t.tags or []) | set(c.add_tags)) - set(c.remove_tags))
    if change:
        return update_ticket(ctx, t.id, sc.TicketUpdate.model_validate(change), session=session)
    return _one_out(session, t, ctx.now())


def _available(s: Session, user_ids: list[str], away: set[str]) -> list[str]:
    if not user_ids:
        return []
    rows = s.execute(
        select(User.id, User.disabled, Membership.role, Membership.user_modules)
        .join(Membership, Membership.user_id == User.id)
        .where(User.id.in_(user_ids))
    ).all()
    ok = {
        uid
        for uid, disabled, role, mods in rows
        if not disabled and role in STAFF and (role != "operator" or MODULE in (mods or []))
    }
    return [u for u in dict.fromkeys(user_ids) if u in ok and u not in away]


def auto_assign(ctx: Ctx, s: Session, t: SupportTicket | NewTicket) -> str | None:
    """Give an unassigned ticket the next available agent of its category; the agent's id, or None."""
    cfg = load_config(s).auto_assign
    if not cfg.enabled or t.assignee_id is not None:
        return None
    key = t.category_id if t.category_id in cfg.agents else "*"
    agents = _available(s, cfg.agents.get(key, []), set(cfg.away))
    if not agents:
        return None
    turn = next_value(ctx, ctx.tenant_id, f"support-assign-{key}")
    chosen = agents[(turn - 1) % len(agents)]
    t.assignee_id = chosen
    return chosen

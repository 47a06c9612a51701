"""Sending: the campaign job, the SMS client, the message a contact gets, and the scheduler tick.

A send is a job (``campaign.send``): recipients are evaluated when it starts (lists, segment,
suppression), then handled in batches; each batch re-reads its contacts' status (an
unsubscribe that lands mid-send is honoured), writes its messages and the campaign's counters
in one short transaction, reports progress, and stops when the campaign was paused or
cancelled meanwhile. Mail goes over two SMTP connections kept for the send (``Lanes``, each a
``services.core.mail.MailSession``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import smtplib
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.base import table_of
from local_db.models import Event, Tenant
from local_db.models.campaign import (
    Campaign,
    CampaignContact,
    CampaignEmailTemplate,
    CampaignFlow,
    CampaignFlowRun,
    CampaignMessage,
    CampaignSmsTemplate,
)
from services.campaign import abtest, render, tokens
from services.campaign.audience import recipients
from services.campaign.flowsteps import MAX_HOPS, branch, enroll, parse_duration, targets
from services.campaign.lookups import Counts, message_counts
from services.campaign.states import CAMPAIGN, SYSTEM
from services.core import auth
from services.core.context import SYSTEM as SYSTEM_PRINCIPAL
from services.core.context import Ctx, Runtime
from services.core.events import emit
from services.core.jobs import Report, job_kind, submit
from services.core.links import public_url
from services.core.mail import Mail, MailConfig, MailSession

log = logging.getLogger("services.campaign")
BATCH = 500
SUPPRESSED = frozenset({"unsubscribed", "bounced", "blocked"})
_MESSAGES = table_of(CampaignMessage)
_HREF = re.compile(r'href="(https?://[^"]+)"', re.IGNORECASE)


@dataclass(frozen=True)
class CampaignConfig:
    """Links start with ``PLATFORM_PUBLIC_URL``; SMS go to ``PLATFORM_SMS_URL`` (kept as files without)."""

    # None: services.core.links.public_url (PLATFORM_PUBLIC_URL, else the server's own address).
    public_url: str | None = None
    sms_url: str | None = os.environ.get("PLATFORM_SMS_URL") or None
    sms_timeout: float = 10.0
    # SMTP connections a campaign send keeps open at once (``Lanes``); 1 sends one message after another.
    connections: int = int(os.environ.get("PLATFORM_CAMPAIGN_SMTP_CONNECTIONS", "2"))


def link(ctx: Ctx, path: str) -> str:
    slug = ctx.tenant.slug if ctx.tenant else "-"
    return f"{(ctx.runtime.part(CampaignConfig).public_url or public_url(ctx.runtime))}/{slug}/campaign/api/p/{path}"


# --- one message ---------------------------------------------------------------------------


class Composer:
    """What every message of one send shares, worked out once: the templates compiled, the
    links' prefix, the links' key, each tracked address's escaped form. ``prepare`` then costs
    the recipient's own work only (rendering from the compiled parts, four HMACs)."""

    def __init__(self, ctx: Ctx, tpl: Any, channel: str = "email") -> None:
        self.channel = channel
        self.prefix = link(ctx, "")
        # The people's pages live outside /api (issue 33): the unsubscribe link a reader clicks.
        self.page_prefix = self.prefix.replace("/campaign/api/p/", "/campaign/p/")
        self.key = tokens.key(ctx.runtime)
        if channel == "email":
            self.subject = render.compiled(tpl.subject)
            self.text = render.compiled(tpl.text) if tpl.text else None
            self.html = render.compiled(tpl.html, html=True) if tpl.html else None
        else:
            self.body = render.compiled(tpl.body)
        self._quoted: dict[str, str] = {}
        # A campaign's message can be shown again in the browser (/p/view/{token}: the campaign's
        # template rendered for the contact); a flow step's message records no template, so not.
        self.viewable = True
        self.subjects: list[render.Compiled] = []  # an A/B test's subjects, by variant
        self.variants: dict[str, int] = {}  # contact id -> variant, while the test share is sent

    def ab(self, subjects: list[str], variants: dict[str, int], winner: int | None) -> None:
        """An A/B test: each tested contact gets its variant's subject; after it, the winner's."""
        if winner is not None:
            self.subject = render.compiled(subjects[winner])
        else:
            self.subjects, self.variants = [render.compiled(x) for x in subjects], variants

    def prepare(self, contact: Any, message_id: str) -> Mail | tuple[str, str]:
        """The message for one contact, rendered: a ``Mail``, or an SMS as (number, body)."""
        if self.channel == "email":
            return self.email(contact, message_id)
        return contact.phone or "", self.body.render(render.contact_values(contact))

    def email(self, contact: Any, message_id: str) -> Mail:
        """The rendered mail with its one-click unsubscribe (RFC 8058), open pixel and tracked links."""
        key, prefix = self.key, self.prefix
        token = tokens.make_with(key, "unsubscribe", message_id)
        # List-Unsubscribe keeps the API route: a mail provider's one-click POST (RFC 8058) carries
        # no form token. The link a reader follows opens the page.
        unsubscribe = f"{prefix}unsubscribe/{token}"
        unsubscribe_page = f"{self.page_prefix}unsubscribe/{token}"
        values = render.contact_values(contact)
        values["unsubscribe_url"] = unsubscribe_page
        # Every mail carries its preference centre and (a campaign's) its copy in the browser (issue 33).
        preferences = f"{self.page_prefix}preferences/{tokens.make_with(key, 'preferences', contact.id)}"
        view = f"{self.page_prefix}view/{tokens.make_with(key, 'view', message_id)}" if self.viewable else None
        values["preferences_url"] = preferences
        values["view_url"] = view or ""
        variant = self.variants.get(contact.id) if self.variants else None
        subject_tpl = self.subject if variant is None else self.subjects[variant]
        subject = subject_tpl.render(values).replace("\r", " ").replace("\n", " ")
        text = self.text.render(values) if self.text else ""
        html = self.html.render(values) if self.html else None
        if html:

            def tracked(m: re.Match[str]) -> str:
                url = m.group(1).replace("&amp;", "&")
                if url.startswith((unsubscribe, unsubscribe_page, preferences)) or (view and url.startswith(view)):
                    return m.group(0)
                quoted = self._quoted.get(url)
                if quoted is None:
                    quoted = quote(url, safe="")
                    if len(self._quoted) < 1000:  # the template's own links; not every contact's
                        self._quoted[url] = quoted
                return f'href="{prefix}c/{tokens.make_with(key, "click:" + url, message_id)}?url={quoted}"'

            html = _HREF.sub(tracked, html)
            html = _with_footer(html, view, preferences)
            pixel = f'<img src="{prefix}o/{tokens.make_with(key, "open", message_id)}" width="1" height="1" alt="">'
            html = html.replace("</body>", pixel + "</body>") if "</body>" in html else html + pixel
        seen = f"View in your browser: {view}\n" if view else ""
        text = (text or "") + f"\n\n--\n{seen}Your subscriptions: {preferences}\nUnsubscribe: {unsubscribe_page}\n"
        return Mail(
            to=contact.email,
            subject=subject,
            text=text,
            html=html,
            headers=(
                ("List-Unsubscribe", f"<{unsubscribe}>"),
                ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
            ),
        )


def email_for(ctx: Ctx, tpl: CampaignEmailTemplate, contact: Any, message_id: str) -> Mail:
    """One message outside a send (a flow's step)."""
    composer = Composer(ctx, tpl)
    composer.viewable = False
    return composer.email(contact, message_id)


def _with_footer(html: str, view: str | None, preferences: str) -> str:
    """The mail's footer links (addresses we made: nothing of the contact's in them to escape)."""
    links = f'<a href="{view}">View in your browser</a> · ' if view else ""
    footer = f'<p style="font-size:12px;color:#555">{links}<a href="{preferences}">Your subscriptions</a></p>'
    return html.replace("</body>", footer + "</body>", 1) if "</body>" in html else html + footer


class SmsClient:
    """POST ``{"to", "body"}`` as JSON to the provider; kept as files without one."""

    def __init__(self, rt: Runtime, tenant_id: str) -> None:
        self.rt, self.tenant_id = rt, tenant_id
        self.cfg = rt.part(CampaignConfig)
        self.http = httpx.Client(timeout=self.cfg.sms_timeout) if self.cfg.sms_url else None

    def __enter__(self) -> SmsClient:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.http is not None:
            self.http.close()

    def send(self, to: str, body: str) -> None:
        if self.http is None or not self.cfg.sms_url:
            folder: Path = self.rt.data_dir / "sms" / self.tenant_id
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            (folder / f"{self.rt.clock.now():%Y%m%dT%H%M%S}-{new_id()}.txt").write_text(f"To: {to}\n\n{body}\n")
            return
        r = self.http.post(self.cfg.sms_url, json={"to": to, "body": body})
        if r.status_code >= 400:
            raise SmsRefused(r.status_code, r.text[:200])


class SmsRefused(Exception):
    def __init__(self, status: int, text: str) -> None:
        super().__init__(f"SMS provider answered {status}: {text}")
        self.status = status


def prepare(ctx: Ctx, contact: Any, channel: str, tpl: Any, message_id: str) -> Mail | tuple[str, str]:
    """The message for one contact, rendered: a ``Mail``, or an SMS as (number, body)."""
    return Composer(ctx, tpl, channel).prepare(contact, message_id)


def transmit(item: Mail | tuple[str, str], mail: MailSession, sms: SmsClient) -> tuple[str, str | None]:
    """Send one prepared message; (status, error): sent | bounced | failed."""
    try:
        if isinstance(item, Mail):
            mail.send(item)
        else:
            sms.send(*item)
    except smtplib.SMTPRecipientsRefused as exc:
        codes = [code for code, _ in exc.recipients.values()]
        if any(500 <= c < 600 for c in codes):
            return "bounced", f"refused: {codes[0]}"
        return "failed", f"refused: {codes[0] if codes else '?'}"
    except SmsRefused as exc:
        return "failed", str(exc)[:300]
    except (smtplib.SMTPException, OSError, httpx.HTTPError) as exc:
        return "failed", type(exc).__name__
    return "sent", None


def deliver(
    ctx: Ctx, contact: Any, channel: str, tpl: Any, message_id: str, mail: MailSession, sms: SmsClient
) -> tuple[str, str | None]:
    """Render and send one message; (status, error)."""
    try:
        item = prepare(ctx, contact, channel, tpl, message_id)
    except Exception as exc:  # noqa: BLE001 - a template failing for one contact fails that message only
        return "failed", f"render: {str(exc)[:200]}"
    return transmit(item, mail, sms)


class Lanes:
    """A send's connections, each driven by a thread of its own: a lane takes the batch's next
    recipient, renders and sends the message, and takes the next. While one lane waits for its
    server's answer the other renders (the interpreter lock is free while a socket waits), so the
    send is not one round trip after another. ``rate`` holds the pace over all lanes together.
    Across lanes messages keep no order; SMS and kept mail use one lane."""

    def __init__(
        self, ctx: Ctx, composer: Composer, lanes: int, rate: float | None, campaign_id: str | None = None
    ) -> None:
        rt, tenant_id = ctx.runtime, ctx.tenant_id
        self.composer, self.rate = composer, rate
        self.watch = Watch(rt, tenant_id, campaign_id) if campaign_id else None
        self._stack = contextlib.ExitStack()
        self.sessions = [
            (self._stack.enter_context(MailSession(rt, tenant_id)), self._stack.enter_context(SmsClient(rt, tenant_id)))
            for _ in range(max(1, lanes))
        ]
        self.pool = (
            self._stack.enter_context(ThreadPoolExecutor(len(self.sessions), thread_name_prefix="campaign-send"))
            if len(self.sessions) > 1
            else None
        )
        self.lock = threading.Lock()
        self.busy = [threading.Lock() for _ in self.sessions]  # one thread at a time on a connection
        self.started, self.taken = time.monotonic(), 0

    def __enter__(self) -> Lanes:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def start(self, batch: list[Any], message_ids: list[str]) -> Callable[[], list[tuple[str, str | None] | None]]:
        """Send ``batch`` in the lanes' threads; the function returned waits for the end and gives
        (status, error) for each contact, in the batch's order (one lane: sent before returning);
        None for a contact not sent because the campaign stopped (it stays to be sent on resume)."""
        out: list[tuple[str, str | None] | None] = [None] * len(batch)
        todo = iter(range(len(batch)))
        watch = self.watch

        def lane(k: int) -> None:
            # A batch's lane may start before the previous batch's lane on the same connection ended.
            with self.busy[k]:
                drain(*self.sessions[k])

        def drain(mail: MailSession, sms: SmsClient) -> None:
            while True:
                with self.lock:
                    i = None if watch is not None and watch.halted else next(todo, None)
                    if i is None:
                        return
                    self.taken += 1
                    n = self.taken
                if watch is not None and watch.stopped(n):
                    return  # paused or cancelled: this contact and the rest wait for a resume
                if self.rate:  # hold the pace: the n-th message not before n / rate seconds
                    ahead = n / self.rate - (time.monotonic() - self.started)
                    if ahead > 0:
                        time.sleep(ahead)
                try:
                    item = self.composer.prepare(batch[i], message_ids[i])
                except Exception as exc:  # noqa: BLE001 - a template failing for one contact fails that message only
                    out[i] = ("failed", f"render: {str(exc)[:200]}")
                else:
                    out[i] = transmit(item, mail, sms)

        if self.pool is None:
            lane(0)
            return lambda: out
        running = [self.pool.submit(lane, k) for k in range(len(self.sessions))]

        def outcome() -> list[tuple[str, str | None] | None]:
            for r in running:
                r.result()
            return out

        return outcome


class Watch:
    """Whether the campaign is still running, asked of the database every ``EVERY`` messages a
    send takes: a pause or cancel stops the lanes within that many messages (plus one in flight
    per lane), not at the end of a 500-message batch (issue 35: about 650 went out after a pause).
    It reads through a session of its own: the lanes' threads never share the job's unit of work."""

    EVERY = 10  # one primary-key read per ten messages: about 10 µs a message at most

    def __init__(self, rt: Runtime, tenant_id: str | None, campaign_id: str) -> None:
        self.rt, self.tenant_id, self.campaign_id = rt, tenant_id, campaign_id
        self.halted = False

    def stopped(self, n: int) -> bool:
        # Only ever set, never cleared: the lanes ask from their own threads, and a read begun
        # before the pause committed ("running") may finish after another lane's read saw the
        # pause. Assigning its answer cleared the stop, and up to ten more messages went out
        # (the pause test failed now and then under load).
        if not self.halted and n % self.EVERY == 0 and self.status() != "running":
            self.halted = True
        return self.halted

    def status(self) -> str | None:
        with self.rt.db.reading(self.tenant_id) as s:
            return s.scalar(select(Campaign.status).where(Campaign.id == self.campaign_id))


# --- recipients ----------------------------------------------------------------------------


# --- the send job --------------------------------------------------------------------------


def start(ctx: Ctx, s: Session, c: Campaign, action: str) -> None:
    """Move to running in the caller's unit of work, queue the job, emit ``campaign.sent``."""
    c.status = CAMPAIGN.check(c.status, action)
    now = ctx.now()
    c.started_at = c.started_at or now
    c.updated_at = now
    if not ctx.runtime.is_station:  # the platform sends when it applies the station's change
        job = submit(ctx, "campaign.send", {"campaign_id": c.id}, title=f"Send {c.name}")
        c.job_id = job.id
    emit(ctx, "campaign.sent", {"campaign_id": c.id, "name": c.name, "channel": c.channel})


@job_kind("campaign.send", "Campaign send")
def run_send(job_ctx: Ctx, params: dict[str, Any], report: Report) -> dict[str, Any]:
    campaign_id = str(params["campaign_id"])
    # The campaign's own writes are announced as the send, so open campaign lists redraw their bars.
    ctx = Ctx(job_ctx.runtime, job_ctx.tenant, job_ctx.principal)
    ctx.operation = ("campaign.campaigns.send", "campaign.campaign")
    now = ctx.now()
    with ctx.write() as s:
        c = s.get(Campaign, campaign_id)
        if c is None or c.status != "running":
            return {"sent": 0, "stopped": c.status if c else "missing"}
        todo = recipients(s, c, now)
        c.recipients = message_counts(s, [c.id]).get(c.id, Counts()).recipients  # a resume starts from what was sent
        c.total = c.recipients + len(todo)
        channel, rate = c.channel, c.rate
        variants: dict[str, int] = {}
        ab, phase = dict(c.ab_test or {}), "all"
        if ab and channel == "email":
            todo, variants, phase = abtest.plan(ctx, s, c, todo, now)
            ab = dict(c.ab_test or {})
            if phase == "wait":
                return {"sent": 0, "waiting": "the A/B test's decision"}
        tpl_model = CampaignEmailTemplate if channel == "email" else CampaignSmsTemplate
        tpl = s.get(tpl_model, c.template_id) if c.template_id else None
        if tpl is not None:
            s.expunge(tpl)
        total, done0 = c.total, c.recipients
    if tpl is None:
        raise RuntimeError("the campaign's template is gone")
    composer = Composer(ctx, tpl, channel)
    if ab and channel == "email":
        composer.ab(ab["subjects"], variants, ab.get("winner"))
    config = ctx.runtime.part(CampaignConfig)
    report(done0, total, None)
    handled = 0
    lanes = config.connections if channel == "email" and ctx.runtime.part(MailConfig).smtp_url else 1

    def claim(batch: list[Any], message_ids: list[str]) -> None:
        """Each message's row is written (``sending``) before the batch goes on the wire: a send
        killed between the wire and ``record`` leaves rows a resume never sends again. At most
        once: a message of a killed batch may be lost (its row stays ``sending``), never doubled."""
        now = ctx.now()
        rows = [
            {
                "id": message_id,
                "tenant_id": ctx.tenant_id,
                "campaign_id": campaign_id,
                "flow_id": None,
                "contact_id": contact.id,
                "channel": channel,
                "status": "sending",
                "error": None,
                "sent_at": now,
                "variant": variants.get(contact.id),
            }
            for contact, message_id in zip(batch, message_ids, strict=True)
        ]
        if rows:
            with ctx.write() as s:
                s.connection().execute(insert(_MESSAGES), rows)

    def record(
        batch: list[Any], message_ids: list[str], outcomes: list[tuple[str, str | None] | None], end: int
    ) -> None:
        """A sent batch's outcomes and the campaign's counters, in one transaction; then progress.
        A contact the lanes left when the campaign stopped loses its claimed row: a resume sends to it."""
        nonlocal handled
        done: list[dict[str, Any]] = []
        left: list[str] = []
        counts = {"sent": 0, "failed": 0, "bounced": 0}
        bounced_ids: list[str] = []
        for contact, message_id, outcome in zip(batch, message_ids, outcomes, strict=True):
            if outcome is None:
                left.append(message_id)
                continue
            st, err = outcome
            counts[st] += 1
            if st == "bounced":
                bounced_ids.append(contact.id)
            done.append({"m_id": message_id, "m_status": st, "m_error": err, "m_at": ctx.now()})
        handled += len(done)
        with ctx.write() as s:
            conn = s.connection()
            if done:
                conn.execute(
                    update(_MESSAGES)
                    .where(_MESSAGES.c.id == bindparam("m_id"))
                    .values(status=bindparam("m_status"), error=bindparam("m_error"), sent_at=bindparam("m_at")),
                    done,
                )
            if left:
                conn.execute(delete(_MESSAGES).where(_MESSAGES.c.id.in_(left)))
            if bounced_ids:
                s.execute(
                    update(CampaignContact)
                    .where(CampaignContact.id.in_(bounced_ids))
                    .values(status="bounced", updated_at=ctx.now())
                )
            s.execute(
                update(Campaign)
                .where(Campaign.id == campaign_id)
                .values(  # kept for the record's own columns; the figures shown count the messages
                    recipients=Campaign.recipients + len(done),
                    sent=Campaign.sent + counts["sent"],
                    failed=Campaign.failed + counts["failed"],
                    bounced=Campaign.bounced + counts["bounced"],
                    updated_at=ctx.now(),
                )
            )
        report(done0 + min(end, handled), total, f"{handled} of {len(todo)}")

    with Lanes(ctx, composer, lanes, rate, campaign_id) as wire:
        # One batch on the wire while the one before is written: the lanes send batch n+1 while
        # this thread records batch n (SQLite's commit waits on the disk, not on the lock).
        travelling: tuple[list[Any], list[str], Callable[[], list[tuple[str, str | None] | None]], int] | None = None
        for i in range(0, len(todo), BATCH):
            if wire.watch is not None and wire.watch.halted:
                break  # the lanes saw the pause: record what left, then read the status below
            ids = todo[i : i + BATCH]
            with ctx.read() as s:
                status = s.scalar(select(Campaign.status).where(Campaign.id == campaign_id))
                batch = (
                    [
                        r
                        for r in s.execute(
                            select(
                                CampaignContact.id,
                                CampaignContact.email,
                                CampaignContact.name,
                                CampaignContact.phone,
                                CampaignContact.attributes,
                            ).where(CampaignContact.id.in_(ids), CampaignContact.status == "active")
                        )
                    ]
                    if status == "running"
                    else []
                )
            if status != "running":
                if travelling is not None:  # what already left is recorded before stopping
                    record(travelling[0], travelling[1], travelling[2](), travelling[3])
                return {"stopped": status, "handled": handled}
            message_ids = [new_id() for _ in batch]
            claim(batch, message_ids)
            outcome = wire.start(batch, message_ids)
            if travelling is not None:
                record(travelling[0], travelling[1], travelling[2](), travelling[3])
            travelling = (batch, message_ids, outcome, min(i + BATCH, len(todo)))
        if travelling is not None:
            record(travelling[0], travelling[1], travelling[2](), travelling[3])
        if wire.watch is not None and wire.watch.halted:
            # Stopped mid-batch: never "finished" here, even when a resume came meanwhile (its
            # own job sends to the contacts left).
            return {"stopped": "paused or cancelled", "handled": handled}
    with ctx.write() as s:
        c = s.get(Campaign, campaign_id)
        if c is None or c.status != "running":
            return {"stopped": c.status if c else "missing", "handled": handled}
        if phase == "test":  # the test share is out: the rest waits for the decision
            abtest.tested(ctx, s, c)
            return {"tested": handled, "decide_at": (c.ab_test or {}).get("decide_at")}
        c.status = CAMPAIGN.check(c.status, "finish", SYSTEM)
        c.finished_at = c.updated_at = ctx.now()
        n = message_counts(s, [c.id]).get(c.id, Counts())
        emit(
            ctx,
            "campaign.completed",
            {"campaign_id": c.id, "name": c.name, "recipients": n.recipients, "sent": n.sent, "bounced": n.bounced},
        )
        return {"recipients": n.recipients, "sent": n.sent, "failed": n.failed, "bounced": n.bounced}


# --- flows ---------------------------------------------------------------------------------


def _flows_have_work(ctx: Ctx, now: datetime) -> bool:
    """A live flow has trigger events it has not seen, or a run is due: read only."""
    with ctx.read() as s:
        for f in s.scalars(select(CampaignFlow).where(CampaignFlow.status == "live")):
            et = f.trigger.get("event_type")
            since = f.cursor_at or f.updated_at
            if et and s.execute(select(Event.id).where(Event.type == et, Event.created_at > since).limit(1)).first():
                return True
        waiting = select(CampaignFlowRun.id).where(CampaignFlowRun.status == "waiting", CampaignFlowRun.due_at <= now)
        return s.execute(waiting.limit(1)).first() is not None


def run_flows(ctx: Ctx) -> int:
    """Enroll contacts from new trigger events, then take every due run as far as it goes."""
    now = ctx.now()
    steps_done = 0
    if not _flows_have_work(ctx, now):
        return 0  # the common round: no write transaction (it would take SQLite's write lock)
    with ctx.write() as s:
        for f in s.scalars(select(CampaignFlow).where(CampaignFlow.status == "live")):
            et = f.trigger.get("event_type")
            if not et:
                continue
            since = f.cursor_at or f.updated_at
            evs = list(
                s.execute(select(Event.data, Event.created_at).where(Event.type == et, Event.created_at > since))
            )
            if not evs:
                continue
            emails = {str(d.get("email", "")).lower() for d, _ in evs if isinstance(d, dict) and d.get("email")}
            cids = {str(d["contact_id"]) for d, _ in evs if isinstance(d, dict) and d.get("contact_id")}
            if emails:
                cids |= set(s.scalars(select(CampaignContact.id).where(CampaignContact.email_key.in_(emails))))
            f.cursor_at = max(at for _, at in evs)
            enroll(ctx, s, cids, event_type=et)
        due = list(
            s.execute(
                select(CampaignFlowRun.id)
                .where(CampaignFlowRun.status == "waiting", CampaignFlowRun.due_at <= now)
                .limit(500)
            ).scalars()
        )
    if not due:
        return 0
    with MailSession(ctx.runtime, ctx.tenant_id) as mail, SmsClient(ctx.runtime, ctx.tenant_id) as sms:
        for run_id in due:
            with ctx.write() as s:
                run = s.get(CampaignFlowRun, run_id)
                if run is None or run.status != "waiting":
                    continue
                flow = s.get(CampaignFlow, run.flow_id)
                contact = s.get(CampaignContact, run.contact_id)
                if flow is None or flow.status != "live":
                    continue  # a paused flow holds its runs where they are
                if contact is None or contact.status in SUPPRESSED:
                    run.status = "stopped"
                    continue
                hops = 0
                while run.step < len(flow.steps) and hops < MAX_HOPS:
                    step = flow.steps[run.step]
                    run.step += 1
                    steps_done += 1
                    hops += 1
                    if "if" in step:  # a condition: jump to its branch (targets by index)
                        then_at, else_at = targets(flow.steps)[run.step - 1]
                        run.step = then_at if branch(s, flow, contact, step, now) else else_at
                        continue
                    if "wait" in step:
                        run.due_at = now + (parse_duration(str(step["wait"])) or timedelta())
                        break
                    tpl = s.get(CampaignEmailTemplate, str(step.get("send_template_id")))
                    if tpl is None:
                        continue
                    message_id = new_id()
                    st, err = deliver(ctx, contact, "email", tpl, message_id, mail, sms)
                    s.add(
                        CampaignMessage(
                            id=message_id,
                            flow_id=flow.id,
                            contact_id=contact.id,
                            channel="email",
                            status=st,
                            error=err,
                            # One run may send several in one go: a microsecond per hop keeps them in
                            # order, so "the last message" of a condition step is the last one sent.
                            sent_at=now + timedelta(microseconds=hops),
                        )
                    )
                    if st == "bounced":
                        contact.status = "bounced"
                        run.status = "stopped"
                        break
                else:
                    if run.step >= len(flow.steps):
                        run.status = "done"
    return steps_done


# --- the scheduler tick (the job worker's idle rounds) ----------------------------------------


def tick(rt: Runtime) -> None:
    """Start scheduled campaigns whose time came and move flows on, for every tenant."""
    if rt.is_station:
        return  # the platform sends
    now = rt.clock.now()
    with rt.db.reading(None) as s:
        due = set(s.scalars(select(Campaign.tenant_id).where(Campaign.status == "scheduled", Campaign.send_at <= now)))
        flowing = set(s.scalars(select(CampaignFlow.tenant_id).where(CampaignFlow.status == "live")))
        tenants = {t.id: auth.tenant_info(t) for t in s.scalars(select(Tenant).where(Tenant.id.in_(due | flowing)))}
    for tenant_id, info in tenants.items():
        ctx = Ctx(rt, info, SYSTEM_PRINCIPAL)
        ctx.operation = ("campaign.campaigns.send", "campaign.campaign")
        try:
            if tenant_id in due:
                with ctx.write() as s:
                    for c in s.scalars(
                        select(Campaign)
                        .where(Campaign.status == "scheduled", Campaign.send_at <= now)
                        .with_for_update()
                    ):
                        start(ctx, s, c, "start")
            if tenant_id in flowing:
                run_flows(ctx)
        except Exception:  # noqa: BLE001 - one tenant's failure leaves the others' work going
            log.exception("campaign tick failed for a tenant")

"""Campaign: public."""

from __future__ import annotations

import html
from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session

from local_db.models.campaign import (
    Campaign,
    CampaignContact,
    CampaignMessage,
)
from services.campaign import schemas as sc
from services.campaign import tokens
from services.campaign.lookups import MODULE, _require_module, _unsubscribed
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.files import FileResult, Redirect


def _mask(email: str) -> str:
    name, _, domain = email.partition("@")
    return f"{name[:1]}***@{domain}"


def _message(s: Session, ctx: Ctx, purpose: str, token: str) -> CampaignMessage:
    message_id = tokens.read(ctx.runtime, purpose, token)
    m = s.get(CampaignMessage, message_id) if message_id else None
    if m is None:
        raise NotFound("link not found", {})
    return m


def unsubscribe_by(ctx: Ctx, token: str) -> sc.UnsubscribeOut:
    now = ctx.now()
    with ctx.write() as s:
        m = _message(s, ctx, "unsubscribe", token)
        c = s.get(CampaignContact, m.contact_id)
        if c is None:
            raise NotFound("link not found", {})
        if c.status != "unsubscribed":
            was = c.status
            c.status, c.updated_at = "unsubscribed", now
            if was == "active":
                _unsubscribed(ctx, c, "link", m)
        if m.unsubscribed_at is None:
            m.unsubscribed_at = now
            if m.campaign_id:
                s.execute(
                    update(Campaign).where(Campaign.id == m.campaign_id).values(unsubscribed=Campaign.unsubscribed + 1)
                )
        return sc.UnsubscribeOut(unsubscribed=True, email=_mask(c.email))


@use_case(
    "campaign.public.unsubscribe",
    "POST /p/unsubscribe/{token}",
    tx="own",
    auth="public",
    summary="one-click unsubscribe (RFC 8058): no sign-in, the signed link is the proof",
)
def unsubscribe(ctx: Ctx, token: str) -> sc.UnsubscribeOut:
    _require_module(ctx)
    return unsubscribe_by(ctx, token)


_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unsubscribe</title>
<meta name="viewport" content="width=device-width"></head><body style="font-family:sans-serif;max-width:32em;margin:3em auto">
<h1>Unsubscribe</h1><p>Stop receiving these messages at {email}?</p>
<form method="post"><button type="submit" style="font-size:1.2em">Unsubscribe</button></form></body></html>"""


@use_case(
    "campaign.public.unsubscribe_page",
    "GET /p/unsubscribe/{token}",
    tx="read",
    auth="public",
    summary="the unsubscribe page (a GET changes nothing: mail scanners follow links)",
)
def unsubscribe_page(ctx: Ctx, token: str) -> FileResult:
    _require_module(ctx)
    with ctx.read() as s:
        m = _message(s, ctx, "unsubscribe", token)
        c = s.get(CampaignContact, m.contact_id)
        if c is None:
            raise NotFound("link not found", {})
        page = _PAGE.format(email=html.escape(_mask(c.email)))  # the page is made here: its text escaped here
        return FileResult(page.encode(), "text/html; charset=utf-8", page=True)


_GIF = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")


def _track(ctx: Ctx, m: CampaignMessage, s: Session, click: bool) -> None:
    now = ctx.now()
    bump: dict[str, Any] = {}
    if m.opened_at is None:  # a click proves the open too (images are often blocked)
        m.opened_at = now
        bump["opened"] = Campaign.opened + 1
    if click and m.clicked_at is None:
        m.clicked_at = now
        bump["clicked"] = Campaign.clicked + 1
    if bump and m.campaign_id:
        s.execute(update(Campaign).where(Campaign.id == m.campaign_id).values(**bump))


@use_case("campaign.public.open", "GET /p/o/{token}", tx="own", auth="public", summary="open tracking pixel")
def track_open(ctx: Ctx, token: str) -> FileResult:
    if ctx.tenant is not None and MODULE in ctx.tenant.modules:
        with ctx.write() as s:
            message_id = tokens.read(ctx.runtime, "open", token)
            m = s.get(CampaignMessage, message_id) if message_id else None
            if m is not None:
                _track(ctx, m, s, click=False)
    return FileResult(_GIF, "image/gif")  # the same pixel whatever the token: nothing to probe


@use_case(
    "campaign.public.click",
    "GET /p/c/{token}",
    tx="own",
    auth="public",
    summary="click tracking: 302 to the link the message carried (the token signs the address)",
)
def track_click(ctx: Ctx, token: str, query: sc.TrackQuery) -> Redirect:
    _require_module(ctx)
    url = query.url or ""
    message_id = tokens.read(ctx.runtime, "click:" + url, token)
    if not message_id or not url.startswith(("http://", "https://")):
        raise NotFound("link not found", {})
    with ctx.write() as s:
        m = s.get(CampaignMessage, message_id)
        if m is None:  # another tenant's message (its token under this slug): unknown here
            raise NotFound("link not found", {})
        _track(ctx, m, s, click=True)
    return Redirect(url)

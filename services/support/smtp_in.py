"""The helpdesk's SMTP endpoint (aiosmtpd): mail sent straight to the platform.

``PLATFORM_SUPPORT_SMTP_LISTEN=host:port`` turns it on in the platform server (its lifespan, in
one worker process: the others find the port taken and leave it). A recipient is accepted only
when it is a tenant's helpdesk address (``mail.address`` of the helpdesk configuration): any other
is refused at ``RCPT`` (550), so the endpoint relays nothing. ``DATA`` files the mail for each
tenant it is addressed to (services/support/inbound.py) before answering 250: a sender that gets
no answer sends again, and the Message-ID makes that a duplicate. A failure answers 451 (try
later); bytes that are no mail 550.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from services.core.context import Runtime
from services.support.inbound import Received, helpdesk_addresses, receive, tenant_ctx

log = logging.getLogger("services.support.smtp_in")
ADDRESSES_KEPT = 30.0  # seconds: a new helpdesk address is reachable this soon


class HelpdeskHandler:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        self._addresses: dict[str, str] = {}
        self._read_at = -ADDRESSES_KEPT

    def tenant_of(self, address: str) -> str | None:
        if time.monotonic() - self._read_at >= ADDRESSES_KEPT:
            self._addresses, self._read_at = helpdesk_addresses(self.rt), time.monotonic()
        return self._addresses.get(address.lower())

    async def handle_RCPT(  # noqa: N802 - aiosmtpd's hook name
        self, server: SMTP, session: Session, envelope: Envelope, address: str, rcpt_options: list[str]
    ) -> str:
        found = await asyncio.get_running_loop().run_in_executor(None, self.tenant_of, address)
        if found is None:
            return "550 5.1.1 no helpdesk at this address"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    def _file(self, slug: str, raw: bytes) -> Received:
        return receive(tenant_ctx(self.rt, slug), raw, source="smtp")

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802
        raw = envelope.original_content or b""
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        tenants = dict.fromkeys(t for t in (self.tenant_of(a) for a in envelope.rcpt_tos) if t)
        loop = asyncio.get_running_loop()
        try:
            outcomes = [await loop.run_in_executor(None, self._file, slug, raw) for slug in tenants]
        except Exception as e:  # noqa: BLE001 - the sender keeps the mail and tries again
            log.warning("inbound mail not filed: %s", type(e).__name__)
            return "451 4.3.0 not filed, try again later"
        refused = [o for o in outcomes if o.outcome == "refused"]
        if refused:
            return f"550 5.6.0 {refused[0].detail}"[:500]
        return "250 2.0.0 filed"


def listen_address() -> tuple[str, int] | None:
    value = os.environ.get("PLATFORM_SUPPORT_SMTP_LISTEN", "").strip()
    if not value:
        return None
    host, _, port = value.rpartition(":")
    return (host.strip("[]") or "127.0.0.1", int(port))


def start(rt: Runtime, host: str, port: int) -> Controller:
    """Listen on ``host:port`` until ``controller.stop()``."""
    controller = Controller(
        HelpdeskHandler(rt),
        hostname=host,
        port=port,
        data_size_limit=rt.upload_limit * 2,  # what inbound.receive takes; over it 552 at DATA
        server_hostname="helpdesk",
    )
    controller.start()
    return controller

"""Mail that leaves the platform: one small client, sent after the change commits.

With ``PLATFORM_SMTP_URL`` (``smtp://host:port`` or ``smtps://user:password@host:port``)
messages go to that server; without it they are kept as ``.eml`` files under the
data dir's ``mail/<tenant id>/`` and listed (owners and admins) at
``GET /api/tenants/<t>/mail``, so the records workspace shows them. A station
sends nothing: the platform sends when it applies the station's change.
"""

from __future__ import annotations

import base64
import contextlib
import logging
import re
import secrets
import smtplib
import ssl
from dataclasses import dataclass
from datetime import UTC, datetime
from email.header import Header
from email.message import EmailMessage
from email.policy import default as default_policy
from email.utils import formataddr, formatdate, make_msgid, parseaddr, parsedate_to_datetime
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlparse

from pydantic import BaseModel

from local_db import new_id
from services.core.commands import use_case
from services.core.context import Ctx, Runtime
from services.core.errors import Forbidden, NotFound
from services.core.files import FileResult
from services.core.pagination import ListQuery, Page, page_spec
from services.core.roles import MANAGERS

log = logging.getLogger("services.mail")
T = "/api/tenants/{tenant}"
_NAME = re.compile(r"^[0-9]{8}T[0-9]{6}-[0-9a-f-]{36}\.eml$")


@dataclass(frozen=True)
class MailConfig:
    """``PLATFORM_SMTP_URL`` and the sender address (``app.wiring``)."""

    smtp_url: str | None = None
    sender: str = "Platform <no-reply@platform.invalid>"
    timeout: float = 20.0


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    text: str
    reply_to: str | None = None
    html: str | None = None  # an alternative part beside the text (campaign mail)
    headers: tuple[tuple[str, str], ...] = ()  # extra headers (List-Unsubscribe, ...)
    # Carries a link for its recipient alone (a signing link): kept mail is listed but never shown.
    private: bool = False
    # The Message-ID (without angle brackets) when the sender stores it to thread answers; else one is made.
    message_id: str | None = None
    # Files sent along: (file name, media type such as "application/pdf", bytes).
    attachments: tuple[tuple[str, str, bytes], ...] = ()


class MailOut(BaseModel):
    id: str
    to: str
    subject: str
    sent_at: datetime | None


def send_after_commit(ctx: Ctx, mail: Mail) -> None:
    """Send ``mail`` once the open unit of work commits (never when it rolls back)."""
    if ctx.runtime.is_station:
        return  # the platform sends it when it applies this station's change
    rt, tenant_id = ctx.runtime, ctx.tenant_id
    ctx.uow.after.append(lambda: deliver(rt, tenant_id, mail))


def build(cfg: MailConfig, mail: Mail, now: datetime) -> EmailMessage:
    msg = EmailMessage(policy=default_policy)
    msg["From"] = cfg.sender
    msg["To"] = mail.to
    msg["Subject"] = mail.subject
    msg["Date"] = formatdate(now.timestamp(), localtime=False)
    msg["Message-ID"] = f"<{mail.message_id}>" if mail.message_id else make_msgid(domain="platform.invalid")
    if mail.reply_to:
        msg["Reply-To"] = mail.reply_to
    for name, value in mail.headers:
        msg[name] = value
    if mail.private:
        msg[PRIVATE_HEADER] = "1"
    msg.set_content(mail.text)
    if mail.html:
        msg.add_alternative(mail.html, subtype="html")
    for filename, media, content in mail.attachments:
        main, _, sub = media.partition("/")
        msg.add_attachment(content, maintype=main, subtype=sub.split(";")[0].strip(), filename=filename)
    return msg


def deliver(rt: Runtime, tenant_id: str, mail: Mail) -> None:
    cfg = rt.part(MailConfig)
    msg = build(cfg, mail, rt.clock.now())
    if cfg.smtp_url:
        _smtp(cfg, msg)
        return
    deliver_message(rt, tenant_id, msg)


def _smtp(cfg: MailConfig, msg: EmailMessage) -> None:
    with _connect(cfg) as smtp:
        smtp.send_message(msg)


class MailSession:
    """Many messages over one SMTP connection (campaign sends); kept as .eml without a server.

    ``send`` raises ``smtplib.SMTPRecipientsRefused`` when the server refuses the recipient
    (a bounce for the caller) and other ``smtplib.SMTPException``/``OSError`` on failures;
    after a failure the connection is opened again on the next message.
    """

    def __init__(self, rt: Runtime, tenant_id: str) -> None:
        self.rt, self.tenant_id = rt, tenant_id
        self.cfg = rt.part(MailConfig)
        self._smtp: smtplib.SMTP | None = None
        self._from = parseaddr(self.cfg.sender)[1] or self.cfg.sender

    def __enter__(self) -> MailSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._smtp is not None:
            with contextlib.suppress(smtplib.SMTPException, OSError):  # the connection is gone already
                self._smtp.quit()
            self._smtp = None

    def send(self, mail: Mail) -> None:
        data = build_bulk(self.cfg, mail, self.rt.clock.now())
        if not self.cfg.smtp_url:
            keep_bytes(self.rt, self.tenant_id, data)
            return
        if self._smtp is None:
            self._smtp = _connect(self.cfg)
        try:
            self._transaction(self._smtp, mail.to, data)
        except smtplib.SMTPRecipientsRefused:
            raise  # smtplib reset the transaction: the connection serves the next message
        except (smtplib.SMTPException, OSError):
            self._smtp = None  # opened again for the next message
            raise

    def _transaction(self, smtp: smtplib.SMTP, to: str, data: bytes) -> None:
        """``smtp.sendmail(self._from, [to], data)`` with its replies and errors, the addresses
        sent as they are (parsing both again for every message was a tenth of a bulk send's CPU)."""
        smtp.ehlo_or_helo_if_needed()
        size = f" SIZE={len(data)}" if smtp.does_esmtp and smtp.has_extn("size") else ""
        code, resp = smtp.docmd("mail", f"FROM:<{self._from}>{size}")
        if code != 250:
            self._reset(smtp, code)
            raise smtplib.SMTPSenderRefused(code, resp, self._from)
        code, resp = smtp.docmd("rcpt", f"TO:<{to}>")
        if code not in (250, 251):
            self._reset(smtp, code)
            raise smtplib.SMTPRecipientsRefused({to: (code, resp)})
        code, resp = smtp.data(data)
        if code != 250:
            self._reset(smtp, code)
            raise smtplib.SMTPDataError(code, resp)

    @staticmethod
    def _reset(smtp: smtplib.SMTP, code: int) -> None:
        if code == 421:  # the server is closing the connection
            smtp.close()
            return
        with contextlib.suppress(smtplib.SMTPServerDisconnected):
            smtp.rset()


def build_bulk(cfg: MailConfig, mail: Mail, now: datetime) -> bytes:
    """The message as bytes, written directly: the headers and parts ``build`` makes (text, and
    html as an alternative; base64 UTF-8 bodies, RFC 2047 words for non-ASCII headers), without
    the email package's per-header parsing and folding, which was most of a bulk send's CPU."""
    head = [
        ("From", _from_header(cfg.sender)),
        ("To", mail.to),
        ("Subject", mail.subject),
        ("Date", formatdate(now.timestamp(), localtime=False)),
        ("Message-ID", f"<{mail.message_id}>" if mail.message_id else make_msgid(domain="platform.invalid")),
        *((("Reply-To", mail.reply_to),) if mail.reply_to else ()),
        *mail.headers,
        ("MIME-Version", "1.0"),
    ]
    out: list[bytes] = []
    for key, value in head:
        value = value.replace("\r", " ").replace("\n", " ")
        if not value.isascii():
            value = Header(value, "utf-8").encode().replace("\n", "\r\n")
        out.append(f"{key}: {value}".encode())

    def part(text: str, subtype: str) -> list[bytes]:
        encoded = base64.b64encode(text.encode())  # in lines of 76, as encodebytes, in one pass
        return [
            f'Content-Type: text/{subtype}; charset="utf-8"'.encode(),
            b"Content-Transfer-Encoding: base64",
            b"",
            b"\r\n".join([encoded[i : i + 76] for i in range(0, len(encoded), 76)]),
        ]

    if not mail.html:
        return b"\r\n".join(out + part(mail.text, "plain")) + b"\r\n"
    boundary = f"=={secrets.token_hex(16)}"
    out += [f'Content-Type: multipart/alternative; boundary="{boundary}"'.encode(), b""]
    for text, subtype in ((mail.text, "plain"), (mail.html, "html")):
        out += [f"--{boundary}".encode(), *part(text, subtype)]
    out.append(f"--{boundary}--".encode())
    return b"\r\n".join(out) + b"\r\n"


@lru_cache(maxsize=16)
def _from_header(sender: str) -> str:
    """The From header of ``sender`` (a display name in RFC 2047 words when not ASCII): one per send."""
    name, addr = parseaddr(sender)
    return formataddr((name, addr), charset="utf-8") if name else sender


def deliver_message(rt: Runtime, tenant_id: str, msg: EmailMessage) -> None:
    """Keep a built message as .eml (no SMTP server configured)."""
    keep_bytes(rt, tenant_id, msg.as_bytes())


def keep_bytes(rt: Runtime, tenant_id: str, data: bytes) -> None:
    folder = mail_dir(rt, tenant_id)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = folder / f"{rt.clock.now():%Y%m%dT%H%M%S}-{new_id()}.eml"
    path.write_bytes(data)
    path.chmod(0o600)


_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def _connect(cfg: MailConfig) -> smtplib.SMTP:
    url = urlparse(cfg.smtp_url or "")
    host, secure = url.hostname or "localhost", url.scheme == "smtps"
    port = url.port or (465 if secure else 25)
    smtp: smtplib.SMTP = (
        smtplib.SMTP_SSL(host, port, timeout=cfg.timeout, context=ssl.create_default_context())
        if secure
        else smtplib.SMTP(host, port, timeout=cfg.timeout)
    )
    try:
        tls = secure
        if not secure:
            # The server's extensions are known after EHLO: without it STARTTLS was never seen.
            smtp.ehlo_or_helo_if_needed()
            if smtp.has_extn("starttls"):  # the TLS context (the CA store: tens of ms) only then
                smtp.starttls(context=ssl.create_default_context())
                tls = True
        if url.username:
            if not tls and host not in _LOOPBACK:
                raise smtplib.SMTPNotSupportedError(
                    f"{host} offers no TLS: the SMTP password is not sent in clear (use smtps:// or a server with STARTTLS)"
                )
            smtp.login(unquote(url.username), unquote(url.password or ""))
    except BaseException:
        smtp.close()
        raise
    return smtp


PRIVATE_HEADER = "X-Platform-Private"


def mail_dir(rt: Runtime, tenant_id: str) -> Path:
    return rt.data_dir / "mail" / tenant_id


def _read(path: Path) -> MailOut:
    from email import message_from_bytes

    msg = message_from_bytes(path.read_bytes(), policy=default_policy)
    when = parsedate_to_datetime(msg["Date"]) if msg.get("Date") else None
    if when is not None and when.tzinfo is None:
        when = when.replace(tzinfo=UTC)  # "-0000": UTC without a stated offset
    return MailOut(id=path.stem, to=str(msg.get("To", "")), subject=str(msg.get("Subject", "")), sent_at=when)


@use_case(
    "platform.mail.list",
    f"GET {T}/mail",
    tx="read",
    roles=MANAGERS,
    module="platform",
    summary="list the mail kept on this platform (no SMTP server configured)",
)
def list_mail(ctx: Ctx, query: ListQuery) -> Page[MailOut]:
    spec = page_spec(query, sortable=["sent_at"], default_sort="-sent_at")
    folder = mail_dir(ctx.runtime, ctx.tenant_id)
    names = sorted((p.name for p in folder.glob("*.eml") if _NAME.match(p.name)), reverse=spec.descending)
    term = (query.search or "").strip().lower()
    if term:  # a search reads every message; without one only the page is read
        found = [m for m in (_read(folder / n) for n in names) if term in (m.to + " " + m.subject).lower()]
        return Page(found[spec.offset : spec.offset + spec.limit], len(found), spec)
    return Page([_read(folder / n) for n in names[spec.offset : spec.offset + spec.limit]], len(names), spec)


@use_case(
    "platform.mail.get",
    f"GET {T}/mail/{{id}}",
    tx="read",
    roles=MANAGERS,
    module="platform",
    summary="one kept message (message/rfc822)",
)
def get_mail(ctx: Ctx, id: str) -> FileResult:
    path = mail_dir(ctx.runtime, ctx.tenant_id) / f"{id}.eml"
    if not _NAME.match(path.name) or not path.is_file():
        raise NotFound("message not found", {"id": id})
    content = path.read_bytes()
    if f"\n{PRIVATE_HEADER}: 1".encode() in content.split(b"\n\n", 1)[0].replace(b"\r\n", b"\n"):
        raise Forbidden("this message carries a private link for its recipient alone; it is not shown")
    return FileResult(content, "message/rfc822", path.name)

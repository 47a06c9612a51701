"""Binary results (labels, photos, attachments) returned by service functions."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FileResult:
    content: bytes
    media_type: str
    filename: str | None = None
    inline: bool = True


@dataclass(frozen=True)
class Upload:
    """An uploaded file as the service layer sees it (raw body or one multipart part)."""

    filename: str
    content_type: str
    content: bytes
    # The other (text) parts of a multipart upload: the fields sent beside the file.
    fields: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Redirect:
    """A redirect answer (the QR scan address): the HTTP door answers ``status`` with ``Location``."""

    location: str
    status: int = 302

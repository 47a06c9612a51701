"""Binary results (labels, photos, attachments) returned by service functions."""

from __future__ import annotations

from dataclasses import dataclass, field

from services.core.filesafety import clean_filename


@dataclass(frozen=True)
class FileResult:
    content: bytes
    media_type: str
    filename: str | None = None
    # Shown in the browser when the type is a safe image or a PDF (services.core.filesafety).
    inline: bool = True
    # A page the platform made itself (its text escaped where it was made): sent as declared, inline.
    page: bool = False
    # The HTTP status of the answer (a page saying a QR code is gone: 410).
    status: int = 200


@dataclass(frozen=True)
class Upload:
    """An uploaded file as the service layer sees it (raw body or one multipart part)."""

    filename: str
    content_type: str
    content: bytes
    # The other (text) parts of a multipart upload: the fields sent beside the file.
    fields: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Every upload, from any door, keeps only a clean last name segment (no path to store).
        object.__setattr__(self, "filename", clean_filename(self.filename))


@dataclass(frozen=True)
class Redirect:
    """A redirect answer (the QR scan address): the HTTP door answers ``status`` with ``Location``."""

    location: str
    status: int = 302

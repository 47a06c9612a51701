"""One file-name cleaner and one download answer for every upload and download.

* ``clean_filename``: the last path segment only (``../../x.png`` and ``C:\\x\\y.png`` keep their
  last part), no control characters, no leading dots (no hidden or relative names), at most
  ``MAX_NAME`` characters with the extension kept. Every ``Upload`` is cleaned as it is made, so
  no service stores a path; every download is cleaned again (names stored before the rule).
* ``sniff``: the type the bytes are, from their first bytes, whatever name or type was sent.
* ``download_type`` and ``disposition``: a file is sent as its sniffed type when it has one
  (a declared ``image/png`` whose bytes are HTML goes out as HTML, and therefore as an
  attachment), and inline only when it is a safe image or a PDF and the service allows it.
  The HTTP door adds ``X-Content-Type-Options: nosniff`` to every file answer.
"""

from __future__ import annotations

import re
import unicodedata

MAX_NAME = 200
FALLBACK = "file"
# Types a browser shows without running anything: raster images and PDF.
INLINE_SAFE = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf"})
IMAGES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_MARKUP = (b"<!doctype html", b"<html", b"<head", b"<body", b"<script", b"<iframe", b"<svg", b"<?xml", b"<img")


def clean_filename(name: str | None) -> str:
    """A file name safe to store and to send back: no directories, no control characters."""
    n = unicodedata.normalize("NFC", name or "")
    n = _CONTROL.sub("", n)
    n = re.split(r"[/\\]", n)[-1].strip()
    n = n.lstrip(".").strip()
    if len(n) > MAX_NAME:
        stem, dot, ext = n.rpartition(".")
        ext = ext[:20] if dot and stem else ""
        n = (stem if ext else n)[: MAX_NAME - len(ext) - 1].rstrip() + ("." + ext if ext else "")
    return n or FALLBACK


def sniff(content: bytes) -> str | None:
    """The type of these bytes from their signature, or None when they say nothing known.

    Markup (HTML, SVG, XML) counts as a type of its own: a file named ``x.png`` whose bytes
    start like a page is a page, refused where images are expected and never shown inline."""
    head = content[:512]
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if head[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1"):
        return "image/heic"
    if head.startswith(b"%PDF-"):
        return "application/pdf"
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if text.startswith(b"<svg") or (text.startswith(b"<?xml") and b"<svg" in text):
        return "image/svg+xml"
    if text.startswith(_MARKUP):
        return "text/html"
    return None


def download_type(content: bytes, declared: str) -> str:
    """What a file is sent as: its sniffed type; the declared one when the bytes say nothing."""
    found = sniff(content)
    if found is not None:
        return found
    declared = (declared or "").split(";")[0].strip().lower()
    # A declared safe type the bytes do not confirm is not trusted to be shown inline.
    if declared in INLINE_SAFE:
        return "application/octet-stream"
    return declared or "application/octet-stream"


def disposition_kind(media_type: str, inline_wanted: bool) -> str:
    """``inline`` only for a safe image or a PDF the service lets be shown; else ``attachment``."""
    return "inline" if inline_wanted and media_type.split(";")[0].strip().lower() in INLINE_SAFE else "attachment"


def is_image(content: bytes) -> bool:
    """The bytes are a raster image (PNG, JPEG, GIF, WebP), whatever their name says."""
    return sniff(content) in IMAGES

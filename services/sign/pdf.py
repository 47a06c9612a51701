"""The sealed PDF: field values stamped on their pages, an audit certificate page appended, then one
PAdES signature of the tenant's certificate over the whole file.

One PDF toolkit does the reading, merging and signing: pyHanko (it must sign anyway, and it brings
its own PDF reader and writer, so no second PDF library such as pypdf is added). reportlab, the
project's PDF writer, draws the overlays and the audit page; pyHanko imports each drawn page as a
form XObject and paints it over the original page (or as a new last page).
"""

from __future__ import annotations

import asyncio
import io
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from asn1crypto import keys as asn1_keys
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.generic import pdf_name
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.misc import PdfError
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.pdf_utils.writer import copy_into_new_writer
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from services.core.pdf import BOLD, FONT, register_fonts


class BadPdf(ValueError):
    """The file does not read as a PDF (or is encrypted)."""


def page_boxes(content: bytes) -> list[tuple[float, float, float, float]]:
    """Each page's MediaBox (x0, y0, x1, y1); raises BadPdf when the file does not read."""
    try:
        r = PdfFileReader(io.BytesIO(content), strict=False)
        if r.encrypted:
            raise BadPdf("encrypted PDFs are not accepted")
        out = []
        for i in range(int(r.root["/Pages"]["/Count"])):
            page, _ = r.find_page_for_modification(i)
            box = _mediabox(page.get_object())
            out.append(box)
        if not out:
            raise BadPdf("the PDF has no pages")
        return out
    except BadPdf:
        raise
    except (PdfError, KeyError, ValueError, TypeError, IndexError, AttributeError) as exc:
        raise BadPdf(f"the file does not read as a PDF ({type(exc).__name__})") from exc


def _mediabox(page: generic.DictionaryObject) -> tuple[float, float, float, float]:
    node: Any = page
    while node is not None:
        if "/MediaBox" in node:
            x0, y0, x1, y1 = (float(v) for v in node["/MediaBox"])
            return x0, y0, x1, y1
        node = node.get("/Parent")
    return 0.0, 0.0, float(A4[0]), float(A4[1])


@dataclass
class Stamp:
    """One value to draw: fractions of the page, origin top left (as fields are placed)."""

    page: int  # 1-based
    x: float
    y: float
    width: float
    height: float
    kind: str  # signature, initials, name, email, date, text, checkbox
    text: str = ""
    image: bytes | None = None  # a drawn signature (PNG)


@dataclass
class AuditLine:
    at: datetime
    action: str
    actor: str
    email: str | None
    ip: str | None
    document_sha256: str


@dataclass
class Certificate:
    title: str
    document_id: str
    original_sha256: str
    signers: list[tuple[str, str, str, str]]  # name, email, role, status
    trail: list[AuditLine] = field(default_factory=list)


def _overlay(stamps: list[Stamp], w: float, h: float) -> bytes:
    register_fonts()
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(w, h), invariant=1)
    for st in stamps:
        left, top = st.x * w, h - st.y * h
        bw, bh = st.width * w, st.height * h
        bottom = top - bh
        if st.image is not None:
            c.drawImage(ImageReader(io.BytesIO(st.image)), left, bottom, bw, bh, preserveAspectRatio=True, mask="auto")
        elif st.kind == "checkbox":
            side = min(bw, bh)
            c.rect(left, bottom, side, side)
            if st.text.lower() in ("true", "1", "yes", "x", "on"):
                c.setFont(BOLD, side * 0.9)
                c.drawString(left + side * 0.15, bottom + side * 0.15, "X")
        else:
            # Signatures typed as text read in the bold face; the size follows the box.
            size = max(6.0, min(bh * 0.7, 28.0))
            c.setFont(BOLD if st.kind in ("signature", "initials") else FONT, size)
            text = st.text
            while text and c.stringWidth(text) > bw and size > 6:
                size -= 0.5
                c.setFont(c._fontname, size)
            c.drawString(left + 1, bottom + (bh - size) / 2 + 1, text)
    c.showPage()
    c.save()
    return buf.getvalue()


def _audit_page(cert: Certificate, sealed_by: str) -> bytes:
    register_fonts()
    buf = io.BytesIO()
    w, h = A4
    c = canvas.Canvas(buf, pagesize=A4, invariant=1)
    y = h - 20 * mm
    c.setFont(BOLD, 15)
    c.drawString(18 * mm, y, "Audit certificate")
    y -= 9 * mm
    c.setFont(FONT, 9)
    for line in (
        f"Document: {cert.title}",
        f"Document id: {cert.document_id}",
        f"SHA-256 of the document as sent: {cert.original_sha256}",
        f"Sealed by: {sealed_by}",
    ):
        c.drawString(18 * mm, y, line[:120])
        y -= 5 * mm
    y -= 3 * mm
    c.setFont(BOLD, 11)
    c.drawString(18 * mm, y, "Signers")
    y -= 6 * mm
    c.setFont(FONT, 9)
    for name, email, role, status in cert.signers:
        c.drawString(18 * mm, y, f"{name} <{email or 'in person'}>  {role}  {status}"[:120])
        y -= 5 * mm
    y -= 3 * mm
    c.setFont(BOLD, 11)
    c.drawString(18 * mm, y, "Trail")
    y -= 6 * mm
    c.setFont(FONT, 7.5)
    for a in cert.trail:
        if y < 15 * mm:
            break  # one page: the full trail is served at /api/sign/<token>/audit
        c.drawString(
            18 * mm,
            y,
            f"{a.at:%Y-%m-%d %H:%M:%S} UTC  {a.action:<9} {a.actor} {a.email or ''}  ip {a.ip or '-'}"[:130],
        )
        y -= 3.8 * mm
        c.drawString(24 * mm, y, f"document sha256 {a.document_sha256}")
        y -= 4.6 * mm
    c.showPage()
    c.save()
    return buf.getvalue()


def _paint(writer: object, stream_ref: generic.IndirectObject, page_ix: int, x0: float, y0: float) -> None:
    name = pdf_name(f"/SignStamp{page_ix}")
    content = b"q 1 0 0 1 %.4f %.4f cm %s Do Q" % (x0, y0, name.encode() if isinstance(name, str) else bytes(name))
    stream = writer.add_object(generic.StreamObject(stream_data=b"q " + content + b" Q"))  # type: ignore[attr-defined]
    res = generic.DictionaryObject({pdf_name("/XObject"): generic.DictionaryObject({name: stream_ref})})
    writer.add_stream_to_page(page_ix, stream, resources=res)  # type: ignore[attr-defined]


def stamp_and_append(original: bytes, stamps: list[Stamp], cert: Certificate, sealed_by: str) -> bytes:
    """The original with each page's values painted over it and the audit page appended."""
    boxes = page_boxes(original)
    reader = PdfFileReader(io.BytesIO(original), strict=False)
    writer = copy_into_new_writer(reader)
    by_page: dict[int, list[Stamp]] = {}
    for st in stamps:
        if 1 <= st.page <= len(boxes):
            by_page.setdefault(st.page, []).append(st)
    for page, items in by_page.items():
        x0, y0, x1, y1 = boxes[page - 1]
        over = PdfFileReader(io.BytesIO(_overlay(items, x1 - x0, y1 - y0)))
        xobj = writer.import_page_as_xobject(over, 0)
        _paint(writer, xobj, page - 1, x0, y0)
    audit = PdfFileReader(io.BytesIO(_audit_page(cert, sealed_by)))
    xobj = writer.import_page_as_xobject(audit, 0)
    name = pdf_name("/SignAudit")
    contents = writer.add_object(generic.StreamObject(stream_data=b"q " + bytes(name, "ascii") + b" Do Q"))
    new_page = generic.DictionaryObject(
        {
            pdf_name("/Type"): pdf_name("/Page"),
            pdf_name("/MediaBox"): generic.ArrayObject(
                [generic.FloatObject(0), generic.FloatObject(0), generic.FloatObject(A4[0]), generic.FloatObject(A4[1])]
            ),
            pdf_name("/Contents"): contents,
            pdf_name("/Resources"): generic.DictionaryObject(
                {pdf_name("/XObject"): generic.DictionaryObject({name: xobj})}
            ),
        }
    )
    writer.insert_page(new_page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# --- the certificate -------------------------------------------------------------------


@dataclass(frozen=True)
class KeyPair:
    cert_pem: bytes
    key_pem: bytes  # PKCS#8, unencrypted: only ever held in memory, stored sealed
    chain_pem: bytes = b""


def self_signed(common_name: str, now: datetime) -> KeyPair:
    """A self-signed ECDSA P-256 sealing certificate, ten years (validators will say its issuer is not
    trusted until the owner installs one from a trusted CA: docs/sign.md). P-256 rather than RSA: the
    key is made and loaded in milliseconds (an RSA-3072 key's checks on load cost more than the whole
    seal), and Acrobat, poppler and pyHanko all validate ECDSA signatures."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, common_name[:64]),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Platform seal"),
        ]
    )
    start = now.replace(tzinfo=UTC) if now.tzinfo is None else now
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start - timedelta(days=1))
        .not_valid_after(start + timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=True,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    return KeyPair(
        cert.public_bytes(serialization.Encoding.PEM),
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()),
    )


@dataclass(frozen=True)
class CertInfo:
    subject: str
    issuer: str
    fingerprint_sha256: str
    not_before: datetime
    not_after: datetime


def check_pair(cert_pem: bytes, key_pem: bytes, password: bytes | None = None) -> tuple[CertInfo, bytes]:
    """Read an owner's certificate and key; the key re-encoded unencrypted (to be sealed). ValueError
    when either does not read or the key does not match the certificate."""
    cert = x509.load_pem_x509_certificate(cert_pem)
    key = serialization.load_pem_private_key(key_pem, password=password)
    pub = cert.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    if (
        key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        != pub
    ):
        raise ValueError("the private key does not belong to the certificate")
    clear = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return info(cert_pem), clear


def info(cert_pem: bytes) -> CertInfo:
    cert = x509.load_pem_x509_certificate(cert_pem)
    return CertInfo(
        subject=cert.subject.rfc4514_string(),
        issuer=cert.issuer.rfc4514_string(),
        fingerprint_sha256=cert.fingerprint(hashes.SHA256()).hex(),
        not_before=cert.not_valid_before_utc,
        not_after=cert.not_valid_after_utc,
    )


def seal(content: bytes, pair: KeyPair, *, reason: str, location: str = "") -> bytes:
    """One PAdES (ETSI.CAdES.detached) signature over the whole file, as an incremental update."""
    # Imported here, not at the top: pyhanko.sign pulls in aiohttp and its certificate validator
    # (~0.6 s), and every station loads this module at start-up while only sealing signs.
    from pyhanko.sign import fields as sig_fields
    from pyhanko.sign import signers
    from pyhanko_certvalidator.registry import SimpleCertificateStore

    cert = asn1_x509.Certificate.load(
        x509.load_pem_x509_certificate(pair.cert_pem).public_bytes(serialization.Encoding.DER)
    )
    key = serialization.load_pem_private_key(pair.key_pem, password=None)
    key_der = key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    chain = [
        asn1_x509.Certificate.load(c.public_bytes(serialization.Encoding.DER))
        for c in (x509.load_pem_x509_certificates(pair.chain_pem) if pair.chain_pem.strip() else [])
    ]
    signer = signers.SimpleSigner(
        signing_cert=cert,
        signing_key=asn1_keys.PrivateKeyInfo.load(key_der),
        cert_registry=SimpleCertificateStore.from_certs([cert, *chain]),
    )
    meta = signers.PdfSignatureMetadata(
        field_name="PlatformSeal",
        md_algorithm="sha256",
        subfilter=sig_fields.SigSeedSubFilter.PADES,
        reason=reason[:200],
        location=location[:200] or None,
    )

    def sign() -> bytes:
        w = IncrementalPdfFileWriter(io.BytesIO(content), strict=False)
        return signers.sign_pdf(w, meta, signer=signer).getvalue()

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return sign()
    # pyHanko signs through asyncio.run(), which a thread running an event loop (the desktop's qasync
    # loop, an async caller) cannot do: sign on a thread of its own.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(sign).result()

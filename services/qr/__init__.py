"""QR Codes: dynamic codes with a scan redirect, analytics from stored counters, templates, folders, barcodes."""

from services.qr import service  # noqa: F401 - declarations

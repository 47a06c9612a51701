"""QR Codes: dynamic codes with a scan redirect, analytics from stored counters, templates, folders, barcodes."""

from services.qr import analytics, barcodes, codes, folders, scan, templates, v1  # noqa: F401 - declarations

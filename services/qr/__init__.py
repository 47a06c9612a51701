"""QR Codes: dynamic codes with a scan redirect, analytics from stored counters, templates, folders, barcodes."""

from services.core.modules import Module
from services.qr import analytics, barcodes, codes, demo, folders, scan, templates, v1  # noqa: F401 - declarations

MODULE = Module(
    name="qr",
    events=("qr.scanned", "qr.threshold_reached"),
    records=("qr.code", "qr.template", "qr.folder", "qr.barcode"),
    seeders=(demo.seed,),
    position=10,
    title="QR codes",
)

"""The transfer slip: a label (4x6 in, on the station's label format) that travels with the goods,
with the transfer's human number (``TR-`` and the start of its id) as a Code 128 barcode. Scanning
it in the stock count ships the transfer at the sending location and receives it at the other end."""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path

from PIL import Image
from PySide6.QtGui import QImage

from services.core.labels import label_image
from services.inventory.schemas import TransferOut
from views.shell.printing import Printed, PrintSetup, label_size, print_pages


def slip_code(transfer_id: str) -> str:
    """The code a transfer goes by on the list and its slip: ``TR-`` and the start of its id."""
    return f"TR-{transfer_id[:8].upper()}"


def _slip(transfer: TransferOut, names: dict[str, str]) -> tuple[str, list[str], str]:
    """Title, lines and barcode of the slip; ``names``: location id -> code, for the from/to line."""
    frm, to = names.get(transfer.from_location_id, "?"), names.get(transfer.to_location_id, "?")
    lines = [f"{frm} -> {to}", f"status: {transfer.status.replace('_', ' ')}"]
    # The label has room for about ten lines; the rest is summed up rather than cut off silently.
    shown = transfer.lines[:9]
    lines += [f"{ln.quantity} x {ln.sku}"[:34] for ln in shown]
    if len(transfer.lines) > len(shown):
        lines.append(f"... and {len(transfer.lines) - len(shown)} more lines")
    return f"Transfer {slip_code(transfer.id)}", lines, slip_code(transfer.id)


def slip_image(transfer: TransferOut, names: dict[str, str], size: str = "4x6in") -> Image.Image:
    """The slip as a label image of ``size`` (services.core.labels.LABEL_SIZES)."""
    return label_image(*_slip(transfer, names), size)


def print_slip(data_dir: Path, transfer: TransferOut, names: dict[str, str], prefs: Mapping[str, object]) -> Printed:
    """On the station's label printer in its label format, or a PDF file of that format."""
    setup = PrintSetup.of(prefs)
    buf = io.BytesIO()
    slip_image(transfer, names, label_size(setup.label_format)).save(buf, "PNG")
    target = data_dir / "slips" / f"slip-{slip_code(transfer.id)}.pdf"
    return print_pages([QImage.fromData(buf.getvalue())], "label", setup, target)

"""The transfer slip: a 4x6 page that travels with the goods, with the transfer's human number
(``TR-`` and the start of its id) as a Code 128 barcode. Scanning it in the stock count ships
the transfer at the sending location and receives it at the other end."""

from __future__ import annotations

from pathlib import Path

from services.core.labels import label_pdf
from services.inventory.schemas import TransferOut


def slip_code(transfer_id: str) -> str:
    """The code a transfer goes by on the list and its slip: ``TR-`` and the start of its id."""
    return f"TR-{transfer_id[:8].upper()}"


def slip_pdf(transfer: TransferOut, names: dict[str, str]) -> bytes:
    """``names``: location id -> code, for the from/to line."""
    frm, to = names.get(transfer.from_location_id, "?"), names.get(transfer.to_location_id, "?")
    lines = [f"{frm} -> {to}", f"status: {transfer.status.replace('_', ' ')}"]
    # The label has room for about ten lines; the rest is summed up rather than cut off silently.
    shown = transfer.lines[:9]
    lines += [f"{ln.quantity} x {ln.sku}"[:34] for ln in shown]
    if len(transfer.lines) > len(shown):
        lines.append(f"... and {len(transfer.lines) - len(shown)} more lines")
    return label_pdf(f"Transfer {slip_code(transfer.id)}", lines, slip_code(transfer.id))


def save_slip(data_dir: Path, transfer: TransferOut, names: dict[str, str]) -> Path:
    target = data_dir / "slips" / f"slip-{slip_code(transfer.id)}.pdf"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(slip_pdf(transfer, names))
    return target

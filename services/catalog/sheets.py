"""Reading and writing the catalogue's spreadsheets: CSV (RFC 4180, UTF-8) and XLSX.

XLSX is read with python-calamine (Rust's calamine: about ten times openpyxl's read-only speed on
100,000 rows, which the import's 5,000 rows/s needs) and written with openpyxl's write-only mode.
A workbook is a ZIP of XML: before calamine sees it, every member is inflated once with a ceiling
on the bytes it may unpack (a ZIP bomb stops there) and every cell reference of each sheet is
read, so a sheet that claims or holds a cell far out (``XFD1048576``: calamine keeps a dense grid,
billions of cells) is refused without allocating anything.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

from services.core.errors import ValidationFailed

MAX_ROWS = 100_000  # data rows per file (the header not counted)
MAX_COLUMNS = 200
MAX_UNPACKED = 256 * 1024 * 1024  # bytes a workbook may inflate to, all members together
_CELL_REF = re.compile(rb'<(?:c|row)\b[^>]*?\sr="([A-Z]{0,3})([0-9]+)"')
_DIMENSION = re.compile(rb'<dimension\b[^>]*?\sref="([^"]*)"')
_REF = re.compile(r"([A-Z]{1,3})([0-9]+)")


def refuse(message: str, **details: Any) -> ValidationFailed:
    return ValidationFailed(message, {"fields": [{"field": "file", "message": message, "type": "file"}], **details})


def _column_number(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def _check_extent(letters: str, row: int) -> None:
    if row > MAX_ROWS + 1:
        raise refuse(f"the sheet reaches row {row}: at most {MAX_ROWS:,} rows after the header")
    if letters and _column_number(letters) > MAX_COLUMNS:
        raise refuse(f"the sheet reaches column {letters}: at most {MAX_COLUMNS} columns")


def _inspect_workbook(data: bytes) -> None:
    """Inflate each member under the ceiling and read each sheet's extent (refuses a bomb)."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise refuse("the file is neither a CSV text nor an XLSX workbook") from None
    with zf:
        names = zf.namelist()
        if "xl/workbook.xml" not in names:
            raise refuse("the file is a ZIP archive but not an XLSX workbook")
        unpacked = 0
        for info in zf.infolist():
            sheet = info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml")
            tail = b""
            try:
                with zf.open(info) as member:
                    while chunk := member.read(1 << 20):
                        unpacked += len(chunk)
                        if unpacked > MAX_UNPACKED:
                            raise refuse(f"the workbook unpacks to over {MAX_UNPACKED // (1 << 20)} MiB")
                        if sheet:
                            # A reference may straddle two chunks: the tail of the last one is read again.
                            text = tail + chunk
                            for m in _DIMENSION.finditer(text):
                                for letters, row in _REF.findall(m.group(1).decode("ascii", "replace")):
                                    _check_extent(letters, int(row))
                            for m in _CELL_REF.finditer(text):
                                _check_extent(m.group(1).decode(), int(m.group(2)))
                            tail = text[-200:]
            except (zipfile.BadZipFile, EOFError, ValueError) as exc:
                raise refuse(f"the workbook is damaged ({type(exc).__name__})") from None


def _cell(v: Any) -> str:
    """A spreadsheet cell as the text a CSV would hold (numbers typed into Excel come back as floats)."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)
    if isinstance(v, datetime | date):
        return v.isoformat()
    return str(v)


def _read_xlsx(data: bytes) -> list[list[str]]:
    _inspect_workbook(data)
    from python_calamine import CalamineWorkbook

    try:
        sheet = CalamineWorkbook.from_filelike(io.BytesIO(data)).get_sheet_by_index(0)
        rows = sheet.to_python(skip_empty_area=False)
    except Exception as exc:  # noqa: BLE001 - calamine's errors name the broken part, never the data
        raise refuse(f"the workbook cannot be read ({type(exc).__name__})") from None
    return [[_cell(v) for v in row] for row in rows]


def _read_csv(data: bytes) -> list[list[str]]:
    if b"\x00" in data[:65536]:
        raise refuse("the file is not a CSV text (it holds binary data)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise refuse('the CSV is not UTF-8 text: save it as "CSV UTF-8"') from None
    first = text.split("\n", 1)[0]
    # Spreadsheets in many European locales write ";" between cells: the header says which.
    delimiter = max((",", ";", "\t"), key=first.count)
    try:
        return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))
    except csv.Error as exc:
        raise refuse(f"the CSV is malformed: {exc}") from None


def read_rows(data: bytes) -> list[list[str]]:
    """The header and the data rows of a CSV or XLSX file, cells as text; refused (400, nothing
    stored) when it is neither, is damaged, too large, or has more than ``MAX_ROWS`` rows."""
    if not data.strip():
        raise refuse("the file is empty")
    if data[:4] == b"PK\x03\x04":
        rows = _read_xlsx(data)
    elif data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        raise refuse("an old Excel .xls workbook: save it as .xlsx or CSV")
    else:
        rows = _read_csv(data)
    # Trailing blank lines (a spreadsheet's formatted but empty rows) are not rows.
    while rows and not any(c.strip() for c in rows[-1]):
        rows.pop()
    if not rows:
        raise refuse("the file is empty")
    if len(rows) - 1 > MAX_ROWS:
        raise refuse(f"the file has {len(rows) - 1:,} rows: at most {MAX_ROWS:,} per import", rows=len(rows) - 1)
    if len(rows[0]) > MAX_COLUMNS:
        raise refuse(f"the header has {len(rows[0])} columns: at most {MAX_COLUMNS}")
    return rows


def write_csv(header: list[str], rows: Iterable[list[str]]) -> bytes:
    out = io.StringIO(newline="")
    w = csv.writer(out, lineterminator="\r\n")  # RFC 4180
    w.writerow(header)
    w.writerows(rows)
    # A BOM, so that Excel opens the file as UTF-8 (import reads it either way).
    return b"\xef\xbb\xbf" + out.getvalue().encode()


def write_xlsx(header: list[str], rows: Iterable[list[str]]) -> bytes:
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    from openpyxl.styles import Font

    wb = Workbook(write_only=True)
    ws = wb.create_sheet("products")
    bold = Font(bold=True)
    cells = []
    for name in header:
        c = WriteOnlyCell(ws, value=name)
        c.font = bold
        cells.append(c)
    ws.append(cells)

    def cell(v: str) -> Any:
        if v == "":
            return None
        v = ILLEGAL_CHARACTERS_RE.sub("", v)
        if v.startswith("="):
            # Text, never a formula: a product named "=HYPERLINK(...)" must not run in Excel.
            c = WriteOnlyCell(ws, value=v)
            c.data_type = "s"
            return c
        return v

    for row in rows:
        # Every cell as text: a GTIN or SKU of digits keeps its leading zeros.
        ws.append([cell(v) for v in row])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()

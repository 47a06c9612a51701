"""Every column of every synced table survives the pull's JSON: encode_row, JSON, decode_row gives
back the value the station's database accepts (a date column of a new module was a sync failure)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import LargeBinary

from local_db.base import UTCDateTime
from services.sync.protocol import decode_row, encode_row, synced_tables

SAMPLES: dict[type, Any] = {
    datetime: datetime(2026, 2, 28, 23, 59, 1, 5000, tzinfo=UTC),
    date: date(2024, 2, 29),
    Decimal: Decimal("1234.50"),
    bool: True,
    int: 42,
    float: 0.25,
    str: "Ärger – 😀",
    dict: {"a": [1, "b"]},
    list: [1, 2],
    bytes: b"\x00\xffbytes",
}


def _sample(col: Any) -> Any:
    if isinstance(col.type, UTCDateTime):
        return SAMPLES[datetime]
    if isinstance(col.type, LargeBinary):
        return SAMPLES[bytes]
    try:
        return SAMPLES.get(col.type.python_type, "x")
    except NotImplementedError:
        return "x"


def test_every_synced_column_round_trips_through_json() -> None:
    tables = synced_tables()
    assert len(tables) > 20
    seen: set[type] = set()
    for table in tables.values():
        row = {c.name: _sample(c) for c in table.columns}
        back = decode_row(table, json.loads(json.dumps(encode_row(table, row))))
        for c in table.columns:
            assert back[c.name] == row[c.name], (table.name, c.name, back[c.name], row[c.name])
            assert type(back[c.name]) is type(row[c.name]), (table.name, c.name)
            seen.add(type(row[c.name]))
        assert decode_row(table, {c.name: None for c in table.columns}) == {c.name: None for c in table.columns}
    assert {datetime, date, str, int, bool} <= seen

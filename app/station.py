"""A station's data dir: its database, identity and demo seeding."""

from __future__ import annotations

import uuid
from pathlib import Path

from app.wiring import station_runtime
from services.core.context import Runtime
from services.core.demo import seed_demo


def station_id(data_dir: Path) -> str:
    """A stable id for this station, made on first start and kept in the data dir."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "station-id"
    if not path.exists():
        path.write_text(f"station-{uuid.uuid4().hex[:12]}")
    return path.read_text().strip()


def open_station(data_dir: Path) -> Runtime:
    return station_runtime(data_dir, station_id(data_dir))


def seed_data_dir(data_dir: Path) -> None:
    rt = open_station(data_dir)
    try:
        seed_demo(rt)
    finally:
        rt.db.dispose()

"""``python -m app sync`` on a headless station: its sync issues in words, and the decisions on them,
as real processes against a real platform process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from local_db.models.fulfillment import FulfillmentOrder
from services.sync import station as st
from tests.sync.conftest import PlatformProcess

ROOT = Path(__file__).resolve().parents[2]
ORDER = "0e53b15f-2b2e-57bb-8a50-f04c6b372262"  # SO-1021, packed in the demo data


def app(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env
    )


def test_a_headless_station_lists_its_sync_issues_in_words_and_decides_them(
    platform: PlatformProcess, make_station: Any
) -> None:
    a, b = make_station("cli-a", platform), make_station("cli-b", platform)
    # Both ship SO-1021; B syncs first, so A's ship is refused there.
    b.do("fulfillment.orders.operate", body={"operation": "ship"}, id=ORDER)
    assert b.sync().issues == 0
    a.do("fulfillment.orders.operate", body={"operation": "ship"}, id=ORDER)
    d = str(a.data_dir)

    r = app("sync", "--data-dir", d, "--once")
    assert r.returncode == 0, r.stderr
    [issue] = st.issues(a.ctx())
    short = issue.id[:8]
    assert "demo: Synced " in r.stdout and "· 1 sync issue" in r.stdout
    assert f"issue {short} (conflict): Ship order SO-1021" in r.stdout  # the number people know
    assert "The platform refused it: " in r.stdout and "on the platform it is now shipped" in r.stdout
    assert f"Choose: sync retry {short}, sync keep-theirs {short}" in r.stdout

    listed = app("sync", "--data-dir", d, "issues")
    assert listed.returncode == 0 and f"issue {short} (conflict): Ship order SO-1021" in listed.stdout
    assert "last synced " in listed.stdout and "nothing waiting" in listed.stdout

    wrong = app("sync", "--data-dir", d, "discard", short)
    assert wrong.returncode == 1 and "not a choice for this issue (choose: retry, keep-theirs)" in wrong.stderr
    unknown = app("sync", "--data-dir", d, "retry", "ffffffff")
    assert unknown.returncode == 1 and "no sync issue starts with 'ffffffff'" in unknown.stderr
    assert app("sync", "--data-dir", d, "retry").returncode == 2  # no ID: a usage error, one line

    kept = app("sync", "--data-dir", d, "keep-theirs", short)
    assert kept.returncode == 0, kept.stderr
    assert "Ship order 0e53b15f: kept the platform's version" in kept.stdout
    assert st.issues(a.ctx()) == []
    # The platform's version is the one here now: B's tracking number.
    numbers = []
    for s in (a, b):
        with s.rt.db.reading(s.tenant.id) as ses:
            q = select(FulfillmentOrder.tracking_number).where(FulfillmentOrder.id == ORDER)
            numbers.append(ses.execute(q).scalar_one())
    assert numbers[0] == numbers[1]
    after = app("sync", "--data-dir", d, "issues")
    assert "issue " not in after.stdout and "sync issue" not in after.stdout


def test_sync_issues_on_a_station_never_registered_says_so(make_station: Any) -> None:
    a = make_station("cli-alone")
    r = app("sync", "--data-dir", str(a.data_dir), "issues")
    assert r.returncode == 2 and "not registered with a platform" in r.stderr


def test_sync_resync_downloads_everything_again_with_progress_and_repairs_what_was_lost(
    platform: PlatformProcess, make_station: Any
) -> None:
    from sqlalchemy import text

    a = make_station("cli-resync", platform)
    assert a.sync().difference == {}
    with a.rt.db.transaction(a.tenant.id) as ses:
        ses.execute(text("DELETE FROM support_messages WHERE tenant_id = :t"), {"t": a.tenant.id})
    r = app("sync", "--data-dir", str(a.data_dir), "--resync")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    progress = [line for line in lines if line.startswith("demo: Downloading everything again… ")]
    assert progress and progress[-1].split("… ")[1].split(" of ")[0] == progress[-1].split(" of ")[1]
    assert any(line.startswith("demo: Synced ") for line in lines)
    # Everything came again, so nothing differed after it; the lost records are back.
    assert "differed" not in r.stdout
    with a.rt.db.reading(a.tenant.id) as ses:
        assert ses.execute(text("SELECT COUNT(*) FROM support_messages")).scalar_one() > 0
    assert a.sync().pulled == 0
    bad = app("sync", "--data-dir", str(a.data_dir), "--resync", "issues")
    assert bad.returncode == 2 and "takes no action" in bad.stderr


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [("--batch", "0", "--batch must be at least 1"), ("--max-backoff", "0.5", "--max-backoff must be at least 1")],
)
def test_a_batch_or_back_off_below_one_is_refused_before_anything_runs(
    tmp_path: Path, option: str, value: str, said: str
) -> None:
    r = app("sync", "--data-dir", str(tmp_path / "station"), "--once", option, value)
    assert r.returncode == 2 and said in r.stderr
    assert not (tmp_path / "station").exists()  # nothing made: no data dir, no station id

"""The scheduler across processes: N due jobs, 2 worker processes, one killed (-9) mid-job.

    python tests/bench/bench_scheduler.py [N]      (default 10,000; BENCH_SMOKE=1: 300)

Checks (a non-zero exit when one fails): every job ran to its end exactly once ("done" once in the
log and ``runs == 1`` on its row), the job in flight in the killed process was started again once
by the other after its lease. Prints the wall time and the jobs a second.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sqlalchemy import func, insert, select  # noqa: E402

import local_db.models  # noqa: E402, F401 - every table registered
from local_db import Database  # noqa: E402
from local_db.base import new_id, table_of, utcnow  # noqa: E402
from local_db.models.scheduler import ScheduledJob  # noqa: E402
from tests.bench.timing import size  # noqa: E402

WORKER = Path(__file__).parent / "scheduler_worker.py"


def counts(log: Path, word: str) -> Counter[str]:
    if not log.exists():
        return Counter()
    return Counter(ln.split()[1] for ln in log.read_text().splitlines() if ln.startswith(word + " "))


def left(db: Database) -> int:
    with db.reading(None) as s:
        return int(s.execute(select(func.count()).where(ScheduledJob.status != "done")).scalar_one())


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else size(10_000, 300)
    victim_job = n // 3  # blocks in whichever process takes it; that process is killed there
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/sched.db"
        log = Path(tmp) / "runs.log"
        db = Database(url, migrate=True)
        now = utcnow()
        rows = []
        for i in range(n):
            job_id = new_id()
            rows.append(
                {
                    "id": job_id,
                    "name": f"test.mark:{job_id}",
                    "kind": "test.mark",
                    "params": {"n": i, "block": i == victim_job},
                    "status": "scheduled",
                    "next_run_at": now,
                    "attempts": 0,
                    "max_attempts": 5,
                    "runs": 0,
                    "created_at": now,
                }
            )
        with db.transaction(None) as s:
            s.execute(insert(table_of(ScheduledJob)), rows)
        t0 = time.perf_counter()
        workers = [
            subprocess.Popen([sys.executable, str(WORKER), url, str(log), "1.0"], stdout=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        try:
            gate = Path(f"{log}.blocked-{victim_job}")
            deadline = time.monotonic() + 600
            while not gate.exists():
                assert time.monotonic() < deadline, "the blocking job never started"
                time.sleep(0.01)
            holder = int(gate.read_text())
            victim = next(w for w in workers if w.pid == holder)
            victim.kill()
            victim.wait(30)
            killed_at = time.perf_counter() - t0
            # Asked of the database, 5 times a second: reading the log as it grows would take the CPU
            # the two workers share with this process.
            while left(db) > 0:
                assert time.monotonic() < deadline, f"{left(db)} of {n} jobs not run"
                time.sleep(0.2)
            wall = time.perf_counter() - t0
        finally:
            for w in workers:
                if w.poll() is None:
                    w.kill()
                    w.wait(30)
        done, started = counts(log, "done"), counts(log, "start")
        with db.reading(None) as s:
            runs = Counter(r for (r,) in s.execute(select(ScheduledJob.runs)))
        db.dispose()
    twice = sum(1 for c in done.values() if c > 1)
    print(f"scheduler: {n} due jobs, 2 worker processes, one killed -9 mid-job at {killed_at:.1f} s")
    print(f"  all done in {wall:.1f} s ({n / wall:.0f} jobs/s); ran twice: {twice}; lost: {n - len(done)}")
    print(f"  the killed process's job started {started[str(victim_job)]} times, done {done[str(victim_job)]} time")
    ok = twice == 0 and len(done) == n and runs == Counter({1: n}) and started[str(victim_job)] == 2
    if not ok:
        print(f"FAILED: rows by runs {dict(runs)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

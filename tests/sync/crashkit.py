"""Machinery of the sync crash test (tests/sync/test_crash.py).

A *prepared* station holds 500 pending changes with an obvious intent:
``TICKETS`` tickets opened by an agent, each followed by an agent reply
(outbox sequence 2i+1 opens ticket i, 2i+2 replies to it). A run copies it,
links the copy to a fresh platform server process, runs ``python -m app sync``
on it in a child process and kills one of the two processes (SIGKILL) when a
``Trigger`` fires: the platform reached a seeded change, a seeded time after a
start passed, or the push ended.

Both databases are only read here, through connections that never write
(``reader``), while the processes write (WAL). The sync child process gets this
process's environment, so it resolves the station's key (``secret.key``) as the
in-process ``Station`` that prepared and linked the copy did.
"""

from __future__ import annotations

import json
import math
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from services.sync import station as st
from tests.conftest import _copy_db
from tests.sync.conftest import ROOT, PlatformProcess, Station, register

STATION_ID = "crash-station"
TICKETS = 250  # each a ticket and a reply: 500 changes
CHANGES = 2 * TICKETS
# Changes per push (``python -m app sync --batch``; the engine's default is 200). Half the default on
# half the changes keeps five batches, each of two platform chunks (services.sync.push.CHUNK_ENTRIES),
# so every kill point of the 1,000-change runs (mid-chunk, between chunks, end of batch, the restart,
# the pull) is still there, for half the platform's work.
BATCH = 100
# The engine's longest wait between tries (``--max-backoff``; 60 s by default): a server run kills the
# platform twice, the station's failures meanwhile grow its back-off, and at the default it waited up
# to a minute after the platform was back. It still backs off with jitter and retries by itself.
MAX_BACKOFF = 4
LIKE = f"crash {STATION_ID}-%"


# --- the intent ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Intended:
    """Ticket ``i`` the station opened (change 2i+1) and the reply it added (change 2i+2), with the ids it made."""

    i: int
    subject: str
    description: str
    reply: str
    ticket_id: str
    reply_id: str

    @property
    def ticket_seq(self) -> int:
        return 2 * self.i + 1

    @property
    def reply_seq(self) -> int:
        return 2 * self.i + 2


@dataclass(frozen=True)
class Prepared:
    data_dir: Path
    plan: list[Intended]


def prepare_station(data_dir: Path, template: Path) -> Prepared:
    """A station data dir (the demo data) holding ``CHANGES`` pending changes, linked to no platform."""
    _copy_db(template, data_dir)
    (data_dir / "secret.key").write_text(f"crash-station-key-{STATION_ID}")
    (data_dir / "station-id").write_text(STATION_ID)
    s = Station(data_dir, STATION_ID)
    plan: list[Intended] = []
    try:
        for i in range(TICKETS):
            subject, desc, reply = f"crash {STATION_ID}-{i:03d}", f"crash description {i:03d}", f"reply {i:03d}"
            t = s.do("support.tickets.create", body={"subject": subject, "description": desc, "email": "a@b.test",
                                                     "name": "Ann"})  # fmt: skip
            m = s.do("support.messages.create", body={"body": reply, "internal": False}, ticket_id=t.id)
            plan.append(Intended(i, subject, desc, reply, str(t.id), str(m.id)))
    finally:
        s.close()
    with closing_reader(data_dir / "data.db") as db:
        rows = db.execute("SELECT station_seq, command, status FROM outbox ORDER BY station_seq").fetchall()
    want = [(x.ticket_seq, "support.tickets.create", "pending") for x in plan]
    want += [(x.reply_seq, "support.messages.create", "pending") for x in plan]
    assert rows == sorted(want), "the prepared outbox is not the plan"
    return Prepared(data_dir, plan)


def copy_station(prepared: Prepared, dst: Path) -> Path:
    """The prepared station's files in ``dst`` (the database by SQLite's backup)."""
    _copy_db(prepared.data_dir / "data.db", dst)
    for name in ("secret.key", "station-id"):
        shutil.copy(prepared.data_dir / name, dst / name)
    return dst


def link_station(data_dir: Path, platform: PlatformProcess) -> None:
    """Register the station with this (fresh) platform and keep its secret in the station."""
    s = Station(data_dir, STATION_ID)
    try:
        st.save_link(s.rt, s.tenant.id, platform.url, STATION_ID, register(platform.url, STATION_ID))
    finally:
        s.close()


# --- the station's sync process -------------------------------------------------------------------


class SyncProcess:
    """``python -m app sync --data-dir DIR`` in a child process, its output appended to a log file."""

    def __init__(self, data_dir: Path, log: Path) -> None:
        self.data_dir, self.log = data_dir, log
        self.proc: subprocess.Popen[bytes] | None = None

    def _cmd(self, *extra: str) -> list[str]:
        return [sys.executable, "-m", "app", "sync", "--data-dir", str(self.data_dir), "--batch", str(BATCH),
                "--max-backoff", str(MAX_BACKOFF), *extra]  # fmt: skip

    def _note(self, what: str) -> None:
        with self.log.open("a") as out:
            out.write(f"--- {what}\n")

    def start(self, interval: float = 0.2) -> SyncProcess:
        self._note("sync started")
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                self._cmd("--interval", str(interval)), cwd=ROOT, env=dict(os.environ), stdout=out, stderr=out
            )
        return self

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """kill -9: no clean-up of any kind."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self._note("sync killed (SIGKILL)")

    def stop(self) -> int | None:
        """SIGTERM: the engine stops."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return self.proc.returncode

    def once(self, timeout: float = 120) -> int:
        self._note("sync --once")
        with self.log.open("ab") as out:
            done = subprocess.run(
                self._cmd("--once"), cwd=ROOT, env=dict(os.environ), stdout=out, stderr=out, timeout=timeout
            )
        return done.returncode

    def tail(self, lines: int = 40) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


# --- reading the two databases ----------------------------------------------------------------------


def reader(db: Path) -> sqlite3.Connection:
    """A connection that never writes (WAL: it never blocks the processes). Kept open for a whole run,
    so that closing it never checkpoints the WAL of a killed process in that process's place."""
    conn = sqlite3.connect(db, timeout=30, isolation_level=None)
    conn.execute("PRAGMA query_only=1")
    return conn


@contextmanager
def closing_reader(db: Path) -> Iterator[sqlite3.Connection]:
    conn = reader(db)
    try:
        yield conn
    finally:
        conn.close()


@contextmanager
def snapshot(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One read transaction: every query in it sees the same committed state."""
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        conn.execute("COMMIT")


def last_seq(platform_db: sqlite3.Connection) -> int:
    row = platform_db.execute("SELECT last_seq FROM sync_stations WHERE station_id = ?", (STATION_ID,)).fetchone()
    return int(row[0]) if row else 0


def outbox_counts(station_db: sqlite3.Connection) -> dict[str, int]:
    return {k: int(v) for k, v in station_db.execute("SELECT status, COUNT(*) FROM outbox GROUP BY status")}


def round_completed(station_db: sqlite3.Connection) -> bool:
    """A whole round (push, pull, counts) ended well since the link was made (a copy starts with none)."""
    row = station_db.execute("SELECT last_sync_at FROM sync_links").fetchone()
    return row is not None and row[0] is not None


def retries(station_db: sqlite3.Connection) -> int:
    """How often the platform answered "retry" (it failed on a change, not the change's fault)."""
    return int(station_db.execute("SELECT COALESCE(SUM(attempts), 0) FROM outbox").fetchone()[0])


def platform_errors(platform: PlatformProcess) -> list[str]:
    """What an ended platform process printed from its first failure on (it logs warnings and worse)."""
    proc = platform.proc
    if proc is None or proc.poll() is None or proc.stdout is None or proc.stdout.closed:
        return []
    lines = proc.stdout.read().splitlines()
    proc.stdout.close()
    marks = ("Traceback", "ERROR", "error:", "failed")
    first = next((i for i, ln in enumerate(lines) if any(m in ln for m in marks)), None)
    return [] if first is None else lines[first:]


def exceptions(lines: list[str]) -> list[str]:
    """The exception line ending each traceback in ``lines``."""
    out, inside = [], False
    for ln in lines:
        if ln.startswith("Traceback"):
            inside = True
        elif inside and ln and not ln.startswith(" "):
            out.append(ln.strip())
            inside = False
    return out


def wait_until(cond: Callable[[], bool], timeout: float, poll: float = 0.005) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(poll)
    return cond()


@dataclass(frozen=True)
class Progress:
    sent: int  # the station's outbox entries marked sent (read first)
    pending: int
    applied: int  # the platform's last_seq for the station (read after)

    @property
    def phase(self) -> str:
        if self.applied > self.sent:  # the platform applied changes whose answers the station has not recorded
            return "platform ahead, mid-batch" if self.applied % BATCH else "platform ahead by whole batches"
        return "in step, changes waiting" if self.pending else "all pushed"


# --- the checks -----------------------------------------------------------------------------------


def _platform_state(
    p: sqlite3.Connection,
) -> tuple[dict[str, list[tuple[str, str]]], dict[str, list[tuple[str, str, str]]]]:
    tickets: dict[str, list[tuple[str, str]]] = {}
    for tid, subject, number in p.execute(
        "SELECT id, subject, number FROM support_tickets WHERE subject LIKE ?", (LIKE,)
    ):
        tickets.setdefault(subject, []).append((tid, number))
    messages: dict[str, list[tuple[str, str, str]]] = {}
    for mid, tid, body, kind in p.execute(
        "SELECT m.id, m.ticket_id, m.body, m.author_kind FROM support_messages m "
        "JOIN support_tickets t ON t.id = m.ticket_id WHERE t.subject LIKE ?",
        (LIKE,),
    ):
        messages.setdefault(tid, []).append((mid, body, kind))
    return tickets, messages


def _receipts(p: sqlite3.Connection) -> dict[str, int]:
    return {
        k: int(v)
        for k, v in p.execute(
            "SELECT r.status, COUNT(*) FROM sync_receipts r JOIN sync_stations t ON t.id = r.station_pk "
            "WHERE t.station_id = ? GROUP BY r.status",
            (STATION_ID,),
        )
    }


def check_prefix(
    plan: list[Intended], platform_db: sqlite3.Connection, station_db: sqlite3.Connection
) -> tuple[Progress, list[str]]:
    """At any moment: the platform holds the station's changes 1..last_seq, each exactly once, and no later
    one; the station has marked sent exactly its changes 1..n with n <= last_seq; none set aside.
    Answers what was read (station first: its sent count can only lag) and the problems."""
    problems: list[str] = []
    with snapshot(station_db) as s:
        box = outbox_counts(s)
        top_sent = s.execute("SELECT COALESCE(MAX(station_seq), 0) FROM outbox WHERE status = 'sent'").fetchone()[0]
    with snapshot(platform_db) as p:
        applied = last_seq(p)
        tickets, messages = _platform_state(p)
        receipts = _receipts(p)
    at = Progress(box.get("sent", 0), box.get("pending", 0), applied)
    if set(box) - {"sent", "pending"}:
        problems.append(f"station: outbox {box}: changes set aside")
    if top_sent != at.sent:
        problems.append(f"station: {at.sent} changes sent but the last one sent is {top_sent} (a hole)")
    if at.sent > applied:
        problems.append(f"station: {at.sent} changes marked sent, the platform applied {applied}")
    if receipts != ({"applied": applied} if applied else {}):
        problems.append(f"platform: receipts {receipts} at last_seq {applied}")
    for x in plan:
        rows = tickets.get(x.subject, [])
        want = 1 if x.ticket_seq <= applied else 0
        if len(rows) != want:
            problems.append(f"platform: {len(rows)} tickets {x.subject!r} at last_seq {applied} (want {want})")
            continue
        if not rows:
            continue
        replies = [m for m in messages.get(rows[0][0], []) if m[1] == x.reply]
        want = 1 if x.reply_seq <= applied else 0
        if len(replies) != want:
            problems.append(f"platform: {len(replies)} replies {x.reply!r} at last_seq {applied} (want {want})")
    return at, problems


def check(plan: list[Intended], platform_db: Path, station_db: Path) -> list[str]:
    """The end: every intended change exactly once on the platform, under the ids the station made; the
    station's queue empty and all sent; the station holding the platform's ticket numbers."""
    problems: list[str] = []
    with closing_reader(platform_db) as p, closing_reader(station_db) as s:
        tickets, messages = _platform_state(p)
        if extra := sorted(set(tickets) - {x.subject for x in plan}):
            problems.append(f"platform: unexpected tickets {extra[:5]}")
        numbers: dict[str, str] = {}
        for x in plan:
            rows = tickets.get(x.subject, [])
            if len(rows) != 1:
                problems.append(f"platform: {len(rows)} tickets {x.subject!r} (want 1)")
                continue
            tid, number = rows[0]
            numbers[tid] = number
            if tid != x.ticket_id:
                problems.append(f"platform: ticket {x.subject!r} has id {tid}, the station made {x.ticket_id}")
            if not number.startswith("TKT-"):
                problems.append(f"platform: ticket {x.subject!r} has number {number!r}")
            # The ticket's first message is its description (services.support.tickets._create).
            msgs = messages.get(tid, [])
            replies = [m for m in msgs if m[1] == x.reply]
            firsts = [m for m in msgs if m[1] == x.description]
            if (len(replies), len(firsts), len(msgs)) != (1, 1, 2):
                problems.append(
                    f"platform: ticket {x.subject!r} has {len(replies)} replies {x.reply!r}, {len(firsts)} "
                    f"description messages, {len(msgs)} messages (want 1, 1, 2)"
                )
            elif replies[0][0] != x.reply_id or replies[0][2] != "agent":
                problems.append(f"platform: reply of {x.subject!r} is {replies[0]}, the station made {x.reply_id}")
        if len(set(numbers.values())) != len(numbers):
            problems.append("platform: two crash tickets share a number")
        if (seq := last_seq(p)) != CHANGES:
            problems.append(f"platform: last_seq {seq} (want {CHANGES})")
        if (receipts := _receipts(p)) != {"applied": CHANGES}:
            problems.append(f"platform: receipts {receipts} (want {{'applied': {CHANGES}}})")

        if (box := outbox_counts(s)) != {"sent": CHANGES}:
            problems.append(f"station: outbox {box} (want {{'sent': {CHANGES}}})")
        local = dict(s.execute("SELECT id, number FROM support_tickets WHERE subject LIKE ?", (LIKE,)).fetchall())
        if len(local) != TICKETS:
            problems.append(f"station: {len(local)} crash tickets (want {TICKETS})")
        if wrong := [(tid, n, numbers.get(tid)) for tid, n in local.items() if n != numbers.get(tid)]:
            problems.append(f"station: {len(wrong)} tickets without the platform's number, e.g. {wrong[:3]}")
        provisional = s.execute("SELECT COUNT(*) FROM support_tickets WHERE subject LIKE ? AND provisional",
                                (LIKE,)).fetchone()[0]  # fmt: skip
        if provisional:
            problems.append(f"station: {provisional} crash tickets still provisional")
        local_msgs = s.execute(
            "SELECT COUNT(*) FROM support_messages m JOIN support_tickets t ON t.id = m.ticket_id WHERE t.subject LIKE ?",
            (LIKE,),
        ).fetchone()[0]
        if local_msgs != CHANGES:
            problems.append(f"station: {local_msgs} messages on crash tickets (want {CHANGES})")
    return problems


# --- where to kill --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trigger:
    """When to kill: ``seq`` as soon as the platform's last_seq reaches ``value``; ``clock`` ``value``
    seconds after the sync process started (its start-up, the clock check, a batch sent again);
    ``pull`` ``value`` seconds after the station's queue emptied (the pull and the count check)."""

    kind: str
    value: float
    delay: float = 0.0  # seq: seconds more (the platform commits changes in chunks; this lands inside one)

    def describe(self) -> str:
        if self.kind == "seq":
            return f"at change {int(self.value)} +{self.delay:.2f} s"
        return f"{self.value:.2f} s after {'the start' if self.kind == 'clock' else 'the push'}"


def _seq(rng: random.Random, target: int) -> Trigger:
    """Kill a moment after the platform reached ``target``: within its next chunk of changes, or, at the
    end of a batch, while its answer travels or the station records it."""
    return Trigger("seq", target, rng.uniform(0, 0.15 if target % BATCH == 0 else 0.3))


def next_target(rng: random.Random, applied: int, kills_left: int) -> Trigger:
    """A kill in the first of ``kills_left`` equal parts of what is left to push, so the kills spread
    over the whole push; one in three at the end of its batch."""
    lo = applied + 1
    hi = max(lo, lo + math.ceil((CHANGES - applied) / max(kills_left, 1)) - 1)
    target = rng.randint(lo, min(hi, CHANGES))
    return _seq(rng, -(-target // BATCH) * BATCH if rng.random() < 1 / 3 else target)


def target_in_batch(rng: random.Random, done: int) -> Trigger:
    """A kill in the batch after change ``done``: one in three at its end (the platform done with the
    batch and answering, or the station recording the answers), the others anywhere in it (the
    platform half-way through it)."""
    end = min(-(-(done + 1) // BATCH) * BATCH, CHANGES)
    return _seq(rng, end if rng.random() < 1 / 3 else rng.randint(done + 1, end))


def fire(trigger: Trigger, platform_db: sqlite3.Connection, station_db: sqlite3.Connection,
         started: float, alive: Callable[[], bool], timeout: float = 60) -> bool:  # fmt: skip
    """Wait for the trigger; False if the sync process died first or the time ran out."""
    if trigger.kind == "seq":
        ok = wait_until(lambda: last_seq(platform_db) >= trigger.value or not alive(), timeout)
        time.sleep(trigger.delay)
    elif trigger.kind == "clock":
        time.sleep(max(0.0, started + trigger.value - time.monotonic()))
        ok = True
    else:
        ok = wait_until(lambda: outbox_counts(station_db).get("pending", 0) == 0 or not alive(), timeout)
        time.sleep(trigger.value)
    return ok and alive()


# --- one run's record ----------------------------------------------------------------------------


@dataclass
class Kill:
    trigger: Trigger
    at: Progress  # what the databases held right after the kill
    seconds: float  # since the sync process started
    recovery: float | None = None  # server runs: from the platform's restart to the station's next change there

    def describe(self) -> str:
        text = (f"{self.trigger.describe()} (+{self.seconds:.2f} s): {self.at.applied} applied, {self.at.sent} "
                f"sent, {self.at.phase}")  # fmt: skip
        return text if self.recovery is None else f"{text}; moving again {self.recovery:.1f} s after the restart"


@dataclass
class Run:
    kind: str
    seed: int
    kills: list[Kill] = field(default_factory=list)
    onces: int = 0
    seconds: float = 0.0
    retries: int = 0
    platform_errors: list[str] = field(default_factory=list)

    def summary(self) -> str:
        raised = dict(Counter(exceptions(self.platform_errors)))
        lines = [f"{self.kind} seed {self.seed}: {len(self.kills)} kills, --once x{self.onces}, {self.seconds:.1f} s, "
                 f"{self.retries} changes retried, platform tracebacks: {raised or 'none'}"]  # fmt: skip
        return "\n".join(lines + [f"  {k.describe()}" for k in self.kills])

    def record(self, path: Path) -> None:
        """One JSON line per run in ``path`` (the spread of the kill points)."""
        with path.open("a") as f:
            f.write(json.dumps({"kind": self.kind, "seed": self.seed, "seconds": round(self.seconds, 2),
                                "onces": self.onces, "retries": self.retries,
                                "platform_errors": self.platform_errors[:200],
                                "kills": [{"trigger": k.trigger.kind, "value": k.trigger.value, "delay": k.trigger.delay,
                                           "applied": k.at.applied,
                                           "sent": k.at.sent, "pending": k.at.pending, "phase": k.at.phase,
                                           "t": round(k.seconds, 2), "recovery": k.recovery}
                                          for k in self.kills]}) + "\n")  # fmt: skip

"""A kill in the middle of writing loses nothing and half-writes nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from sqlalchemy import create_engine, text

CHILD = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {root!r})
    from pathlib import Path
    from app.wiring import station_runtime
    from local_db.models import User
    from services.core import auth
    from services.core.commands import REGISTRY, execute, use_case
    from services.core.context import Ctx
    from services.core.demo import DEMO_PASSWORD, seed_demo
    from services.core.events import emit
    from services.core.schemas import Strict

    class Rename(Strict):
        name: str

    @use_case("crash.rename", "POST /_crash", tx="write", module="inventory", roles=frozenset({{"owner"}}))
    def rename(ctx: Ctx, body: Rename) -> None:
        with ctx.write() as s:
            s.get(User, ctx.principal.id).name = body.name
            emit(ctx, "stock.adjusted", {{"n": body.name}})

    op = REGISTRY["crash.rename"]
    rt = station_runtime(Path({data!r}), "station-crash")
    seed_demo(rt)
    tenant = auth.load_tenant(rt.db, "demo")
    user = auth.authenticate_password(rt.db, "owner@demo.test", DEMO_PASSWORD)
    p = auth.user_principal(rt.db, user.id, tenant)
    print("ready", flush=True)
    i = 0
    while True:
        i += 1
        execute(Ctx(rt, tenant, p), op, body={{"name": f"n{{i}}"}})
    """
)


def test_sigkill_mid_write_leaves_changes_events_and_outbox_consistent(tmp_path: Path) -> None:
    root = str(Path(__file__).resolve().parents[3])
    data = tmp_path / "station"
    script = tmp_path / "child.py"
    script.write_text(CHILD.format(root=root, data=str(data)))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read() if proc.stderr else ""
    time.sleep(1.0)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)

    engine = create_engine(f"sqlite:///{data / 'data.db'}")
    with engine.connect() as c:
        assert c.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
        events = c.execute(text("select count(*) from events where type='stock.adjusted'")).scalar_one()
        outbox = c.execute(text("select count(*) from outbox where command='crash.rename'")).scalar_one()
        seqs = [r[0] for r in c.execute(text("select seq from outbox order by seq"))]
        last_body = c.execute(text("select body from outbox order by seq desc limit 1")).scalar_one()
        name = c.execute(text("select name from users where email='owner@demo.test'")).scalar_one()
    engine.dispose()
    assert events > 10, "the child made progress before the kill"
    assert events == outbox, "every committed change has exactly its event and its outbox entry"
    assert seqs == list(range(1, len(seqs) + 1)), "outbox sequence has no gaps"
    assert f'"name": "{name}"' in last_body, "the last committed change is the one in the outbox"

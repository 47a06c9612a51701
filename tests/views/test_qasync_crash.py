"""Regression guard: PySide6 6.12.0 on Python 3.11 aborts (bool_dealloc) after ~20
concurrent httpx.AsyncClient requests under qasync. The pin in pyproject.toml
avoids it; this runs rounds of 50 concurrent requests to a local server under
qasync, each followed by gc.collect(), in a child process so an abort shows as
a failure. (Checked: with PySide6-Essentials 6.12.0 on Python 3.11 the child
exits 134 "Fatal Python error ... Garbage-collecting"; with 6.11.3 it passes.)
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

CHILD = textwrap.dedent(
    """
    import asyncio, gc, os, sys
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import httpx, uvicorn, qasync
    from PySide6.QtWidgets import QApplication

    async def app(scope, receive, send):
        if scope["type"] != "http":
            return
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": b'{"ok": true}'})

    qapp = QApplication(sys.argv[:1])
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)

    async def main():
        # The server runs on the same qasync loop, as the embedded platform
        # server of --demo can: this is the set-up that aborts on 6.12.0/3.11.
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error", lifespan="off"))
        task = asyncio.ensure_future(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        total = 0
        for _ in range(10):
            async with httpx.AsyncClient() as client:
                rs = await asyncio.gather(*(client.get(f"http://127.0.0.1:{port}/") for _ in range(50)))
            assert all(r.status_code == 200 for r in rs)
            total += len(rs)
            gc.collect()
        server.should_exit = True
        await task
        return total

    with loop:
        n = loop.run_until_complete(main())
    gc.collect()
    print("ok", n)
    """
)


def test_fifty_concurrent_requests_under_qasync_do_not_abort(tmp_path: Path) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout}\n{r.stderr[-2000:]}"
    assert "ok 500" in r.stdout
    assert "Fatal Python error" not in r.stderr


def test_pyside6_pin_matches_python() -> None:
    import PySide6

    version = tuple(int(x) for x in PySide6.__version__.split(".")[:2])
    if sys.version_info < (3, 12):
        assert version < (6, 12), "PySide6 6.12 on Python 3.11 aborts under qasync; see pyproject.toml"

"""Start-up: the sign-in window shows before the service layer loads, and a sign-in pressed before
it is loaded waits for it and works (issue 38 part 4)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from pytestqt.qtbot import QtBot
from sqlalchemy import text

from local_db.engine import schema_is_current, script_heads
from services.core.context import Runtime
from services.core.demo import DEMO_PASSWORD
from views.credentials import CredentialStore
from views.shell.window import ShellWindow

ROOT = Path(__file__).resolve().parents[2]


def test_sign_in_pressed_before_the_service_layer_is_loaded_waits_and_works(
    qtbot: QtBot, station: Runtime, tmp_path: Path
) -> None:
    release = threading.Event()
    loads: list[str] = []

    def loader() -> Runtime:
        # Held until the person has pressed Sign in: the service layer is "still loading".
        assert release.wait(60), "the test never let the loader finish"
        loads.append("loaded")
        return station

    prefs = tmp_path / "prefs"
    w = ShellWindow(prefs, runtime_loader=loader, offline=True, credentials=CredentialStore(prefs, use_keyring=False))
    qtbot.addWidget(w)
    w.show()
    assert w.runtime is None
    w.signin.email.setText("operator@demo.test")
    w.signin.password.setText(DEMO_PASSWORD)
    landed: list[str] = []
    w.signed_in.connect(landed.append)
    w.signin.submit()
    assert not w.signin.button.isEnabled()  # busy, waiting: not refused
    assert "first start takes longer" in w.signin.message.text()  # and says why it waits
    release.set()
    qtbot.waitUntil(lambda: bool(landed), timeout=60_000)
    assert loads == ["loaded"] and landed == ["inspection"] and w.runtime is station
    assert not w.signin.message.isVisible()
    w.ops.wait()


def test_the_window_module_imports_no_service_layer() -> None:
    """The sign-in window's import chain stays Qt and the shell's own files: SQLAlchemy and the models
    load on the worker thread after the window shows (importing them first cost seconds under load)."""
    probe = "import sys, views.shell.window; print(sorted(m for m in sys.modules if m.split('.')[0] in " \
            "('sqlalchemy', 'pydantic', 'local_db', 'alembic')))"  # fmt: skip
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    ).stdout
    assert out.strip() == "[]"


def test_a_current_schema_skips_alembic_and_anything_else_does_not(station: Runtime) -> None:
    from alembic.script import ScriptDirectory

    from local_db.engine import alembic_config

    engine = station.db.engine
    assert script_heads() == frozenset(ScriptDirectory.from_config(alembic_config(engine)).get_heads())
    assert schema_is_current(engine)
    with engine.begin() as c:
        c.execute(text("INSERT INTO alembic_version (version_num) VALUES ('9999_not_a_script')"))
    assert not schema_is_current(engine)  # unknown revision: Alembic is asked (and says what is wrong)
    with engine.begin() as c:
        c.execute(text("DELETE FROM alembic_version"))
    assert not schema_is_current(engine)
    with engine.begin() as c:
        c.execute(text("DROP TABLE alembic_version"))
    assert not schema_is_current(engine)  # a new database


def test_a_sign_in_is_accepted_on_the_stations_file_while_the_service_layer_loads(
    qtbot: QtBot, station: Runtime, tmp_path: Path
) -> None:
    from services.core.local_signin import check

    release = threading.Event()

    def loader() -> Runtime:
        assert release.wait(60), "the test never let the loader finish"
        return station

    prefs = tmp_path / "prefs"
    w = ShellWindow(
        prefs,
        runtime_loader=loader,
        local_check=lambda email, password: check(station.data_dir / "data.db", email, password),
        offline=True,
        credentials=CredentialStore(prefs, use_keyring=False),
    )
    qtbot.addWidget(w)
    w.show()
    accepted: list[str] = []
    landed: list[str] = []
    w.credentials_accepted.connect(accepted.append)
    w.signed_in.connect(landed.append)
    w.signin.email.setText("operator@demo.test")
    w.signin.password.setText("not the password")
    w.signin.submit()
    # Refused at once, while the service layer is still loading.
    qtbot.waitUntil(w.signin.button.isEnabled, timeout=60_000)
    assert w.signin.message.text() == "E-mail or password is not correct." and not accepted
    w.signin.password.setText(DEMO_PASSWORD)
    w.signin.submit()
    qtbot.waitUntil(lambda: bool(accepted), timeout=60_000)
    assert accepted == ["operator@demo.test"] and w.runtime is None and not landed
    assert "first start takes longer" in w.signin.message.text()  # opening the tenant waits, and says so
    release.set()
    qtbot.waitUntil(lambda: bool(landed), timeout=60_000)
    assert landed == ["inspection"] and w.session is not None
    # The session was made by the service layer once loaded: a token for this person.
    from services.core import auth

    assert auth.decode_token(station.secret_key, w.session.token)["email"] == "operator@demo.test"
    w.ops.wait()


# Runs the desktop's own check and loader (app/desktop.py) in a fresh process: which modules are
# loaded the moment the password is accepted, then whether the workspace opens once they are.
_PROBE = """
import json, os, sys, threading
from pathlib import Path
from PySide6.QtWidgets import QApplication
from app.desktop import _check_locally, _load_station
from views.credentials import CredentialStore
from views.shell.window import ShellWindow

data, prefs, password = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
app = QApplication(sys.argv[:1])
go = threading.Event()
free = threading.Event()
free.set()

def loader():
    assert go.wait(120)
    return _load_station(data, False, free)

w = ShellWindow(prefs, runtime_loader=loader, local_check=lambda e, p: _check_locally(data, e, p, free), offline=True,
                credentials=CredentialStore(prefs, use_keyring=False))
seen = {}

def accepted(_email):
    seen["loaded"] = sorted(m for m in sys.modules if m.split(".")[0] in ("services", "sqlalchemy", "local_db", "pydantic"))
    go.set()

def entered(name):
    print(json.dumps({"at_accept": seen.get("loaded"), "workspace": name,
                      "support_after": "services.support" in sys.modules}), flush=True)
    os._exit(0)

def failed():
    if w.signin.button.isEnabled() and w.signin.message.isVisible():
        print(json.dumps({"failed": w.signin.message.text()}), flush=True)
        os._exit(1)

w.credentials_accepted.connect(accepted)
w.signed_in.connect(entered)
w.show()
w.signin.email.setText("owner@demo.test")
w.signin.password.setText(password)
w.signin.submit()
from PySide6.QtCore import QTimer
t = QTimer(); t.timeout.connect(failed); t.start(50)
app.exec()
"""


def test_the_desktop_accepts_a_sign_in_before_any_module_is_imported_then_opens_it(
    station: Runtime, tmp_path: Path
) -> None:
    import json
    import os

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("PLATFORM_DATABASE_URL", None)
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, str(station.data_dir), str(tmp_path / "prefs"), DEMO_PASSWORD],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr[-3000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    # Only the check itself and the shell's words: no SQLAlchemy, pydantic, table or module's services.
    assert report["at_accept"] == ["services", "services.core", "services.core.errors", "services.core.local_signin",
                                   "services.core.passwords", "services.sync", "services.sync.words"]  # fmt: skip
    assert report["workspace"] and report["support_after"]


def test_the_loaders_imports_wait_while_a_sign_in_check_runs_and_no_one_elses(tmp_path: Path) -> None:
    from app.desktop import _ImportsWait

    class Free(threading.Event):
        """Says when someone waits for it."""

        def __init__(self) -> None:
            super().__init__()
            self.waited = threading.Event()

        def wait(self, timeout: float | None = None) -> bool:
            if not self.is_set():
                self.waited.set()
            return super().wait(timeout)

    for name in ("loader_step_probe", "other_thread_probe"):
        (tmp_path / f"{name}.py").write_text("VALUE = 1\n")
    sys.path.insert(0, str(tmp_path))
    free = Free()  # cleared: a sign-in check runs
    finders: list[_ImportsWait] = []

    def loader() -> None:
        finders.append(_ImportsWait(free))
        sys.meta_path.insert(0, finders[0])
        try:
            import loader_step_probe  # noqa: F401
        finally:
            sys.meta_path.remove(finders[0])

    thread = threading.Thread(target=loader)
    try:
        thread.start()
        assert free.waited.wait(60), "the loader's import did not wait"
        assert "loader_step_probe" not in sys.modules
        import other_thread_probe  # noqa: F401 - another thread's import (the check's) goes on

        free.set()  # the check ended
        thread.join(60)
        assert not thread.is_alive() and "loader_step_probe" in sys.modules
    finally:
        free.set()
        sys.path.remove(str(tmp_path))
        for name in ("loader_step_probe", "other_thread_probe"):
            sys.modules.pop(name, None)

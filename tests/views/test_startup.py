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

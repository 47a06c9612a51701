"""Issue 37, part 5: the console scripts the wheel installs point at real entry points, and
``platform-server`` is ``python -m app serve``."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import pytest

from app.__main__ import server_main

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheels_console_scripts_resolve() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert set(scripts) >= {"platform-server", "platform-station"}
    for target in scripts.values():
        module, _, name = target.partition(":")
        assert callable(getattr(importlib.import_module(module), name))


def test_platform_server_takes_the_serve_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        server_main(["--workers", "0"])
    assert done.value.code == 2
    assert "--workers must be 1 or more" in capsys.readouterr().err
    with pytest.raises(SystemExit) as done:
        server_main(["--help"])
    assert done.value.code == 0 and "--tls-cert" in capsys.readouterr().out

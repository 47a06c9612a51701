"""Public pages in a real browser: Debian's Chromium driven by Playwright, one browser a session."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.settings import Settings
from services.core.context import Runtime
from tests.conftest import LiveServer, start_server

CHROMIUM = os.environ.get("PLATFORM_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "pages"


# Package scope, not session: Playwright's sync API keeps its event loop running in this thread
# while it is open, so a later test's asyncio.run() (the sync tests') would fail until it closes.
@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM} (scripts/system-deps.sh installs Debian's chromium as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True, timeout=60_000)
        yield b
        b.close()


@pytest.fixture
def pages_server(settings: Settings, runtime: Runtime) -> Iterator[LiveServer]:
    """A real uvicorn over the demo data, the demo bot challenge on, rate limits off."""
    runtime.db.dispose()
    srv = start_server(settings, rate_limits="off", challenge="demo")
    yield srv
    srv.stop()
    srv.runtime.db.dispose()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh context at a phone's width (375 px): every page must work there."""
    ctx = browser.new_context(viewport={"width": 375, "height": 800}, locale="en-GB")
    ctx.set_default_timeout(30_000)
    p = ctx.new_page()
    yield p
    ctx.close()


def check_page(page: Any, shot: str | None = None) -> None:
    """0 serious or critical axe violations, no sideways scrolling at 375 px; a screenshot for the README
    when ``PLATFORM_SCREENSHOTS=1``."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    bad = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    assert not bad, [(v["id"], v["help"], [n["target"] for n in v["nodes"]]) for v in bad]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "scrolls sideways at 375 px"
    if shot and os.environ.get("PLATFORM_SCREENSHOTS") == "1":
        # Only on request: the README's pictures change when someone means them to, not on every run.
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{shot}.png"), full_page=True)

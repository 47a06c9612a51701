"""Themes (resources/themes/*.qss), icons (resources/icons/*.svg) and feedback sounds.

PySide6-Essentials ships no QtMultimedia (only its .pyi stubs), so sounds play
through ``QSoundEffect`` when a full PySide6 is installed and fall back to
``QApplication.beep()`` otherwise.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QUrl
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QWidget

import resources

log = logging.getLogger("views.shell.theme")
RESOURCES = Path(resources.__file__).resolve().parent
THEMES = ("light", "dark", "kiosk")


def theme_css(name: str) -> str:
    """The style sheet of a theme; ``kiosk`` is the light theme with large, touch-sized controls."""
    if name not in THEMES:
        name = "light"
    base = (RESOURCES / "themes" / ("dark.qss" if name == "dark" else "light.qss")).read_text()
    if name == "kiosk":
        base += "\n" + (RESOURCES / "themes" / "kiosk.qss").read_text()
    # A style sheet's url() is read from the working directory: the icons' folder is made absolute.
    return base.replace("%ICONS%", (RESOURCES / "icons").as_posix())


def apply_theme(name: str, app: QApplication | None = None) -> None:
    app = app or QApplication.instance()  # type: ignore[assignment]
    if app is not None:
        app.setStyleSheet(theme_css(name))
        app.setProperty("station-theme", name)


@cache
def icon(name: str) -> QIcon:
    path = RESOURCES / "icons" / f"{name}.svg"
    return QIcon(str(path)) if path.exists() else QIcon()


def set_role(widget: QWidget, role: str) -> None:
    """Style hook (``QLabel[role=...]`` in the .qss): re-polish so a changed role shows at once."""
    widget.setProperty("role", role)
    style = widget.style()
    style.unpolish(widget)
    style.polish(widget)


class _Effect(Protocol):
    """What a sound is asked to do (Qt Multimedia's QSoundEffect, absent from some builds)."""

    def setSource(self, url: QUrl) -> None: ...  # noqa: N802 - Qt's name

    def play(self) -> None: ...


class Feedback:
    """Success / failure sounds (optional); colour and icon are the caller's part."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.played: list[str] = []  # last sounds, for tests and diagnostics
        self._effects: dict[str, _Effect] = {}
        self._effect_cls: Callable[[], _Effect] | None = None
        try:
            from PySide6.QtMultimedia import QSoundEffect  # type: ignore[attr-defined]
        except ImportError:
            pass
        else:
            self._effect_cls = QSoundEffect

    @property
    def backend(self) -> str:
        return "QSoundEffect" if self._effect_cls is not None else "beep"

    def play(self, ok: bool) -> None:
        name = "success" if ok else "failure"
        if not self.enabled:
            return
        self.played = [*self.played[-9:], name]
        if self._effect_cls is None:
            QApplication.beep()
            return
        effect = self._effects.get(name)
        if effect is None:
            effect = self._effect_cls()
            effect.setSource(QUrl.fromLocalFile(str(RESOURCES / "sounds" / f"{name}.wav")))
            self._effects[name] = effect
        effect.play()


# Status pills (the sync indicator): text, background and border per tone. Light colours
# serve the kiosk theme too; the words always say the state as well (never colour alone).
PILL_TONES: dict[str, dict[str, tuple[str, str, str]]] = {
    "light": {
        "ok": ("#14532d", "#dcfce7", "#86efac"),
        "busy": ("#1e3a8a", "#dbeafe", "#93c5fd"),
        "offline": ("#1f2937", "#e5e7eb", "#9ca3af"),
        "error": ("#7f1d1d", "#fee2e2", "#f87171"),
        "warning": ("#78350f", "#fef3c7", "#f59e0b"),
        "neutral": ("#374151", "#f3f4f6", "#d1d5db"),
    },
    "dark": {
        "ok": ("#bbf7d0", "#052e16", "#15803d"),
        "busy": ("#bfdbfe", "#172554", "#1d4ed8"),
        "offline": ("#e5e7eb", "#374151", "#6b7280"),
        "error": ("#fecaca", "#450a0a", "#b91c1c"),
        "warning": ("#fde68a", "#451a03", "#d97706"),
        "neutral": ("#d1d5db", "#1f2937", "#4b5563"),
    },
}


def pill_css(tone: str, theme: str, *, selector: str = "QPushButton") -> str:
    """A rounded, bold status pill; kiosk type is read at arm's length."""
    fg, bg, border = PILL_TONES["dark" if theme == "dark" else "light"].get(tone, PILL_TONES["light"]["neutral"])
    size = "16pt" if theme == "kiosk" else "11.5pt"
    pad = "6px 16px" if theme == "kiosk" else "3px 12px"
    return (
        f"{selector} {{ color: {fg}; background: {bg}; border: 2px solid {border}; border-radius: 12px;"
        f" padding: {pad}; font-size: {size}; font-weight: 700; min-height: 0; min-width: 0; text-align: left; }}"
        f" {selector}:hover {{ border-color: {fg}; }}"
    )

"""Station preferences: one INI file in the data dir (QSettings), per-user window state.

Secrets are not kept here (see ``views.credentials``); the kiosk PIN is kept
only as a salted PBKDF2 hash.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

DEFAULT_PIN = "1234"  # demo default, documented in docs/desktop.md; change it in Settings
_PIN_ITERATIONS = 60_000  # ~20 ms: a check does not stall the UI thread

# A preference: text, a number or a switch (QSettings keeps them as text; ``get`` reads them back typed).
Pref = str | int | bool
DEFAULTS: dict[str, Pref] = {
    "platform_url": "",
    "station_name": "Station",
    "theme": "light",
    "scanner_suffix": "enter",
    "sound": True,
    "kiosk_idle_minutes": 5,
    "kiosk_theme": True,
    "language": "system",  # system, en or de (views.i18n.LANGUAGES); shown from the next start
    # Printers of this desk (views.shell.printing): "" the system default, "pdf" a PDF file, or a name.
    "label_printer": "",
    "label_format": "4x6in",
    "document_printer": "",
}


# hashlib, hmac and secrets are imported where used: ~5 ms of the sign-in window's start (issue 38).


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    import hashlib
    import secrets

    salt = salt or secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, _PIN_ITERATIONS)
    return f"pbkdf2_sha256${_PIN_ITERATIONS}${salt.hex()}${digest.hex()}"


def verify_pin(stored: str, pin: str) -> bool:
    import hashlib
    import hmac

    try:
        _algo, iterations, salt, digest = stored.split("$")
        got = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), int(iterations))
    except ValueError:
        return False
    return hmac.compare_digest(got.hex(), digest)


class StationPrefs:
    """Typed access to ``station.ini`` in the data dir."""

    def __init__(self, data_dir: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.data_dir = data_dir
        self.qs = QSettings(str(data_dir / "station.ini"), QSettings.Format.IniFormat)

    # --- station-wide ---------------------------------------------------------
    def get(self, key: str) -> Pref:
        default = DEFAULTS[key]
        value = self.qs.value(f"station/{key}", default)
        if isinstance(default, bool):
            return value in (True, "true", "1", 1)
        if isinstance(default, int):
            try:
                return int(value)  # type: ignore[call-overload]  # QSettings returns str or int
            except (TypeError, ValueError):
                return default
        return str(value)

    def set(self, key: str, value: Pref) -> None:
        if key not in DEFAULTS:
            raise KeyError(key)
        self.qs.setValue(f"station/{key}", value)

    def as_dict(self) -> dict[str, Pref]:
        return {k: self.get(k) for k in DEFAULTS}

    def sync(self) -> None:
        self.qs.sync()

    # --- kiosk PIN ------------------------------------------------------------
    def pin_hash(self) -> str:
        stored = str(self.qs.value("kiosk/pin_hash", "") or "")
        if not stored:
            stored = hash_pin(DEFAULT_PIN)
            self.qs.setValue("kiosk/pin_hash", stored)
        return stored

    def set_pin(self, pin: str) -> None:
        self.qs.setValue("kiosk/pin_hash", hash_pin(pin))

    def check_pin(self, pin: str) -> bool:
        return verify_pin(self.pin_hash(), pin)

    # --- per user -------------------------------------------------------------
    def _user_key(self, user_id: str, key: str) -> str:
        return f"users/{user_id}/{key}"

    def last_workspace(self, user_id: str) -> str | None:
        v = self.qs.value(self._user_key(user_id, "workspace"), "")
        return str(v) or None

    def set_last_workspace(self, user_id: str, name: str) -> None:
        self.qs.setValue(self._user_key(user_id, "workspace"), name)

    def geometry(self, user_id: str) -> QByteArray | None:
        v = self.qs.value(self._user_key(user_id, "geometry"))
        return v if isinstance(v, QByteArray) and not v.isEmpty() else None

    def set_geometry(self, user_id: str, geometry: QByteArray) -> None:
        self.qs.setValue(self._user_key(user_id, "geometry"), geometry)

    def last_email(self, device: bool = False) -> str:
        return str(self.qs.value("signin/device_email" if device else "signin/email", "") or "")

    def set_last_email(self, email: str, device: bool = False) -> None:
        self.qs.setValue("signin/device_email" if device else "signin/email", email)

"""Where the station keeps secrets: session tokens and API keys.

With a usable ``keyring`` backend (Secret Service, macOS Keychain, Windows
Credential Locker) secrets go there. Without one (headless Linux, kiosks)
they go to ``credentials.json`` in the data dir, created with mode 0600.
Secrets are never written to the database and never logged.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

log = logging.getLogger("views.credentials")
SERVICE = "platform-station"


def _keyring_usable() -> bool:
    try:
        import keyring
        from keyring.backends import fail
    except Exception:  # noqa: BLE001 - any import problem means "no keyring"
        return False
    kr = keyring.get_keyring()
    if isinstance(kr, fail.Keyring):
        return False
    # The null backend (priority < 0) keeps nothing.
    try:
        return float(kr.priority) > 0  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - a backend without a usable priority is not trusted
        return False


class CredentialStore:
    """Secrets by name (e.g. ``token:owner@demo.test``); keyring if possible, else a 0600 file."""

    def __init__(self, data_dir: Path, *, use_keyring: bool | None = None) -> None:
        self.path = data_dir / "credentials.json"
        # Probing keyring backends spawns processes (D-Bus, KWallet): done on first use, not at start-up.
        self._use_keyring = use_keyring

    @property
    def use_keyring(self) -> bool:
        if self._use_keyring is None:
            self._use_keyring = _keyring_usable()
        return self._use_keyring

    @use_keyring.setter
    def use_keyring(self, value: bool) -> None:
        self._use_keyring = value

    @property
    def backend(self) -> str:
        return "keyring" if self.use_keyring else f"file {self.path}"

    def set(self, name: str, secret: str) -> None:
        if self.use_keyring:
            try:
                import keyring

                keyring.set_password(SERVICE, name, secret)
                return
            except Exception as exc:  # noqa: BLE001 - fall back to the file, never lose the secret
                log.warning("keyring refused to store a secret (%s); using the 0600 file", type(exc).__name__)
                self.use_keyring = False
        data = self._read()
        data[name] = secret
        self._write(data)

    def get(self, name: str) -> str | None:
        if self.use_keyring:
            try:
                import keyring

                return keyring.get_password(SERVICE, name)
            except Exception:  # noqa: BLE001
                return None
        return self._read().get(name)

    def delete(self, name: str) -> None:
        if self.use_keyring:
            try:
                import keyring

                keyring.delete_password(SERVICE, name)
            except Exception:  # noqa: BLE001 - already gone is fine
                pass
            return
        data = self._read()
        if data.pop(name, None) is not None:
            self._write(data)

    def _read(self) -> dict[str, str]:
        try:
            raw = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in raw.items()} if isinstance(raw, dict) else {}

    def _write(self, data: dict[str, str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        # Created 0600 from the start (not chmod afterwards): no moment where others can read it.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(data, f)
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.path)

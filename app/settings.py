"""Settings from the environment (names of CONTRACT.md) and the command line."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.paths import VERSION, default_data_dir  # noqa: F401 - re-exported (settings.VERSION)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PLATFORM_", extra="ignore")

    data_dir: Path = Field(default_factory=default_data_dir)
    database_url: str | None = None
    secret_key: str | None = None
    force_https: bool | None = None  # default: on unless --demo
    allowed_origins: str | None = None
    trusted_proxies: str = "127.0.0.1,::1"
    # GET /metrics answers loopback callers, and callers bearing this token when it is set.
    metrics_token: str | None = None
    # Logs to stderr: "json" (one object a line) or "text"; unset: JSON for `serve`, text elsewhere.
    log_format: Literal["json", "text"] | None = None
    # OpenTelemetry spans per request when the packages are installed (the `traces` extra).
    traces: bool = False
    cookie_domain: str | None = None
    rate_limits: str = "A"
    retry_policy: str = "A"
    retry_delays: str | None = None
    webhook_timeout: float | None = None
    webhook_ca_bundle: str | None = None
    webhook_allow_private: bool = False
    # The scheduler thread of each server process (periodic and delayed jobs, services/core/scheduler.py).
    # Off (PLATFORM_SCHEDULER=0): nothing runs by itself; the manual triggers stay (POST documents/sweep).
    scheduler: bool = True
    # Connections (the e-commerce shop) may use plain http, loopback and private addresses (tests, demo).
    connections_allow_private: bool = False
    # SDS ingredient search asks PubChem's PUG REST when enabled (PLATFORM_PUBCHEM_ENABLED=1).
    pubchem_enabled: bool = False
    pubchem_url: str = "https://pubchem.ncbi.nlm.nih.gov/rest/pug"
    challenge: str | None = None
    challenge_secret: str | None = None  # the provider's secret (PLATFORM_CHALLENGE=turnstile)
    challenge_url: str | None = None  # the provider's verify URL, when not its default
    smtp_url: str | None = None  # unset: outgoing mail is kept as .eml files under the data dir's mail/
    mail_from: str = "Platform <no-reply@platform.invalid>"
    body_limit: int = 1024 * 1024
    upload_limit: int = 20 * 1024 * 1024
    demo: bool = False
    # With demo only: start the EasyPost-speaking carrier stand-in on a loopback port and point the demo
    # tenant's carrier setting at it (``serve --demo --demo-carrier``; never in production).
    demo_carrier: bool = False
    # 0: serve only the spec's routes, without the stations' push and pull
    # (what a station meets at a platform that has no sync routes).
    sync_routes: bool = True

    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{self.data_dir / 'data.db'}"

    def resolved_secret_key(self) -> str:
        """The configured secret, or one generated once and kept in the data dir (mode 0600)."""
        if self.secret_key:
            return self.secret_key
        self.data_dir.mkdir(parents=True, exist_ok=True)
        path = self.data_dir / "secret.key"
        if not path.exists():
            path.touch(mode=0o600)
            path.write_text(secrets.token_urlsafe(48))
        return path.read_text().strip()

    def https_forced(self) -> bool:
        return self.force_https if self.force_https is not None else not self.demo

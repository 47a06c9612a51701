"""A station's sign-in check before its service layer is loaded (issue 38: a sign-in that works within 1 s).

A sign-in needs the people, their memberships and the password check only. Reaching them through
the service layer means importing SQLAlchemy, every table declaration and the modules: seconds on a
station. This reads the three tables of the station's SQLite file with the standard library's
``sqlite3`` and checks the password with the same argon2 check as ``auth.authenticate_password``
(services/core/passwords.py): milliseconds. The session (its token) and the tenant are made by the
service layer once it is loaded (``services.core.station.session_for``, ``open_tenant``).

It answers only what it can answer exactly as the full sign-in (``services.core.station.sign_in``)
would. Anything else gives ``None`` and the caller takes the full sign-in: a malformed e-mail or an
empty password (the full sign-in names the field), no database file yet (a first start makes it), a
file of another shape (an old station before its migrations ran), a database that is not a file.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from services.core.errors import Forbidden, Unauthorized
from services.core.passwords import dummy_hash, verify_password

# The e-mail addresses accepted at sign-in (services.core.schemas.Email uses this pattern too).
EMAIL_PATTERN = re.compile(r"^[^@\s]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9-]{1,63})+$")
PASSWORD_MAX = 1024  # services.core.schemas.LoginRequest.password's max_length


@dataclass(frozen=True)
class TenantChoice:
    """One membership offered at sign-in, with the tenant's current status."""

    slug: str
    name: str
    role: str
    status: str
    modules: frozenset[str]  # effective: tenant modules ∩ user modules

    @property
    def active(self) -> bool:
        return self.status == "active"


@dataclass(frozen=True)
class LocalSignIn:
    """A person whose password the station's own data accepted, and their memberships."""

    user_id: str
    email: str
    name: str
    tenants: list[TenantChoice]


def check(db_file: Path, email: str, password: str) -> LocalSignIn | None:
    """The person for these credentials, read from ``db_file``; ``None``: ask the full sign-in.

    Raises ``Unauthorized`` (without saying which part was wrong) and ``Forbidden`` (no membership)
    with the full sign-in's messages.
    """
    # LoginRequest strips both fields (Strict: str_strip_whitespace) and lower-cases the e-mail.
    address, secret = email.strip().lower(), password.strip()
    if not secret or len(secret) > PASSWORD_MAX or len(address) > 320 or not EMAIL_PATTERN.match(address):
        return None  # the full sign-in says which field is wrong
    if not db_file.is_file():
        return None
    try:
        # Read-only, by URI: never creates the file, never takes a write lock from the migrations.
        con = sqlite3.connect(f"{db_file.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error:
        return None
    try:
        user = con.execute(
            "SELECT id, email, name, password_hash, disabled FROM users WHERE email = ?", (address,)
        ).fetchone()
        rows = (
            []
            if user is None
            else con.execute(
                "SELECT t.slug, t.name, m.role, t.status, t.modules, m.user_modules FROM memberships m "
                "JOIN tenants t ON t.id = m.tenant_id WHERE m.user_id = ? ORDER BY t.slug",
                (user[0],),
            ).fetchall()
        )
        tenants = [
            TenantChoice(slug, name, role, status, frozenset(json.loads(user_mods)) & frozenset(json.loads(mods)))
            for slug, name, role, status, mods, user_mods in rows
        ]
    except (sqlite3.Error, ValueError, TypeError):
        return None  # not the shape this reads (an older station before its migrations): the full sign-in
    finally:
        con.close()
    if user is None:
        verify_password(dummy_hash(), secret)  # as long as a wrong password
        raise Unauthorized("e-mail or password is not correct")
    user_id, stored_email, name, password_hash, disabled = user
    if not verify_password(password_hash, secret) or disabled:
        raise Unauthorized("e-mail or password is not correct")
    if not tenants:
        raise Forbidden("this account has no tenant membership; ask an administrator to add you")
    return LocalSignIn(user_id, stored_email, name, tenants)

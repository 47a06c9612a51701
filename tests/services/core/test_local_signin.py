"""The station's sign-in check before its service layer is loaded (services/core/local_signin.py, issue 38):
it answers as the full sign-in does, or leaves the answer to it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from services.core import auth
from services.core.context import Runtime
from services.core.demo import DEMO_PASSWORD
from services.core.errors import Forbidden, Unauthorized
from services.core.local_signin import check
from services.core.station import session_for, sign_in


def _file(rt: Runtime) -> Path:
    return rt.data_dir / "data.db"


def _sql(rt: Runtime, statement: str, *args: str) -> None:
    with sqlite3.connect(_file(rt)) as con:
        con.execute(statement, args)


def test_it_accepts_as_the_full_sign_in_and_the_session_follows(station: Runtime) -> None:
    local = check(_file(station), "  Owner@Demo.TEST ", f" {DEMO_PASSWORD} ")  # stripped, lower-cased
    full = sign_in(station, email="owner@demo.test", password=DEMO_PASSWORD)
    assert local is not None
    assert (local.user_id, local.email, local.tenants) == (full.login.id, full.login.email, full.tenants)
    assert [c.slug for c in local.tenants] == ["demo"] and "support" in local.tenants[0].modules
    # The session made once the service layer is loaded, without checking the password again.
    login = session_for(station, local.user_id)
    assert auth.decode_token(station.secret_key, login.token)["sub"] == local.user_id
    assert login.tenants == full.login.tenants


def test_wrong_unknown_disabled_and_membershipless_are_refused_as_the_full_sign_in_does(station: Runtime) -> None:
    f = _file(station)
    with pytest.raises(Unauthorized, match="^e-mail or password is not correct$"):
        check(f, "owner@demo.test", "not the password")
    with pytest.raises(Unauthorized, match="^e-mail or password is not correct$"):
        check(f, "nobody@demo.test", DEMO_PASSWORD)
    operator = check(f, "operator@demo.test", DEMO_PASSWORD)
    assert operator is not None
    _sql(station, "UPDATE users SET disabled = 1 WHERE id = ?", operator.user_id)
    with pytest.raises(Unauthorized):
        check(f, "operator@demo.test", DEMO_PASSWORD)
    with pytest.raises(Unauthorized):  # disabled between the check and the service layer: no session
        session_for(station, operator.user_id)
    _sql(station, "UPDATE users SET disabled = 0 WHERE id = ?", operator.user_id)
    _sql(station, "DELETE FROM memberships WHERE user_id = ?", operator.user_id)
    with pytest.raises(Forbidden) as local:
        check(f, "operator@demo.test", DEMO_PASSWORD)
    with pytest.raises(Forbidden) as full:
        sign_in(station, email="operator@demo.test", password=DEMO_PASSWORD)
    assert local.value.message == full.value.message


def test_what_it_cannot_answer_exactly_is_left_to_the_full_sign_in(station: Runtime, tmp_path: Path) -> None:
    f = _file(station)
    assert check(f, "not-an-address", DEMO_PASSWORD) is None  # the full sign-in names the field
    assert check(f, "owner@demo.test", "   ") is None
    assert check(f, "owner@demo.test", "x" * 1025) is None
    missing = tmp_path / "missing.db"
    assert check(missing, "owner@demo.test", DEMO_PASSWORD) is None
    assert not missing.exists()  # read-only: a first start's file is made by the service layer
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE users (id TEXT, email TEXT)")  # not the shape it reads
    assert check(other, "owner@demo.test", DEMO_PASSWORD) is None

"""Inviting from Admin with real widgets: on the platform's own database the invitation is made and
mailed (kept as .eml when no SMTP server is set), the user listed disabled; sent again, the first
link is replaced; revoked, none is open. A station without a platform says it cannot, and makes nobody."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from email import message_from_bytes
from email.policy import default as default_policy

import pytest
from pytestqt.qtbot import QtBot
from sqlalchemy import func, select

from local_db.models import User
from local_db.models.invitations import UserInvitation
from services.core.context import Runtime
from services.core.mail import mail_dir
from tests.views.workspaces import settle, workspace_factory
from views.admin.workspace import AdminWorkspace


def _links(rt: Runtime, tenant_id: str, to: str) -> list[str]:
    found = []
    for path in sorted(mail_dir(rt, tenant_id).glob("*.eml")):
        msg = message_from_bytes(path.read_bytes(), policy=default_policy)
        body = msg.get_body(("plain",))
        if msg["To"] == to and body is not None:
            found += re.findall(r"https?://\S+/demo/platform/p/invite/\S+", body.get_content())
    return found


@pytest.fixture
def make(runtime: Runtime, qtbot: QtBot) -> Iterator[Callable[..., AdminWorkspace]]:
    yield from workspace_factory(runtime, qtbot, AdminWorkspace, "owner@demo.test", (1280, 800))


def test_invite_resend_and_revoke_from_admin(
    make: Callable[..., AdminWorkspace], runtime: Runtime, qtbot: QtBot
) -> None:
    ws = make()
    panel = ws.users
    qtbot.waitUntil(lambda: panel.table.rowCount() > 0, timeout=30_000)
    rows = panel.table.rowCount()
    dialog = panel.open_invite_user()
    assert dialog.windowTitle() == "Invite user" and "password" not in dialog.errors
    dialog.email.setText("not-an-address")
    dialog.name.setText("Ina Vite")
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.message.isVisible() or dialog.errors["email"].isVisible(), timeout=30_000)
    assert dialog.isVisible()  # refused: the dialog stays, nobody made
    dialog.email.setText("ina.vite@example.com")
    assert dialog.language.currentData() == "en"  # this station's language is the likely one
    dialog.language.setCurrentIndex(dialog.language.findData("de"))  # the invitee reads German
    dialog.submit()
    qtbot.waitUntil(lambda: "Invitation mailed to ina.vite@example.com" in panel.status.text(), timeout=30_000)
    qtbot.waitUntil(lambda: panel.table.rowCount() == rows + 1, timeout=30_000)
    with runtime.db.reading(None) as s:
        user = s.execute(select(User).where(User.email == "ina.vite@example.com")).scalar_one()
        assert user.disabled
        uid, tenant_id = user.id, s.execute(select(UserInvitation.tenant_id)).scalars().first()
        assert s.execute(select(UserInvitation.language).where(UserInvitation.user_id == uid)).scalar_one() == "de"
    assert tenant_id is not None
    (first,) = _links(runtime, tenant_id, "ina.vite@example.com")

    panel.table.selectRow([u.id for u in panel.users].index(uid))
    panel.resend.click()
    qtbot.waitUntil(lambda: "Invitation sent again" in panel.status.text(), timeout=30_000)
    assert len(set(_links(runtime, tenant_id, "ina.vite@example.com")) - {first}) == 1
    panel.revoke_invitation.click()
    qtbot.waitUntil(lambda: "revoked" in panel.status.text(), timeout=30_000)
    with runtime.db.reading(None) as s:
        open_ = s.execute(
            select(func.count())
            .select_from(UserInvitation)
            .where(UserInvitation.user_id == uid, UserInvitation.revoked_at.is_(None), UserInvitation.used_at.is_(None))
        ).scalar_one()
    assert open_ == 0
    panel.revoke_invitation.click()  # none open: said, nothing changes
    qtbot.waitUntil(lambda: "no open invitation" in panel.status.text(), timeout=30_000)
    settle(qtbot, ws)


@pytest.fixture
def make_on_station(station: Runtime, qtbot: QtBot) -> Iterator[Callable[..., AdminWorkspace]]:
    yield from workspace_factory(station, qtbot, AdminWorkspace, "owner@demo.test", (1280, 800))


def test_a_station_without_a_platform_cannot_invite(
    make_on_station: Callable[..., AdminWorkspace], station: Runtime, qtbot: QtBot
) -> None:
    dialog = make_on_station().users.open_invite_user()
    dialog.email.setText("far.away@example.com")
    dialog.name.setText("Far Away")
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.message.isVisible(), timeout=30_000)
    assert "link this station" in dialog.message.text()
    with station.db.reading(None) as s:
        assert s.execute(select(User).where(User.email == "far.away@example.com")).first() is None

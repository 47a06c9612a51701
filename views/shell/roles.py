"""The four roles in a person's words: one map for every place that shows a role (the sign-in's
tenant choice and user line, Admin's user list and role pickers). Admin once had its own map in
lower case under another context, so the same role read "operator" there and "Operator" at the
sign-in. The data keeps the role's name; the combo's item data is that name."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from views.i18n import QT_TRANSLATE_NOOP

CONTEXT = "Roles"

# Marked for lupdate (shell.ts; the context a literal: lupdate reads no name), translated in role_label.
ROLE_WORDS = {
    "owner": QT_TRANSLATE_NOOP("Roles", "Owner"),
    "admin": QT_TRANSLATE_NOOP("Roles", "Admin"),
    "operator": QT_TRANSLATE_NOOP("Roles", "Operator"),
    "warehouse-device": QT_TRANSLATE_NOOP("Roles", "Warehouse device"),
}


def role_label(role: str) -> str:
    """A role as the person reads it ("Sachbearbeiter"); an unknown one as it is stored."""
    return QCoreApplication.translate(CONTEXT, ROLE_WORDS[role]) if role in ROLE_WORDS else role

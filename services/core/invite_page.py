"""The set-password page of an invitation: ``/{tenant}/platform/p/invite/{token}``.

GET shows the form while the invitation is open; POST runs ``platform.invitations.accept`` (the
same rules as the API: a weak password is refused beside its field, the token works once). A link
that is unknown, used, revoked or expired gets the same page: "ask for a new invitation".
"""

from __future__ import annotations

from services.core.commands import execute
from services.core.errors import NotFound, ValidationFailed
from services.core.invitations import MIN_PASSWORD, invitation_of
from services.core.pages import N_, Page, PageCall, page

# The reasons of services.core.invitations.password_problem, for the page's translation.
REASONS = (
    N_("Use at least 10 characters."),
    N_("Use more different characters."),
    N_("Do not use your e-mail address, your name or only digits."),
)


@page("platform.invite", "/invite/{token}", methods=("GET", "POST"), limit="public_sign", module="platform")
def invite(call: PageCall, token: str) -> Page:
    ctx = call.ctx()
    title = call.gettext("Choose your password")
    gone = Page("platform/invite_gone.html", {}, status=404, title=call.gettext("This link is not valid any more"))
    if invitation_of(ctx, token) is None:
        return gone
    errors: dict[str, str] = {}
    if call.method == "POST":
        password = call.form.get("password", "")
        if password != call.form.get("again", ""):
            errors["again"] = call.gettext("The two passwords differ: type the same one twice.")
        else:
            try:
                done = execute(ctx, "platform.invitations.accept", token=token, body={"password": password})
                return Page("platform/invite_done.html", {"email": done.email}, title=call.gettext("Password set"))
            except ValidationFailed as exc:
                reason = (exc.details or {}).get("reason") if isinstance(exc.details, dict) else None
                errors["password"] = call.gettext(str(reason)) if reason else call.gettext("Choose another password.")
            except NotFound:
                return gone
    return Page(
        "platform/invite.html", {"errors": errors, "min": MIN_PASSWORD}, status=400 if errors else 200, title=title
    )

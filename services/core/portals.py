"""Customer portals: the pages of the modules with customer accounts (trade-in, warranty, rewards).

One :class:`Portal` per module names its customer accounts (``services.core.customers.Accounts``)
and its sign-in and registration use cases; :func:`account_pages` declares the sign-in, register
and sign-out pages every portal has. The session is the module's own customer token (the one its
API answers at sign-in), kept in an HttpOnly cookie scoped to ``/{tenant}/{module}/p``; every
other page of the portal runs the module's use cases as that customer (``Portal.customer``), so
the rules are the API's own and a page holds no business logic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from services.core.commands import execute
from services.core.context import Ctx
from services.core.customers import Accounts
from services.core.errors import Conflict, Forbidden, ServiceError, Unauthorized, ValidationFailed
from services.core.files import Redirect
from services.core.pages import N_, Page, PageCall, field_errors, page


@dataclass(frozen=True)
class Field:
    """One input of a portal's form: ``label`` is marked with ``N_`` and translated when shown."""

    name: str
    label: str
    type: str = "text"
    required: bool = True
    autocomplete: str | None = None


@dataclass(frozen=True)
class Portal:
    module: str
    accounts: Accounts[Any]
    login: str  # the use case signing a customer in (answers a token)
    register: str  # the use case making an account (a token, or a request staff approve)
    register_fields: tuple[Field, ...]
    title: str  # the portal's name (N_)
    # The signed-in customer's menu: (path under the portal, label marked with N_).
    nav: tuple[tuple[str, str], ...] = ()
    # Registration answers a request staff approve (rewards dealers), not a signed-in account.
    approval: bool = False

    @property
    def cookie(self) -> str:
        return f"portal_{self.module}"

    def base(self, call: PageCall) -> str:
        return f"/{call.tenant.slug}/{self.module}/p"

    def customer(self, call: PageCall) -> Ctx | None:
        """The signed-in customer's context, or None (no cookie, an ended or expired session, a
        suspended dealer): the token check is the API's own."""
        token = call.cookies.get(self.cookie)
        if not token:
            return None
        ctx = call.ctx()
        try:
            who, account = self.accounts.authenticate_account(
                ctx.db, ctx.runtime.secret_key, call.tenant, token, ctx.now()
            )
        except (Unauthorized, Forbidden):
            call.set_cookies[self.cookie] = None
            return None
        # The row the check just read: a page showing the account's own columns (a dealer's
        # balance) reads it from here rather than again (issue 33).
        call.account = account
        return ctx.with_principal(who)

    def menu(self, call: PageCall, ctx: Ctx) -> dict[str, Any]:
        """The template values of a signed-in page's header: the menu and whom it greets."""
        return {
            "nav": [(path, call.gettext(label)) for path, label in self.nav],
            "customer_name": ctx.principal.name or ctx.principal.email or "",
        }

    def signin_redirect(self, call: PageCall) -> Redirect:
        return Redirect(self.base(call) + "/signin", status=303)


class FileRefused(ServiceError):
    """An upload refused inside a page's unit of work: raised to roll the whole form back, and
    caught by the page to say which field's file was refused."""

    code = "VALIDATION_ERROR"
    status = 400


def errors_of(exc: ServiceError, call: PageCall, fields: dict[str, str] | None = None) -> dict[str, str]:
    """A use case's refusal as messages beside the form's fields. ``fields`` maps a detail key the
    use case names (``purchase_date``, ``file_id``) to the form field it came from."""
    if isinstance(exc, ValidationFailed) and (exc.details or {}).get("fields"):
        found = field_errors(exc, call.gettext)
        return {(fields or {}).get(k, k): v for k, v in found.items()}
    out: dict[str, str] = {}
    for key in exc.details or {}:
        if fields and key in fields:
            out.setdefault(fields[key], call.gettext(N_("Please check this value.")))
    if not out:
        out["form"] = call.gettext(N_("Please check the form."))
    return out


def form_values(call: PageCall, fields: tuple[Field, ...]) -> dict[str, str]:
    return {f.name: call.form.get(f.name, "").strip() for f in fields if f.type != "password"}


LOGIN_FIELDS = (
    Field("email", N_("E-mail address"), "email", autocomplete="email"),
    Field("password", N_("Password"), "password", autocomplete="current-password"),
)
WRONG_LOGIN = N_("The e-mail address or the password is not correct.")
NOT_APPROVED = N_("Your account is not approved yet. We will write to you once it is.")
EXISTS = N_("There is an account with this e-mail address already. Please sign in instead.")
SIGNED_OUT = N_("You are signed out.")


def _form(call: PageCall, portal: Portal, kind: str, fields: tuple[Field, ...], **extra: Any) -> Page:
    labels = [
        {"name": f.name, "label": call.gettext(f.label), "type": f.type, "required": f.required, "auto": f.autocomplete}
        for f in fields
    ]
    values = extra.pop("values", form_values(call, fields))
    errors = extra.pop("errors", {})
    title = call.gettext(N_("Sign in") if kind == "signin" else N_("Create an account"))
    return Page(
        "portal/account.html",
        {
            "kind": kind,
            "fields": labels,
            "values": values,
            "errors": errors,
            "portal_title": call.gettext(portal.title),
            "approval": portal.approval,
            **extra,
        },
        status=400 if errors else 200,
        title=title,
    )


def account_pages(portal: Portal) -> None:
    """Declare ``/signin``, ``/register`` and ``/signout`` of the portal."""
    m = portal.module

    def signin(call: PageCall) -> Page | Redirect:
        if call.method == "GET":
            if portal.customer(call) is not None:
                return Redirect(portal.base(call) + "/", status=303)
            notice = call.gettext(SIGNED_OUT) if call.query.get("out") else ""
            return _form(call, portal, "signin", LOGIN_FIELDS, notice=notice)
        body = {"email": call.form.get("email", "").strip(), "password": call.form.get("password", "")}
        try:
            out = execute(call.ctx(), portal.login, body=body)
        except ValidationFailed as exc:
            return _form(call, portal, "signin", LOGIN_FIELDS, errors=field_errors(exc, call.gettext))
        except Unauthorized:
            return _form(call, portal, "signin", LOGIN_FIELDS, errors={"form": call.gettext(WRONG_LOGIN)})
        except Forbidden:
            return _form(call, portal, "signin", LOGIN_FIELDS, errors={"form": call.gettext(NOT_APPROVED)})
        call.set_cookies[portal.cookie] = out.token
        return Redirect(portal.base(call) + "/", status=303)

    def register(call: PageCall) -> Page | Redirect:
        fields = portal.register_fields
        if call.method == "GET":
            return _form(call, portal, "register", fields)
        body: dict[str, Any] = {f.name: call.form.get(f.name, "").strip() for f in fields}
        body["password"] = call.form.get("password", "")
        for f in fields:
            if not f.required and not body[f.name]:
                body.pop(f.name)
        try:
            out = execute(call.ctx(), portal.register, body=body)
        except ValidationFailed as exc:
            return _form(call, portal, "register", fields, errors=field_errors(exc, call.gettext))
        except Conflict:
            return _form(call, portal, "register", fields, errors={"email": call.gettext(EXISTS)})
        token = getattr(out, "token", None)
        if token is None:  # a request staff approve first: nothing to sign in with yet
            return Page(
                "portal/requested.html",
                {"portal_title": call.gettext(portal.title)},
                title=call.gettext(N_("Thank you")),
            )
        call.set_cookies[portal.cookie] = token
        return Redirect(portal.base(call) + "/", status=303)

    def signout(call: PageCall) -> Redirect:
        ctx = portal.customer(call)
        if ctx is not None:
            # Ends every session of the account, as the API's sign-out does.
            execute(ctx, f"{m}.auth.logout")
        call.set_cookies[portal.cookie] = None
        return Redirect(portal.base(call) + "/signin?out=1", status=303)

    page(f"{m}.portal.signin", "/signin", methods=("GET", "POST"), limit="auth", module=m)(signin)
    page(f"{m}.portal.register", "/register", methods=("GET", "POST"), limit="auth", module=m)(register)
    page(f"{m}.portal.signout", "/signout", methods=("POST",), module=m)(signout)


def signed_in(portal: Portal) -> Callable[[Callable[..., Page | Redirect]], Callable[..., Page | Redirect]]:
    """A page only a signed-in customer sees: anyone else is sent to the sign-in page. The
    function gets the customer's ``Ctx`` as ``ctx``."""

    def wrap(fn: Callable[..., Page | Redirect]) -> Callable[..., Page | Redirect]:
        def run(call: PageCall, **params: str) -> Page | Redirect:
            ctx = portal.customer(call)
            if ctx is None:
                return portal.signin_redirect(call)
            return fn(call, ctx=ctx, **params)

        run.__name__ = fn.__name__
        run.__doc__ = fn.__doc__
        return run

    return wrap

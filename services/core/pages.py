"""Public pages: HTML for the tenant's outside people, declared once like use cases.

A module declares a page with :func:`page`; the HTTP door (``api/pages.py``) mounts every
declaration at ``/{tenant}/{module}/p{path}`` outside ``/api``, parses the form, checks the CSRF
token and the rate limit, and sets the security headers. The function receives a
:class:`PageCall` (the tenant, the visitor's language, the form, a ``Ctx`` of a public caller to
``execute`` use cases with) and answers a :class:`Page` (a template and its values), a
:class:`Redirect` or a :class:`FileResult`. Templates live in ``resources/templates/pages/`` and
extend ``base.html`` (tenant name, logo, colour, language).

Strings are translated with Babel catalogues (``resources/locale/<lang>/LC_MESSAGES/pages.po``),
compiled in memory when first used: nothing to build on a bare machine, nothing binary committed.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, TypeVar

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations
from jinja2 import Environment, FileSystemLoader, select_autoescape

from services.core.authcache import Resolver
from services.core.context import Ctx, Principal, Runtime, TenantInfo
from services.core.errors import ServiceError, ValidationFailed
from services.core.files import FileResult, Redirect, Upload

T = TypeVar("T")

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
TEMPLATES = RESOURCES / "templates" / "pages"
LOCALES = RESOURCES / "locale"
LANGUAGES = ("en", "de")
CSRF_FIELD = "csrf_token"
CSRF_COOKIE = "pages_csrf"
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
DEFAULT_COLOUR = "#1f5fbf"


@dataclass
class Page:
    """A rendered page's recipe: ``template`` under ``resources/templates/pages/``, its values."""

    template: str
    context: dict[str, Any] = field(default_factory=dict)
    status: int = 200
    title: str = ""


@dataclass
class RawHtml:
    """A document the tenant wrote, shown as it is (a campaign's mail in the browser). The HTTP
    door sends it under a policy of its own: no script at all (``sandbox``, no ``script-src``),
    inline styles and any image allowed, as a mail client shows a mail."""

    html: str


@dataclass
class PageCall:
    """One visit: who the tenant is, the visitor's language, the form and its files."""

    runtime: Runtime
    tenant: TenantInfo
    lang: str
    ip: str
    method: str
    form: dict[str, str] = field(default_factory=dict)
    files: dict[str, list[Upload]] = field(default_factory=dict)
    query: dict[str, str] = field(default_factory=dict)
    user_agent: str = ""
    cookies: dict[str, str] = field(default_factory=dict)
    # Cookies the answer sets (a value) or clears (None), scoped to the module's pages: a customer
    # portal's session (services/core/portals.py).
    set_cookies: dict[str, str | None] = field(default_factory=dict)
    # A customer portal's signed-in account, as its session check read it (portals.Portal.customer).
    account: Any = None
    # The visit's view of the per-process cache (services/core/authcache.py): its version was read
    # once, with the tenant. None (outside a served visit): ``cached`` loads every time.
    cache: Resolver | None = None

    def cached(self, key: tuple[Any, ...], load: Callable[[], T]) -> T:
        """This tenant's ``key`` as read at the visit's cache version, loaded when it is not kept.
        Only for what a trigger bumps that version on (the auth tables, and tables a module's
        migration adds, such as rewards' earning rules and tiers): anything else would go stale."""
        if self.cache is None:
            return load()
        return self.cache.get((self.tenant.id, *key), load)

    def ctx(self) -> Ctx:
        """A public caller of this tenant, as the API's public routes have."""
        return Ctx(self.runtime, self.tenant, Principal(kind="public", id=f"ip:{self.ip}"), ip=self.ip)

    def gettext(self, text: str) -> str:
        return translations(self.lang).gettext(text)


@dataclass(frozen=True)
class PageDecl:
    name: str
    module: str
    path: str
    methods: tuple[str, ...]
    fn: Callable[..., Page | Redirect | FileResult | RawHtml]
    limit: str | None  # the API's public rate-limit category the page shares
    # A stricter category for the page's POSTs only (a public registration's 5 an hour must not
    # be spent by looking at its form).
    post_limit: str | None = None


PAGES: dict[str, PageDecl] = {}


def page(
    name: str,
    path: str,
    *,
    methods: tuple[str, ...] = ("GET",),
    limit: str | None = None,
    module: str | None = None,
    post_limit: str | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare a public page: ``path`` relative to ``/{tenant}/{module}/p`` (path parameters in braces
    become keyword arguments); ``limit`` names the public rate-limit category of the module's API."""

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        mod = module or name.split(".", 1)[0]
        if name in PAGES:
            raise ValueError(f"page {name} declared twice")
        PAGES[name] = PageDecl(name, mod, path, methods, fn, limit, post_limit)
        return fn

    return wrap


def route_of(decl: PageDecl) -> str:
    return f"/{{tenant}}/{decl.module}/p{decl.path}"


class FormErrors(ServiceError):
    """Bad input on a page's form: field -> message, shown beside each field (status 400)."""

    code = "VALIDATION_ERROR"
    status = 400

    def __init__(self, fields: dict[str, str]) -> None:
        super().__init__("the form has errors", {"fields": fields})
        self.fields = fields


def N_(text: str) -> str:
    """Marks a string for the catalogue (``pybabel extract``) where it is translated later."""
    return text


# The HTTP door's own answers (api/pages.py), in the catalogue with the pages' strings.
FORM_EXPIRED = N_("This form has expired. Please go back, reload the page and try again.")
NOT_FOUND = N_("This page does not exist.")
TOO_MANY = N_("Too many requests. Please wait a minute and try again.")
UNREADABLE = N_("The form could not be read.")

_MESSAGES = {
    "missing": N_("This field is required."),
    "string_too_short": N_("This field is required."),
    "string_too_long": N_("This is too long."),
}


def field_errors(exc: ValidationFailed, gettext: Callable[[str], str]) -> dict[str, str]:
    """A use case's VALIDATION_ERROR -> one short translated message per form field."""
    out: dict[str, str] = {}
    for f in (exc.details or {}).get("fields", []):
        name = str(f.get("field", "")).split(".")[0] or "form"
        kind = str(f.get("type", ""))
        if name == "email" and kind not in _MESSAGES:
            msg = N_("Please enter a valid e-mail address.")
        else:
            msg = _MESSAGES.get(kind, N_("Please check this value."))
        out.setdefault(name, gettext(msg))
    if not out:
        out["form"] = gettext("Please check this value.")
    return out


# --- language -------------------------------------------------------------------------------


def pick_language(accept: str | None) -> str:
    """The best of our languages for an ``Accept-Language`` header (q-values honoured)."""
    best, best_q = "en", -1.0
    for i, part in enumerate((accept or "").split(",")):
        bits = part.strip().split(";")
        tag = bits[0].strip().lower().split("-")[0]
        q = 1.0
        for b in bits[1:]:
            if b.strip().startswith("q="):
                try:
                    q = float(b.strip()[2:])
                except ValueError:
                    q = 0.0
        if tag in LANGUAGES and q > best_q and q > 0:
            best, best_q = tag, q - i * 1e-6  # ties: the first listed wins
    return best


@cache
def translations(lang: str) -> NullTranslations:
    """The language's catalogue, compiled from its ``.po`` in memory (English is the source)."""
    po = LOCALES / lang / "LC_MESSAGES" / "pages.po"
    if lang == "en" or not po.exists():
        return NullTranslations()
    import io

    with po.open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return Translations(fp=buf)


@cache
def environment(lang: str) -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        # Compiled once per process: no file checks on every page (a template changes with a release).
        auto_reload=False,
        autoescape=select_autoescape(default=True, default_for_string=True),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    # Numbers as the visitor's language writes them (16,390 points; 16.390 Punkte). The locale is
    # parsed once and each number's text kept: format_decimal parsed the locale on every call.
    locale = Locale.parse(lang)

    @lru_cache(maxsize=4096, typed=True)  # typed: 1 and 1.0 and True are one key untyped
    def number(n: Any) -> str:
        return format_decimal(n, locale=locale)

    env.filters["number"] = number
    return env


# --- branding ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Brand:
    name: str
    colour: str
    logo_url: str | None


def brand_of(settings: dict[str, Any], name: str) -> Brand:
    """The tenant's look from its settings: ``brand_color`` (#rrggbb) and ``logo_url`` (https or a
    path on this server); anything else falls back, since the values land in CSS and attributes."""
    colour = str(settings.get("brand_color") or "")
    logo = settings.get("logo_url")
    if not isinstance(logo, str) or not (logo.startswith("https://") or logo.startswith("/")) or '"' in logo:
        logo = None
    return Brand(name=name, colour=colour if _COLOUR.match(colour) else DEFAULT_COLOUR, logo_url=logo)


def tenant_and_brand(rt: Runtime, slug: str, cache: Resolver | None = None) -> tuple[TenantInfo, Brand]:
    """The tenant of a page's address and its look, from one read of its row (every page needs
    both), kept in the auth cache (services/core/authcache.py) that a change to the tenants table
    invalidates: a visit reads one version row instead of the tenant through an ORM session
    (``cache``: the visit's, whose version the page's own cached reads use too)."""
    from services.core import auth
    from services.core.errors import NotFound

    if slug in auth.RESERVED_SLUGS:
        raise NotFound(f"tenant {slug!r} not found")
    return (cache or Resolver(rt.db)).get(("page-tenant", slug), lambda: _tenant_and_brand(rt, slug))


def _tenant_and_brand(rt: Runtime, slug: str) -> tuple[TenantInfo, Brand]:
    from sqlalchemy import select

    from local_db.models import Tenant
    from services.core import auth
    from services.core.errors import NotFound

    with rt.db.reading(None) as s:
        # As auth.load_tenant: a sandbox is reached through a test key only, never by its slug.
        t = s.execute(select(Tenant).where(Tenant.slug == slug, Tenant.sandbox_of.is_(None))).scalar_one_or_none()
        if t is None:
            raise NotFound(f"tenant {slug!r} not found")
        return auth.tenant_info(t), brand_of(dict(t.settings or {}), t.name)


def brand_for(rt: Runtime, tenant: TenantInfo) -> Brand:
    from local_db.models import Tenant

    with rt.db.reading(None) as s:
        row = s.get(Tenant, tenant.id)
        settings = dict(row.settings or {}) if row is not None else {}
    return brand_of(settings, tenant.name)


def render(result: Page, *, lang: str, brand: Brand, nonce: str, csrf: str, base: str) -> str:
    env = environment(lang)
    values = {
        **result.context,
        "lang": lang,
        "brand": brand,
        "nonce": nonce,
        "csrf_token": csrf,
        "csrf_field": CSRF_FIELD,
        "base": base,
        "title": result.title,
    }
    return env.get_template(result.template).render(values)


# --- CSRF: a signed double-submit token -----------------------------------------------------


def new_csrf(secret: str) -> str:
    """A random value and its HMAC: the cookie and the form's hidden field carry the same token."""
    raw = secrets.token_urlsafe(18)
    return f"{raw}.{_mac(secret, raw)}"


def csrf_ok(secret: str, cookie: str | None, submitted: str | None) -> bool:
    """The form's token equals the cookie's and was made by this server (a cookie planted by a
    sibling subdomain without the key does not pass)."""
    if not cookie or not submitted or not hmac.compare_digest(cookie, submitted):
        return False
    raw, _, mac = cookie.partition(".")
    return bool(raw) and hmac.compare_digest(mac, _mac(secret, raw))


def _mac(secret: str, raw: str) -> str:
    return hmac.new(secret.encode(), b"pages-csrf:" + raw.encode(), hashlib.sha256).hexdigest()[:32]

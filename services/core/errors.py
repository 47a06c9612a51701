"""One exception family carrying the spec's error codes.

The HTTP front door maps ``status`` and ``to_body()`` to the response; the Qt
front door shows ``message`` where the person acted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

R = TypeVar("R")


class ServiceError(Exception):
    code: ClassVar[str] = "INTERNAL_ERROR"
    status: ClassVar[int] = 500

    def __init__(self, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.message, "code": self.code}
        if self.details:
            body["details"] = self.details
        return body


class ValidationFailed(ServiceError):
    code = "VALIDATION_ERROR"
    status = 400


class NotFound(ServiceError):
    code = "NOT_FOUND"
    status = 404


class Forbidden(ServiceError):
    code = "FORBIDDEN"
    status = 403


class Unauthorized(ServiceError):
    code = "UNAUTHORIZED"
    status = 401


class Conflict(ServiceError):
    code = "CONFLICT"
    status = 409


class TenantInactive(ServiceError):
    code = "TENANT_INACTIVE"
    status = 403


class PayloadTooLarge(ServiceError):
    code = "PAYLOAD_TOO_LARGE"
    status = 413


class RateLimited(ServiceError):
    code = "RATE_LIMITED"
    status = 429

    def __init__(self, message: str, retry_after: int, details: dict[str, Any] | None = None) -> None:
        super().__init__(message, details)
        self.retry_after = retry_after

    def to_body(self) -> dict[str, Any]:
        body = super().to_body()
        body["retryAfter"] = self.retry_after
        return body


def validation_details(exc: Any) -> dict[str, Any]:
    """Pydantic ``ValidationError`` -> the ``details`` object of a VALIDATION_ERROR."""
    fields = []
    for err in exc.errors(include_url=False, include_context=False, include_input=False):
        fields.append({"field": ".".join(str(p) for p in err["loc"]), "message": err["msg"], "type": err["type"]})
    return {"fields": fields}


def conflict_state(resource: str, current: str, action: str) -> Conflict:
    """409 for a transition from the wrong state, naming the current state."""
    return Conflict(
        f"cannot {action} a {resource} that is {current}",
        {"current_state": current, "action": action},
    )


def get_or_404(
    session: Session, model: type[R], id: str, *, what: str, message: str = "no {what} {id}", key: str | None = None
) -> R:
    """The row ``id`` of ``model`` in the caller's tenant, or NotFound: ``message`` (``{what}`` and
    ``{id}`` filled) with details ``{key or what: id}``. Another tenant's row reads as missing."""
    row = session.get(model, id)
    if row is None:
        raise NotFound(message.format(what=what, id=id), {key or what: id})
    return row


def lookup_ref(session: Session, model: type[R], ref: str, *columns: Any, fold_case: bool = False) -> R | None:
    """The row of ``model`` whose id, or any of ``columns`` (a code, a number, a barcode), is ``ref``.

    People type and scan codes while clients keep ids, so every "by id or code" lookup is this one.
    ``fold_case`` also matches the upper-case form, for numbers stored upper-case and typed as
    ``so-1006``. Tenant scoping is the session's, as for ``get_or_404``.
    """
    from sqlalchemy import or_, select

    ref = ref.strip()
    row = session.get(model, ref)
    if row is None and columns:
        values = {ref, ref.upper()} if fold_case else {ref}
        stmt = select(model).where(or_(*(c.in_(values) for c in columns)))
        row = session.execute(stmt).scalars().first()
    return row


def find_ref(
    session: Session,
    model: type[R],
    ref: str,
    *columns: Any,
    what: str,
    key: str | None = None,
    fold_case: bool = False,
) -> R:
    """``lookup_ref``, or NotFound ``no {what} {ref}`` with details ``{key or what: ref}``."""
    row = lookup_ref(session, model, ref, *columns, fold_case=fold_case)
    if row is None:
        raise NotFound(f"no {what} {ref.strip()}", {key or what: ref.strip()})
    return row

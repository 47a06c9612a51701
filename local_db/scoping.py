"""Tenant scoping by construction.

A session whose ``info["tenant_id"]`` is set sees only that tenant's rows of
every ``TenantScoped`` table (SELECT, ORM UPDATE and DELETE get the criterion
added), stamps new rows with the tenant, and refuses to flush a row of
another tenant. A forgotten filter therefore cannot leak or touch another
tenant's data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import bindparam, event
from sqlalchemy.orm import ORMExecuteState, Session, sessionmaker, with_loader_criteria

from local_db.base import TenantScoped


class TenantScopeError(RuntimeError):
    """A session tried to write a row of a tenant it is not bound to."""


def _tenant_of(session: Session) -> str | None:
    return session.info.get("tenant_id")


# The tenant travels as a bound parameter of the statement, not as a value the criterion closes
# over: one option for every tenant, whose SQL and cache key never change (a closure's value is
# extracted again from the lambda on every statement).
TENANT_PARAM = "_scope_tenant_id"
_CRITERIA = with_loader_criteria(
    TenantScoped,
    # TENANT_PARAM spelt out: the lambda analysis would take a name it reads for a value.
    lambda cls: cls.tenant_id == bindparam("_scope_tenant_id"),
    include_aliases=True,
    track_closure_variables=False,
)


def _on_execute(state: ORMExecuteState) -> None:
    tenant_id = _tenant_of(state.session)
    if tenant_id is None:
        if not state.session.info.get("unscoped", False):
            raise TenantScopeError("session is bound to no tenant and not marked platform-wide")
        return
    if (state.is_update or state.is_delete) and isinstance(state.parameters, list | tuple):
        # ORM "bulk UPDATE/DELETE by primary key" (a list of rows) takes no extra WHERE criteria:
        # it would change another tenant's row by its id. Refused; a loop or a WHERE does scope.
        mapper = state.bind_mapper
        if state.is_orm_statement and mapper is not None and issubclass(mapper.class_, TenantScoped):
            raise TenantScopeError(f"bulk {mapper.class_.__name__} by primary key is not tenant-scoped: refused")
    if state.is_select or state.is_update or state.is_delete:
        # Added to every statement, whatever its top-level entity: a scoped
        # table joined to a platform table is filtered too.
        state.statement = state.statement.options(_CRITERIA)
        params = state.parameters
        if not params:
            state.parameters = {TENANT_PARAM: tenant_id}
        elif isinstance(params, Mapping):
            state.parameters = {**params, TENANT_PARAM: tenant_id}
        else:  # executemany: each row's parameters
            state.parameters = [{**p, TENANT_PARAM: tenant_id} for p in params]


def _before_flush(session: Session, _ctx: Any, _instances: Any) -> None:
    tenant_id = _tenant_of(session)
    if tenant_id is None:
        return
    for obj in session.new:
        if isinstance(obj, TenantScoped):
            if obj.tenant_id is None:
                obj.tenant_id = tenant_id
            elif obj.tenant_id != tenant_id:
                raise TenantScopeError(f"{type(obj).__name__} of another tenant added to a scoped session")
    for obj in list(session.dirty) + list(session.deleted):
        if isinstance(obj, TenantScoped) and obj.tenant_id != tenant_id:
            raise TenantScopeError(f"{type(obj).__name__} of another tenant changed in a scoped session")


def install_tenant_scoping(factory: sessionmaker[Session]) -> None:
    event.listen(factory, "do_orm_execute", _on_execute)
    event.listen(factory, "before_flush", _before_flush)

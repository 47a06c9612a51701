"""Fixtures of the events service tests: an HTTPS receiver and a worker run on an asyncio loop."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from local_db.models import Tenant
from services.core.auth import tenant_info
from services.core.context import SYSTEM, Ctx, Runtime
from services.core.demo import demo_id
from tests.api.events.receiver import Certs, Receiver, make_certs


@pytest.fixture(scope="session")
def svc_certs(tmp_path_factory: pytest.TempPathFactory) -> Certs:
    return make_certs(tmp_path_factory.mktemp("svc-certs"))


@pytest.fixture(scope="session")
def _svc_receiver(svc_certs: Certs) -> Iterator[Receiver]:
    rec = Receiver(svc_certs).start()
    yield rec
    rec.stop()


@pytest.fixture
def receiver(_svc_receiver: Receiver) -> Receiver:
    _svc_receiver.reset()
    return _svc_receiver


def ctx_for(rt: Runtime, slug: str = "demo") -> Ctx:
    with rt.db.reading(None) as s:
        t = s.get(Tenant, demo_id("tenant", slug))
        assert t is not None
        info = tenant_info(t)
    return Ctx(rt, info, SYSTEM)

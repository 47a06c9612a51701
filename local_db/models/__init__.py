"""All tables. Importing this package imports every ``local_db/models/<module>.py``
so each model is registered on ``Base.metadata`` (modules add files, not lines here).
"""

import importlib
import pkgutil

from local_db.models.core import ApiKey, Counter, IdempotencyRecord, Membership, OutboxEntry, Tenant, User
from local_db.models.events import Event

for _info in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_info.name}")

__all__ = ["ApiKey", "Counter", "Event", "IdempotencyRecord", "Membership", "OutboxEntry", "Tenant", "User"]

"""All tables; importing this package registers every model on ``Base.metadata``."""

from local_db.models.core import ApiKey, Counter, Membership, OutboxEntry, Tenant, User
from local_db.models.events import Event

__all__ = ["ApiKey", "Counter", "Event", "Membership", "OutboxEntry", "Tenant", "User"]

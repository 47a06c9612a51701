"""Declarations of the sync routes.

Station registration is for owners and admins. Push and pull are called by
stations: the station's signature (``services.sync.protocol``) authenticates
them, so they are declared with ``auth="platform"`` and check it themselves.
The push is declared as a read although it is a POST: each entry runs in its
own unit of work, not one around the whole batch.
"""

from services.core.commands import MANAGERS, Operation, command, query, register
from services.core.pagination import ListQuery
from services.sync import protocol, service
from services.sync.schemas import LeaseIn, PullQuery, PushIn, RowsQuery, StationCreate

M = "platform"
T = "/api/tenants/{tenant}/sync"
ANYONE = frozenset({"owner", "admin", "operator", "warehouse-device"})

command(name="sync.stations.register", module=M, method="POST", path=T + "/stations", handler=service.register_station,
        body=StationCreate, roles=MANAGERS, status_code=201,
        summary="register a station (its secret is shown once)")  # fmt: skip
query(name="sync.stations.list", module=M, method="GET", path=T + "/stations", handler=service.list_stations,
      query=ListQuery, roles=MANAGERS, summary="list registered stations")  # fmt: skip
command(name="sync.stations.revoke", module=M, method="DELETE", path=T + "/stations/{station_id}",
        handler=service.revoke_station, roles=MANAGERS, summary="revoke a station")  # fmt: skip

register(Operation(name="sync.push", module=M, method="POST", path=T + "/push", handler=service.push, body=PushIn,
                   auth="platform", roles=ANYONE, limit="sync", headers=protocol.HEADERS,
                   summary="apply a batch of signed station changes in order"))  # fmt: skip
query(name="sync.pull", module=M, method="GET", path=T + "/pull", handler=service.pull, query=PullQuery,
      auth="platform", roles=ANYONE, limit="sync", headers=protocol.HEADERS,
      summary="changes since a cursor, in pages")  # fmt: skip
query(name="sync.rows", module=M, method="GET", path=T + "/rows", handler=service.rows, query=RowsQuery,
      auth="platform", roles=ANYONE, limit="sync", headers=protocol.HEADERS,
      summary="the current state of some records")  # fmt: skip
query(name="sync.counts", module=M, method="GET", path=T + "/counts", handler=service.counts, auth="platform",
      roles=ANYONE, limit="sync", headers=protocol.HEADERS, summary="record counts per synced table")  # fmt: skip
query(name="sync.status", module=M, method="GET", path=T + "/status", handler=service.status, auth="platform",
      roles=ANYONE, limit="sync", headers=protocol.HEADERS,
      summary="the station's registration, sequence and the platform's clock")  # fmt: skip
register(Operation(name="sync.leases", module=M, method="POST", path=T + "/leases", handler=service.lease, body=LeaseIn,
                   auth="platform", roles=ANYONE, limit="sync", headers=protocol.HEADERS,
                   summary="lease a block of numbers (tracking numbers) to a station"))  # fmt: skip
register(Operation(name="sync.files.put", module=M, method="PUT", path=T + "/files/{sha256}", handler=service.put_file,
                   upload=True, auth="platform", roles=ANYONE, limit="sync", headers=protocol.HEADERS,
                   summary="the bytes of a station's upload, sent before the change that names them"))  # fmt: skip

"""Sync between stations and the platform: the signed outbox pushed in order,
the platform's changes pulled since a cursor, conflicts shown to people.

- ``protocol``: what travels (signatures, the row codec, the synced tables);
- ``changelog``: the platform's per-tenant change log (usn) that pulls read;
- ``service`` (``registry``, ``push``, ``pull``): the platform routes (stations, push, pull);
- ``station``: the station's side in its database (batches, answers, pulled pages, issues);
- ``client`` / ``engine``: the station's engine on the asyncio loop (httpx).
"""

# The declarations (``service``) are imported by the composition root, not here: the desktop
# reads ``services.sync.words`` at start-up without loading the platform side.

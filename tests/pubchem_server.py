"""A small local stand-in for PubChem's PUG REST (DOMAIN §2), enough for ingredient search:

    GET /compound/name/{name}/property/{props}/JSON -> {"PropertyTable": {"Properties": [{CID, ...}]}} or 404
    GET /compound/name/{name}/synonyms/JSON         -> {"InformationList": {"Information": [{CID, Synonym}]}}

It counts requests (the tests check the client's cache) and remembers when each came (its pace).
Used by tests; never a mock of our client.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote

COMPOUNDS: dict[str, dict[str, Any]] = {
    "caffeine": {
        "CID": 2519,
        "MolecularFormula": "C8H10N4O2",
        "MolecularWeight": "194.19",
        "IUPACName": "1,3,7-trimethylpurine-2,6-dione",
        "synonyms": ["caffeine", "Guaranine", "58-08-2", "1,3,7-Trimethylxanthine"],
    },
    "linalool": {
        "CID": 6549,
        "MolecularFormula": "C10H18O",
        "MolecularWeight": "154.25",
        "IUPACName": "3,7-dimethylocta-1,6-dien-3-ol",
        "synonyms": ["linalool", "78-70-6", "Linalol"],
    },
}


class PubChemStandIn:
    def __init__(self) -> None:
        self.requests: list[tuple[float, str]] = []
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's names
                stand_in.requests.append((time.monotonic(), self.path))
                parts = [unquote(p) for p in self.path.split("?")[0].strip("/").split("/")]
                # compound / name / {name} / (property / {props} | synonyms) / JSON
                c = COMPOUNDS.get(parts[2].lower()) if len(parts) >= 5 and parts[:2] == ["compound", "name"] else None
                if c is None:
                    return self._send(404, {"Fault": {"Code": "PUGREST.NotFound", "Message": "No CID found"}})
                if parts[3] == "synonyms":
                    return self._send(
                        200, {"InformationList": {"Information": [{"CID": c["CID"], "Synonym": c["synonyms"]}]}}
                    )
                props = {k: v for k, v in c.items() if k != "synonyms"}
                return self._send(200, {"PropertyTable": {"Properties": [props]}})

            def _send(self, status: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> PubChemStandIn:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

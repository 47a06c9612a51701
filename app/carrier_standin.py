"""A carrier aggregator on loopback speaking the part of EasyPost's HTTP API the platform uses, and
misbehaving on purpose: a buy applied then answered 500, or a buy that never answers.

    POST /v2/addresses {"address": {...}, "verify": true}  -> the Address with verifications.delivery
    POST /v2/shipments {"shipment": {to_address, from_address, parcel, customs_info?, reference, is_return?}}
                                                              -> the Shipment with its rates (422 when an
                                                                 international parcel has no customs_info;
                                                                 is_return: the addresses switched)
    GET  /v2/shipments/{id}                                   -> the Shipment (tracking_code once bought)
    POST /v2/shipments/{id}/buy {"rate": {"id": ...}}         -> the bought Shipment (postage_label,
                                                                 tracking_code, selected_rate); 422 when
                                                                 it is already bought
Basic auth with the API key as user name, as EasyPost's. Errors: ``{"error": {code, message, errors}}``.

Used by tests (``tests/carrier_server.py``) and by the demo: ``python -m app serve --demo
--demo-carrier`` starts it on a free loopback port and points the demo tenant's carrier setting at it
(``demo_lifespan`` below); on its own: ``python -m app.carrier_standin --port 8095``. It lives in the
app package, not in tests, because the demo of an installed wheel starts it. Never a mock of our
client, and never started outside the demo.
"""

from __future__ import annotations

import argparse
import base64
import json
import threading
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# carrier, service, price, delivery days
RATES = [("USPS", "First", "4.50", 5), ("USPS", "Priority", "7.90", 2), ("UPS", "NextDayAir", "24.00", 1)]


@dataclass
class CarrierBehaviour:
    api_key: str = "EZTK-test-key"
    buy_then_500: int = 0  # the next n buys are applied, then answered 500
    buy_hangs: int = 0  # the next n buys are applied, then never answered (until the server stops)
    origin_country: str = "US"


@dataclass
class CarrierState:
    shipments: dict[str, dict[str, Any]] = field(default_factory=dict)
    purchases: dict[str, int] = field(default_factory=dict)  # shipment id -> times bought (must stay <= 1)
    requests: list[tuple[str, str]] = field(default_factory=list)
    authorizations: list[str] = field(default_factory=list)


def _error(code: str, message: str, errors: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "errors": errors or []}}


def _verify(address: dict[str, Any]) -> list[dict[str, Any]]:
    errors = []
    street = str(address.get("street1") or "")
    if not street:
        errors.append({"field": "street1", "message": "Street is missing", "suggestion": None})
    elif not any(ch.isdigit() for ch in street):
        errors.append({"field": "street1", "message": "House number is missing", "suggestion": None})
    if not address.get("zip"):
        errors.append({"field": "zip", "message": "Zip code is missing", "suggestion": None})
    if not address.get("city"):
        errors.append({"field": "city", "message": "City is missing", "suggestion": None})
    return errors


class CarrierServer:
    def __init__(self, behaviour: CarrierBehaviour | None = None, port: int = 0) -> None:
        self.behaviour = behaviour or CarrierBehaviour()
        self.state = CarrierState()
        self.lock = threading.Lock()
        self.release = threading.Event()  # set on stop: a hanging buy's handler ends
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _send(self, status: int, body: dict[str, Any]) -> None:
                raw = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def _authorised(self) -> bool:
                header = self.headers.get("Authorization", "")
                server.state.authorizations.append(header)
                expected = "Basic " + base64.b64encode(f"{server.behaviour.api_key}:".encode()).decode()
                if header != expected:
                    self._send(401, _error("APIKEY.INACTIVE", "This api key is no longer active."))
                    return False
                return True

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                server.state.requests.append(("GET", self.path))
                if not self._authorised():
                    return
                parts = self.path.strip("/").split("/")
                if len(parts) == 3 and parts[:2] == ["v2", "shipments"]:
                    shp = server.state.shipments.get(parts[2])
                    if shp is None:
                        self._send(404, _error("NOT_FOUND", "The requested resource could not be found."))
                        return
                    self._send(200, shp)
                    return
                self._send(404, _error("NOT_FOUND", "The requested resource could not be found."))

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                server.state.requests.append(("POST", self.path))
                if not self._authorised():
                    return
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    self._send(400, _error("BAD_REQUEST", "body is not JSON"))
                    return
                parts = self.path.strip("/").split("/")
                if parts == ["v2", "addresses"]:
                    self._address(body)
                elif parts == ["v2", "shipments"]:
                    self._shipment(body)
                elif len(parts) == 4 and parts[:2] == ["v2", "shipments"] and parts[3] == "buy":
                    self._buy(parts[2], body)
                else:
                    self._send(404, _error("NOT_FOUND", "The requested resource could not be found."))

            def _address(self, body: dict[str, Any]) -> None:
                address = dict(body.get("address") or {})
                out = {"id": f"adr_{uuid.uuid4().hex}", "object": "Address", **address, "verifications": {}}
                if "verify" in body or "verify_strict" in body:
                    errors = _verify(address)
                    out["verifications"] = {"delivery": {"success": not errors, "errors": errors, "details": None}}
                self._send(201, out)

            def _shipment(self, body: dict[str, Any]) -> None:
                shp = dict(body.get("shipment") or {})
                to, origin = shp.get("to_address") or {}, shp.get("from_address") or {}
                if not to or not origin or not shp.get("parcel"):
                    self._send(
                        422, _error("SHIPMENT.INVALID_PARAMS", "to_address, from_address and parcel are required")
                    )
                    return
                is_return = bool(shp.get("is_return"))
                if is_return:
                    # EasyPost's return: sent with the outgoing addresses, switched on the label.
                    to, origin = origin, to
                international = (to.get("country") or "US") != (origin.get("country") or "US")
                if international and not shp.get("customs_info"):
                    self._send(422, _error("SHIPMENT.CUSTOMS_INFO.MISSING", "customs_info is required for international shipments",
                                           [{"field": "customs_info", "message": "required"}]))  # fmt: skip
                    return
                sid = f"shp_{uuid.uuid4().hex}"
                rates = [
                    {"id": f"rate_{uuid.uuid4().hex}", "object": "Rate", "shipment_id": sid, "carrier": c,
                     "service": svc, "rate": price, "currency": "USD", "delivery_days": days}
                    for c, svc, price, days in RATES
                ]  # fmt: skip
                out = {
                    "id": sid,
                    "object": "Shipment",
                    "reference": shp.get("reference"),
                    "to_address": to,
                    "from_address": origin,
                    "parcel": shp["parcel"],
                    "customs_info": shp.get("customs_info"),
                    "is_return": is_return,
                    "rates": rates,
                    "selected_rate": None,
                    "postage_label": None,
                    "tracking_code": None,
                }
                with server.lock:
                    server.state.shipments[sid] = out
                self._send(201, out)

            def _buy(self, sid: str, body: dict[str, Any]) -> None:
                with server.lock:
                    shp = server.state.shipments.get(sid)
                    if shp is None:
                        self._send(404, _error("NOT_FOUND", "The requested resource could not be found."))
                        return
                    if shp["tracking_code"]:
                        self._send(422, _error("SHIPMENT.POSTAGE.EXISTS", "postage already exists for this shipment"))
                        return
                    rate = next((r for r in shp["rates"] if r["id"] == (body.get("rate") or {}).get("id")), None)
                    if rate is None:
                        self._send(422, _error("SHIPMENT.RATE.INVALID", "rate not found for this shipment"))
                        return
                    server.state.purchases[sid] = server.state.purchases.get(sid, 0) + 1
                    tracking = "9400" + uuid.uuid4().int.__str__()[:18]
                    shp.update(
                        selected_rate=rate,
                        tracking_code=tracking,
                        postage_label={"id": f"pl_{uuid.uuid4().hex}", "object": "PostageLabel",
                                       "label_url": f"http://127.0.0.1/labels/{sid}.png", "label_file_type": "image/png"},
                    )  # fmt: skip
                    fail = server.behaviour.buy_then_500 > 0
                    hang = not fail and server.behaviour.buy_hangs > 0
                    if fail:
                        server.behaviour.buy_then_500 -= 1
                    if hang:
                        server.behaviour.buy_hangs -= 1
                if fail:
                    self._send(500, _error("INTERNAL_SERVER_ERROR", "something went wrong"))
                    return
                if hang:
                    server.release.wait(300)
                    return
                self._send(200, shp)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def start(self) -> CarrierServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


DEMO_SHOP = {"name": "Demo Shop", "address1": "1 Dock Rd", "city": "Springfield", "zip": "12345", "country": "US"}


def configure_demo_tenant(rt: Any, url: str, api_key: str, slug: str = "demo") -> None:
    """Point the demo tenant's carrier setting at the stand-in (what ``PUT /settings/carrier`` stores,
    written here because its loopback address is refused there outside tests and the demo)."""
    from sqlalchemy import select

    from local_db.models import Tenant
    from services.fulfillment.shipping import carrier_conf

    with rt.db.transaction(None) as s:
        t = s.execute(select(Tenant).where(Tenant.slug == slug)).scalar_one_or_none()
        if t is None:
            return
        settings = dict(t.settings or {})
        conf = carrier_conf(rt.secret_key, url, api_key, "cheapest", DEMO_SHOP, 20.0)
        settings["fulfillment"] = {**(settings.get("fulfillment") or {}), "carrier_api": conf}
        t.settings = settings  # a new dict: JSON columns track assignment only


def main() -> None:
    parser = argparse.ArgumentParser(description="EasyPost-style carrier stand-in on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8095)
    parser.add_argument("--api-key", default=CarrierBehaviour.api_key)
    args = parser.parse_args()
    srv = CarrierServer(CarrierBehaviour(api_key=args.api_key), port=args.port)
    print(f"carrier stand-in on {srv.url} (EasyPost protocol, /v2)")
    srv.httpd.serve_forever()


if __name__ == "__main__":
    main()

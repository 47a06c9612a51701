"""The EasyPost-speaking carrier stand-in, for tests: it lives in ``app/carrier_standin.py`` (the demo of
an installed wheel starts it too). ``python -m tests.carrier_server --port 8095`` still runs it."""

from app.carrier_standin import RATES, CarrierBehaviour, CarrierServer, CarrierState, main

__all__ = ["RATES", "CarrierBehaviour", "CarrierServer", "CarrierState", "main"]

if __name__ == "__main__":
    main()

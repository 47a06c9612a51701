"""The one client of PubChem's PUG REST (DOMAIN §2): compounds by name with their formula, weight
and IUPAC name, and the CAS numbers among their synonyms. No key; at most 5 requests a second
(paced here), answers cached in memory. Off unless the deployment enables it (tests run a local
stand-in that speaks the same protocol: tests/pubchem_server.py)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

from services.sds.chem import cas_problem

PROPERTIES = "MolecularFormula,MolecularWeight,IUPACName"


@dataclass(frozen=True)
class PubChemConfig:
    """PLATFORM_PUBCHEM_URL / PLATFORM_PUBCHEM_ENABLED: where PUG REST is, and whether to ask it."""

    enabled: bool = False
    base_url: str = "https://pubchem.ncbi.nlm.nih.gov/rest/pug"
    rate: float = 5.0  # requests per second PubChem allows
    timeout: float = 8.0


class PubChemError(Exception):
    pass


@dataclass
class PubChem:
    config: PubChemConfig
    hits: int = 0
    misses: int = 0
    _cache: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _next: float = 0.0

    def _get(self, path: str) -> httpx.Response:
        with self._lock:
            now = time.monotonic()
            wait = self._next - now
            self._next = max(now, self._next) + 1.0 / self.config.rate
        if wait > 0:
            time.sleep(wait)
        try:
            return httpx.get(
                self.config.base_url.rstrip("/") + path,
                timeout=self.config.timeout,
                headers={"User-Agent": "platform-sds/1", "Accept": "application/json"},
            )
        except httpx.HTTPError as exc:
            raise PubChemError(f"PubChem did not answer: {type(exc).__name__}") from None

    def search(self, name: str, limit: int = 5) -> list[dict[str, Any]]:
        """Compounds named ``name``: ``[{cid, name, molecular_formula, molecular_weight, iupac_name, cas}]``."""
        key = name.strip().lower()
        with self._lock:
            if key in self._cache:
                self.hits += 1
                return self._cache[key]
            self.misses += 1
        q = quote(name.strip(), safe="")
        r = self._get(f"/compound/name/{q}/property/{PROPERTIES}/JSON")
        if r.status_code == 404:
            out: list[dict[str, Any]] = []
        elif not r.is_success:
            raise PubChemError(f"PubChem answered HTTP {r.status_code}")
        else:
            try:
                props = r.json()["PropertyTable"]["Properties"]
            except (ValueError, KeyError, TypeError):
                raise PubChemError("PubChem's answer has no PropertyTable") from None
            cas = self._cas(q)
            out = [
                {
                    "cid": int(p["CID"]),
                    "name": name.strip(),
                    "molecular_formula": p.get("MolecularFormula"),
                    "molecular_weight": str(p.get("MolecularWeight")) if p.get("MolecularWeight") else None,
                    "iupac_name": p.get("IUPACName"),
                    "cas": cas if i == 0 else None,
                }
                for i, p in enumerate(props[:limit])
                if isinstance(p, dict) and "CID" in p
            ]
        with self._lock:
            self._cache[key] = out
        return out

    def _cas(self, quoted_name: str) -> str | None:
        """The first synonym that is a valid CAS number (PubChem lists them among the synonyms)."""
        r = self._get(f"/compound/name/{quoted_name}/synonyms/JSON")
        if not r.is_success:
            return None
        try:
            syns = r.json()["InformationList"]["Information"][0]["Synonym"]
        except (ValueError, KeyError, IndexError, TypeError):
            return None
        return next((s for s in syns if isinstance(s, str) and cas_problem(s) is None), None)

"""Reading and filling ``.ts`` files (Qt Linguist's XML) without Qt Linguist.

``python -m views.i18n missing shell`` lists what a package still lacks as JSON
(``{context: {source: ""}}``); fill in the German and ``python -m views.i18n fill shell de.json``
writes it into the ``.ts`` (a plural, ``%n``, takes a list: singular, plural).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Entry:
    context: str
    source: str
    translation: str | list[str] | None  # None: unfinished (no translation yet)
    numerus: bool


def entries(ts: Path) -> list[Entry]:
    out = []
    for ctx in ET.parse(ts).getroot().iter("context"):
        name = ctx.findtext("name") or ""
        for msg in ctx.iter("message"):
            tr = msg.find("translation")
            numerus = msg.get("numerus") == "yes"
            value: str | list[str] | None = None
            if tr is not None and tr.get("type") not in ("unfinished", "obsolete", "vanished"):
                value = [f.text or "" for f in tr.iter("numerusform")] if numerus else (tr.text or "")
            out.append(Entry(name, msg.findtext("source") or "", value, numerus))
    return out


def missing(ts: Path) -> dict[str, dict[str, str | list[str]]]:
    out: dict[str, dict[str, str | list[str]]] = {}
    for e in entries(ts):
        if e.translation is None:
            out.setdefault(e.context, {})[e.source] = ["", ""] if e.numerus else ""
    return out


def fill(ts: Path, translations: dict[str, dict[str, str | list[str]]]) -> int:
    """Write ``translations`` ({context: {source: german}}) into ``ts``; the number of messages filled."""
    tree = ET.parse(ts)
    done = 0
    for ctx in tree.getroot().iter("context"):
        given = translations.get(ctx.findtext("name") or "", {})
        for msg in ctx.iter("message"):
            source = msg.findtext("source") or ""
            if source not in given or not given[source]:
                continue
            value = given[source]
            tr = msg.find("translation")
            if tr is None:
                tr = ET.SubElement(msg, "translation")
            tr.attrib.pop("type", None)
            for child in list(tr):
                tr.remove(child)
            if msg.get("numerus") == "yes":
                forms = value if isinstance(value, list) else [value, value]
                tr.text = None
                for form in forms:
                    ET.SubElement(tr, "numerusform").text = form
            else:
                if isinstance(value, list):
                    raise ValueError(f"{source!r} is not a plural: give one string")
                tr.text = value
            done += 1
    ET.indent(tree, "    ")
    body = ET.tostring(tree.getroot(), encoding="unicode")
    ts.write_text(f'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n{body}\n', encoding="utf-8")
    return done


def load_json(path: Path) -> dict[str, dict[str, str | list[str]]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError("the translations file holds {context: {source: translation}}")
    return data

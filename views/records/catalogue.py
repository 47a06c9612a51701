"""Every word the records workspace makes from the declarations, listed for the translators.

``pyside6-lupdate`` reads string literals only; the workspace's module names, list titles, column
headers, field labels and action names are made at run time from the manifests. ``words()`` makes
each the way the workspace does, and ``python -m views.records.catalogue`` writes them into
``views/records/strings_<n>.py`` as ``QT_TRANSLATE_NOOP("records", ...)``, which lupdate reads into
``views/i18n/de/records.ts``. ``tests/views/records/test_records_german.py`` fails when a manifest
gives a word those files do not list (run the command again, then lupdate, then translate).
"""

from __future__ import annotations

import typing
from pathlib import Path

from pydantic import BaseModel

from services.core.context import MODULE_TITLES, MODULES
from services.core.records import page_item, resources
from views.records.actions import button_title, choices
from views.records.forms import english_label
from views.records.model import columns_of
from views.records.refs import singular
from views.records.words import CONTEXT, readable

HERE = Path(__file__).resolve().parent
CHUNK = 600  # words a file: the files stay inside the 700-line budget


def _models(tp: object, seen: set[type]) -> list[type[BaseModel]]:
    """``tp`` and the models nested in it (a list of lines, an optional group), each once."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        if tp in seen:
            return []
        seen.add(tp)
        found: list[type[BaseModel]] = [tp]
        for f in tp.model_fields.values():
            found += _models(f.annotation, seen)
        return found
    return [m for arg in typing.get_args(tp) for m in _models(arg, seen)]


def words() -> set[str]:
    """The words, in English, as the workspace makes them for every module's resources."""
    found: set[str] = set()
    seen: set[type] = set()
    for r in resources(set(MODULES) | {"platform"}):
        found |= {MODULE_TITLES.get(r.module, r.module.capitalize()), r.title, singular(r.title)}
        for child, _param in r.children:  # the lists under a record: a title and their columns
            found.add(english_label(child.path.rsplit("/", 1)[-1]))
            found |= {english_label(c) for c in columns_of(page_item(child.response))}
        # The list's headers; the record's fields (detail panel); the filters; every form's fields.
        found |= {readable(c) for c in columns_of(r.item_model)}
        for model in (r.item_model, r.detail_model):
            found |= {english_label(name) for name in (model.model_fields if model is not None else ())}
        shown = [o for o in (r.create, r.update, r.delete, *r.actions, *r.files) if o is not None]
        for op in [r.listing, *shown]:
            for model in [*_models(op.body, seen), *_models(op.query, seen)]:
                found |= {english_label(name) for name in model.model_fields}
        # Buttons and their dialogs: actions, files and delete (a create reads "New …", an edit "Edit").
        for op in [o for o in (r.delete, *r.actions, *r.files) if o is not None]:
            found |= {button_title(op, action) for action in choices(op) or (None,)}
    found |= set(MODULE_TITLES.values())  # the admin's module list names every module, records or not
    return {w for w in found if w.strip()}


MACHINE_WORDS = HERE / "machine_words.py"


def machine_words() -> dict[str, set[str]]:
    """The declared state machines' words by context: ``State`` (every state, shown in lists, filters
    and the panel), ``Action`` (every move, in a refused move's message) and ``RecordName`` (the
    record a machine is about). ``views.wording`` says them; the values stay English in the data."""
    import importlib
    import pkgutil

    import services
    from services.core.states import Machine

    # Every package's states module, read here: what else happens to be imported (a test's own
    # machine, say) must not change the list (the station's outbox machine is services.sync's).
    names = ["services.core.jobs"]  # core's one machine: a job's queued -> running -> ...
    for info in pkgutil.iter_modules(services.__path__):
        if importlib.util.find_spec(f"services.{info.name}.states") is not None:
            names.append(f"services.{info.name}.states")
    machines = [m for name in names for m in vars(importlib.import_module(name)).values() if isinstance(m, Machine)]

    found: dict[str, set[str]] = {"State": set(), "Action": set(), "RecordName": set()}
    for m in machines:
        found["State"] |= {s.replace("_", " ") for s in m.states}
        found["Action"] |= {a.replace("_", " ") for a in m.actions}
        found["RecordName"].add(m.record)
    return found


def write_machine_words() -> Path:
    lines = [
        '"""Made by ``python -m views.records.catalogue``: the state machines\' words for lupdate. Do not edit."""',
        "",
        "from PySide6.QtCore import QT_TRANSLATE_NOOP",
        "",
        "WORDS = (",
    ]
    for context, found in sorted(machine_words().items()):
        lines += [f'    QT_TRANSLATE_NOOP("{context}", {w!r}),'.replace("'", '"') for w in sorted(found)]
    MACHINE_WORDS.write_text("\n".join([*lines, ")", ""]), encoding="utf-8")
    return MACHINE_WORDS


def listed_machine_words() -> dict[str, set[str]]:
    """What ``machine_words.py`` lists now, by context (read as text: the module answers bare strings)."""
    import re

    found: dict[str, set[str]] = {}
    for context, word in re.findall(r'QT_TRANSLATE_NOOP\("(\w+)", "([^"]*)"\)', MACHINE_WORDS.read_text("utf-8")):
        found.setdefault(context, set()).add(word)
    return found


def write() -> list[Path]:
    """Writes ``strings_<n>.py`` (and removes ones no longer needed); answers the files written."""
    listed = sorted(words())
    paths = []
    for n, start in enumerate(range(0, len(listed), CHUNK), start=1):
        path = HERE / f"strings_{n}.py"
        lines = [
            '"""Made by ``python -m views.records.catalogue``: the declarations\' words for lupdate. Do not edit."""',
            "",
            "from PySide6.QtCore import QT_TRANSLATE_NOOP",
            "",
            "WORDS = (",
            *(f"    QT_TRANSLATE_NOOP({CONTEXT!r}, {w!r})," for w in listed[start : start + CHUNK]),
            ")",
            "",
        ]
        path.write_text("\n".join(lines).replace("NOOP('records', ", 'NOOP("records", '), encoding="utf-8")
        paths.append(path)
    for old in HERE.glob("strings_*.py"):
        if old not in paths:
            old.unlink()
    return paths


def listed() -> set[str]:
    """The words the ``strings_<n>.py`` files list now."""
    import importlib

    found: set[str] = set()
    for path in sorted(HERE.glob("strings_*.py")):
        found |= set(importlib.import_module(f"views.records.{path.stem}").WORDS)
    return found


if __name__ == "__main__":
    from app.wiring import load_modules

    load_modules()
    for p in [*write(), write_machine_words()]:
        print(p)

"""``python -m views.i18n update|release|missing|fill`` (``make translations``: update + release)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from views.i18n import I18N_DIR, release, update
from views.i18n.ts import fill, load_json, missing


def _packages(given: list[str], lang: str) -> list[str]:
    return given or sorted(p.stem for p in (I18N_DIR / lang).glob("*.ts"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m views.i18n")
    parser.add_argument("command", choices=["update", "release", "missing", "fill"])
    parser.add_argument("package", nargs="*", help="views package(s); default: every existing .ts")
    parser.add_argument("--lang", default="de")
    args = parser.parse_args(argv)
    if args.command == "fill":
        if len(args.package) != 2:
            parser.error("fill PACKAGE FILE.json")
        ts = I18N_DIR / args.lang / f"{args.package[0]}.ts"
        print(f"{ts.name}: {fill(ts, load_json(Path(args.package[1])))} filled")
        return 0
    gaps = 0
    if args.command == "update" and args.lang == "de":
        # English holds only the counts' plural forms (views.i18n.update): made from the same code.
        for pkg in _packages(args.package, "de"):
            ts = update(pkg, "en")
            if ts.exists():
                release(ts, ts.with_suffix(".qm"))
    for pkg in _packages(args.package, args.lang):
        ts = I18N_DIR / args.lang / f"{pkg}.ts"
        if args.command == "update":
            update(pkg, args.lang)
        if args.command in ("update", "release"):
            release(ts, ts.with_suffix(".qm"))
        if args.command == "missing":
            todo = missing(ts)
            gaps += sum(len(v) for v in todo.values())
            if todo:
                print(f"== {ts.name}", file=sys.stderr)
                print(json.dumps(todo, ensure_ascii=False, indent=1))
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())

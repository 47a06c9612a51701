"""``python -m app``: the desktop app, the platform server, demo data and screenshots."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app.paths import VERSION
from views.workspaces import workspace_packages


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # One line and exit status 2 (CONTRACT.md).
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m app", description="Platform station: desktop, kiosk and platform server")
    p.add_argument("--version", action="version", version=f"platform-station {VERSION}")
    p.add_argument("--demo", action="store_true", help="seed demo data and start an embedded platform server")
    p.add_argument("--kiosk", action="store_true", help="full-screen kiosk mode")
    p.add_argument("--data-dir", type=Path, help="station data directory")
    p.add_argument("--platform-url", help="platform server to sync with")
    p.add_argument("--offline", action="store_true", help="do not start or contact a platform server")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    s = sub.add_parser("serve", help="run the platform server")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--data-dir", type=Path, dest="serve_data_dir")
    s.add_argument("--demo", action="store_true", dest="serve_demo")
    s.add_argument(
        "--demo-carrier",
        action="store_true",
        help="with --demo: run the EasyPost-speaking carrier stand-in on loopback and use it for the demo tenant",
    )
    s.add_argument("--tls-cert")
    s.add_argument("--tls-key")
    s.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes (more than 1 needs PLATFORM_DATABASE_URL on PostgreSQL)",
    )

    d = sub.add_parser("seed-demo", help="write the demo data set into a data dir")
    d.add_argument("--data-dir", type=Path, required=True, dest="seed_data_dir")

    b = sub.add_parser("backup", help="write a data dir (database and files) to one backup file, while it runs")
    b.add_argument("--data-dir", type=Path, required=True, dest="backup_data_dir")
    b.add_argument("--out", type=Path, required=True, dest="backup_out", help="the backup file (.tar.gz)")

    rs = sub.add_parser("restore", help="restore a backup file into a new or empty data dir")
    rs.add_argument("--data-dir", type=Path, required=True, dest="restore_data_dir")
    rs.add_argument("backup_file", type=Path, metavar="FILE")

    r = sub.add_parser(
        "register-station", help="register this station with a platform (password: PLATFORM_PASSWORD or asked)"
    )
    r.add_argument("--data-dir", type=Path, required=True, dest="reg_data_dir")
    r.add_argument("--platform-url", required=True, dest="reg_platform_url")
    r.add_argument("--tenant", required=True)
    r.add_argument("--email", required=True, help="an owner or admin of the tenant")
    r.add_argument("--name", help="the station's name on the platform (default: its id)")
    r.add_argument(
        "--restore",
        action="store_true",
        help="make a lost station again in a new or empty data dir: registered anew under --station-id, "
        "every record pulled back from the platform (changes it had not sent are lost)",
    )
    r.add_argument("--station-id", dest="reg_station_id", help="with --restore: the lost station's id")

    y = sub.add_parser("sync", help="sync this station with its platform (headless)")
    y.add_argument("--data-dir", type=Path, required=True, dest="sync_data_dir")
    y.add_argument("--once", action="store_true", help="one round, then exit (status 1 if it failed)")
    y.add_argument("--interval", type=float, default=15.0, help="seconds between rounds when idle")
    y.add_argument(
        "--batch", type=int, default=200, help="changes sent per push request (smaller on a slow or flaky link)"
    )
    y.add_argument(
        "--max-backoff",
        type=float,
        default=60.0,
        help="longest wait in seconds between tries while the platform cannot be reached",
    )
    y.add_argument(
        "--resync",
        action="store_true",
        help="download every record of the platform again (with progress; nothing is cleared first), then exit",
    )
    y.add_argument(
        "action",
        nargs="?",
        choices=["issues", "retry", "discard", "keep-theirs"],
        help="issues: list the sync issues; retry / discard / keep-theirs ID: decide one (without: sync)",
    )
    y.add_argument("issue_id", nargs="?", metavar="ID", help="the issue's id or its first characters")

    sc = sub.add_parser("screenshot", help="render a workspace with demo data into a PNG")
    # Workspaces are found on disk (views.workspaces), without loading Qt; "login" is the sign-in page.
    sc.add_argument(
        "--workspace",
        required=True,
        type=_workspace_name,
        metavar="NAME",
        help=f"one of {', '.join([*workspace_packages(), 'login'])}, or records:<module> for one module's list",
    )
    sc.add_argument("--out", type=Path, required=True)
    sc.add_argument("--data-dir", type=Path, dest="shot_data_dir")
    sc.add_argument("--size", default="1280x800")
    sc.add_argument("--theme", default=None, choices=["light", "dark", "kiosk"])

    c = sub.add_parser(
        "call",
        help="run one use case by name on a data dir and print its answer as JSON (failure: the error envelope)",
    )
    c.add_argument("--data-dir", type=Path, required=True, dest="call_data_dir")
    c.add_argument("--user", required=True, metavar="EMAIL", help="the person the call is made as")
    c.add_argument("--tenant", metavar="SLUG", help="the tenant (default: the person's only one)")
    c.add_argument("use_case", metavar="NAME", help="the use case's name, e.g. fulfillment.orders.list")
    c.add_argument("--body", metavar="JSON", help="the request body, as the HTTP door takes it")
    c.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a path parameter (id=...) or a query parameter (limit=20); repeat for more",
    )
    c.add_argument("--out", type=Path, help="where a file answer's bytes go (a label, a PDF)")

    n = sub.add_parser("new-module", help="write the files of a new module in the one shape (docs/DEVELOPING.md)")
    n.add_argument("module_name", metavar="NAME", help="the module's name in the spec, e.g. inventory")
    n.add_argument("--workspace", action="store_true", help="also a workspace package views/NAME/")
    n.add_argument("--root", type=Path, help="the checkout to write into (default: this one)")
    return p


def _workspace_name(value: str) -> str:
    """A workspace, "login", or "records:<module>" (the records workspace showing one module)."""
    from services.core.context import MODULES  # the database layer loads only for this check

    name, _, module = value.partition(":")
    modules = (*MODULES, "platform")
    if name not in [*workspace_packages(), "login"] or (module and (name != "records" or module not in modules)):
        raise argparse.ArgumentTypeError(f"unknown workspace {value!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "serve":
        if bool(args.tls_cert) != bool(args.tls_key):
            parser.error("--tls-cert and --tls-key go together")
        kw: dict[str, object] = {"demo": args.serve_demo or args.demo}
        if args.demo_carrier:
            if not kw["demo"]:
                parser.error("--demo-carrier goes with --demo")
            kw["demo_carrier"] = True
        if args.serve_data_dir or args.data_dir:
            kw["data_dir"] = args.serve_data_dir or args.data_dir
        if args.workers < 1:
            parser.error("--workers must be 1 or more")
        from app.server import WorkersNeedPostgres, serve, serve_workers
        from app.settings import Settings

        settings = Settings(**kw)  # type: ignore[arg-type]
        from api.observe import configure_logging

        configure_logging(settings.log_format or "json")
        if args.workers > 1:
            try:
                serve_workers(settings, args.host, args.port, args.workers, args.tls_cert, args.tls_key)
            except WorkersNeedPostgres as exc:
                parser.error(str(exc))
            return 0
        serve(settings, args.host, args.port, args.tls_cert, args.tls_key)
        return 0
    if args.command in ("backup", "restore"):
        from app.backup import BackupError
        from app.backup import backup as do_backup
        from app.backup import restore as do_restore

        try:
            if args.command == "backup":
                print(f"backup written to {do_backup(args.backup_data_dir, args.backup_out)}")
            else:
                print(f"restored into {do_restore(args.restore_data_dir, args.backup_file)}")
        except BackupError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        return 0
    if args.command == "seed-demo":
        from app.station import seed_data_dir

        seed_data_dir(args.seed_data_dir)
        print(f"demo data written to {args.seed_data_dir}")
        return 0
    if args.command == "register-station":
        if args.restore != bool(args.reg_station_id):
            parser.error("--restore and --station-id go together")
        if args.restore:
            from app.station_restore import restore_station

            url = args.reg_platform_url.rstrip("/")
            return restore_station(args.reg_data_dir, url, args.tenant, args.email, args.reg_station_id, args.name)
        from app.sync_cli import register

        return register(args.reg_data_dir, args.reg_platform_url.rstrip("/"), args.tenant, args.email, args.name)
    if args.command == "sync":
        from app import sync_cli

        if args.resync and args.action is not None:
            parser.error(f"sync --resync takes no action ({args.action})")
        if args.action == "issues":
            return sync_cli.list_issues(args.sync_data_dir)
        if args.action is not None:
            if not args.issue_id:
                parser.error(f"sync {args.action} needs the issue's ID (sync issues lists them)")
            return sync_cli.decide(args.sync_data_dir, args.action, args.issue_id)
        if args.batch < 1:
            parser.error("--batch must be at least 1")
        if not args.max_backoff >= 1:
            parser.error("--max-backoff must be at least 1 (seconds)")
        return sync_cli.run_sync(
            args.sync_data_dir, args.once, args.interval, args.resync, batch=args.batch, max_backoff=args.max_backoff
        )
    if args.command == "screenshot":
        try:
            w, h = (int(x) for x in args.size.lower().split("x"))
        except ValueError:
            parser.error("--size must look like 1280x800")
        from app.desktop import screenshot

        return screenshot(args.workspace, args.out, args.shot_data_dir, (w, h), args.theme)
    if args.command == "call":
        from app.call_cli import BadParam, run_call, split_params

        try:
            params = split_params(args.param)
        except BadParam as exc:
            parser.error(str(exc))
        return run_call(args.call_data_dir, args.user, args.tenant, args.use_case, args.body, params, args.out)
    if args.command == "new-module":
        from app.scaffold import ROOT, ScaffoldError, new_module

        try:
            written = new_module(args.module_name, args.root or ROOT, args.workspace)
        except ScaffoldError as exc:
            parser.error(str(exc))
        print("\n".join(str(path) for path in written))
        print("next: the checklist 'Adding a module' in docs/DEVELOPING.md")
        return 0
    from app.desktop import run_desktop

    return run_desktop(args)


def server_main(argv: list[str] | None = None) -> int:
    """The ``platform-server`` console script: ``python -m app serve`` with its options."""
    return main(["serve", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    raise SystemExit(main())

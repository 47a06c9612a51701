"""Write a new migration by comparing the models with a migrated scratch database.

    python -m local_db.revise "add orders" --branch fulfillment
    python -m local_db.revise "add box sizes" --module fulfillment --head fulfillment@head

Only the tables of ``local_db/models/<module>.py`` are compared (``--branch``
implies ``--module``), so work in progress of other modules stays out.
A module's first migration starts its own branch from the core schema
(``--branch NAME``), so modules can add tables independently; later ones
extend the branch (``--head NAME@head``). ``run_migrations`` upgrades all heads.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from alembic import command

from local_db.engine import alembic_config, make_engine, run_migrations

# The newest revision of the core chain: new module branches start here.
CORE_HEAD = "0004_tenant_sandboxes"


def tables_of(module: str) -> set[str]:
    import local_db.models  # noqa: F401
    from local_db.base import Base

    return {
        str(getattr(m.local_table, "name", ""))
        for m in Base.registry.mappers
        if m.class_.__module__ == f"local_db.models.{module}"
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("message")
    p.add_argument("--branch", help="start a new branch with this label, based on the core revision")
    p.add_argument("--head", default=None, help="parent head, e.g. fulfillment@head")
    p.add_argument("--module", default=None, help="only the tables of local_db/models/<module>.py")
    p.add_argument("--rev-id", default=None)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(f"sqlite:///{Path(tmp) / 'scratch.db'}")
        cfg = alembic_config(engine)
        module = args.module or args.branch
        if module:
            cfg.attributes["only_tables"] = tables_of(module)
        versions = Path(cfg.get_main_option("script_location") or ".") / "versions"
        has_any = any(versions.glob("*.py"))
        if has_any:
            run_migrations(engine)
        head = args.head or (CORE_HEAD if args.branch else ("head" if has_any else "base"))
        command.revision(
            cfg,
            message=args.message,
            autogenerate=True,
            head=head,
            branch_label=args.branch,
            # A new module branch starts from the core revision, which is no
            # longer a head once another branch exists: that is a splice.
            splice=bool(args.branch),
            rev_id=args.rev_id,
        )


if __name__ == "__main__":
    main()

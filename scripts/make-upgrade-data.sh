#!/usr/bin/env bash
# Remakes tests/upgrade_data/<tag>/: the database of a tagged release with that release's own demo
# data, which tests/test_upgrade.py upgrades with the current migrations. Run it once per release,
# right after tagging (the next release's upgrade test starts from it):
#
#   scripts/make-upgrade-data.sh v0.2.0
#
# It checks the tag out in a throw-away git worktree (/tmp/upgrade-<tag>), seeds a platform database
# with that revision's code, and stores it compressed (xz):
#   sqlite.db.xz      the SQLite data.db
#   postgres.sql.xz   a plain-SQL pg_dump of the same seeding on PostgreSQL, when PLATFORM_TEST_POSTGRES_URL
#                     names a server (postgresql+psycopg://user@host:port/db; a database of its own is made
#                     and dropped there); without it the stored dump is left as it is
#   secret.key        the key the seeding sealed its secrets with (a test key, not a real one)
#   revision          the tag and its commit
set -euo pipefail
TAG=${1:?usage: scripts/make-upgrade-data.sh TAG (e.g. v0.2.0)}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}
OUT=$ROOT/tests/upgrade_data/$TAG
SRC=/tmp/upgrade-$TAG
SECRET=upgrade-data-secret-key-0123456789abcdef
COMMIT=$(git -C "$ROOT" rev-parse "$TAG^{commit}")

git -C "$ROOT" worktree remove --force "$SRC" 2>/dev/null || rm -rf "$SRC"
git -C "$ROOT" worktree add --detach "$SRC" "$TAG" >/dev/null
WORK=$(mktemp -d)
cleanup() {
  git -C "$ROOT" worktree remove --force "$SRC" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# That revision's code first on the path (the venv's editable install points at another checkout).
seed() {  # seed DATA_DIR [DATABASE_URL]
  (cd "$SRC" && PYTHONPATH=$SRC PLATFORM_SECRET_KEY=$SECRET PLATFORM_DATABASE_URL=${2:-} QT_QPA_PLATFORM=offscreen \
    "$PY" -c '
import sys
from pathlib import Path
from app.settings import Settings
from app.wiring import load_modules, platform_runtime
from services.core.demo import seed_demo
load_modules()
s = Settings(data_dir=Path(sys.argv[1]))
rt = platform_runtime(s)
seed_demo(rt)
rt.db.dispose()
' "$1")
}

mkdir -p "$OUT"
seed "$WORK/sqlite"
"$PY" -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA wal_checkpoint(TRUNCATE)"); c.execute("VACUUM"); c.close()' "$WORK/sqlite/data.db"
xz -9 -c "$WORK/sqlite/data.db" >"$OUT/sqlite.db.xz"

if [ -n "${PLATFORM_TEST_POSTGRES_URL:-}" ]; then
  DB=upgrade_data_$$
  BASE=${PLATFORM_TEST_POSTGRES_URL%/*}
  LIBPQ=$(echo "$BASE" | sed 's/^postgresql+psycopg:/postgresql:/')
  psql -q "$LIBPQ/postgres" -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
  seed "$WORK/pg" "$BASE/$DB"
  # Plain SQL without owners or privileges: restorable with psql by any role into any database.
  pg_dump --format=plain --no-owner --no-privileges "$LIBPQ/$DB" | xz -9 -c >"$OUT/postgres.sql.xz"
  psql -q "$LIBPQ/postgres" -c "DROP DATABASE $DB WITH (FORCE)"
else
  echo "PLATFORM_TEST_POSTGRES_URL not set: postgres.sql.xz not remade" >&2
fi

printf '%s\n' "$SECRET" >"$OUT/secret.key"
printf '%s %s\n' "$TAG" "$COMMIT" >"$OUT/revision"
ls -l "$OUT"

#!/usr/bin/env bash
# Installs and starts a throw-away PostgreSQL server for the server tests and
# prints the URL to use as PLATFORM_TEST_POSTGRES_URL (nothing when it can't).
set -u
PGPORT=${PGPORT:-55432}
PGDATA=${PGDATA:-/tmp/platform-pg}
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null 2>&1 || true
    apt-get install -y -qq --no-install-recommends postgresql >/dev/null 2>&1 || exit 0
  else
    exit 0
  fi
fi
BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
RUN=""
[ "$(id -u)" = "0" ] && RUN="runuser -u postgres --"
if [ ! -f "$PGDATA/PG_VERSION" ]; then
  rm -rf "$PGDATA"; mkdir -p "$PGDATA"; [ -n "$RUN" ] && chown postgres "$PGDATA"
  $RUN "$BIN/initdb" -D "$PGDATA" -U postgres -A trust >/dev/null 2>&1 || exit 0
fi
if ! $RUN "$BIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1; then
  $RUN "$BIN/pg_ctl" -D "$PGDATA" -o "-p $PGPORT -k /tmp -c fsync=off" -l "$PGDATA/server.log" -w start >/dev/null 2>&1 || exit 0
fi
"$BIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -tc "SELECT 1 FROM pg_database WHERE datname='platform_test'" 2>/dev/null | grep -q 1 \
  || "$BIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U postgres platform_test >/dev/null 2>&1
echo "postgresql+psycopg://postgres@127.0.0.1:$PGPORT/platform_test"

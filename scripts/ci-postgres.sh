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
fresh() {
  rm -rf "$PGDATA"; mkdir -p "$PGDATA"; [ -n "$RUN" ] && chown postgres "$PGDATA"
  $RUN "$BIN/initdb" -D "$PGDATA" -U postgres -A trust >/dev/null 2>&1
}
start() {
  $RUN "$BIN/pg_ctl" -D "$PGDATA" -o "-p $PGPORT -k /tmp -c fsync=off" -l "$PGDATA/server.log" -w start >/dev/null 2>&1
}
if ! $RUN "$BIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1; then
  # Not running: start it, or (a stale or broken data dir from an earlier run) start afresh.
  if [ ! -f "$PGDATA/PG_VERSION" ] || ! start; then
    fresh || exit 0
    start || exit 0
  fi
fi
ready() {
  "$BIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -d platform_test -tc "SELECT 1" 2>/dev/null | grep -q 1
}
if ! ready; then
  "$BIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U postgres platform_test >/dev/null 2>&1
fi
# Only a server that answers is handed to the tests; otherwise they skip with a reason.
ready && echo "postgresql+psycopg://postgres@127.0.0.1:$PGPORT/platform_test"
exit 0

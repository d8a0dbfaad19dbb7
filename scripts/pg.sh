#!/usr/bin/env bash
# Sourced by scripts/test.sh and scripts/bench.sh: installs Debian's PostgreSQL if needed and
# starts a private server (free port, temporary folder) that `stop_pg` stops and removes.
# Exports TEST_DATABASE_URL (admin URL) and TEST_PG_* for tests that stop/start it.

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

start_pg() {
  RUN_DIR=${RUN_DIR:-$(mktemp -d /tmp/stellar-invoicing-pg.XXXXXX)}
  chmod 755 "$RUN_DIR"
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
    echo "==> installing PostgreSQL (apt-get)"
    as_root apt-get update -qq >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  PGDATA=$RUN_DIR/pgdata
  SOCKDIR=$RUN_DIR/sock
  PGPORT=${TEST_PG_PORT:-$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')}
  if [ "$(id -u)" = 0 ]; then
    PGUSER_RUN=(runuser -u postgres --)
    install -d -o postgres -g postgres -m 700 "$PGDATA"
    install -d -o postgres -g postgres "$SOCKDIR"
  else
    PGUSER_RUN=()
    mkdir -p "$PGDATA" "$SOCKDIR"
    chmod 700 "$PGDATA"
  fi
  echo "==> starting PostgreSQL on 127.0.0.1:$PGPORT"
  "${PGUSER_RUN[@]}" "$PG_BIN/initdb" -D "$PGDATA" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null
  "${PGUSER_RUN[@]}" "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$PGDATA/server.log" -w \
    -o "-p $PGPORT -k $SOCKDIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PGPORT/postgres"
  export TEST_PG_BIN=$PG_BIN TEST_PG_DATA=$PGDATA TEST_PG_SOCK=$SOCKDIR TEST_PG_PORT=$PGPORT
  export TEST_PG_AS_ROOT=$([ "$(id -u)" = 0 ] && echo 1 || echo 0)
}

stop_pg() {
  if [ -n "${PGDATA:-}" ]; then
    "${PGUSER_RUN[@]}" "$PG_BIN/pg_ctl" -D "$PGDATA" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  [ -n "${RUN_DIR:-}" ] && rm -rf "$RUN_DIR"
}

# Debian's Redis for the Upstash adapter's tests (behind a local Upstash REST front).
ensure_redis() {
  if [ ! -x /usr/bin/redis-server ] || [ ! -x /usr/bin/redis-cli ]; then
    echo "==> installing Redis (apt-get)"
    as_root apt-get update -qq >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  fi
}

# openssl makes the throwaway TLS certificate of the SEP-7 test (tests/sep7.test.ts).
ensure_openssl() {
  if [ ! -x /usr/bin/openssl ]; then
    echo "==> installing openssl (apt-get)"
    as_root apt-get update -qq >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl >/dev/null
  fi
}

# Debian's Chromium for the browser tests (never a downloaded browser build).
ensure_chromium() {
  if [ ! -x /usr/bin/chromium ]; then
    echo "==> installing Chromium (apt-get)"
    as_root apt-get update -qq >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
  fi
  export CHROMIUM_PATH=/usr/bin/chromium
}

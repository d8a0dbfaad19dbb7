#!/usr/bin/env bash
# Sourced by scripts/test.sh and scripts/bench.sh: installs Debian's PostgreSQL if needed and
# starts a private server (free port, temporary folder) that `stop_pg` stops and removes.
# Exports TEST_DATABASE_URL (admin URL) and TEST_PG_* for tests that stop/start it.

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Seconds an install waits for another apt-get or dpkg (a developer's machine runs other
# things) before it gives up.
APT_LOCK_TIMEOUT=${APT_LOCK_TIMEOUT:-300}

apt_get() {
  as_root env DEBIAN_FRONTEND=noninteractive apt-get -o "DPkg::Lock::Timeout=$APT_LOCK_TIMEOUT" "$@"
}

# apt_install WHAT PACKAGE...: installs Debian packages, waiting up to APT_LOCK_TIMEOUT
# seconds for the locks another apt-get or dpkg holds. A failure prints apt-get's own output
# and a line naming what could not be installed, and returns 1: callers stop there.
apt_install() {
  local what=$1 log deadline=$((SECONDS + APT_LOCK_TIMEOUT))
  shift
  echo "==> installing $what (apt-get)"
  log=$(mktemp)
  # DPkg::Lock::Timeout covers dpkg's lock, not the package lists' lock `apt-get update`
  # takes: wait for that one here.
  until apt_get update -qq >"$log" 2>&1; do
    if grep -q "Could not get lock" "$log" && [ "$SECONDS" -lt "$deadline" ]; then
      sleep 5
      continue
    fi
    cat "$log" >&2
    echo "warning: apt-get update failed (above); installing $what from the current package lists" >&2
    break
  done
  if ! apt_get install -y -qq "$@" >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    echo "error: could not install $what (apt-get install $*, output above). Install it and run again." >&2
    return 1
  fi
  rm -f "$log"
}

# need FILE WHAT: fails with a clear line when an install did not leave FILE behind.
need() {
  [ -x "$1" ] && return 0
  echo "error: $2 is not installed ($1 is missing)" >&2
  return 1
}

start_pg() {
  RUN_DIR=${RUN_DIR:-$(mktemp -d /tmp/stellar-invoicing-pg.XXXXXX)}
  chmod 755 "$RUN_DIR"
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
    apt_install PostgreSQL postgresql || return 1
    PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    need "$PG_BIN/initdb" PostgreSQL || return 1
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
  "${PGUSER_RUN[@]}" "$PG_BIN/initdb" -D "$PGDATA" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null || {
    echo "error: initdb failed" >&2
    return 1
  }
  "${PGUSER_RUN[@]}" "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$PGDATA/server.log" -w \
    -o "-p $PGPORT -k $SOCKDIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null || {
    cat "$PGDATA/server.log" >&2
    echo "error: PostgreSQL did not start on 127.0.0.1:$PGPORT (log above)" >&2
    return 1
  }
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
    apt_install Redis redis-server || return 1
  fi
  need /usr/bin/redis-server Redis && need /usr/bin/redis-cli Redis
}

# openssl makes the throwaway TLS certificate of the SEP-7 test (tests/sep7.test.ts).
ensure_openssl() {
  if [ ! -x /usr/bin/openssl ]; then
    apt_install openssl openssl || return 1
  fi
  need /usr/bin/openssl openssl
}

# Debian's Chromium for the browser tests (never a downloaded browser build).
ensure_chromium() {
  if [ ! -x /usr/bin/chromium ]; then
    apt_install Chromium chromium fonts-dejavu-core || return 1
  fi
  need /usr/bin/chromium Chromium || return 1
  export CHROMIUM_PATH=/usr/bin/chromium
}

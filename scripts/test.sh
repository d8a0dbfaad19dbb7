#!/usr/bin/env bash
# `npm test`: installs and starts what the tests need (Debian's PostgreSQL on a private
# port and data folder, stopped afterwards even on failure), then runs every gate and
# prints one closing line `N passed, N failed` summed over all suites.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export NEXT_TELEMETRY_DISABLED=1

RUN_DIR=$(mktemp -d /tmp/stellar-invoicing-test.XXXXXX)
chmod 755 "$RUN_DIR"
REPORTS=$RUN_DIR/reports
mkdir -p "$REPORTS"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# --- PostgreSQL from Debian -------------------------------------------------------------
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
  mkdir -p "$PGDATA" "$SOCKDIR"; chmod 700 "$PGDATA"
fi

stop_pg() {
  "${PGUSER_RUN[@]}" "$PG_BIN/pg_ctl" -D "$PGDATA" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$RUN_DIR"
}
trap stop_pg EXIT

echo "==> starting PostgreSQL on 127.0.0.1:$PGPORT"
"${PGUSER_RUN[@]}" "$PG_BIN/initdb" -D "$PGDATA" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null
"${PGUSER_RUN[@]}" "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$PGDATA/server.log" -w \
  -o "-p $PGPORT -k $SOCKDIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null
export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PGPORT/postgres"
export TEST_PG_BIN=$PG_BIN TEST_PG_DATA=$PGDATA TEST_PG_SOCK=$SOCKDIR TEST_PG_PORT=$PGPORT

# --- gates ------------------------------------------------------------------------------
status=0
gate() { # gate NAME COMMAND...: a pass/fail check counted as one test
  local name=$1; shift
  echo "==> $name"
  if "$@"; then echo "pass" > "$REPORTS/gate-$name.txt"; else echo "fail" > "$REPORTS/gate-$name.txt"; status=1; fi
}
suite() { # suite NAME PROJECT: a vitest project with a JSON report
  local name=$1; shift
  echo "==> $name tests"
  npx vitest run --project "$name" --reporter=default --reporter=json \
    --outputFile.json="$REPORTS/vitest-$name.json" "$@" || status=1
}

gate typecheck npx tsc --noEmit
gate lint npx biome check .
suite unit
suite ledger
gate build npx next build
suite integration

node scripts/summarize.mjs "$REPORTS" || status=1
exit $status

#!/usr/bin/env bash
# `npm test`: installs and starts what the tests need (Debian's PostgreSQL on a private
# port and data folder, stopped afterwards even on failure; Chromium; redis-server, which
# the Upstash tests start themselves), then runs every gate and
# prints one closing line `N passed, N failed` summed over all suites.
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
source scripts/pg.sh

RUN_DIR=$(mktemp -d /tmp/stellar-invoicing-test.XXXXXX)
REPORTS=$RUN_DIR/reports
trap stop_pg EXIT
# What the tests need, or a clear stop: a suite never runs without it (scripts/pg.sh).
for need_step in start_pg ensure_chromium ensure_redis ensure_openssl; do
  if ! "$need_step"; then
    echo "npm test stopped: $need_step failed (see above); no tests were run." >&2
    exit 1
  fi
done
mkdir -p "$REPORTS"

status=0
gate() { # gate NAME COMMAND...: a pass/fail check counted as one test
  local name=$1; shift
  echo "==> $name"
  if "$@"; then echo "pass" > "$REPORTS/gate-$name.txt"; else echo "fail" > "$REPORTS/gate-$name.txt"; status=1; fi
}
suite() { # suite NAME: a vitest project with a JSON report
  local name=$1; shift
  echo "==> $name tests"
  npx vitest run --project "$name" --reporter=default --reporter=json \
    --outputFile.json="$REPORTS/vitest-$name.json" "$@" || status=1
}

gate typecheck npx tsc --noEmit
gate lint npx biome check .
suite unit
suite ledger
gate build npm run build --silent
# Two integration files at a time: most of their time is spent waiting on ledger closes,
# timers and child processes, so two on two cores take about 5 minutes instead of 8.5 (each
# file has its own databases and servers on free ports; PostgreSQL allows 300 connections).
suite integration --maxWorkers=2
suite e2e

node scripts/summarize.mjs "$REPORTS" || status=1
exit $status

#!/usr/bin/env bash
# `npm run bench`: starts a private PostgreSQL (as npm test does), builds the app and runs the
# benchmarks; figures go to bench/results.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
source scripts/pg.sh
trap stop_pg EXIT
start_pg
npm run build --silent >/dev/null
# MAINNET_MINUTES (default 10) shortens each of the mainnet bench's three runs.
# BENCH=lighthouse runs the Lighthouse bench alone (BENCH_QUICK=1: one run per page).
# BENCH=scale: 100,000 and 1,000,000 invoices (BENCH_SCALE=small: 10,000 and 100,000);
# BENCH=cold-start: the server's cold start against a minimal Next.js app.
for b in ${BENCH:-http watcher push mainnet export lighthouse scale cold-start}; do
  echo "==> bench $b"
  npx tsx "bench/$b.ts"
done
echo "==> results in bench/results.md"

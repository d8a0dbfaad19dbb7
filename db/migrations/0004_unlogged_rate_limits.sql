-- Custom SQL migration file, put your code below! ---- Rate-limit counters are rewritten on every request and worthless after a crash (a window
-- restarts at zero), so they skip the write-ahead log.
ALTER TABLE "rate_limit_counters" SET UNLOGGED;

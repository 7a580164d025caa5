#!/usr/bin/env bash
# What the bench needs on a fresh Debian machine, set up as .ci/run sets it up: Debian's Chromium
# and haproxy, and PostgreSQL 15's main cluster with the role portal/portal. Only the first two
# where BENCH_DATABASE_URL names a server of its own. Does nothing that is already done.
set -euo pipefail

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
# the renewal day's load balancer (renewal-day.ts)
[ -x /usr/sbin/haproxy ] || need_apt+=(haproxy)
if [ -z "${BENCH_DATABASE_URL:-}" ]; then
  command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /usr/lib/postgresql/15 ] || need_apt+=(postgresql)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}"
fi
[ -z "${BENCH_DATABASE_URL:-}" ] || exit 0

pg_ctlcluster 15 main start 2>/dev/null || pg_ctlcluster 15 main status >/dev/null
for _ in $(seq 1 30); do
  su postgres -c "pg_isready -q" && break
  sleep 1
done
su postgres -c "psql -q -v ON_ERROR_STOP=1" <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'portal') THEN
    CREATE ROLE portal LOGIN SUPERUSER PASSWORD 'portal';
  END IF;
END $$;
SQL

#!/usr/bin/env bash
# Point-in-time recovery, as docs/operations.md sets it up, tried for real: a PostgreSQL 15
# cluster of its own archives its write-ahead log with pgBackRest, a row is written before a
# chosen moment and another after it, and a second cluster restored to that moment has the
# first and not the second. Both clusters are the drill's own, made and dropped here; nothing
# else is touched. Needs root (the clusters belong to postgres), pg_createcluster and pgbackrest.
set -euo pipefail

VERSION=15
SOURCE=pitr-drill
TARGET=pitr-drill-restored
SOURCE_PORT=${PITR_SOURCE_PORT:-5491}
TARGET_PORT=${PITR_TARGET_PORT:-5492}
work=$(mktemp -d /tmp/pitr-drill.XXXXXX)
chown postgres:postgres "$work"

cleanup() {
  pg_dropcluster --stop "$VERSION" "$SOURCE" 2>/dev/null || true
  pg_dropcluster --stop "$VERSION" "$TARGET" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# a drill left over by an interrupted run
cleanup
mkdir -p "$work" && chown postgres:postgres "$work"

as_postgres() { su postgres -s /bin/bash -c "$*"; }
sql() { as_postgres "psql -X -q -At -v ON_ERROR_STOP=1 -p $1 -d postgres -c \"$2\""; }

conf="$work/pgbackrest.conf"
cat >"$conf" <<CONF
[global]
repo1-path=$work/repo
repo1-retention-full=1
log-path=$work/log
lock-path=$work/lock
log-level-console=warn
log-level-file=off
start-fast=y

[$SOURCE]
pg1-path=/var/lib/postgresql/$VERSION/$SOURCE
pg1-port=$SOURCE_PORT
pg1-socket-path=/var/run/postgresql
CONF
chown postgres:postgres "$conf"
backrest="pgbackrest --config=$conf --stanza=$SOURCE"

echo "pitr drill: a cluster on port $SOURCE_PORT that archives its WAL with pgBackRest"
pg_createcluster "$VERSION" "$SOURCE" -p "$SOURCE_PORT" >/dev/null -- --auth-local=peer --auth-host=scram-sha-256
cat >>"/etc/postgresql/$VERSION/$SOURCE/postgresql.conf" <<CONF
wal_level = replica
archive_mode = on
archive_command = '$backrest archive-push %p'
CONF
pg_ctlcluster "$VERSION" "$SOURCE" start
as_postgres "$backrest stanza-create"
as_postgres "$backrest check"
as_postgres "$backrest --type=full backup"

sql "$SOURCE_PORT" "CREATE TABLE drill (name text PRIMARY KEY, written_at timestamptz NOT NULL DEFAULT clock_timestamp())"
sql "$SOURCE_PORT" "INSERT INTO drill (name) VALUES ('before')"
sleep 1
moment=$(sql "$SOURCE_PORT" "SELECT clock_timestamp()")
sleep 1
sql "$SOURCE_PORT" "INSERT INTO drill (name) VALUES ('after')"
# the segment holding both rows goes to the archive now, not when it fills
sql "$SOURCE_PORT" "SELECT pg_switch_wal()" >/dev/null
as_postgres "$backrest check"
echo "pitr drill: rows 'before' and 'after' written either side of $moment"

echo "pitr drill: a second cluster on port $TARGET_PORT, restored to that moment"
pg_createcluster "$VERSION" "$TARGET" -p "$TARGET_PORT" >/dev/null -- --auth-local=peer --auth-host=scram-sha-256
target_dir="/var/lib/postgresql/$VERSION/$TARGET"
# the restore's own archive_command must not write into the source's archive
echo "archive_mode = off" >>"/etc/postgresql/$VERSION/$TARGET/postgresql.conf"
find "$target_dir" -mindepth 1 -delete
as_postgres "$backrest --pg1-path=$target_dir --type=time '--target=$moment' --target-action=promote restore"
pg_ctlcluster "$VERSION" "$TARGET" start
for _ in $(seq 1 60); do
  [ "$(sql "$TARGET_PORT" "SELECT pg_is_in_recovery()" 2>/dev/null)" = "f" ] && break
  sleep 1
done
rows=$(sql "$TARGET_PORT" "SELECT string_agg(name, ',' ORDER BY name) FROM drill")
if [ "$rows" != "before" ]; then
  echo "pitr drill FAILED: the restored cluster holds '$rows', not only 'before'" >&2
  exit 1
fi
echo "pitr drill passed: restored to $moment, the row written before it is back and the one after it is not"

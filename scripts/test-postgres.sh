#!/usr/bin/env bash
# Starts a throwaway PostgreSQL 15 with pgvector on a loopback port for the test suite's PostgreSQL pass, and prints
# the line to use:  TEST_DATABASE_URL=postgres://postgres@127.0.0.1:<port>/postgres
#
# Needs Debian's postgresql-15 and, when pgvector is not installed yet, postgresql-server-dev-15 and build-essential:
# pgvector is then built from PGVECTOR_SOURCE (default: ../shared/vendor/pgvector-0.8.6.tar.gz next to the clone).
# The cluster lives in a temporary folder, runs without durability (it is thrown away) and is stopped with
#   pg_ctl -D <folder> stop     (the folder is printed on standard error).
set -euo pipefail
cd "$(dirname "$0")/.."

PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
PORT="${TEST_POSTGRES_PORT:-54329}"
# Without a port asked for, the next free one from 54329 on: a cluster an earlier run left on the machine (nothing
# stops it, a CI machine is thrown away) must not keep this run's PostgreSQL pass from starting.
if [ -z "${TEST_POSTGRES_PORT:-}" ]; then
  while (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; do PORT=$((PORT + 1)); done
fi
SOURCE="${PGVECTOR_SOURCE:-$(pwd)/../shared/vendor/pgvector-0.8.6.tar.gz}"

if [ ! -x "$PG_BIN/initdb" ]; then
  echo "PostgreSQL 15 was not found in $PG_BIN: apt-get install postgresql-15" >&2
  exit 1
fi

share="$("$PG_BIN/pg_config" --sharedir 2>/dev/null || echo /usr/share/postgresql/15)"
if [ ! -f "$share/extension/vector.control" ]; then
  if [ ! -f "$SOURCE" ]; then
    echo "pgvector is not installed and its source was not found at $SOURCE (set PGVECTOR_SOURCE)" >&2
    exit 1
  fi
  build="$(mktemp -d)"
  tar -xzf "$SOURCE" -C "$build" --strip-components=1
  # OPTFLAGS="": no -march=native, so the build runs on any machine of the same architecture.
  make -s -C "$build" PG_CONFIG="$PG_BIN/pg_config" OPTFLAGS="" >&2
  make -s -C "$build" PG_CONFIG="$PG_BIN/pg_config" install >&2
  rm -rf "$build"
fi

cluster="$(mktemp -d /tmp/ww-test-postgres.XXXXXX)"
run=()
# initdb refuses to run as root: the cluster then belongs to the postgres user.
if [ "$(id -u)" = "0" ]; then
  chown postgres "$cluster"
  run=(runuser -u postgres --)
fi
"${run[@]}" "$PG_BIN/initdb" -D "$cluster" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
"${run[@]}" "$PG_BIN/pg_ctl" -D "$cluster" -l "$cluster/server.log" -w start -o \
  "-p $PORT -k $cluster -c listen_addresses=127.0.0.1 -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" >/dev/null
echo "PostgreSQL test cluster in $cluster (stop: pg_ctl -D $cluster stop)" >&2
echo "TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$PORT/postgres"

#!/usr/bin/env bash
# The fleet workflow end to end against a real ClickHouse (docs/fleet.md):
# installs Debian's clickhouse-server, starts it on localhost ports of its
# own with a config in a temporary directory (no systemd), makes the schema
# in two databases that are the two shards of the cluster `spiketrap`, builds
# two builds of utils/clickhouse/fleet-game.c (B has a regressed function and
# a new spike stack), runs each on three hosts (UTS namespaces), ingests the
# JSON reports with `spiketrap-report ingest`, runs every query of
# utils/clickhouse/queries.sql and checks the answers. About a minute;
# skipped with a note when the package cannot be installed. Needs a build in
# ${BUILD_DIR:-build}. Prints "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
. utils/llvm-version.sh
ROOT=$PWD
B=$(realpath "${BUILD_DIR:-build}")
CLANG=${CLANG:-$(sed -n 's/^config.llvm_tools_dir = "\(.*\)"$/\1/p' \
  "$B/test/lit.site.cfg.py" 2>/dev/null)/clang}
[ -x "$CLANG" ] || CLANG=clang-$LLVM_VERSION

if ! command -v clickhouse-client >/dev/null || [ ! -x /usr/sbin/clickhouse-server ]; then
  # The package's own start-up is refused where there is no init system
  # (policy-rc.d): nothing but the files is wanted.
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    clickhouse-server clickhouse-client >/dev/null 2>&1 ||
    { apt-get update >/dev/null 2>&1 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        clickhouse-server clickhouse-client >/dev/null 2>&1; } || true
fi
if ! command -v clickhouse-client >/dev/null || [ ! -x /usr/sbin/clickhouse-server ]; then
  echo "test-clickhouse: skipped: clickhouse-server/clickhouse-client cannot be installed"
  exit 0
fi

T=$(mktemp -d /tmp/spiketrap-clickhouse.XXXXXX)
SERVER=
cleanup() {
  if [ -n "$SERVER" ]; then
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
  fi
  rm -rf "$T"
}
trap cleanup EXIT

# Ports nobody listens on (another server of another run may be up).
read -r HTTP TCP < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
mkdir -p "$T/data" "$T/tmp" "$T/log" "$T/user_files" "$T/reports"
sed -e "s|@T@|$T|g" -e "s|@HTTP@|$HTTP|g" -e "s|@TCP@|$TCP|g" > "$T/config.xml" <<'XML'
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>@T@/log/server.log</log>
    <errorlog>@T@/log/error.log</errorlog><size>10M</size><count>1</count></logger>
  <http_port>@HTTP@</http_port>
  <tcp_port>@TCP@</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>@T@/data/</path>
  <tmp_path>@T@/tmp/</tmp_path>
  <user_files_path>@T@/user_files/</user_files_path>
  <format_schema_path>@T@/format_schemas/</format_schema_path>
  <users_config>@T@/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>268435456</mark_cache_size>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
  <!-- Two shards on this one server: one database each. On several
       machines, one <shard> per machine (utils/clickhouse/cluster.xml). -->
  <remote_servers>
    <spiketrap>
      <shard><replica><host>127.0.0.1</host><port>@TCP@</port>
        <default_database>spiketrap_shard1</default_database></replica></shard>
      <shard><replica><host>127.0.0.1</host><port>@TCP@</port>
        <default_database>spiketrap_shard2</default_database></replica></shard>
    </spiketrap>
  </remote_servers>
</yandex>
XML
cat > "$T/users.xml" <<'XML'
<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries>
    <errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows>
    <execution_time>0</execution_time></interval></default></quotas>
</yandex>
XML
/usr/sbin/clickhouse-server --config-file="$T/config.xml" >"$T/log/stdout" 2>&1 &
SERVER=$!
URL=http://127.0.0.1:$HTTP
for _ in $(seq 1 300); do
  curl -sf "$URL/?query=SELECT%201" >/dev/null 2>&1 && break
  kill -0 "$SERVER" 2>/dev/null || break
  sleep 0.2
done
if ! curl -sf "$URL/?query=SELECT%201" >/dev/null 2>&1; then
  echo "test-clickhouse: the server did not start:"
  tail -20 "$T/log/stdout" "$T/log/error.log" 2>/dev/null || true
  echo "0 passed, 1 failed"
  exit 1
fi
echo "test-clickhouse: $(curl -s "$URL/?query=SELECT%20version()") on port $HTTP"

client() { clickhouse-client --host 127.0.0.1 --port "$TCP" "$@"; }
for db in spiketrap_shard1 spiketrap_shard2; do
  client --query "CREATE DATABASE IF NOT EXISTS $db"
  client --database "$db" --multiquery < utils/clickhouse/schema.sql
done

# Two builds, three hosts each (a UTS namespace names the host; where one
# cannot be made, the report's host is set as if it had been).
P=$B/lib/SpikeTrap.so
for build in A B; do
  def=; [ "$build" = B ] && def=-DREGRESSED
  "$CLANG" -O1 -g -fplugin="$P" -fpass-plugin="$P" -mllvm -spiketrap-instrument-all \
    -Iruntime/include $def utils/clickhouse/fleet-game.c "$B/lib/libspiketrap.a" \
    -o "$T/game-$build"
done
for build in A B; do
  for host in fleet-h1 fleet-h2 fleet-h3; do
    out=$T/reports/$build-$host.json
    export SPIKETRAP_OPTIONS="threshold=10ms report=none report_json=$out"
    if ! unshare --uts sh -c 'hostname "$1" && exec "$2" 12' sh "$host" "$T/game-$build" \
        2>/dev/null; then
      "$T/game-$build" 12
      python3 - "$out" "$host" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
rep["runs"][0]["host"] = sys.argv[2]
json.dump(rep, open(sys.argv[1], "w"))
PY
    fi
  done
done
unset SPIKETRAP_OPTIONS
BUILD_A=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["build_id"])' "$T/reports/A-fleet-h1.json")
BUILD_B=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["build_id"])' "$T/reports/B-fleet-h1.json")

# The documented command, into either shard's Distributed tables.
python3 -B utils/spiketrap-report ingest --clickhouse "$URL" \
  --database spiketrap_shard1 "$T/reports"

# Each documented query, its placeholders filled in, answers as TSV.
query() {
  sed -n "/^-- query: $1\$/,/^-- query:/p" utils/clickhouse/queries.sql |
    sed -e '$!b' -e '/^-- query:/d' |
    sed -e "s/BUILD_A/$BUILD_A/g" -e "s/BUILD_B/$BUILD_B/g" -e "s/FUNCTION/$2/g" |
    client --database spiketrap_shard1 --format TSV
}
for q in worst-functions-by-build spikes-per-1000-frames-by-build new-stacks; do
  query "$q" render > "$T/$q.tsv"
done
query function-by-host render > "$T/function-by-host.tsv"
# Where the rows went: every run's row and spikes on one shard.
for n in 1 2; do
  client --format TSV --query "SELECT run_id, 'spikes', count() FROM
    spiketrap_shard$n.spikes_local GROUP BY run_id UNION ALL SELECT run_id,
    'runs', count() FROM spiketrap_shard$n.runs_local GROUP BY run_id" \
    > "$T/shard$n.tsv"
done

python3 utils/clickhouse/check-answers.py "$T" "$BUILD_A" "$BUILD_B"

-- spiketrap's fleet tables for ClickHouse (docs/fleet.md), rows of schema
-- version 1 as `spiketrap-report export --format jsonl` and `ingest` write
-- them. Checked against ClickHouse 18.16 (Debian 12's clickhouse-server):
-- no LowCardinality, no MATERIALIZED columns (a Distributed INSERT rejects
-- them there), no query parameters.
--
-- Run this file in the database of every shard:
--   clickhouse-client --database spiketrap --multiquery < schema.sql
-- It makes the shard's own MergeTree tables (runs_local, spikes_local) and
-- the Distributed tables over the cluster `spiketrap` (runs, spikes), which
-- ingest writes to and queries read. The cluster is defined in the server's
-- config (utils/clickhouse/cluster.xml): one shard per machine; on one
-- machine, one shard or two databases as utils/test-clickhouse.sh makes.
-- Rows are placed by cityHash64(run_id): a run and its spikes share a shard.

CREATE TABLE IF NOT EXISTS runs_local (
    version UInt8,
    run_id String,
    host String,
    program String,
    program_name String,
    build_id String,
    pid UInt32,
    date Date,
    time DateTime('UTC'),
    start_time_ns UInt64,
    duration_ns UInt64,
    clock String,
    threshold_ns UInt64,
    command_line Array(String),
    options_text String,
    spikes UInt64,
    hangs UInt64,
    dropped UInt64,
    calls UInt64,
    threads UInt64,
    frames UInt64,
    calls_past_max_depth UInt64
) ENGINE = MergeTree()
PARTITION BY toYYYYMM(date)
ORDER BY (build_id, host, start_time_ns, run_id);

CREATE TABLE IF NOT EXISTS spikes_local (
    version UInt8,
    run_id String,
    host String,
    program String,
    program_name String,
    build_id String,
    pid UInt32,
    spike UInt32,
    tid UInt32,
    thread String,
    date Date,
    time DateTime('UTC'),
    start_time_ns UInt64,
    offset_ns UInt64,
    duration_ns UInt64,
    threshold_ns Nullable(UInt64),
    excess_ns UInt64,
    self_ns Int64,
    child_spike_ns UInt64,
    leaf UInt8,
    parent Nullable(UInt32),
    frame UInt64,
    signal UInt8,
    function String,
    file String,
    line UInt32,
    depth UInt16,
    stack_functions Array(String),
    stack_files Array(String),
    stack_lines Array(UInt32),
    stack_offsets_ns Array(Int64),
    stack_durations_ns Array(UInt64),
    stack_thresholds_ns Array(Nullable(UInt64)),
    stack_wait_ns Array(UInt64),
    stack_messages Array(String),
    stack_ot_messages Array(String),
    stack_minor_faults Array(UInt64),
    stack_major_faults Array(UInt64),
    stack_preemptions Array(UInt64),
    stack_preempted_ns Array(UInt64),
    stack_blocked_ns Array(UInt64),
    kernel_lower_bound UInt8,
    longest_wait_call String,
    longest_wait_ns UInt64,
    longest_wait_function String,
    wait_lower_bound UInt8,
    recent_functions Array(String),
    recent_offsets_ns Array(Int64),
    recent_durations_ns Array(UInt64),
    recent_depths Array(UInt16),
    untimed_callees Array(String),
    sampled_functions Array(String),
    sampled_objects Array(String),
    sampled_samples UInt32,
    sampled_agree UInt32,
    sampled_ns UInt64
) ENGINE = MergeTree()
PARTITION BY toYYYYMM(date)
ORDER BY (build_id, function, start_time_ns);

CREATE TABLE IF NOT EXISTS runs AS runs_local
ENGINE = Distributed(spiketrap, '', runs_local, cityHash64(run_id));

CREATE TABLE IF NOT EXISTS spikes AS spikes_local
ENGINE = Distributed(spiketrap, '', spikes_local, cityHash64(run_id));

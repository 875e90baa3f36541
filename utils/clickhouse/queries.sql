-- spiketrap's documented fleet queries (docs/fleet.md), for the tables of
-- schema.sql, checked on ClickHouse 18.16. Each starts with a "-- query:"
-- line naming it. 18.16 has no query parameters: replace BUILD_A, BUILD_B
-- and FUNCTION before running one, e.g.
--   sed -n '/^-- query: new-stacks$/,/^-- query:/p' queries.sql |
--     sed "s/BUILD_A/$old/; s/BUILD_B/$new/" | clickhouse-client -d spiketrap
-- Durations are in milliseconds. A spike is counted once: `leaf` rows only,
-- except where a function's own spikes are asked for (its callers' records
-- hold the same time again).

-- query: worst-functions-by-build
-- The functions that lost the most time over their thresholds, per build:
-- where the spike time sits (the leaf of each spike's stack), ten per build.
SELECT
    build_id,
    function,
    file,
    count() AS spikes,
    uniqExact(run_id) AS runs,
    round(sum(excess_ns) / 1e6, 3) AS excess_ms,
    round(quantile(0.95)(duration_ns) / 1e6, 3) AS p95_ms,
    round(max(duration_ns) / 1e6, 3) AS worst_ms
FROM spikes
WHERE leaf
GROUP BY build_id, function, file
ORDER BY build_id, excess_ms DESC, function
LIMIT 10 BY build_id;

-- query: spikes-per-1000-frames-by-build
-- Spikes per 1000 frames (spiketrap_frame_mark calls) of each build, over
-- all its runs; builds whose runs marked no frames are left out.
SELECT
    build_id,
    runs,
    frames,
    spikes,
    round(1000 * spikes / frames, 2) AS spikes_per_1000_frames
FROM
(
    SELECT build_id, count() AS runs, sum(frames) AS frames
    FROM runs
    GROUP BY build_id
    HAVING frames > 0
)
ANY LEFT JOIN
(
    SELECT build_id, count() AS spikes
    FROM spikes
    WHERE leaf
    GROUP BY build_id
) USING (build_id)
ORDER BY build_id;

-- query: function-by-host
-- One function's own spikes across hosts, per build: where it spikes and
-- how badly.
SELECT
    build_id,
    host,
    count() AS spikes,
    uniqExact(run_id) AS runs,
    round(quantile(0.5)(duration_ns) / 1e6, 3) AS median_ms,
    round(max(duration_ns) / 1e6, 3) AS worst_ms
FROM spikes
WHERE function = 'FUNCTION'
GROUP BY build_id, host
ORDER BY build_id, spikes DESC, host;

-- query: new-stacks
-- Spike stacks (function names, outermost first) of build BUILD_B that no
-- spike of build BUILD_A had. GLOBAL: the subquery runs once, on the node
-- that was asked, and its result goes to every shard.
SELECT
    arrayStringConcat(stack_functions, ';') AS stack,
    count() AS spikes,
    uniqExact(run_id) AS runs,
    round(max(duration_ns) / 1e6, 3) AS worst_ms
FROM spikes
WHERE build_id = 'BUILD_B' AND leaf
    AND stack_functions GLOBAL NOT IN
    (
        SELECT stack_functions
        FROM spikes
        WHERE build_id = 'BUILD_A'
    )
GROUP BY stack
ORDER BY spikes DESC, stack;

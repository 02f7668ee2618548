-- wrk load for Benchmarks/run-range-benchmark.sh.
--   wrk ... -s wrk_range.lua URL -- PATH SIZE LENGTH
-- GETs PATH with "Range: bytes=a-b", LENGTH bytes from a random offset of a SIZE-byte file
-- (each thread seeded apart), with "Authorization: Bearer $PHOTOS_TOKEN" when that is set.
-- At the end one RESULT line: requests, rate, throughput (wrk's count of bytes received,
-- headers included) and bytes per request (LENGTH and a few hundred bytes of headers when every
-- answer was the range), errors by kind (status = non-2xx/3xx), latency.
local path, size, length
local token = os.getenv("PHOTOS_TOKEN")
local threads = 0

function setup(thread)
    threads = threads + 1
    thread:set("seed", threads)
end

function init(args)
    path, size, length = args[1], tonumber(args[2]), tonumber(args[3])
    math.randomseed(os.time() * 100 + (seed or 0))
    if token and #token > 0 then wrk.headers["Authorization"] = "Bearer " .. token end
end

function request()
    local first = math.random(0, size - length)
    wrk.headers["Range"] = string.format("bytes=%d-%d", first, first + length - 1)
    return wrk.format("GET", path)
end

function done(summary, latency, requests)
    local e = summary.errors
    local seconds = summary.duration / 1e6
    io.write(string.format(
        "RESULT requests=%d duration_s=%.3f rps=%.1f bytes=%d mb_per_s=%.1f bytes_per_request=%.0f connect=%d read=%d write=%d timeout=%d status=%d p50_ms=%.3f p99_ms=%.3f max_ms=%.3f\n",
        summary.requests, seconds, summary.requests / seconds, summary.bytes,
        summary.bytes / seconds / 1e6, summary.bytes / math.max(1, summary.requests),
        e.connect, e.read, e.write, e.timeout, e.status,
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end

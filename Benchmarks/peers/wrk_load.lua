-- wrk load for Benchmarks/run-serve-benchmark.sh.
--   wrk ... -s wrk_load.lua URL -- PATHS [IDS [EVERY]]
-- GETs the paths listed in PATHS in turn (each thread from a random offset), with
-- "Authorization: Bearer $PHOTOS_TOKEN" when that is set. With IDS (asset ids, one per line),
-- a gallery's mixed load: 1 request in EVERY (default 20) toggles a favorite with
-- POST /api/changes; EVERY 1 makes every request a toggle.
-- At the end one RESULT line: requests, rate, errors by kind (status = non-2xx/3xx), latency.
local paths, ids = {}, {}
local index, count, every = 0, 0, 20
local token = os.getenv("PHOTOS_TOKEN")

local function lines(name, into)
    for line in io.lines(name) do
        if #line > 0 then table.insert(into, line) end
    end
end

function init(args)
    lines(args[1], paths)
    if args[2] then lines(args[2], ids) end
    if args[3] then every = tonumber(args[3]) end
    index = math.random(#paths)
    if token and #token > 0 then wrk.headers["Authorization"] = "Bearer " .. token end
end

function request()
    count = count + 1
    if #ids > 0 and count % every == 0 then
        local id = ids[math.random(#ids)]
        local value = math.random(2) == 1 and "true" or "false"
        local body = '{"operations":[{"op":"favorite","assets":["' .. id .. '"],"value":' .. value .. '}]}'
        -- wrk.format's headers replace wrk.headers: carry the Authorization header over.
        local headers = { ["Content-Type"] = "application/json" }
        for key, value in pairs(wrk.headers) do headers[key] = value end
        return wrk.format("POST", "/api/changes", headers, body)
    end
    index = index % #paths + 1
    return wrk.format("GET", paths[index])
end

function done(summary, latency, requests)
    local e = summary.errors
    io.write(string.format(
        "RESULT requests=%d duration_s=%.3f rps=%.1f bytes=%d connect=%d read=%d write=%d timeout=%d status=%d p50_ms=%.3f p99_ms=%.3f max_ms=%.3f\n",
        summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6), summary.bytes,
        e.connect, e.read, e.write, e.timeout, e.status,
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end

-- Shared by every scenario: after the run, one JSON line with what the table needs.
-- wrk's latency is in microseconds.
function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout + summary.errors.status
  io.write(string.format(
    '{"requests": %d, "seconds": %.3f, "rps": %.1f, "p50_ms": %.3f, "p99_ms": %.3f, "max_ms": %.3f, "errors": %d%s}\n',
    summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000, errors, extra_report and extra_report() or ""))
end

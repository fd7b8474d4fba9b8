// A steady open-loop load: one request every 1000/rate ms, on up to `connections` keep-alive connections, each
// request's latency counted from the moment it was due (so a stalled server is charged for the requests it made
// wait: no coordinated omission). autocannon's `overallRate` cannot do this: each connection sends its share of a
// second's requests back to back as the second starts and then idles, so its "fixed rate" latencies measure a burst
// of 1,000 queued requests, and its correction for coordinated omission then adds one sample per elapsed millisecond
// of every slow response.
'use strict';
const http = require('node:http');

/**
 * Sends `rate` requests per second for `seconds`; resolves with latency percentiles in ms and the error count.
 * With `timeout` (ms), a request not answered that long after it was sent is given up, counted as an error and in
 * `timeouts`, so a stalled server cannot hold the run open.
 */
function paced(url, body, { rate = 1000, seconds = 10, connections = 50, headers = {}, timeout = 0 } = {}) {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const latencies = new Float64Array(total);
  let sent = 0;
  let done = 0;
  let errors = 0;
  let timeouts = 0;
  return new Promise((resolve) => {
    const start = performance.now();
    const finish = () => {
      agent.destroy();
      const sorted = latencies.slice(0, done).sort();
      const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
      resolve({ p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1], errors, timeouts, achievedRate: (done / (performance.now() - start)) * 1000 });
    };
    const send = (i, due) => {
      const payload = JSON.stringify(body(i));
      let counted = false;
      let timer = null;
      // Each request is counted once, however it ends (a response, a refused connection, a response cut short).
      const record = (ok) => {
        if (counted) return;
        counted = true;
        clearTimeout(timer);
        if (!ok) errors++;
        latencies[done++] = performance.now() - due;
        if (done === total) finish();
      };
      const req = http.request(
        { agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
        (res) => {
          res.resume();
          res.on('end', () => record(res.statusCode === 200));
          res.on('error', () => record(false));
        },
      );
      req.on('error', () => record(false));
      if (timeout > 0)
        timer = setTimeout(() => {
          if (counted) return;
          timeouts++;
          record(false);
          req.destroy();
        }, timeout);
      req.end(payload);
    };
    const tick = () => {
      const now = performance.now();
      // Every request that is due goes out now, each stamped with the time it was due.
      while (sent < total && start + sent * interval <= now) {
        send(sent, start + sent * interval);
        sent++;
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
    };
    tick();
  });
}

module.exports = { paced };

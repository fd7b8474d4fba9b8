// A child process of bench/streams.js holding many open event streams, so that the bench's own process (which
// drives the evaluation load) is not slowed by them. Commands arrive as IPC messages:
//   {cmd: 'open', url, count, headers}  → {opened, failed, ms}
//   {cmd: 'wait', events, timeoutMs}     → {first, last, missing}: epoch ms when the first and the last stream had
//                                          received `events` events in all (missing: streams that had not in time)
//   {cmd: 'close'}                       → {closed}
// Only `data:` lines are counted (one per event here); comments (heartbeats) and ids without data are not.
'use strict';
const http = require('node:http');

const streams = [];

function now() {
  return performance.timeOrigin + performance.now();
}

function openOne(url, headers) {
  return new Promise((resolve) => {
    const stream = { events: 0, reachedAt: [], req: null };
    const req = http.get(url, { agent: false, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        resolve(null);
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        let at = chunk.indexOf('data:');
        while (at >= 0) {
          stream.events++;
          stream.reachedAt[stream.events] = now();
          at = chunk.indexOf('data:', at + 5);
        }
      });
      res.on('error', () => undefined);
      resolve(stream);
    });
    stream.req = req;
    req.on('error', () => resolve(null));
  });
}

async function open({ url, count, headers }) {
  const started = now();
  let failed = 0;
  // 200 connections being set up at a time: like clients arriving, not one burst of 10,000 SYNs.
  for (let i = 0; i < count; i += 200) {
    const batch = await Promise.all(Array.from({ length: Math.min(200, count - i) }, () => openOne(url, headers)));
    for (const s of batch) {
      if (s) streams.push(s);
      else failed++;
    }
  }
  return { opened: streams.length, failed, ms: now() - started };
}

async function wait({ events, timeoutMs }) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && streams.some((s) => s.events < events)) await new Promise((r) => setTimeout(r, 5));
  const reached = streams.filter((s) => s.events >= events).map((s) => s.reachedAt[events]);
  return {
    first: reached.length ? Math.min(...reached) : null,
    last: reached.length ? reached.reduce((a, b) => Math.max(a, b), 0) : null,
    missing: streams.length - reached.length,
  };
}

process.on('message', async (message) => {
  let answer;
  if (message.cmd === 'open') answer = await open(message);
  else if (message.cmd === 'wait') answer = await wait(message);
  else if (message.cmd === 'close') {
    for (const s of streams.splice(0)) s.req.destroy();
    answer = { closed: true };
  }
  process.send(answer);
});

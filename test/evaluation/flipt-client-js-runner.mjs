// Drives the real @flipt-io/flipt-client-js (Flipt's Rust engine as WASM) in a plain Node process for
// clients-local-engine.e2e-spec.ts. Jest cannot host it: the client's default fetcher does `import('node-fetch')`,
// an ES module Jest's CommonJS runtime refuses, and the client must stay unchanged (no custom fetcher).
//
// Protocol: one JSON command per stdin line, one JSON answer per stdout line: {ok: value} or {error: message}.
//   {op: "init", options}                 FliptClient.init(options)
//   {op: "evaluate", requests: [...]}     [{kind: "variant"|"boolean", flagKey, entityId, context}] → per item {ok}|{error}
//   {op: "batch", requests: [...]}        client.evaluateBatch(requests)
//   {op: "refresh"}                       await client.refresh() → boolean
//   {op: "listFlags"}                     client.listFlags()
//   {op: "close"}                         client.close(), then exit
import { createInterface } from 'node:readline';
import { FliptClient } from '@flipt-io/flipt-client-js';

let client = null;

function attempt(fn) {
  try {
    return { ok: fn() };
  } catch (e) {
    return { error: String(e && e.message ? e.message : e) };
  }
}

const handlers = {
  async init({ options }) {
    client = await FliptClient.init(options);
    return true;
  },
  async evaluate({ requests }) {
    return requests.map(({ kind, flagKey, entityId, context }) =>
      attempt(() =>
        kind === 'boolean'
          ? client.evaluateBoolean({ flagKey, entityId, context })
          : client.evaluateVariant({ flagKey, entityId, context }),
      ),
    );
  },
  async batch({ requests }) {
    return client.evaluateBatch(requests);
  },
  async refresh() {
    return client.refresh();
  },
  async listFlags() {
    return client.listFlags();
  },
  async close() {
    client?.close();
    client = null;
    return true;
  },
};

const lines = createInterface({ input: process.stdin });
let queue = Promise.resolve();
lines.on('line', (line) => {
  queue = queue.then(async () => {
    const command = JSON.parse(line);
    let answer;
    try {
      answer = { ok: await handlers[command.op](command) };
    } catch (e) {
      answer = { error: String(e && e.message ? e.message : e) };
    }
    process.stdout.write(JSON.stringify(answer) + '\n');
    if (command.op === 'close') process.exit(0);
  });
});
lines.on('close', () => {
  client?.close();
  process.exit(0);
});

/** How the scale-out suites watch a write made on one instance reach another's evaluations. */
import { client } from '../../support/flagpole';

export type Api = ReturnType<typeof client>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/**
 * Writes `enabled` through `writer` after `reader` has loaded the current state (so that only a change notification
 * can make it see the write), then returns how long until `reader` evaluates the new value.
 */
export async function propagation(writer: Api, reader: Api, flagKey: string, enabled: boolean): Promise<number> {
  await reader.post('/evaluate/v1/boolean', { flagKey, entityId: 'e1', context: {} });
  expect((await writer.put(`/api/v1/namespaces/default/flags/${flagKey}`, { key: flagKey, name: flagKey, enabled })).status).toBe(200);
  return convergence(reader, flagKey, enabled);
}

/**
 * Polls `api` until the flag's boolean evaluation equals `expected`; returns the milliseconds it took (printed by the
 * tests, never asserted: `timeoutMs` only stops a wait that would never end).
 */
export async function convergence(api: Api, flagKey: string, expected: boolean, timeoutMs = 20_000): Promise<number> {
  const start = performance.now();
  for (;;) {
    const r = await api.post('/evaluate/v1/boolean', { flagKey, entityId: 'e1', context: {} });
    // 404: a flag created on the other instance has not arrived yet.
    expect([200, 404]).toContain(r.status);
    if (r.status === 200 && r.body.enabled === expected) return performance.now() - start;
    if (performance.now() - start > timeoutMs) throw new Error(`no convergence within ${timeoutMs} ms`);
    await sleep(2);
  }
}

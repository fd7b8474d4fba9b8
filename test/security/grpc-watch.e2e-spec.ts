/**
 * gRPC health Watch streams are unauthenticated and open until the client leaves: `limits.max_grpc_watch_streams`
 * bounds them (issue 15, item 8). A real @grpc/grpc-js client.
 */
import { check, eventually, healthClient, Watcher } from '../ops/support/grpc-health-client';
import { TcpProxy } from '../ops/support/tcp-proxy';
import { RunningFlagpole, startFlagpole } from '../support/flagpole';

const RESOURCE_EXHAUSTED = 8;

/** Whether a new Watch stream is accepted within a few seconds (the server learns of ended streams asynchronously). */
async function acceptedAgain(client: ReturnType<typeof healthClient>, ms = 5_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const w = new Watcher(client);
    await eventually(() => w.last !== undefined || w.ended !== null, 5_000, 'an answer');
    w.cancel();
    if (w.last === 'SERVING') return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

describe('gRPC health Watch streams', () => {
  let fp: RunningFlagpole;
  beforeAll(async () => {
    fp = await startFlagpole({ FLAGPOLE_LIMITS_MAX_GRPC_WATCH_STREAMS: '3' });
  });
  afterAll(() => fp?.close());

  it('refuses Watch streams past the limit with RESOURCE_EXHAUSTED, and takes new ones when others end', async () => {
    const client = healthClient(fp.grpcPort);
    const watchers = [new Watcher(client), new Watcher(client, 'no.such.Service'), new Watcher(client)];
    try {
      await eventually(() => watchers.every((w) => w.statuses.length > 0), 10_000, 'the first statuses');
      expect(watchers.map((w) => w.last)).toEqual(['SERVING', 'SERVICE_UNKNOWN', 'SERVING']);

      const refused = new Watcher(client);
      await eventually(() => refused.ended !== null, 10_000, 'the refusal');
      expect({ ended: refused.ended, statuses: refused.statuses }).toEqual({ ended: RESOURCE_EXHAUSTED, statuses: [] });
      // Check is not a stream, and is not limited.
      expect(await check(client)).toBe('SERVING');
      expect(watchers.every((w) => w.ended === null)).toBe(true);

      watchers[1].cancel();
      expect(await acceptedAgain(client)).toBe(true);
    } finally {
      watchers.forEach((w) => w.cancel());
      client.close();
    }
  });

  it('counts streams whose connection dropped as ended', async () => {
    const proxy = new TcpProxy('127.0.0.1', fp.grpcPort);
    const first = healthClient(await proxy.start());
    const streams = [new Watcher(first), new Watcher(first), new Watcher(first)];
    await eventually(() => streams.every((w) => w.last === 'SERVING'), 10_000, 'three streams');
    const meanwhile = healthClient(fp.grpcPort);
    expect(await acceptedAgain(meanwhile, 500)).toBe(false);
    meanwhile.close();
    await proxy.stop();
    first.close();
    const second = healthClient(fp.grpcPort);
    try {
      expect(await acceptedAgain(second)).toBe(true);
    } finally {
      second.close();
    }
  });
});

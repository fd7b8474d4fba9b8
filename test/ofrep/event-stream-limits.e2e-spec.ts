/**
 * Event streams cannot be hoarded (hardening issue 11; docs/api.md "Event streams", docs/security.md "Limits"): one
 * caller holds at most `limits.max_event_streams_per_credential` of them (429 past it, others unaffected), and a
 * client that stops reading loses its stream once what it is sent waits unsent for
 * `limits.event_stream_write_timeout`, so that its slot serves another client.
 *
 * The reader that stops reading is a Python socket: Node cannot shrink a socket's receive buffer or its segment size,
 * and over loopback (64 KiB segments) the kernel would otherwise hold megabytes for it before a write waited in
 * Flagpole at all. Without python3 that part is skipped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { refetchEvent } from '../../src/evaluation/event-stream-text';
import { bearer, BOOTSTRAP, createToken, eventually, TOKEN_REQUIRED } from '../auth/support';
import { buildNamespace, nsPath, ok, type Api, type FlagSpec } from '../evaluation/fixtures';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { openSse, type SseConnection } from '../support/sse';

jest.setTimeout(120_000);

const streamPath = (ns: string) => `/ofrep/v1/_stream/${encodeURIComponent(ns)}/events`;
const snapshotStreamPath = (ns: string) => `/internal/v1/evaluation/snapshot/namespace/${encodeURIComponent(ns)}/stream`;
const flags: FlagSpec[] = [{ key: 'on', type: 'BOOLEAN_FLAG_TYPE', enabled: true }];

async function openStreams(base: string): Promise<number> {
  const text = (await client(base).get('/metrics')).text;
  return Number(/^flagpole_event_streams (\d+)$/m.exec(text)?.[1] ?? NaN);
}

/** The status of a stream request sent from `localAddress` (another loopback address is another client); closed after. */
function statusFrom(url: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress, headers: { accept: 'text/event-stream' } }, (res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', reject);
    req.end();
  });
}

describe('event streams per caller', () => {
  let fp: RunningFlagpole;
  let api: Api;
  const open: SseConnection[] = [];
  const sse = async (path: string, headers: Record<string, string> = {}) => {
    const c = await openSse(fp.url + path, headers);
    open.push(c);
    return c;
  };
  afterEach(() => open.splice(0).forEach((c) => c.close()));

  beforeAll(async () => {
    fp = await startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_LIMITS_MAX_EVENT_STREAMS_PER_CREDENTIAL: '2' });
    api = client(fp.url, bearer(BOOTSTRAP));
    await buildNamespace(api, { key: 'streams', flags });
  });
  afterAll(() => fp?.close());

  it('past its allowance a token gets 429 with Retry-After, while another token still streams; room again once one closes', async () => {
    const one = bearer((await createToken(api)).clientToken);
    const other = bearer((await createToken(api)).clientToken);
    // OFREP's stream and the snapshot's count alike.
    const first = await sse(streamPath('streams'), one);
    const second = await sse(snapshotStreamPath('streams'), one);
    expect([first.status, second.status]).toEqual([200, 200]);

    const refused = await sse(streamPath('streams'), one);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(JSON.parse(refused.body!)).toEqual({ errorCode: 'GENERAL', errorDetails: expect.stringContaining('limits.max_event_streams_per_credential: 2') });
    const refusedSnapshot = await sse(snapshotStreamPath('streams'), one);
    expect(refusedSnapshot.status).toBe(429);
    expect(JSON.parse(refusedSnapshot.body!)).toEqual({ code: 8, message: expect.stringContaining('limits.max_event_streams_per_credential'), details: [] });

    expect((await sse(streamPath('streams'), other)).status).toBe(200);

    first.close();
    await eventually(async () => expect((await sse(streamPath('streams'), one)).status).toBe(200));
  });

  it('without a credential (authentication off) one client address is one caller', async () => {
    const anonymous = await startFlagpole({ FLAGPOLE_LIMITS_MAX_EVENT_STREAMS_PER_CREDENTIAL: '2' });
    try {
      await buildNamespace(client(anonymous.url), { key: 'anon', flags });
      const url = anonymous.url + streamPath('anon');
      const streams = [await openSse(url), await openSse(url)];
      try {
        expect(streams.map((s) => s.status)).toEqual([200, 200]);
        expect((await openSse(url)).status).toBe(429);
        expect(await statusFrom(url, '127.0.0.2')).toBe(200);
      } finally {
        streams.forEach((s) => s.close());
      }
    } finally {
      await anonymous.close();
    }
  });
});

const PYTHON = spawnSync('python3', ['-c', 'import socket; socket.TCP_MAXSEG'], { stdio: 'ignore' }).status === 0;
const withPython = PYTHON ? describe : describe.skip;

/**
 * A client that sends `GET path` and never reads, with a 2 KiB receive buffer and 536-byte segments, so that the
 * kernel holds tens of kilobytes for it rather than megabytes. Resolves once the request is sent.
 */
async function stalledReader(port: number, path: string): Promise<ChildProcess> {
  const script = [
    'import socket, sys, time',
    's = socket.socket()',
    's.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)',
    's.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)',
    `s.connect(("127.0.0.1", ${port}))`,
    `s.sendall(b"GET ${path} HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nAccept: text/event-stream\\r\\n\\r\\n")`,
    'print("sent", flush=True)',
    'time.sleep(600)',
  ].join('\n');
  const child = spawn('python3', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the stalled reader exited (${code})`)));
  });
  return child;
}

/**
 * How many bytes this kernel takes for such a reader before a write has to wait in the writing process: a Node server
 * writes to one until its socket keeps bytes back.
 */
async function kernelHolds(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const reader = await stalledReader((server.address() as AddressInfo).port, '/');
  try {
    const socket = await accepted;
    const chunk = Buffer.alloc(100, 'x');
    let written = 0;
    while (socket.writableLength === 0) {
      for (let i = 0; i < 10; i++) socket.write(chunk);
      written += 10 * chunk.length;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const held = written - socket.writableLength;
    socket.destroy();
    return held;
  } finally {
    reader.kill();
    server.close();
  }
}

withPython('an event stream whose client stops reading', () => {
  let fp: RunningFlagpole;
  let api: Api;
  let reader: ChildProcess | undefined;

  beforeAll(async () => {
    // One slot on the instance: while the stalled reader holds it, nobody else streams.
    fp = await startFlagpole({ FLAGPOLE_LIMITS_MAX_EVENT_STREAMS: '1', FLAGPOLE_LIMITS_EVENT_STREAM_WRITE_TIMEOUT: '1s' });
    api = client(fp.url);
    await buildNamespace(api, { key: 'stalled', flags });
  });
  afterAll(async () => {
    reader?.kill();
    await fp?.close();
  });

  it('is closed once what it is sent waits unsent for the write timeout, and its slot serves another client', async () => {
    // Enough events to fill the kernel's buffers for the reader and leave about 32 KiB waiting in Flagpole: past
    // what the kernel takes, below the 64 KiB that closes a stream at once, so only the write timeout can close it.
    const eventBytes = refetchEvent('1'.repeat(13), 'x'.repeat(16)).length + '5f\r\n\r\n'.length;
    const events = Math.ceil(((await kernelHolds()) + 32 * 1024) / eventBytes);

    reader = await stalledReader(Number(new URL(fp.url).port), streamPath('stalled'));
    await eventually(async () => expect(await openStreams(fp.url)).toBe(1));
    const refused = await openSse(fp.url + streamPath('stalled'));
    expect(refused.status).toBe(503);

    let enabled = true;
    for (let i = 1; i <= events; i++) {
      enabled = !enabled;
      ok(await api.put(`${nsPath('stalled')}/flags/on`, { name: 'on', description: '', enabled }), 'update flag');
      if (i % 50 === 0 && (await openStreams(fp.url)) === 0) break;
    }
    // No further writes: the stream is closed by its deadline alone.
    await eventually(async () => expect(await openStreams(fp.url)).toBe(0), 20_000);
    const next = await openSse(fp.url + streamPath('stalled'));
    expect(next.status).toBe(200);
    next.close();
  });
});

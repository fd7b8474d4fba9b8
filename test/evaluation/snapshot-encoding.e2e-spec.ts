/**
 * The snapshot document over the wire: compressed as Accept-Encoding asks (br preferred, then gzip; q-values, `*`,
 * identity), with Content-Encoding, Vary and the JSON content type; the same ETag / 304 contract whatever the coding;
 * a write seen in every coding; small documents, ?pretty and HEAD; and the real @flipt-io/flipt-client-js reading a
 * compressed document. Bodies are read raw (node:http, no automatic decompression) and decoded here.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { Api, buildNamespace, FlagSpec, nsPath, ok, recordingProxy } from './fixtures';

const NS = 'encoded';
const PATH = `/internal/v1/evaluation/snapshot/namespace/${NS}`;
const CURRENT = '1.47.0';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(res: Raw): string {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(res.body).toString();
  if (coding === 'gzip') return gunzipSync(res.body).toString();
  expect(coding).toBeUndefined();
  return res.body.toString();
}

const vary = (res: Raw) => String(res.headers.vary ?? '').split(',').map((f) => f.trim().toLowerCase());

/** Enough flags for a document of several kilobytes, each with a default variant and an ENTITY_ID segment. */
const FLAGS: FlagSpec[] = Array.from({ length: 25 }, (_, i) => ({
  key: `flag-${i}`,
  description: `flag number ${i}`,
  variants: [{ key: 'on', attachment: '{"size":1}' }, { key: 'off' }],
  defaultVariant: 'off',
  rules: [{ segments: ['staff'], distributions: [['on', 100]] }],
}));

describe('snapshot document encoding', () => {
  let fp: RunningFlagpole;
  let api: Api;
  /** The identity document for CURRENT, as the client-version tests of snapshot.e2e-spec.ts see it. */
  let plain: Raw;

  beforeAll(async () => {
    fp = await startFlagpole();
    api = client(fp.url);
    await buildNamespace(api, {
      key: NS,
      segments: [{ key: 'staff', constraints: [{ type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: 'eq', value: 'ada' }] }],
      flags: FLAGS,
    });
    plain = await get(fp.url, PATH, { 'x-flipt-accept-server-version': CURRENT });
  }, 120_000);
  afterAll(() => fp?.close());

  it('without Accept-Encoding: plain JSON, as before', () => {
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    expect(plain.body.length).toBeGreaterThan(5000);
    const doc = JSON.parse(plain.body.toString());
    expect(doc.flags.map((f: any) => f.key)).toEqual(FLAGS.map((f) => f.key));
    expect(vary(plain)).toEqual(['accept-encoding', 'x-flipt-accept-server-version']);
  });

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['*', 'br'],
    ['x-gzip', 'gzip'],
    ['identity', undefined],
    ['deflate', undefined],
    ['gzip;q=0, br;q=0', undefined],
    ['gzip;q=0.1, identity;q=0.5', undefined],
  ])('Accept-Encoding %j → %s, the same document and headers', async (acceptEncoding, coding) => {
    const res = await get(fp.url, PATH, { 'x-flipt-accept-server-version': CURRENT, 'accept-encoding': acceptEncoding });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(decode(res)).toBe(plain.body.toString());
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    if (coding !== undefined) expect(res.body.length).toBeLessThan(plain.body.length / 4);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.etag).toBe(plain.headers.etag);
    expect(vary(res)).toContain('accept-encoding');
  });

  it('each client version gets its own document, compressed', async () => {
    const old = await get(fp.url, PATH, { 'accept-encoding': 'br' });
    const current = await get(fp.url, PATH, { 'accept-encoding': 'br', 'x-flipt-accept-server-version': CURRENT });
    const oldDoc = JSON.parse(decode(old));
    const currentDoc = JSON.parse(decode(current));
    expect(oldDoc.flags[0]).not.toHaveProperty('defaultVariant');
    expect(oldDoc.flags[0].rules[0].segments[0].constraints[0].type).toBe('UNKNOWN_CONSTRAINT_COMPARISON_TYPE');
    expect(currentDoc.flags[0].defaultVariant.key).toBe('off');
    expect(currentDoc.flags[0].rules[0].segments[0].constraints[0].type).toBe('ENTITY_ID_CONSTRAINT_COMPARISON_TYPE');
    expect(old.headers.etag).toBe(current.headers.etag);
  });

  it('If-None-Match with the current ETag → 304, the ETag repeated, no body, whatever the coding', async () => {
    for (const acceptEncoding of ['br', 'gzip', 'identity']) {
      const res = await get(fp.url, PATH, { 'accept-encoding': acceptEncoding, 'if-none-match': String(plain.headers.etag) });
      expect(res.status).toBe(304);
      expect(res.headers.etag).toBe(plain.headers.etag);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body.length).toBe(0);
    }
  });

  it('a write shows in every coding, under a new ETag; the old ETag then gets 200', async () => {
    ok(await api.put(`${nsPath(NS)}/flags/flag-3`, { name: 'flag-3', description: 'rewritten', enabled: false }));
    const headers = { 'x-flipt-accept-server-version': CURRENT, 'if-none-match': String(plain.headers.etag) };
    const [identity, gzip, br] = await Promise.all([
      get(fp.url, PATH, headers),
      get(fp.url, PATH, { ...headers, 'accept-encoding': 'gzip' }),
      get(fp.url, PATH, { ...headers, 'accept-encoding': 'br' }),
    ]);
    for (const res of [identity, gzip, br]) {
      expect(res.status).toBe(200);
      expect(res.headers.etag).toMatch(/^[0-9a-f]{40}$/);
      expect(res.headers.etag).not.toBe(plain.headers.etag);
      expect(res.headers.etag).toBe(identity.headers.etag);
      expect(decode(res)).toBe(identity.body.toString());
    }
    expect(JSON.parse(decode(br)).flags[3]).toMatchObject({ key: 'flag-3', description: 'rewritten', enabled: false });
    const again = await get(fp.url, PATH, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.status).toBe(304);
  });

  it('an unknown namespace: the small document as it is, no ETag', async () => {
    const res = await get(fp.url, '/internal/v1/evaluation/snapshot/namespace/nope', { 'accept-encoding': 'gzip, br', 'if-none-match': '' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe('{"namespace":{"key":"nope"},"flags":[]}');
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('?pretty and Accept: application/json+pretty still indent, unencoded', async () => {
    for (const [path, headers] of [
      [`${PATH}?pretty`, { 'accept-encoding': 'br, gzip' }],
      [PATH, { 'accept-encoding': 'br, gzip', accept: 'application/json+pretty' }],
    ] as const) {
      const res = await get(fp.url, path, { ...headers, 'x-flipt-accept-server-version': CURRENT });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      const text = res.body.toString();
      expect(text.startsWith('{\n  "namespace": {\n    "key": "encoded"\n  },')).toBe(true);
      // indented output leaves default values out (http-compat.ts): distributions' empty ids are gone
      const doc = JSON.parse(text);
      expect(doc.flags).toHaveLength(FLAGS.length);
      expect(doc.flags[0].rules[0].distributions[0]).not.toHaveProperty('id');
    }
  });

  it('HEAD answers the headers of the encoded document without a body', async () => {
    const full = await get(fp.url, PATH, { 'accept-encoding': 'gzip' });
    const head = await get(fp.url, PATH, { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    expect(head.headers.etag).toBe(full.headers.etag);
  });

  it('keeps the Vary: Origin that CORS adds', async () => {
    const origin = 'https://app.example.com';
    const cors = await startFlagpole({ FLAGPOLE_CORS_ENABLED: 'true', FLAGPOLE_CORS_ALLOWED_ORIGINS: origin });
    try {
      const res = await get(cors.url, PATH, { origin, 'accept-encoding': 'gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(vary(res)).toEqual(expect.arrayContaining(['origin', 'accept-encoding', 'x-flipt-accept-server-version']));
    } finally {
      await cors.close();
    }
  });

  it('@flipt-io/flipt-client-js (accept-encoding: gzip, deflate, br) loads the brotli document and evaluates from it', async () => {
    const proxy = await recordingProxy(fp.url);
    // The real client in a Node process of its own, as clients-local-engine.e2e-spec.ts runs it.
    const child = spawn(process.execPath, [join(__dirname, 'flipt-client-js-runner.mjs')], { stdio: ['pipe', 'pipe', 'pipe'] });
    const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const call = async (command: Record<string, unknown>) => {
      child.stdin.write(JSON.stringify(command) + '\n');
      const answer = JSON.parse((await answers.next()).value);
      if (answer.error !== undefined) throw new Error(answer.error);
      return answer.ok;
    };
    try {
      await call({ op: 'init', options: { namespace: NS, url: proxy.url, updateInterval: 3600, errorStrategy: 'fail' } });
      const [fetched] = proxy.exchanges;
      expect(fetched.requestHeaders['accept-encoding']).toContain('br');
      expect(fetched.status).toBe(200);
      expect(fetched.responseHeaders['content-encoding']).toBe('br');
      const listed: Array<{ key: string }> = await call({ op: 'listFlags' });
      expect(listed.map((f) => f.key).sort()).toEqual(FLAGS.map((f) => f.key).sort());
      const [staff, other] = await call({
        op: 'evaluate',
        requests: [
          { kind: 'variant', flagKey: 'flag-0', entityId: 'ada', context: {} },
          { kind: 'variant', flagKey: 'flag-0', entityId: 'bob', context: {} },
        ],
      });
      expect(staff.ok).toMatchObject({ match: true, variantKey: 'on', variantAttachment: '{"size":1}' });
      expect(other.ok).toMatchObject({ match: false });
      // nothing changed: the refresh takes the 304 path
      expect(await call({ op: 'refresh' })).toBe(false);
      expect(proxy.exchanges[proxy.exchanges.length - 1].status).toBe(304);
    } finally {
      await call({ op: 'close' }).catch(() => undefined);
      child.kill();
      await proxy.close();
    }
  });
});

import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { applyDelta, compileSnapshot, toSnapshotDocument, type NamespaceSource, type Snapshot } from '../core';
import { constraint, dist, ENTITY_ID, rule, segment, STRING, variant, variantFlag } from '../core/testdata/builders';
import { documentVariant } from '../core';
import { MIN_COMPRESSED_BYTES, SnapshotDocumentCache, type SnapshotAnswer } from './snapshot-document-cache';

const CURRENT = '1.47.0';
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/** Flags that use both things old clients are not sent: an ENTITY_ID constraint and a default variant. */
function source(flags: number, version = '1000', description = ''): NamespaceSource {
  return {
    key: 'ns',
    version,
    segments: [segment('vip', [constraint(ENTITY_ID, 'entityId', 'eq', 'u-1')]), segment('pro', [constraint(STRING, 'plan', 'eq', 'pro')])],
    flags: Array.from({ length: flags }, (_, i) =>
      variantFlag(`f${i}`, {
        description,
        createdAt: `2025-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
        variants: [variant('a'), variant('b', '{"x":1}')],
        defaultVariantId: 'v-a',
        rules: [rule(1, ['vip'], [dist('a', 100)]), rule(2, ['pro'], [dist('a', 50), dist('b', 50)])],
      }),
    ),
  };
}

function decoded(answer: SnapshotAnswer): string {
  const body = answer.body!;
  if (answer.coding === 'br') return brotliDecompressSync(body).toString();
  if (answer.coding === 'gzip') return gunzipSync(body).toString();
  return body.toString();
}

describe('SnapshotDocumentCache', () => {
  let cache: SnapshotDocumentCache;
  let snapshot: Snapshot;
  beforeEach(() => {
    cache = new SnapshotDocumentCache();
    snapshot = compileSnapshot(source(30));
  });

  describe('client versions', () => {
    // Every version gets exactly what the builder makes for it, however it is spelled.
    const headers = [
      undefined, '', 'garbage', '0.1.0', '1.37.1', '1.37.99', '1.38.0-rc.1', '1.38.0', 'v1.38', '1.46.99', '1.47.0-rc.1',
      '1.47.0', ' 1.47.0 ', 'v1.47', '1.47.0+build.5', '1.48.0', '2.0.0', '01.047.00',
    ];
    it.each(headers)('%j gets the builder’s document', async (header) => {
      const answer = await cache.answer(snapshot, { acceptServerVersion: header });
      expect(answer.coding).toBe('identity');
      expect(answer.body!.toString()).toBe(JSON.stringify(toSnapshotDocument(snapshot, header)));
    });

    it('three documents: versions that get the same one share its buffer', async () => {
      const bodies = new Map<number, Buffer>();
      for (const header of headers) {
        const { body } = await cache.answer(snapshot, { acceptServerVersion: header });
        const variant = documentVariant(header);
        if (!bodies.has(variant)) bodies.set(variant, body!);
        expect(body).toBe(bodies.get(variant));
      }
      expect(new Set([...bodies.values()].map(String)).size).toBe(3);
    });
  });

  describe('ETag', () => {
    it('is the SHA-1 of the version; If-None-Match with it → no body, the ETag repeated', async () => {
      const full = await cache.answer(snapshot, { acceptServerVersion: CURRENT });
      expect(full.etag).toBe(sha1('1000'));
      expect(await cache.answer(snapshot, { ifNoneMatch: sha1('1000') })).toEqual({ etag: sha1('1000'), coding: 'identity' });
      const other = await cache.answer(snapshot, { ifNoneMatch: sha1('999') });
      expect(other.body).toBeDefined();
    });

    it('a namespace without a version: a small document, no ETag, never 304', async () => {
      const empty = compileSnapshot({ key: 'nope', version: '', flags: [], segments: [] });
      const answer = await cache.answer(empty, { ifNoneMatch: '', acceptEncoding: 'gzip, br' });
      expect(answer).toEqual({ etag: undefined, body: Buffer.from('{"namespace":{"key":"nope"},"flags":[]}'), coding: 'identity' });
    });
  });

  describe('versions', () => {
    it('is built once per version, and again when a write moves the same snapshot to the next', async () => {
      const first = await cache.answer(snapshot, { acceptServerVersion: CURRENT });
      expect((await cache.answer(snapshot, { acceptServerVersion: CURRENT })).body).toBe(first.body);

      const changed = source(1, '2000', 'changed').flags[0];
      expect(applyDelta(snapshot as never, { from: '1000', to: '2000', flags: [changed], removedFlags: ['f1'], segments: [], removedSegments: [] })).toBe('applied');

      const second = await cache.answer(snapshot, { acceptServerVersion: CURRENT, ifNoneMatch: first.etag });
      expect(second.etag).toBe(sha1('2000'));
      expect(second.body!.toString()).toBe(JSON.stringify(toSnapshotDocument(snapshot, CURRENT)));
      const doc = JSON.parse(second.body!.toString());
      expect(doc.flags[0].description).toBe('changed');
      expect(doc.flags.map((f: { key: string }) => f.key)).not.toContain('f1');
      expect(await cache.answer(snapshot, { ifNoneMatch: sha1('2000') })).toEqual({ etag: sha1('2000'), coding: 'identity' });
    });

    it('answers a request with the body and ETag of one version, even when a write lands while it compresses', async () => {
      const pending = cache.answer(snapshot, { acceptServerVersion: CURRENT, acceptEncoding: 'br' });
      const before = JSON.stringify(toSnapshotDocument(snapshot, CURRENT));
      applyDelta(snapshot as never, { from: '1000', to: '2000', flags: [], removedFlags: ['f0'], segments: [], removedSegments: [] });
      const answer = await pending;
      expect(answer.etag).toBe(sha1('1000'));
      expect(decoded(answer)).toBe(before);
      const next = await cache.answer(snapshot, { acceptServerVersion: CURRENT, acceptEncoding: 'br' });
      expect(next.etag).toBe(sha1('2000'));
      expect(decoded(next)).toBe(JSON.stringify(toSnapshotDocument(snapshot, CURRENT)));
    });

    it('keeps documents per snapshot object: a reloaded snapshot of the same version is built from its own state', async () => {
      const reloaded = compileSnapshot(source(3));
      const a = await cache.answer(snapshot, {});
      const b = await cache.answer(reloaded, {});
      expect(a.etag).toBe(b.etag);
      expect(JSON.parse(b.body!.toString()).flags).toHaveLength(3);
    });
  });

  describe('Accept-Encoding', () => {
    it.each([
      [undefined, 'identity'],
      ['identity', 'identity'],
      ['gzip, deflate', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      ['*', 'br'],
    ])('%j → %s, decoding to the document', async (acceptEncoding, coding) => {
      const answer = await cache.answer(snapshot, { acceptServerVersion: CURRENT, acceptEncoding });
      expect(answer.coding).toBe(coding);
      expect(decoded(answer)).toBe(JSON.stringify(toSnapshotDocument(snapshot, CURRENT)));
    });

    it('compresses well: brotli smaller than gzip, both far smaller than the JSON', async () => {
      const big = compileSnapshot(source(500));
      const json = (await cache.answer(big, {})).body!.length;
      const gzip = (await cache.answer(big, { acceptEncoding: 'gzip' })).body!.length;
      const br = (await cache.answer(big, { acceptEncoding: 'br' })).body!.length;
      expect(gzip).toBeLessThan(json / 10);
      expect(br).toBeLessThan(gzip);
    });

    it('compresses each document once: concurrent and later requests get the same buffer', async () => {
      const [a, b] = await Promise.all([
        cache.answer(snapshot, { acceptEncoding: 'br' }),
        cache.answer(snapshot, { acceptEncoding: 'br' }),
      ]);
      expect(a.coding).toBe('br');
      expect(b.body).toBe(a.body);
      expect((await cache.answer(snapshot, { acceptEncoding: 'br' })).body).toBe(a.body);
      // another client version is another document, compressed on its own
      const current = await cache.answer(snapshot, { acceptEncoding: 'br', acceptServerVersion: CURRENT });
      expect(current.body).not.toBe(a.body);
    });

    it(`leaves documents under ${MIN_COMPRESSED_BYTES} bytes as they are`, async () => {
      const small = compileSnapshot({ key: 'ns', version: '1000', flags: [variantFlag('a'), variantFlag('b')], segments: [] });
      const json = (await cache.answer(small, {})).body!;
      expect(json.length).toBeLessThan(MIN_COMPRESSED_BYTES);
      expect(await cache.answer(small, { acceptEncoding: 'gzip, br' })).toEqual({ etag: sha1('1000'), body: json, coding: 'identity' });
    });
  });
});

/**
 * The snapshot document as the route sends it, made once rather than on every poll: built and serialised once per
 * snapshot version and document variant, compressed once per coding. At 10,000 flags the document is about 8 MB and
 * building it took 53–71 ms, for every client on every poll.
 *
 * Building it after a write serialises only the flags the write changed (core's snapshotDocumentText keeps each
 * compiled flag's text) and joins the rest.
 *
 * A snapshot is changed in place when a write is applied to it, so what is kept is keyed by the snapshot object and
 * stamped with the version it was built from: a new version replaces it whole, so a namespace never holds more than
 * one version's buffers, and a dropped snapshot takes them with it (WeakMap). A compression runs on libuv's thread
 * pool (node:zlib's callback functions), and requests that want one already running wait for the same one.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { negotiateEncoding } from '../common/accept-encoding';
import { documentVariant, snapshotDocumentText, type Snapshot } from '../core';

/** In the order the server prefers them: brotli is about a quarter smaller than gzip on this document. */
export const SNAPSHOT_CODINGS = ['br', 'gzip'] as const;
export type SnapshotCoding = (typeof SNAPSHOT_CODINGS)[number];

/** Smaller documents are sent as they are (an empty namespace, a handful of flags): there is little to save. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * On the 8 MB document of 10,000 flags, brotli at quality 4 took 50 ms and at 5 took 110–120 ms, both for 9.8 % of
 * its size (5 and 6 are slower and no smaller, measured twice); the default, 11, took 12.5 s on a similar document.
 * gzip keeps zlib's default level (6), as Flipt's gzip middleware does.
 */
const BROTLI_QUALITY = 4;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const compressors: Record<SnapshotCoding, (json: Buffer) => Promise<Buffer>> = {
  br: (json) =>
    brotliAsync(json, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
      },
    }),
  gzip: (json) => gzipAsync(json),
};

export interface SnapshotRequest {
  ifNoneMatch?: string;
  acceptServerVersion?: string;
  acceptEncoding?: string;
}

/** What the route answers. */
export interface SnapshotAnswer {
  /** SHA-1 of the version; absent for a namespace that does not exist (it has no version). */
  etag?: string;
  /** The document, encoded with `coding`; absent for 304 Not Modified. */
  body?: Buffer;
  coding: SnapshotCoding | 'identity';
}

interface Rendition {
  json: Buffer;
  /** null: the coding did not make it smaller (or failed), the JSON is sent instead. */
  encoded: Partial<Record<SnapshotCoding, Promise<Buffer | null>>>;
}

interface VersionRenditions {
  version: string;
  etag: string | undefined;
  /** By documentVariant, built when first asked for. */
  variants: Array<Rendition | undefined>;
}

export class SnapshotDocumentCache {
  private readonly renditions = new WeakMap<Snapshot, VersionRenditions>();

  /**
   * The answer for a request: 304 when If-None-Match names the current version, else the document for the client's
   * version in the coding Accept-Encoding prefers. The ETag and the body belong to the same version: both are taken
   * before the first await, and a snapshot is only changed between turns of the event loop.
   */
  async answer(snapshot: Snapshot, request: SnapshotRequest): Promise<SnapshotAnswer> {
    const current = this.current(snapshot);
    const { etag } = current;
    if (etag !== undefined && request.ifNoneMatch === etag) return { etag, coding: 'identity' };
    const rendition = this.rendition(snapshot, current, documentVariant(request.acceptServerVersion));
    const coding = rendition.json.length < MIN_COMPRESSED_BYTES ? 'identity' : negotiateEncoding(request.acceptEncoding, SNAPSHOT_CODINGS);
    if (coding === 'identity') return { etag, body: rendition.json, coding };
    const body = await this.encode(rendition, coding);
    return body === null ? { etag, body: rendition.json, coding: 'identity' } : { etag, body, coding };
  }

  private current(snapshot: Snapshot): VersionRenditions {
    let current = this.renditions.get(snapshot);
    if (current === undefined || current.version !== snapshot.version) {
      const { version } = snapshot;
      // As Flipt: the ETag is the SHA-1 of the version's text; a namespace without a version gets none.
      const etag = version === '' ? undefined : createHash('sha1').update(version).digest('hex');
      current = { version, etag, variants: [] };
      this.renditions.set(snapshot, current);
    }
    return current;
  }

  private rendition(snapshot: Snapshot, current: VersionRenditions, variant: 0 | 1 | 2): Rendition {
    let rendition = current.variants[variant];
    if (rendition === undefined) {
      rendition = { json: Buffer.from(snapshotDocumentText(snapshot, variant)), encoded: {} };
      current.variants[variant] = rendition;
    }
    return rendition;
  }

  private encode(rendition: Rendition, coding: SnapshotCoding): Promise<Buffer | null> {
    let encoded = rendition.encoded[coding];
    if (encoded === undefined) {
      const { json } = rendition;
      encoded = compressors[coding](json).then(
        (body) => (body.length < json.length ? body : null),
        () => {
          // Sent unencoded this time; the next request tries again.
          delete rendition.encoded[coding];
          return null;
        },
      );
      rendition.encoded[coding] = encoded;
    }
    return encoded;
  }
}

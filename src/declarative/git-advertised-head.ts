/**
 * Lets isomorphic-git fetch the configured ref from a repository whose HEAD names a branch that does not exist.
 *
 * isomorphic-git's fetch finds the remote's HEAD after every fetch, whatever ref it was asked for (only to report it
 * for `clone`), and throws "Could not find HEAD" when the server's ref advertisement has none
 * (isomorphic-git/isomorphic-git#1654). Git leaves HEAD out of the advertisement when it names a missing branch (a
 * default branch deleted or renamed, a repository created with another initial branch), so the configured ref, there
 * and advertised, could not be fetched. This client wrapper gives such an advertisement a `symref=HEAD:<first ref>`
 * capability: isomorphic-git reads it as the remote's HEAD and asks nothing more of it. What is fetched, and the
 * commit served, is the configured ref's alone. Any other answer, or one it does not understand, passes unchanged.
 */
import type { GitHttpResponse, HttpClient } from 'isomorphic-git';

const UPLOAD_PACK_REFS = /\/info\/refs\?service=git-upload-pack$/;

export function withAdvertisedHead(client: HttpClient): HttpClient {
  return {
    async request(request): Promise<GitHttpResponse> {
      const response = await client.request(request);
      if (request.method !== 'GET' || !UPLOAD_PACK_REFS.test(request.url) || response.statusCode !== 200 || !response.body) return response;
      const chunks: Uint8Array[] = [];
      for await (const chunk of response.body) chunks.push(chunk);
      const body = advertiseHead(Buffer.concat(chunks));
      return { ...response, body: (async function* () { yield body; })() };
    },
  };
}

/** Protocol v0/v1 reference discovery with a HEAD symref, added when it has refs but no HEAD. */
export function advertiseHead(advert: Buffer): Buffer {
  const lines = pktLines(advert);
  if (!lines) return advert;
  const data = lines.filter((l) => l.end - l.start > 4);
  const text = (i: number) => advert.toString('utf8', data[i].start + 4, data[i].end).replace(/\n$/, '');
  /** `<oid> <name>[\0<capabilities>]`: the name. */
  const refName = (i: number) => text(i).split('\0')[0].split(' ')[1];
  if (data.length < 2 || text(0) !== '# service=git-upload-pack') return advert;
  const [first, capabilities] = text(1).split('\0');
  const name = refName(1);
  if (capabilities === undefined || name === undefined || name === 'capabilities^{}') return advert;
  if (capabilities.split(' ').some((c) => c.startsWith('symref=HEAD:'))) return advert;
  for (let i = 1; i < data.length; i++) if (refName(i) === 'HEAD') return advert;
  const payload = Buffer.from(`${first}\0${capabilities} symref=HEAD:${name}\n`, 'utf8');
  const line = Buffer.concat([Buffer.from((payload.length + 4).toString(16).padStart(4, '0'), 'latin1'), payload]);
  return Buffer.concat([advert.subarray(0, data[1].start), line, advert.subarray(data[1].end)]);
}

/** Each pkt-line's place (a 4-hex-digit length that counts itself; 0000-0003 are markers), or null if malformed. */
function pktLines(buffer: Buffer): Array<{ start: number; end: number }> | null {
  const lines: Array<{ start: number; end: number }> = [];
  for (let at = 0; at < buffer.length;) {
    const head = buffer.toString('latin1', at, at + 4);
    if (!/^[0-9a-f]{4}$/i.test(head)) return null;
    const length = Math.max(parseInt(head, 16), 4);
    if (at + length > buffer.length) return null;
    lines.push({ start: at, end: at + length });
    at += length;
  }
  return lines;
}

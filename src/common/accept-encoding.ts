/**
 * Picks a response's content coding from the request's `Accept-Encoding` (RFC 9110 §12.5.3): among the codings the
 * server offers, the one the client weighs highest; on a tie, the server's order decides, and a coding beats sending
 * the content as it is (`identity`). `identity` weighs what the client gives it by name; unnamed, it is the fallback
 * behind any acceptable coding, refused only by `*;q=0`. Without the header, or when nothing offered is acceptable,
 * the answer is `identity`: a client that sends no Accept-Encoding (curl) reads plain JSON, and one that refuses
 * everything gets the content unencoded rather than a 406.
 *
 * Written here rather than taken from a package: none is a dependency of ours, and of those installed for others,
 * @fastify/accept-negotiator lets `*` stand for a coding the client refused by name (`br;q=0, *` gives br) and
 * negotiator 0.6 breaks ties by the client's order instead of the server's.
 */

const IDENTITY = 'identity';
/** `q` is 0 to 1 with at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

export function negotiateEncoding<C extends string>(header: string | undefined, offered: readonly C[]): C | typeof IDENTITY {
  if (header === undefined) return IDENTITY;
  const weights = parseAcceptEncoding(header);
  const star = weights.get('*');
  let best: C | typeof IDENTITY = IDENTITY;
  let bestQ = weights.get(IDENTITY) ?? (star === 0 ? 0 : Number.MIN_VALUE);
  for (let i = offered.length - 1; i >= 0; i--) {
    const q = weights.get(offered[i]) ?? star ?? 0;
    // Walking from the least preferred, `>=` lets an earlier coding take a tie (and a coding beats identity).
    if (q > 0 && q >= bestQ) {
      best = offered[i];
      bestQ = q;
    }
  }
  return bestQ > 0 ? best : IDENTITY;
}

/** Coding (lower-cased; `x-gzip` read as `gzip`) → its weight. Entries with a malformed `q` are skipped. */
export function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [name, ...params] = entry.split(';');
    let coding = name.trim().toLowerCase();
    if (coding === '') continue;
    if (coding === 'x-gzip') coding = 'gzip';
    let q: number | null = 1;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const value = param.slice(eq + 1).trim();
      q = QVALUE.test(value) ? Number(value) : null;
    }
    // Named twice: the higher weight counts.
    if (q !== null && q > (weights.get(coding) ?? -1)) weights.set(coding, q);
  }
  return weights;
}

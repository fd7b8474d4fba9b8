/**
 * fast-check generators of the input an attacker or a broken client sends: JSON fragments of the wrong type, numbers
 * out of every range, text a database cannot hold, nesting past any stack, prototype keys, malformed page tokens and
 * query spellings, hostile path segments and credentials. Values are JSON *text* where it matters, so that spellings
 * JSON.stringify cannot produce (`1e400`, `-0`, 400-digit integers) reach the server as written.
 */
import fc from 'fast-check';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** encodeURIComponent, except that an unpaired surrogate goes out as its (invalid) three UTF-8-style bytes. */
export function encodeAny(text: string): string {
  return text.replace(/[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]|[^]/g, (ch) => {
    if (ch.length === 2 || ch.charCodeAt(0) < 0xd800 || ch.charCodeAt(0) > 0xdfff) return encodeURIComponent(ch);
    const c = ch.charCodeAt(0);
    return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
  });
}

/** `[[[…]]]` or `{"a":{"a":…}}` `depth` levels deep. */
export function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

export const hostileText = fc.oneof(
  fc.constantFrom(
    '\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\udc00\ud800', '\r\n', 'a\r\nX-Injected: 1', '\u2028\u2029', 'é€😀', '\u202e',
    ' ', '', '%00', '../../etc/passwd', '{"a":1}', '__proto__', 'constructor', 'order',
    '0x10', '1e20', '-1', 'NaN', 'Infinity', '1e400', '9007199254740993', ' 5 ', '5.5', '+7', '０',
    '9999-12-31T23:59:59Z', '0000-01-01T00:00:00Z', '2024-13-45T99:99:99Z', '2024-01-01T00:00:00+99:00',
    'VARIANT_FLAG_TYPE', 'BOOLEAN_FLAG_TYPE', 'UNKNOWN_COMPARISON_TYPE', 'DATETIME_COMPARISON_TYPE', 'AND_SEGMENT_OPERATOR',
  ),
  fc.constantFrom(256, 1000, 70_000).map((n) => 'k'.repeat(n)),
  fc.string({ unit: 'binary', maxLength: 24 }),
);

const hostileNumberText = fc.oneof(
  fc.constantFrom(
    '0', '-1', '1.5', '-0', '1e308', '-1e308', '1e400', '-1e400', '2147483647', '2147483648', '-2147483649',
    '4294967296', '9007199254740993', '5e-324', '1E2', `1${'0'.repeat(400)}`, '123456789012345678901234567890.5',
  ),
  fc.double().filter(Number.isFinite).map(String),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
);

const hostileLiteral = fc.constantFrom(
  'true', 'false', 'null', '[]', '{}', '[null]', '[1,"a",{}]', '[[]]', '{"":""}',
  '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}', '["\\u0000"]', '{"\\u0000":"x"}',
);

const deepJson = fc.tuple(fc.constantFrom(63, 64, 65, 66, 1000, 5000, 50_000), fc.constantFrom('array' as const, 'object' as const))
  .map(([depth, kind]) => nested(depth, kind));

/** Lists long enough to reach a database's bind-parameter limit (SQLite 32766, PostgreSQL/MySQL 65535). */
const hugeList = fc.constantFrom(1_000, 40_000, 70_000).chain((n) =>
  fc.constantFrom(
    `[${'"s1",'.repeat(n - 1)}"s1"]`,
    `[${'1,'.repeat(n - 1)}1]`,
    JSON.stringify(Array.from({ length: n }, (_, i) => `k${i}`)),
  ));

/** One JSON value as text, of any type, mostly hostile. */
export const hostileJson: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: hostileText.map((s) => JSON.stringify(s)), weight: 5 },
  { arbitrary: hostileNumberText, weight: 3 },
  { arbitrary: hostileLiteral, weight: 2 },
  { arbitrary: deepJson, weight: 2 },
  { arbitrary: hugeList, weight: 1 },
  { arbitrary: fc.array(hostileText.map((s) => JSON.stringify(s)), { maxLength: 4 }).map((a) => `[${a.join(',')}]`), weight: 1 },
);

/** Keys that are not fields: prototype names, NUL, and the like. */
export const hostileKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', '\u0000', '', 'a.b', '$where');

/** A whole body that is not a JSON object, or not JSON, or not UTF-8. */
export const hostileRawBody: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc.constantFrom(' ', 'null', '[]', '"x"', '1', 'true', '{', '{"a":', '{"a":1,}', '{"a" 1}', "{'a':1}", '\ufeff{}', 'NaN', '{}{}', '\u0000'),
  deepJson,
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.constantFrom(
    // Invalid UTF-8: a lone continuation byte, an overlong NUL, a truncated sequence, UTF-16 with a BOM.
    Uint8Array.from([0x7b, 0x22, 0x6b, 0x65, 0x79, 0x22, 0x3a, 0x22, 0x80, 0x22, 0x7d]),
    Uint8Array.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xc0, 0x80, 0x22, 0x7d]),
    Uint8Array.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0x22, 0x7d]),
    Uint8Array.from(Buffer.from('\ufeff{"key":"a","name":"b"}', 'utf16le')),
  ),
  fc.uint8Array({ maxLength: 64 }),
);

const pageTokens = fc.oneof(hostileNumberText.map((n) => b64(`{"key":"k","offset":${n}}`)), fc.constantFrom(
  'Hello World', '====', '', b64('{"offset":1e20}'), b64('{"offset":-1}'), b64('{"offset":"1"}'), b64('{"offset":1.5}'),
  b64('{"offset":9007199254740993}'), b64('{"offset":9007199254740991}'), b64('{"offset":2147483648}'),
  b64('{"key":"\\u0000","offset":1}'), b64('[1]'), b64('null'), b64(nested(3000, 'array')), b64('{"offset":1e400}'),
  b64('{"__proto__":{"offset":5}}'), b64('\u0000'), '1e20', '99999999999999999999999', '100000000000000000000', '123456789012345678901', '-5', '0x10',
));

/** A query value, already percent-encoded. */
export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '0x10', '0b1', '0o7', '1e20', '1e400', '-1', '1.5', '%201', '', '%00', '%C3%28', '%FF', '%', '%zz', 'true', 'TRUE',
    'null', '[]', '9'.repeat(400), '2147483648', '-2147483649', '9999-12-31T23:59:59Z', '0000-01-01T00:00:00Z', 'x%0d%0ay',
    'METHOD_TOKEN', 'METHOD_NONE', '99', 'k'.repeat(3000),
  ),
  pageTokens.map(encodeURIComponent),
  hostileText.map(encodeAny),
);

export const hostileQueryName = fc.constantFrom(
  'limit', 'offset', 'pageToken', 'page_token', 'reference', 'namespaceKey', 'namespace_key', 'pretty', 'force', 'variantId',
  'variant_id', 'expiresAt', 'expires_at', 'method', 'state', 'code', 'error', 'error_description', 'service', '__proto__',
  'constructor', 'limit[]', 'a[b][c]', 'limit.x', '', '%00',
);

const pagingValue = fc.oneof(fc.constantFrom('1', '2', '10', '100'), hostileQueryValue);

/** A query string: a few hostile pairs (names sometimes repeated), or paging fields of which one at least is odd. */
export const hostileQuery = fc.oneof(
  fc.array(fc.tuple(hostileQueryName, hostileQueryValue), { minLength: 1, maxLength: 4 }),
  fc.tuple(pagingValue, pagingValue, pageTokens.map(encodeURIComponent), fc.constantFrom('pageToken', 'page_token'))
    .map(([limit, offset, token, name]) => [['limit', limit], ['offset', offset], [name, token]] as Array<[string, string]>),
).map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`);

/** A path segment, already percent-encoded as it goes on the wire. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '%00', 'a%00b', '%2F', '%2e%2e', '..', '.', '%', '%zz', '%C3%28', '%FF', '%ED%A0%80', 'é', '%20', '+', ';', 'a%0d%0ab',
    '__proto__', 'constructor', 'order', 'k'.repeat(256), 'k'.repeat(1001), '%E2%80%AE', 'default', '1e20', '-1',
  ),
  hostileText.filter((s) => s.length < 2000).map(encodeAny),
);

/** Latin-1 text only: fetch refuses other characters in a header before anything is sent. */
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength: 40 });

export type Credential = 'valid' | 'none' | Record<string, string>;

export const hostileCredential: fc.Arbitrary<Credential> = fc.oneof(
  { arbitrary: fc.constant('valid' as const), weight: 6 },
  { arbitrary: fc.constant('none' as const), weight: 1 },
  {
    arbitrary: fc.oneof(
      fc.constantFrom('Bearer', 'Bearer ', 'bearer x', 'Basic dXNlcjpwYXNz', 'JWT a.b.c', 'JWT ', 'Bearer a b', `Bearer ${'x'.repeat(8000)}`),
      headerText.map((t) => `Bearer ${t}`),
      headerText,
    ).map((authorization) => ({ authorization })),
    weight: 2,
  },
  { arbitrary: headerText.map((t) => ({ cookie: `flagpole_client_token=${encodeAny(t)}` })), weight: 1 },
);

export const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
      'application/json; charset=latin1', 'application/json; charset=utf-16', 'garbage', '', 'application/grpc',
    ),
    accept: fc.constantFrom('application/json+pretty', '*/*', 'text/html', 'application/xml'),
    'x-forwarded-prefix': fc.constantFrom('//evil.example', '/x', '%00', 'x\tz'),
    'content-encoding': fc.constantFrom('gzip', 'br', 'identity'),
    origin: fc.constantFrom('http://evil.example', 'null'),
    'x-request-id': headerText,
  },
  { requiredKeys: [] },
);

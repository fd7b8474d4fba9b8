/**
 * fast-check generators for the routes whose input is more than a DTO: the audit trail's filters (RFC 3339 bounds at
 * and past every range the databases hold, page tokens of hostile JSON), OFREP's contexts and namespace headers, and
 * the event streams' `Last-Event-ID`. Query values come percent-encoded; header values are Latin-1 without control
 * characters, as fetch sends them (it refuses others before anything is sent).
 */
import fc from 'fast-check';
import { AUDIT_ACTIONS, AUDIT_TYPES } from '../../../src/audit/audit-event';
import { encodeAny, hostileJson, hostileKey, hostileQueryValue, hostileText, nested } from './hostile-values';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** Header text fetch sends as written: Latin-1, no control characters, no surrounding spaces to trim. */
export const headerText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)),
  maxLength: 40,
});

// ---- the audit trail's filters --------------------------------------------------------------------------------------

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** RFC 3339-shaped times with every field anywhere in and past its range. */
const timeParts = fc.record({
  year: fc.oneof(fc.constantFrom(0, 1, 999, 1000, 1969, 1970, 2024, 9999, 10000, 275760), fc.integer({ min: 0, max: 99999 })),
  month: fc.integer({ min: 0, max: 13 }),
  day: fc.integer({ min: 0, max: 32 }),
  hour: fc.integer({ min: 0, max: 25 }),
  minute: fc.integer({ min: 0, max: 61 }),
  second: fc.integer({ min: 0, max: 61 }),
  fraction: fc.constantFrom('', '.', '.0', '.999', '.999999999', `.${'9'.repeat(40)}`, `.${'1'.repeat(400)}`, '.123456789012'),
  zone: fc.constantFrom('Z', 'z', '+00:00', '-00:00', '+14:00', '-12:00', '+23:59', '-23:59', '+24:00', '+99:99', '+0100', '+01', ' UTC', ''),
  separator: fc.constantFrom('T', 't', ' ', '_'),
}).map((t) => `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}${t.separator}${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}${t.fraction}${t.zone}`);

export const hostileTime: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '0000-01-01T00:00:00Z', '9999-12-31T23:59:60Z', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.9999999Z',
    '1000-01-01T00:00:00Z', '0999-12-31T23:59:59.999Z', '1000-01-01T00:00:00+00:01', '9999-12-31T23:59:59-00:01',
    '2024-02-30T00:00:00Z', '2023-02-29T00:00:00Z', '2024-01-01T24:00:00Z', '2016-12-31T23:59:60Z', '2024-01-01', '2024-01-01T00:00:00',
    '+275760-09-13T00:00:00Z', '+275760-09-13T00:00:00.001Z', '-271821-04-20T00:00:00Z', '-000001-01-01T00:00:00Z', '+010000-01-01T00:00:00Z',
    '1e20', 'now', '1700000000', '1700000000000', '0', '-1', 'Infinity', 'NaN', 'P1D', 'Mon, 01 Jan 2024 00:00:00 GMT', '2024-W01-1',
    '２０２４-01-01T00:00:00Z', '2024-01-01T00:00:00Z\u0000', '2024-01-01T00:00:00Z ', ' 2024-01-01T00:00:00Z',
  ),
  timeParts,
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString()),
).map(encodeAny);

/** JSON values a page token's decoder meets: offsets of every type and size, and the rest. */
const tokenJson = fc.oneof(
  fc.constantFrom('0', '-1', '1.5', '1e20', '1e400', '9007199254740991', '9007199254740992', '2147483648', '"1"', 'null', 'true', '[]', '{}', nested(2000, 'array')),
  hostileJson.filter((j) => j.length < 4000),
).chain((offset) => fc.constantFrom(
  `{"key":"k","offset":${offset}}`, `{"offset":${offset}}`, `{"id":${offset}}`, `{"before":${offset}}`, offset,
  `{"offset":1,"offset":${offset}}`, `{"__proto__":{"offset":${offset}}}`,
));

export const hostilePageToken: fc.Arbitrary<string> = fc.oneof(
  tokenJson.map((j) => encodeURIComponent(b64(j))),
  tokenJson.map((j) => encodeURIComponent(b64url(j))),
  fc.constantFrom('', '====', 'Hello World', '%00', '%FF', '!!!', 'eyJ', 'eyJvZmZzZXQiOjF9', 'eyJvZmZzZXQiOjF9===', '0', '-1', 'k'.repeat(3000)),
  hostileText.filter((s) => s.length < 3000).map(encodeAny),
);

const enumOrHostile = (values: readonly string[]) => fc.oneof(
  fc.constantFrom(...values),
  fc.constantFrom(...values).map((v) => v.toUpperCase()),
  hostileText.filter((s) => s.length < 3000).map(encodeAny),
);

const AUDIT_VALUES: Record<string, fc.Arbitrary<string>> = {
  since: hostileTime,
  until: hostileTime,
  limit: fc.oneof(fc.constantFrom('0', '1', '25', '100', '101', '-1', '1.5', '1e2', '2147483648', ''), hostileQueryValue),
  pageToken: hostilePageToken,
  type: enumOrHostile(AUDIT_TYPES),
  action: enumOrHostile(AUDIT_ACTIONS),
  actor: fc.oneof(fc.constantFrom('token', 'none', 'fuzz', 'initial_bootstrap_token'), hostileText.filter((s) => s.length < 3000).map(encodeAny)),
  flagKey: fc.oneof(fc.constantFrom('f1', 'b1', 'checkout'), hostileText.filter((s) => s.length < 3000).map(encodeAny)),
  segmentKey: fc.oneof(fc.constantFrom('s1', 'beta-users'), hostileText.filter((s) => s.length < 3000).map(encodeAny)),
  namespaceKey: fc.oneof(fc.constantFrom('default', 'staging', 'nowhere', ''), hostileText.filter((s) => s.length < 3000).map(encodeAny)),
};

/** A query string of the audit list's filters, one or more of them hostile, names sometimes repeated or misspelt. */
export const hostileAuditQuery: fc.Arbitrary<string> = fc.array(
  fc.oneof(
    { arbitrary: fc.constantFrom(...Object.keys(AUDIT_VALUES)).chain((name) => AUDIT_VALUES[name].map((v) => [name, v] as const)), weight: 8 },
    { arbitrary: fc.tuple(fc.constantFrom('since[]', 'limit[]', 'page_token', 'namespace_key', 'flag_key', '__proto__', 'Since', ''), hostileQueryValue), weight: 1 },
  ),
  { minLength: 1, maxLength: 4 },
).map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`);

// ---- OFREP --------------------------------------------------------------------------------------------------------

const contextKey = fc.oneof(
  fc.constantFrom('plan', 'region', 'targetingKey', 'flags', 'entityId', 'p', 'beta', 'age', 'signup'),
  hostileKey,
  hostileText.filter((s) => s.length < 300),
);

const contextValue = fc.oneof(
  { arbitrary: hostileJson, weight: 4 },
  { arbitrary: fc.constantFrom('"pro"', '"eu-west"', '18', 'true', 'null', '"2024-01-01T00:00:00Z"'), weight: 2 },
);

const targetingKey = fc.oneof(
  fc.constantFrom('"user-1"', '""', '" "', 'null', '1', '1.5', '-0', '1e400', 'true', '[]', '{}', '["u"]', '{"id":"u"}', `"${'u'.repeat(10_000)}"`),
  hostileJson,
);

/** The bulk evaluation's `flags` extension: comma-separated keys, or something else. */
const flagsField = fc.oneof(
  fc.constantFrom('"f1,b1"', '"f1"', '""', '","', '"f1,,b1"', '" f1 , b1 "', `"${Array(2000).fill('f1').join(',')}"`, '["f1","b1"]', '1', 'null', '{}'),
  hostileJson,
);

/** A context object as JSON text (keys may repeat), at most a few hostile fields. */
export const hostileContext: fc.Arbitrary<string> = fc.record({
  targetingKey: fc.option(targetingKey, { nil: undefined }),
  flags: fc.option(flagsField, { nil: undefined, freq: 3 }),
  fields: fc.array(fc.tuple(contextKey, contextValue), { maxLength: 4 }),
}).map(({ targetingKey: t, flags, fields }) => {
  const pairs: string[] = [];
  if (t !== undefined) pairs.push(`"targetingKey":${t}`);
  if (flags !== undefined) pairs.push(`"flags":${flags}`);
  for (const [k, v] of fields) pairs.push(`${JSON.stringify(k)}:${v}`);
  return `{${pairs.join(',')}}`;
});

/** An OFREP request body: a context (hostile or not), the context of another type, or not a JSON object at all. */
export const hostileOfrepBody: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: hostileContext.map((c) => `{"context":${c}}`), weight: 6 },
  { arbitrary: fc.tuple(hostileContext, hostileKey, hostileJson).map(([c, k, v]) => `{"context":${c},${JSON.stringify(k)}:${v}}`), weight: 1 },
  { arbitrary: hostileJson.map((v) => `{"context":${v}}`), weight: 2 },
  { arbitrary: fc.constantFrom(undefined, '', '{}', 'null', '[]', '"x"', '{"context":{}', '{"context":{}}{}', '\ufeff{"context":{}}', '{"Context":{}}'), weight: 2 },
);

/** A namespace as a header value. */
export const hostileNamespaceHeader = fc.oneof(
  fc.constantFrom('default', 'staging', '', 'nowhere', 'DEFAULT', 'default,staging', '%00', 'é', '..', '/', '*', 'k'.repeat(300), 'k'.repeat(5000)),
  headerText,
);

/** The namespace headers: mostly none or one naming a namespace that exists, else hostile, one or both (agreeing or not). */
const namespaceHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { arbitrary: fc.constant({}), weight: 3 },
  { arbitrary: fc.constantFrom('default', 'staging').map((ns) => ({ 'x-flipt-namespace': ns })), weight: 3 },
  { arbitrary: fc.constantFrom('default', 'staging').map((ns) => ({ 'x-flagpole-namespace': ns })), weight: 1 },
  { arbitrary: hostileNamespaceHeader.map((ns) => ({ 'x-flipt-namespace': ns })), weight: 2 },
  { arbitrary: hostileNamespaceHeader.map((ns) => ({ 'x-flagpole-namespace': ns })), weight: 1 },
  { arbitrary: hostileNamespaceHeader.map((ns) => ({ 'x-flipt-namespace': ns, 'x-flagpole-namespace': ns })), weight: 1 },
  { arbitrary: fc.tuple(hostileNamespaceHeader, hostileNamespaceHeader).map(([a, b]) => ({ 'x-flipt-namespace': a, 'x-flagpole-namespace': b })), weight: 1 },
);

export const hostileOfrepHeaders: fc.Arbitrary<Record<string, string>> = fc.tuple(
  namespaceHeaders,
  fc.record(
    {
      'if-none-match': fc.oneof(fc.constantFrom('$etag', '$etag', '*', 'W/"x"', '"x"', '', '"$etag"', 'W/$etag', '$etag, "x"', 'x'.repeat(8000)), headerText),
      'content-type': fc.constantFrom('application/json', 'application/json', 'application/json', 'text/plain', 'application/json; charset=utf-16', 'application/x-www-form-urlencoded', 'garbage'),
      'x-forwarded-prefix': fc.oneof(fc.constantFrom('/flags/', '//evil.example', '%00', '../', 'x'.repeat(5000), '\u00e9'), headerText),
    },
    { requiredKeys: [] },
  ),
).map(([ns, others]) => ({ ...ns, ...others }));

export const ofrepQuery: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constant(''), weight: 3 },
  {
    arbitrary: fc.tuple(fc.constantFrom('flagConfigEtag', 'flagConfigLastModified', 'flagConfigEtag[]'), fc.oneof(fc.constantFrom('$etag', '', 'x'.repeat(5000)), hostileQueryValue))
      .map(([k, v]) => `?${k}=${v}`),
    weight: 1,
  },
);

// ---- event streams -------------------------------------------------------------------------------------------------

export const hostileLastEventId = fc.oneof(
  fc.constantFrom(
    '0', '-1', '1', '$position', '$future', '1e400', '1e20', '9'.repeat(400), '18446744073709551616', '9007199254740993', 'abc', '', ' 5',
    '0x10', '1.5', '+1', '-0', 'NaN', 'Infinity', '00000000000000000001', '\u00bd',
  ),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  headerText,
);

import { snakeToCamel } from '../wire';
import { normalizeMessage } from './request-shape';

describe('protobuf JSON request shapes', () => {
  it.each([
    ['flag_key', 'flagKey'],
    ['page_token', 'pageToken'],
    ['segment_keys', 'segmentKeys'],
    ['key', 'key'],
  ])('%s → %s', (snake, camel) => expect(snakeToCamel(snake)).toBe(camel));

  it('accepts proto names, lets the JSON name win, and treats null as absent', () => {
    expect(normalizeMessage({ flag_key: 'a', flagKey: 'b', name: null, rank: 2 })).toEqual({ flagKey: 'b', rank: 2 });
    expect(normalizeMessage({ flag_key: 'a' })).toEqual({ flagKey: 'a' });
  });

  it('normalises nested messages but never the keys of user maps', () => {
    expect(normalizeMessage({ threshold: { percentage: 5 }, segment: { segment_key: 's' } })).toEqual({
      threshold: { percentage: 5 },
      segment: { segmentKey: 's' },
    });
    expect(normalizeMessage({ context: { user_id: 'u', plan: null }, metadata: { some_key: 1 } })).toEqual({
      context: { user_id: 'u', plan: '' },
      metadata: { some_key: 1 },
    });
    expect(normalizeMessage({ requests: [{ flag_key: 'f' }] })).toEqual({ requests: [{ flagKey: 'f' }] });
  });

  it('drops a `__proto__` field instead of letting it replace the prototype, but keeps it as a map key', () => {
    const shaped = normalizeMessage(JSON.parse('{"__proto__":{"key":"x"},"context":{"__proto__":"v"}}'));
    expect(Object.getPrototypeOf(shaped)).toBe(Object.prototype);
    expect(Object.keys(shaped)).toEqual(['context']);
    expect(Object.entries(shaped.context as object)).toEqual([['__proto__', 'v']]);
  });

  it('reads an absent body as {} and refuses a body that is not an object', () => {
    expect(normalizeMessage(undefined)).toEqual({});
    expect(() => normalizeMessage([1])).toThrow('invalid values for key(s) in json body');
    expect(() => normalizeMessage('x')).toThrow('invalid values for key(s) in json body');
  });
});

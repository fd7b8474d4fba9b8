import { InvalidError } from '../common/errors';
import { parseOfrepBulkRequest, parseOfrepRequest, requireNamespace } from './ofrep-request';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('parseOfrepRequest', () => {
  it.each([
    ['strings as they are', { plan: 'pro' }, { plan: 'pro' }],
    ['numbers and booleans as their JSON text', { age: 42, ratio: 0.5, beta: true, off: false }, { age: '42', ratio: '0.5', beta: 'true', off: 'false' }],
    ['null as "" (as Flipt)', { plan: null }, { plan: '' }],
    ['nested objects and arrays as their JSON text', { user: { id: 1 }, tags: ['a', 'b'] }, { user: '{"id":1}', tags: '["a","b"]' }],
    ['a Date, as JSON sends it', JSON.parse(JSON.stringify({ at: new Date(0) })), { at: '1970-01-01T00:00:00.000Z' }],
  ])('context: %s', (_, context, expected) => {
    expect(parseOfrepRequest({ context: { targetingKey: 'u', ...context } }).context).toEqual({ targetingKey: 'u', ...expected });
  });

  it('takes the entity from targetingKey, even when empty (as Flipt), and a fresh UUID per request without one', () => {
    expect(parseOfrepRequest({ context: { targetingKey: 'user-1' } }).entityId).toBe('user-1');
    expect(parseOfrepRequest({ context: { targetingKey: '' } }).entityId).toBe('');
    expect(parseOfrepRequest({ context: { targetingKey: 7 } }).entityId).toBe('7');
    const a = parseOfrepRequest({ context: {} }).entityId;
    const b = parseOfrepRequest({}).entityId;
    expect([a, b]).toEqual([expect.stringMatching(UUID), expect.stringMatching(UUID)]);
    expect(a).not.toBe(b);
  });

  it('keeps targetingKey in the context the constraints see', () => {
    expect(parseOfrepRequest({ context: { targetingKey: 'user-1' } }).context).toEqual({ targetingKey: 'user-1' });
  });

  it.each([
    ['no body', undefined],
    ['null', null],
    ['no context', {}],
    ['null context', { context: null }],
  ])('%s is an empty context', (_, body) => {
    expect(parseOfrepRequest(body).context).toEqual({});
  });

  it.each([
    ['an array body', [], 'invalid values for key(s) in json body: the request must be a JSON object'],
    ['a string body', 'x', 'invalid values for key(s) in json body: the request must be a JSON object'],
    ['a string context', { context: 'x' }, 'invalid values for key(s) in json body: context must be an object'],
    ['an array context', { context: [] }, 'invalid values for key(s) in json body: context must be an object'],
  ])('refuses %s', (_, body, message) => {
    expect(() => parseOfrepRequest(body)).toThrow(new InvalidError(message));
  });

  it('reads a "__proto__" key as a context key, without touching prototypes', () => {
    const body = JSON.parse('{"context":{"__proto__":{"polluted":1},"a":1}}');
    const { context } = parseOfrepRequest(body);
    expect(Object.keys(context).sort()).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('parseOfrepBulkRequest', () => {
  it('selects the keys of context.flags: trimmed, without empties or repeats, in order', () => {
    expect(parseOfrepBulkRequest({ context: { flags: ' b, a ,,b, c ' } }, 10).flags).toEqual(['b', 'a', 'c']);
    expect(parseOfrepBulkRequest({ context: { flags: '' } }, 10).flags).toEqual([]);
  });

  it('selects nothing without context.flags (or with null), and keeps flags in the context', () => {
    expect(parseOfrepBulkRequest({ context: {} }, 10).flags).toBeNull();
    expect(parseOfrepBulkRequest({ context: { flags: null } }, 10).flags).toBeNull();
    expect(parseOfrepBulkRequest({ context: { flags: 'a', targetingKey: 'u' } }, 10)).toMatchObject({
      entityId: 'u',
      context: { flags: 'a', targetingKey: 'u' },
    });
  });

  it('refuses a selection that is not a string, or longer than the limit', () => {
    expect(() => parseOfrepBulkRequest({ context: { flags: ['a'] } }, 10)).toThrow(
      'invalid values for key(s) in json body: context.flags must be a string of comma-separated flag keys',
    );
    expect(() => parseOfrepBulkRequest({ context: { flags: 'a,b,c' } }, 2)).toThrow(
      'invalid field context.flags: may name at most 2 flags (limits.max_batch_requests)',
    );
    expect(parseOfrepBulkRequest({ context: { flags: 'a,a,a' } }, 1).flags).toEqual(['a']);
  });
});

describe('requireNamespace', () => {
  it('passes a namespace, refuses disagreeing headers and keys longer than storage holds', () => {
    expect(requireNamespace('prod')).toBe('prod');
    expect(() => requireNamespace(null)).toThrow('X-Flipt-Namespace and X-Flagpole-Namespace name different namespaces');
    expect(() => requireNamespace('n'.repeat(256))).toThrow('invalid field X-Flipt-Namespace: must be at most 255 characters');
  });
});

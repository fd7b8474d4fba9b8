import { ValidationError } from './errors';
import { isStorableText, requireStorableFields } from './storable-text';

class Segment {
  segmentKey?: string;
}
class Rollout {
  description?: string;
  segment?: Segment;
  segmentKeys?: string[];
  metadata?: Record<string, unknown>;
}
const rollout = (fields: Partial<Rollout>) => Object.assign(new Rollout(), fields);
const segment = (segmentKey: string) => Object.assign(new Segment(), { segmentKey });

describe('storable text', () => {
  it.each([
    ['plain', 'abc', true],
    ['non-ASCII and a surrogate pair', 'é€😀', true],
    ['empty', '', true],
    ['NUL', 'a\u0000b', false],
    ['a lone high surrogate', 'a\ud800', false],
    ['a lone low surrogate', '\udc00a', false],
    ['surrogates in the wrong order', '\udc00\ud800', false],
  ])('%s → %s', (_, text, ok) => expect(isStorableText(text)).toBe(ok));

  it('names the field, in nested messages and lists too', () => {
    const message = 'must not contain NUL or unpaired surrogate characters';
    expect(() => requireStorableFields(rollout({ description: '\u0000' }))).toThrow(new ValidationError('description', message));
    expect(() => requireStorableFields(rollout({ segment: segment('s\ud800') }))).toThrow(new ValidationError('segment.segmentKey', message));
    expect(() => requireStorableFields(rollout({ segmentKeys: ['a', '\u0000'] }))).toThrow(new ValidationError('segmentKeys', message));
  });

  it('leaves free-form JSON objects alone: they are stored as JSON text, where NUL is an escape', () => {
    expect(() => requireStorableFields(rollout({ description: 'ok', metadata: { a: '\u0000', b: { c: '\ud800' } } }))).not.toThrow();
  });
});

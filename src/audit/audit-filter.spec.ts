import { eventMatcher, patternProblem } from './audit-filter';

describe('audit.events patterns', () => {
  it('matches nouns and verbs with wildcards, as Flipt does', () => {
    const m = eventMatcher(['flag:created', '*:deleted', 'segment:*']);
    expect(m('flag', 'created')).toBe(true);
    expect(m('flag', 'updated')).toBe(false);
    expect(m('rule', 'deleted')).toBe(true);
    expect(m('segment', 'updated')).toBe(true);
    expect(m('variant', 'created')).toBe(false);
    expect(eventMatcher(['*:*'])('token', 'created')).toBe(true);
    expect(eventMatcher([])('flag', 'created')).toBe(false);
  });

  it('names what is wrong with a pattern', () => {
    expect(patternProblem('flag:created')).toBeNull();
    expect(patternProblem('*:*')).toBeNull();
    expect(patternProblem('flag')).toMatch(/noun:verb/);
    expect(patternProblem('flags:created')).toMatch(/unknown noun "flags"/);
    expect(patternProblem('flag:create')).toMatch(/unknown verb "create"/);
    expect(patternProblem('flag:created:x')).toMatch(/noun:verb/);
  });
});

import { ValidationError } from '../common/errors';
import { closePending, readSteps, sameValue, settle, type StoredStep } from './schedule-steps';

const step = (at: string, fields: Partial<StoredStep> = {}): StoredStep => ({ at, status: 'PENDING', ...fields });

describe('schedule steps', () => {
  it('stores times in UTC and keeps only the value its type takes', () => {
    expect(readSteps('ROLLOUT_THRESHOLD', [{ at: '2027-01-04T09:00:00+01:00', deadline: '2027-01-04T10:00:00+01:00', percentage: 10 }], 5)).toEqual([
      { at: '2027-01-04T08:00:00.000Z', deadline: '2027-01-04T09:00:00.000Z', percentage: 10, status: 'PENDING' },
    ]);
  });

  it.each([
    ['no steps', 'FLAG_ENABLED', [], 'steps'],
    ['a time without its zone', 'FLAG_ENABLED', [{ at: '2027-01-04T09:00:00', enabled: true }], 'steps[0].at'],
    ['a day that does not exist', 'FLAG_ENABLED', [{ at: '2027-02-30T09:00:00Z', enabled: true }], 'steps[0].at'],
    ['times that do not increase', 'FLAG_ENABLED', [{ at: '2027-01-04T09:00:00Z', enabled: true }, { at: '2027-01-04T09:00:00Z', enabled: false }], 'steps[1].at'],
    ['a deadline before its time', 'FLAG_ENABLED', [{ at: '2027-01-04T09:00:00Z', deadline: '2027-01-04T08:00:00Z', enabled: true }], 'steps[0].deadline'],
    ['another type\'s value', 'FLAG_ENABLED', [{ at: '2027-01-04T09:00:00Z', enabled: true, percentage: 5 }], 'steps[0].percentage'],
    ['a percentage over 100', 'ROLLOUT_THRESHOLD', [{ at: '2027-01-04T09:00:00Z', percentage: 100.5 }], 'steps[0].percentage'],
    ['shares over 100', 'RULE_DISTRIBUTIONS', [{ at: '2027-01-04T09:00:00Z', distributions: [{ variantKey: 'a', rollout: 60 }, { variantKey: 'b', rollout: 41 }] }], 'steps[0].distributions'],
    ['a variant named twice', 'RULE_DISTRIBUTIONS', [{ at: '2027-01-04T09:00:00Z', distributions: [{ variantKey: 'a', rollout: 10 }, { variantKey: 'a', rollout: 10 }] }], 'steps[0].distributions[1].variantKey'],
    ['more steps than allowed', 'FLAG_ENABLED', [1, 2, 3].map((d) => ({ at: `2027-01-0${d}T09:00:00Z`, enabled: true })), 'steps'],
  ] as const)('refuses %s, naming the field', (_, type, steps, field) => {
    let error: unknown;
    try {
      readSteps(type, steps as never, 2);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain(`invalid field ${field}:`);
  });

  it('settles a schedule from its steps', () => {
    const done = step('2027-01-01T00:00:00.000Z', { status: 'APPLIED' });
    const next = step('2027-01-02T00:00:00.000Z');
    expect(settle('ACTIVE', [done, next])).toEqual({ status: 'ACTIVE', nextAt: new Date(next.at) });
    expect(settle('PAUSED', [done, next])).toEqual({ status: 'PAUSED', nextAt: null });
    expect(settle('ACTIVE', [done, { ...next, status: 'SKIPPED' }])).toEqual({ status: 'COMPLETED', nextAt: null });
    expect(settle('ACTIVE', [{ ...done, status: 'FAILED' }, next])).toEqual({ status: 'FAILED', nextAt: null });
    expect(settle('CANCELLED', [next])).toEqual({ status: 'CANCELLED', nextAt: null });
    expect(closePending([done, next], 'CANCELLED', 'why').map((s) => s.status)).toEqual(['APPLIED', 'CANCELLED']);
  });

  it('tells a value already in effect', () => {
    expect(sameValue('ROLLOUT_THRESHOLD', { percentage: 50 }, { percentage: 50 })).toBe(true);
    expect(sameValue('FLAG_ENABLED', { enabled: true }, { enabled: false })).toBe(false);
    const current = { distributions: [{ variantKey: 'a', rollout: 30 }, { variantKey: 'b', rollout: 70 }] };
    expect(sameValue('RULE_DISTRIBUTIONS', { distributions: [{ variantKey: 'b', rollout: 70 }] }, current)).toBe(true);
    expect(sameValue('RULE_DISTRIBUTIONS', { distributions: [{ variantKey: 'a', rollout: 40 }] }, current)).toBe(false);
  });
});

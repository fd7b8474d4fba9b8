import { buildState } from '../declarative/declarative-state';
import { mergeDocuments } from './document-merge';
import { readDocuments } from './document-reader';
import { writeDocuments } from './document-writer';

const FLAGS = `version: "1.4"
namespace: shop
flags:
- key: checkout
  name: Checkout
  type: BOOLEAN_FLAG_TYPE
  enabled: false
  rollouts:
  - threshold:
      percentage: 10
      value: true
- key: colour
  name: Colour
  enabled: true
  variants:
  - key: blue
  - key: green
  rules:
  - segment: staff
    rank: 5
    distributions:
    - variant: blue
      rollout: 50
    - variant: green
      rollout: 50
segments:
- key: staff
  name: Staff
`;

const SCHEDULES = `x-flagpole-schedules:
- flag: checkout
  type: ROLLOUT_THRESHOLD
  rollout: 1
  description: ramp up
  steps:
  - at: "2030-01-01T10:00:00+01:00"
    deadline: "2030-01-01T10:30:00+01:00"
    percentage: 0
  - at: "2030-01-02T09:00:00Z"
    percentage: 100
- flag: colour
  type: RULE_DISTRIBUTIONS
  rule: 5
  paused: true
  steps:
  - at: "2030-01-01T09:00:00Z"
    distributions:
    - variant: green
      rollout: 80
- flag: checkout
  type: FLAG_ENABLED
  steps:
  - at: "2030-01-01T09:00:00Z"
    enabled: false
`;

const read = (text: string, maxScheduleSteps = 50) => readDocuments(text, { source: 'f.yml', maxScheduleSteps });
/** The reader's message; `maxScheduleSteps` undefined reads as declarative storage does. */
const readError = (text: string, maxScheduleSteps: number | undefined) => {
  try {
    readDocuments(text, { source: 'f.yml', maxScheduleSteps });
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('read without an error');
};

describe('x-flagpole-schedules in documents', () => {
  it('is read into schedules with times in UTC, targets by rank, values as written (false and 0 too)', () => {
    const [doc] = read(FLAGS + SCHEDULES);
    expect(doc.schedules).toEqual([
      {
        flag: 'checkout', type: 'ROLLOUT_THRESHOLD', rolloutIndex: 0, description: 'ramp up', paused: false,
        steps: [
          { at: '2030-01-01T09:00:00.000Z', deadline: '2030-01-01T09:30:00.000Z', percentage: 0, status: 'PENDING' },
          { at: '2030-01-02T09:00:00.000Z', percentage: 100, status: 'PENDING' },
        ],
      },
      {
        flag: 'colour', type: 'RULE_DISTRIBUTIONS', ruleIndex: 0, description: '', paused: true,
        steps: [{ at: '2030-01-01T09:00:00.000Z', distributions: [{ variantKey: 'green', rollout: 80 }], status: 'PENDING' }],
      },
      { flag: 'checkout', type: 'FLAG_ENABLED', description: '', paused: false, steps: [{ at: '2030-01-01T09:00:00.000Z', enabled: false, status: 'PENDING' }] },
    ]);
    expect(read(FLAGS)[0]).not.toHaveProperty('schedules');
  });

  it.each(['yaml', 'json'] as const)('is written after Flipt\'s keys and reads back the same (%s)', (format) => {
    const [doc] = read(FLAGS + SCHEDULES);
    const text = writeDocuments([doc], format);
    expect(text.indexOf('x-flagpole-schedules')).toBeGreaterThan(text.indexOf('segments'));
    expect(read(text)[0].schedules).toEqual(doc.schedules);
    // Rules are written without `rank` (Flipt's exporter): the rule of rank 5 is the first, and named so.
    expect(text).toMatch(format === 'yaml' ? /type: RULE_DISTRIBUTIONS\n {2}rule: 1\n/ : /"type":"RULE_DISTRIBUTIONS","rule":1,/);
  });

  it('is refused where schedules cannot exist (declarative storage, validate): no maxScheduleSteps', () => {
    expect(readError(FLAGS + SCHEDULES, undefined)).toMatch(/^f\.yml: line 30, column 1, x-flagpole-schedules: scheduled changes are not read here: flag state served from files \(storage\.type local or git\) is read-only/);
  });

  it('refuses the files of declarative storage that carry it, naming the file and place', () => {
    expect(() => buildState([{ path: 'team/features.yml', text: FLAGS + SCHEDULES }])).toThrow(
      /^team\/features\.yml: line 30, column 1, x-flagpole-schedules: scheduled changes are not read here/,
    );
    expect(buildState([{ path: 'team/features.yml', text: FLAGS }]).namespaces.get('shop')!.flags).toHaveLength(2);
  });

  it.each([
    ['a step without a time', 'steps:\n  - percentage: 5', 'x-flagpole-schedules[0].steps[0]: at must not be empty'],
    ['a time without a zone', 'steps:\n  - at: "2030-01-01T09:00:00"\n    percentage: 5', 'x-flagpole-schedules[0].steps[0].at: must be an RFC 3339 timestamp, got "2030-01-01T09:00:00"'],
    ['a percentage out of range', 'steps:\n  - at: "2030-01-01T09:00:00Z"\n    percentage: 101', 'x-flagpole-schedules[0].steps[0].percentage: must be within range [0, 100]'],
    ['a value of another type', 'steps:\n  - at: "2030-01-01T09:00:00Z"\n    enabled: true', 'x-flagpole-schedules[0].steps[0].enabled: is not a value of a ROLLOUT_THRESHOLD schedule (it takes percentage)'],
    ['no steps', 'steps: []', 'x-flagpole-schedules[0].steps: must contain at least one step'],
    ['a field the format does not have', 'steps:\n  - at: "2030-01-01T09:00:00Z"\n    percentage: 5\n    status: APPLIED', 'x-flagpole-schedules[0].steps[0]: unknown field "status"'],
  ])('%s is refused at its line and path', (_, steps, message) => {
    const text = `${FLAGS}x-flagpole-schedules:\n- flag: checkout\n  type: ROLLOUT_THRESHOLD\n  rollout: 1\n  ${steps}\n`;
    const error = readError(text, 50);
    expect(error).toMatch(/^f\.yml: line \d+, column \d+, /);
    expect(error).toContain(message);
  });

  it('more steps than schedules.max_steps are refused', () => {
    expect(readError(FLAGS + SCHEDULES, 1)).toMatch(/x-flagpole-schedules\[0\]\.steps: must contain at most 1 steps \(schedules\.max_steps\)$/);
  });

  it('documents about one namespace merge their schedules', () => {
    const second = `---\nnamespace: shop\nflags:\n- key: other\n  name: Other\nx-flagpole-schedules:\n- flag: other\n  type: FLAG_ENABLED\n  steps:\n  - at: "2030-01-01T09:00:00Z"\n    enabled: true\n`;
    const merged = mergeDocuments(read(FLAGS + SCHEDULES + second)).get('shop')!;
    expect(merged.schedules!.map((s) => s.flag)).toEqual(['checkout', 'colour', 'checkout', 'other']);
  });
});

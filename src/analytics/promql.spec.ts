import { exactlyOneOf, growth, promString, resolutionFor, resultsOf, stepCountsQuery, stepEnd, stepGrowth, stepIndex } from './promql';

describe('PromQL text', () => {
  it('quotes label values so that no value can end the string', () => {
    expect(promString('a"b\\c\nd')).toBe('"a\\"b\\\\c\\nd"');
    expect(resultsOf('ns"}', ['f'])).toBe('flagpole_evaluations_results_total{namespace="ns\\"}",flag="f"}');
  });

  it('matches several flags with an escaped alternation', () => {
    expect(exactlyOneOf(['a.b', 'c|d', 'e(f)*'])).toBe('a\\.b|c\\|d|e\\(f\\)\\*');
    expect(resultsOf('ns', ['a.b', 'c'])).toBe('flagpole_evaluations_results_total{namespace="ns",flag=~"a\\\\.b|c"}');
  });

  it("counts each series' growth across a step, from 0 for a new series and since a restart", () => {
    expect(growth('m', 1)).toBe('((last_over_time(m[5m]) - last_over_time(m[65m] offset 1m)) >= 0) or (last_over_time(m[5m]) * 1)');
    expect(growth('m', 30)).toBe('((last_over_time(m[30m]) - last_over_time(m[90m] offset 30m)) >= 0) or (last_over_time(m[30m]) * 1)');
    expect(stepGrowth('m', 1)).toBe(growth('m', 1));
    expect(stepGrowth('m', 5)).toBe(`sum_over_time((${growth('m', 1)})[299s:1m])`);
    expect(stepCountsQuery('ns', ['f'], 5, 'variant')).toMatch(/^sum by \(flag, value\) \(sum_over_time\(/);
    expect(stepCountsQuery('ns', ['f'], 5, 'reason')).toMatch(/^sum by \(flag, reason\) \(/);
  });
});

describe('steps', () => {
  it('evaluates each step at its end and maps the points back', () => {
    const first = 29_000_000; // minutes since the epoch
    expect(stepEnd(first, 5, 0)).toBe((first + 5) * 60);
    expect(stepIndex(stepEnd(first, 5, 3), first, 5, 10)).toBe(3);
    expect(stepIndex(stepEnd(first, 5, 10), first, 5, 10)).toBe(-1);
    expect(stepIndex(first * 60, first, 5, 10)).toBe(-1);
    expect(stepIndex((first + 7) * 60, first, 5, 10)).toBe(-1);
  });

  it('keeps a subquery within its points', () => {
    expect(resolutionFor(30 * 24 * 60, 10_000)).toBe(5);
    expect(resolutionFor(60, 10_000)).toBe(1);
  });
});

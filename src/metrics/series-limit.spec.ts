import { Registry } from 'prom-client';
import { BufferedCounter } from './buffered-counter';
import { BufferedHistogram } from './buffered-histogram';
import { OVERFLOW_LABEL } from './child-cache';

/** The label sets printed for one metric name. */
const series = (text: string, name: string) =>
  text.split('\n').filter((l) => l.startsWith(`${name}{`)).map((l) => l.slice(name.length, l.lastIndexOf(' ')));

describe('maxSeries on buffered metrics', () => {
  it('a counter holds at most maxSeries series, the overflow one included', async () => {
    const registry = new Registry();
    const counter = new BufferedCounter({ name: 'c_total', help: 'c', labelNames: ['ns', 'flag'], registers: [registry], maxSeries: 3 });
    for (const flag of ['a', 'b', 'c', 'd', 'e']) counter.labels('default', flag).inc();
    counter.labels('default', 'a').inc();
    const text = await registry.metrics();
    expect(series(text, 'c_total')).toEqual(['{ns="default",flag="a"}', '{ns="default",flag="b"}', `{ns="${OVERFLOW_LABEL}",flag="${OVERFLOW_LABEL}"}`]);
    expect(text).toContain(`c_total{ns="${OVERFLOW_LABEL}",flag="${OVERFLOW_LABEL}"} 3`);
    expect(text).toContain('c_total{ns="default",flag="a"} 2');
  });

  it('an overflow series asked for early (a capped ChildCache) still leaves the others their slots', async () => {
    const registry = new Registry();
    const counter = new BufferedCounter({ name: 'c_total', help: 'c', labelNames: ['ns'], registers: [registry], maxSeries: 3 });
    expect(counter.labels(OVERFLOW_LABEL)).toBe(counter.labels(OVERFLOW_LABEL));
    counter.labels('a').inc();
    counter.labels('b').inc();
    expect(counter.labels('c')).toBe(counter.labels(OVERFLOW_LABEL));
  });

  it('with maxSeries 1 everything is counted under the overflow series', async () => {
    const registry = new Registry();
    const counter = new BufferedCounter({ name: 'c_total', help: 'c', labelNames: ['ns'], registers: [registry], maxSeries: 1 });
    counter.labels('a').inc();
    counter.labels('b').inc();
    expect(series(await registry.metrics(), 'c_total')).toEqual([`{ns="${OVERFLOW_LABEL}"}`]);
  });

  it('a histogram holds at most maxSeries series', async () => {
    const registry = new Registry();
    const histogram = new BufferedHistogram({ name: 'h', help: 'h', labelNames: ['ns'], buckets: [1], registers: [registry], maxSeries: 2 });
    for (const ns of ['a', 'b', 'c']) histogram.labels(ns).observe(0.5);
    const text = await registry.metrics();
    expect(series(text, 'h_count')).toEqual(['{ns="a"}', `{ns="${OVERFLOW_LABEL}"}`]);
    expect(text).toContain(`h_count{ns="${OVERFLOW_LABEL}"} 2`);
  });
});

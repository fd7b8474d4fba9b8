import { Histogram, Registry } from 'prom-client';
import { BufferedHistogram } from './buffered-histogram';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const OBSERVATIONS: Array<[string, number]> = [
  ['default', 0.0005],
  ['default', 0.001],
  ['default', 0.0011],
  ['default', 0.5],
  ['default', 3],
  ['other', 0.05],
  ['other', 0.05],
];

/** prom-client's own Histogram and a BufferedHistogram, fed the same observations, in registries of their own. */
async function bothTexts(observations: Array<[string, number]>): Promise<[string, string]> {
  const reference = new Registry();
  const buffered = new Registry();
  const histogram = new Histogram({ name: 'latency_seconds', help: 'latency', labelNames: ['namespace'], buckets: BUCKETS, registers: [reference] });
  const fast = new BufferedHistogram({ name: 'latency_seconds', help: 'latency', labelNames: ['namespace'], buckets: BUCKETS, registers: [buffered] });
  for (const [namespace, value] of observations) {
    histogram.labels(namespace).observe(value);
    fast.labels(namespace).observe(value);
  }
  return [await reference.metrics(), await buffered.metrics()];
}

describe('BufferedHistogram', () => {
  it('prints exactly what prom-client prints for the same observations', async () => {
    const [reference, buffered] = await bothTexts(OBSERVATIONS);
    expect(reference).toContain('latency_seconds_bucket{le="0.001",namespace="default"} 2');
    expect(buffered).toBe(reference);
  });

  it('prints nothing but its help and type before the first observation, as prom-client', async () => {
    const [reference, buffered] = await bothTexts([]);
    expect(buffered).toBe(reference);
  });

  it('hands back one child per label values, and counts what every holder observes', async () => {
    const registry = new Registry();
    const fast = new BufferedHistogram({ name: 'h', help: 'h', labelNames: ['a'], buckets: [1], registers: [registry] });
    expect(fast.labels('x')).toBe(fast.labels('x'));
    fast.labels('x').observe(2);
    fast.labels('x').observe(0.5);
    const text = await registry.metrics();
    expect(text).toContain('h_bucket{le="1",a="x"} 1');
    expect(text).toContain('h_bucket{le="+Inf",a="x"} 2');
    expect(text).toContain('h_sum{a="x"} 2.5');
    expect(text).toContain('h_count{a="x"} 2');
  });

  it('gives JSON values with all their labels, as prom-client', async () => {
    const reference = new Registry();
    const buffered = new Registry();
    new Histogram({ name: 'h', help: 'h', labelNames: ['a'], buckets: [1], registers: [reference] }).labels('x').observe(0.5);
    new BufferedHistogram({ name: 'h', help: 'h', labelNames: ['a'], buckets: [1], registers: [buffered] }).labels('x').observe(0.5);
    const strip = (m: Array<{ values: Array<{ labels: object; value: number; metricName?: string }> }>) =>
      m[0].values.map((v) => ({ labels: v.labels, value: v.value, metricName: v.metricName }));
    expect(strip((await buffered.getMetricsAsJSON()) as never)).toEqual(strip((await reference.getMetricsAsJSON()) as never));
  });

  it('refuses a wrong number of label values', () => {
    const fast = new BufferedHistogram({ name: 'h', help: 'h', labelNames: ['a', 'b'], buckets: [1], registers: [] });
    expect(() => fast.labels('x')).toThrow('expected 2 label values, got 1');
  });
});

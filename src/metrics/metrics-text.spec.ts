import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, Summary } from 'prom-client';
import { BufferedCounter } from './buffered-counter';
import { BufferedHistogram } from './buffered-histogram';
import { metricsText, metricsTextChunks } from './metrics-text';

/** A registry with every kind of metric, awkward label values and values, and prom-client's default metrics. */
function everyKind(): Registry {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  new Counter({ name: 'plain_total', help: 'no labels', registers }).inc(3);
  new Counter({ name: 'unused_total', help: 'never counted', labelNames: ['a'], registers });
  const escaped = new Gauge({ name: 'escaped', help: 'help with a \\ backslash\nand a newline', labelNames: ['v', 'n'], registers });
  escaped.set({ v: 'quote " backslash \\ newline \n end', n: 'x' }, 1.5);
  escaped.set({ v: 'nan', n: 'x' }, NaN);
  escaped.set({ v: 'inf', n: 'x' }, Infinity);
  escaped.set({ v: '-inf', n: 'x' }, -Infinity);
  escaped.set({ v: 'tiny', n: 'x' }, 1e-9);
  const histogram = new Histogram({ name: 'h_seconds', help: 'h', labelNames: ['route'], buckets: [0.1, 1], registers });
  histogram.observe({ route: '/a' }, 0.05);
  histogram.observe({ route: '/b"' }, 5);
  const summary = new Summary({ name: 's', help: 's', labelNames: ['q'], percentiles: [0.5, 0.99], registers });
  for (let i = 0; i < 10; i++) summary.observe({ q: 'x' }, i);
  const counter = new BufferedCounter({ name: 'buffered_total', help: 'b', labelNames: ['ns', 'flag'], registers });
  const latency = new BufferedHistogram({ name: 'buffered_ms', help: 'b', labelNames: ['ns'], buckets: [1, 10], registers });
  for (let i = 0; i < 500; i++) {
    counter.labels(`ns-${i % 50}`, `flag-${i}`).inc();
    latency.labels(`ns-${i % 50}`).observe(i / 50);
  }
  latency.labels('never-observed');
  return registry;
}

/** Default metrics that change between two readings (CPU time, memory, lag) are left out of the comparison. */
const stable = (text: string) =>
  text.split('\n\n').filter((family) => !/^# HELP (process_|nodejs_)/.test(family)).join('\n\n');

describe('metricsText', () => {
  it('prints what prom-client prints for the same registry, whatever the slice', async () => {
    const registry = everyKind();
    const reference = await registry.metrics();
    expect(reference).toContain('escaped{v="quote \\" backslash \\\\ newline \\n end",n="x"} 1.5');
    expect(reference).toContain('buffered_ms_bucket{le="+Inf",ns="ns-49"} 10');
    for (const sliceMs of [0, 5, Infinity]) expect(stable(await metricsText(registry, sliceMs))).toBe(stable(reference));
    // And the default metrics' families: the same names and kinds, in the same order.
    const heads = (text: string) => text.split('\n').filter((line) => line.startsWith('# '));
    expect(heads(await metricsText(registry, 0))).toEqual(heads(reference));
  });

  it('prints an empty registry and a metric without values as prom-client does', async () => {
    const registry = new Registry();
    expect(await metricsText(registry)).toBe(await registry.metrics());
    new Counter({ name: 'c_total', help: 'c', labelNames: ['a'], registers: [registry] });
    expect(await metricsText(registry)).toBe(await registry.metrics());
  });

  it('prints a BufferedCounter as prom-client prints its own Counter fed the same increments', async () => {
    const reference = new Registry();
    const buffered = new Registry();
    const counter = new Counter({ name: 'c_total', help: 'c', labelNames: ['ns', 'flag'], registers: [reference] });
    const fast = new BufferedCounter({ name: 'c_total', help: 'c', labelNames: ['ns', 'flag'], registers: [buffered] });
    const plain = new Counter({ name: 'plain_total', help: 'p', registers: [reference] });
    const fastPlain = new BufferedCounter({ name: 'plain_total', help: 'p', registers: [buffered] });
    const texts = async () => [await reference.metrics(), await buffered.metrics(), await metricsText(buffered, 0)];
    // Before any increment: the unlabelled counter shows 0, the labelled one nothing.
    let [expected, ...actual] = await texts();
    expect(actual).toEqual([expected, expected]);
    for (const [ns, flag] of [['a', 'x'], ['a', 'y'], ['b', 'x'], ['a', 'x']]) {
      counter.labels(ns, flag).inc();
      fast.labels(ns, flag).inc();
    }
    plain.inc();
    fastPlain.labels().inc();
    [expected, ...actual] = await texts();
    expect(expected).toContain('c_total{ns="a",flag="x"} 2');
    expect(actual).toEqual([expected, expected]);
    expect(await buffered.getMetricsAsJSON()).toEqual(await reference.getMetricsAsJSON());
    reference.resetMetrics();
    buffered.resetMetrics();
    [expected, ...actual] = await texts();
    expect(actual).toEqual([expected, expected]);
  });

  it('lets the event loop run between slices of a large metric', async () => {
    const registry = new Registry();
    const counter = new BufferedCounter({ name: 'many_total', help: 'm', labelNames: ['k'], registers: [registry] });
    const histogram = new BufferedHistogram({ name: 'many_ms', help: 'm', labelNames: ['k'], buckets: [1, 2, 3], registers: [registry] });
    for (let i = 0; i < 20_000; i++) {
      counter.labels(`k${i}`).inc();
      histogram.labels(`k${i}`).observe(i % 4);
    }
    // A timer that counts the event loop's turns while the text renders.
    let turns = 0;
    const tick = () => {
      turns++;
      timer = setImmediate(tick);
    };
    let timer = setImmediate(tick);
    const chunks: string[] = [];
    try {
      for await (const chunk of metricsTextChunks(registry, 1)) chunks.push(chunk);
    } finally {
      clearImmediate(timer);
    }
    expect(chunks.length).toBeGreaterThan(3);
    expect(turns).toBeGreaterThanOrEqual(chunks.length - 1);
    for (const chunk of chunks.slice(1)) expect(chunk.startsWith('\n')).toBe(true); // chunks break between lines
    expect(chunks.join('')).toBe(await registry.metrics());
  });

  it('prints each histogram series with buckets, sum and count that agree, when observed during the pauses', async () => {
    const registry = new Registry();
    const histogram = new BufferedHistogram({ name: 'h', help: 'h', labelNames: ['k'], buckets: [1, 3], registers: [registry] });
    const keys = Array.from({ length: 300 }, (_, i) => `k${i}`);
    for (const k of keys) histogram.labels(k).observe(0.5);
    let text = '';
    let pauses = 0;
    for await (const chunk of metricsTextChunks(registry, 0)) {
      text += chunk;
      pauses++;
      for (const k of keys) histogram.labels(k).observe(2); // while the text is half written
    }
    expect(pauses).toBeGreaterThan(5); // 5 lines per series: some pauses fall inside a series' lines
    const value = (line: string) => Number(text.split('\n').find((l) => l.startsWith(`${line} `))?.split(' ')[1]);
    for (const k of keys) {
      const count = value(`h_count{k="${k}"}`);
      expect([value(`h_bucket{le="1",k="${k}"}`), value(`h_bucket{le="3",k="${k}"}`), value(`h_bucket{le="+Inf",k="${k}"}`)]).toEqual([1, count, count]);
      expect(value(`h_sum{k="${k}"}`)).toBe(0.5 + 2 * (count - 1));
    }
  });
});

/**
 * `metrics.exporter: otlp`: the metrics `/metrics` shows are pushed to an OTLP receiver (over HTTP as protobuf, and
 * over gRPC), under the same names and labels, with the same values; `/metrics` keeps serving.
 */
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { eventually, grpcReceiver, httpReceiver, type ReceivedMetric, type Receiver } from '../tracing/support/receivers';
import { evaluateAFlag } from '../tracing/support/scenario';

/** The families `/metrics` declares (`# TYPE name type`), but summaries (none of Flagpole's). */
function scrapedFamilies(text: string): string[] {
  return [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].filter((m) => m[2] !== 'summary').map((m) => m[1]);
}

/** The last push's metric of that name. */
function latest(metrics: ReceivedMetric[], name: string): ReceivedMetric | undefined {
  return metrics.filter((m) => m.name === name).at(-1);
}

const requestsFor = (metrics: ReceivedMetric[], flag: string) =>
  latest(metrics, 'flagpole_evaluations_requests_total')?.points.find((p) => p.attributes.flag === flag)?.value;

describe.each([
  ['OTLP/HTTP protobuf', httpReceiver, (r: Receiver) => r.url],
  ['OTLP/gRPC', grpcReceiver, (r: Receiver) => `127.0.0.1:${r.port}`],
])('metrics pushed over %s', (_name, start, endpoint) => {
  let receiver: Receiver;
  let fp: RunningFlagpole;

  beforeAll(async () => {
    receiver = await start();
    fp = await startFlagpole({
      FLAGPOLE_METRICS_EXPORTER: 'otlp',
      FLAGPOLE_METRICS_OTLP_ENDPOINT: endpoint(receiver),
      FLAGPOLE_METRICS_EXPORT_INTERVAL: '200ms',
    });
    await evaluateAFlag(fp);
  });
  afterAll(async () => {
    await fp.close();
    await receiver.close();
  });

  it('pushes every family /metrics shows, under the same names', async () => {
    await eventually(() => requestsFor(receiver.metrics, 'color') === 1);
    const scrape = await client(fp.url).get('/metrics');
    expect(scrape.status).toBe(200);
    const pushed = new Set(receiver.metrics.map((m) => m.name));
    const families = scrapedFamilies(scrape.text);
    expect(families).toEqual(expect.arrayContaining(['flagpole_evaluations_requests_total', 'flagpole_evaluations_latency_milliseconds']));
    expect(families.filter((f) => !pushed.has(f))).toEqual([]);
  });

  it('with the labels as attributes and the same values', async () => {
    await eventually(() => requestsFor(receiver.metrics, 'dark-mode') === 1);
    const results = latest(receiver.metrics, 'flagpole_evaluations_results_total')!;
    const color = results.points.find((p) => p.attributes.flag === 'color');
    expect(color).toEqual({ attributes: expect.objectContaining({ namespace: 'default', flag: 'color', value: 'blue', match: 'true' }), value: 1 });
    // A histogram's count: two single evaluations in the namespace.
    const latency = latest(receiver.metrics, 'flagpole_evaluations_latency_milliseconds')!;
    expect(latency.points.find((p) => p.attributes.namespace === 'default')?.value).toBe(2);
  });
});

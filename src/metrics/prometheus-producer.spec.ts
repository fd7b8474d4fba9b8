import { resourceFromAttributes } from '@opentelemetry/resources';
import { AggregationTemporality, DataPointType, type HistogramMetricData, type SumMetricData } from '@opentelemetry/sdk-metrics';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PrometheusProducer } from './prometheus-producer';

describe('PrometheusProducer', () => {
  const registry = new Registry();
  const counter = new Counter({ name: 'things_total', help: 'Things', labelNames: ['kind'], registers: [registry] });
  new Gauge({ name: 'level', help: 'Level', registers: [registry] }).set(7);
  const histogram = new Histogram({ name: 'took_ms', help: 'Took', labelNames: ['ns'], buckets: [1, 10], registers: [registry] });
  counter.inc({ kind: 'a' }, 2);
  counter.inc({ kind: 'b' });
  for (const v of [0.5, 5, 5, 50]) histogram.observe({ ns: 'x' }, v);

  const collect = async () => {
    const { resourceMetrics } = await new PrometheusProducer(registry, resourceFromAttributes({ 'service.name': 's' })).collect();
    return Object.fromEntries(resourceMetrics.scopeMetrics[0].metrics.map((m) => [m.descriptor.name, m]));
  };

  it('turns counters into cumulative monotonic sums, labels into attributes', async () => {
    const sum = (await collect()).things_total as SumMetricData;
    expect(sum).toMatchObject({ dataPointType: DataPointType.SUM, isMonotonic: true, aggregationTemporality: AggregationTemporality.CUMULATIVE });
    expect(sum.dataPoints.map((p) => [p.attributes, p.value])).toEqual([[{ kind: 'a' }, 2], [{ kind: 'b' }, 1]]);
  });

  it('keeps gauges as gauges', async () => {
    expect((await collect()).level).toMatchObject({ dataPointType: DataPointType.GAUGE, dataPoints: [expect.objectContaining({ value: 7 })] });
  });

  it('turns cumulative `le` buckets into per-bucket counts, with the sum and count', async () => {
    const h = (await collect()).took_ms as HistogramMetricData;
    expect(h.dataPointType).toBe(DataPointType.HISTOGRAM);
    expect(h.dataPoints).toHaveLength(1);
    expect(h.dataPoints[0].attributes).toEqual({ ns: 'x' });
    expect(h.dataPoints[0].value).toEqual({ buckets: { boundaries: [1, 10], counts: [1, 2, 1] }, sum: 60.5, count: 4 });
  });
});

/**
 * The `/metrics` registry read as OpenTelemetry metric data, for `metrics.exporter: otlp`: every family the scrape
 * shows, under the same name and labels (as attributes), collected from the same prom-client registry at each push,
 * so the two never disagree and no recorder counts twice. Counters become cumulative monotonic sums, gauges gauges,
 * histograms explicit-bucket histograms (prom-client's cumulative `le` buckets turned into per-bucket counts).
 * Summaries (none of Flagpole's) are left out.
 */
import { ValueType, type Attributes, type HrTime } from '@opentelemetry/api';
import { hrTime } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import {
  AggregationTemporality, DataPointType, type CollectionResult, type DataPoint, type MetricData, type MetricProducer,
} from '@opentelemetry/sdk-metrics';
import type { Registry } from 'prom-client';

type Family = Awaited<ReturnType<Registry['getMetricsAsJSON']>>[number];
type Sample = Family['values'][number] & { metricName?: string };
type Histogram = { buckets: { boundaries: number[]; counts: number[] }; sum: number; count: number };

export class PrometheusProducer implements MetricProducer {
  /** Cumulative series start when the producer does (the process's counters start with it). */
  private readonly startTime: HrTime = hrTime();

  constructor(
    private readonly registry: Registry,
    private readonly resource: Resource,
  ) {}

  async collect(): Promise<CollectionResult> {
    const families = await this.registry.getMetricsAsJSON();
    const now = hrTime();
    const metrics: MetricData[] = [];
    for (const family of families) {
      const metric = this.convert(family, now);
      if (metric) metrics.push(metric);
    }
    return { resourceMetrics: { resource: this.resource, scopeMetrics: [{ scope: { name: 'flagpole' }, metrics }] }, errors: [] };
  }

  private convert(family: Family, now: HrTime): MetricData | null {
    const descriptor = { name: family.name, description: family.help, unit: '', valueType: ValueType.DOUBLE };
    const samples = family.values as Sample[];
    const point = <T>(attributes: Attributes, value: T): DataPoint<T> => ({ startTime: this.startTime, endTime: now, attributes, value });
    switch (String(family.type)) {
      case 'counter':
        return {
          descriptor, aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.SUM, isMonotonic: true,
          dataPoints: samples.map((s) => point(s.labels as Attributes, s.value)),
        };
      case 'gauge':
        return {
          descriptor, aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.GAUGE,
          dataPoints: samples.map((s) => point(s.labels as Attributes, s.value)),
        };
      case 'histogram':
        return {
          descriptor, aggregationTemporality: AggregationTemporality.CUMULATIVE, dataPointType: DataPointType.HISTOGRAM,
          dataPoints: [...histograms(family.name, samples).values()].map(({ attributes, value }) => point(attributes, value)),
        };
      default:
        return null;
    }
  }
}

/** prom-client lists a histogram as `_bucket` samples (cumulative, by `le`), then `_sum` and `_count`, per series. */
function histograms(name: string, samples: Sample[]): Map<string, { attributes: Attributes; value: Histogram }> {
  const series = new Map<string, { attributes: Attributes; bounds: Array<[number, number]>; value: Histogram }>();
  for (const sample of samples) {
    const { le, ...labels } = sample.labels as Record<string, string | number>;
    const key = JSON.stringify(labels);
    let entry = series.get(key);
    if (!entry) series.set(key, (entry = { attributes: labels, bounds: [], value: { buckets: { boundaries: [], counts: [] }, sum: 0, count: 0 } }));
    if (sample.metricName === `${name}_bucket`) entry.bounds.push([le === '+Inf' ? Infinity : Number(le), sample.value]);
    else if (sample.metricName === `${name}_sum`) entry.value.sum = sample.value;
    else if (sample.metricName === `${name}_count`) entry.value.count = sample.value;
  }
  for (const entry of series.values()) {
    entry.bounds.sort((a, b) => a[0] - b[0]);
    let below = 0;
    for (const [bound, cumulative] of entry.bounds) {
      if (bound !== Infinity) entry.value.buckets.boundaries.push(bound);
      entry.value.buckets.counts.push(cumulative - below);
      below = cumulative;
    }
    if (entry.bounds.at(-1)?.[0] !== Infinity) entry.value.buckets.counts.push(entry.value.count - below);
  }
  return series as unknown as Map<string, { attributes: Attributes; value: Histogram }>;
}

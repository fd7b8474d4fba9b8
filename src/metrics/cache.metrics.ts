/**
 * Cache hits, misses and errors by cache (`memory`, `redis`), named as Flipt's `flipt_cache_{hit,miss,error}_total`.
 * The seam for the Redis cache: it calls `hit`/`miss`/`error` with its name. The in-process evaluation snapshots
 * are not a cache in Flipt's sense (they are always on) and are not counted here.
 */
import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { ChildCache } from './child-cache';
import { MetricsRegistry } from './metrics.registry';

@Injectable()
export class CacheMetrics {
  private readonly enabled: boolean;
  private readonly children: ChildCache<{ hit: Counter.Internal; miss: Counter.Internal; error: Counter.Internal }>;

  constructor(metrics: MetricsRegistry) {
    this.enabled = metrics.enabled;
    const registers = [metrics.registry];
    const hit = new Counter({ name: 'flagpole_cache_hit_total', help: 'The number of cache hits', labelNames: ['cache'], registers });
    const miss = new Counter({ name: 'flagpole_cache_miss_total', help: 'The number of cache misses', labelNames: ['cache'], registers });
    const error = new Counter({
      name: 'flagpole_cache_error_total',
      help: 'The number of times an error occurred reading or writing the cache',
      labelNames: ['cache'],
      registers,
    });
    this.children = new ChildCache(([cache]) => ({ hit: hit.labels(cache), miss: miss.labels(cache), error: error.labels(cache) }));
  }

  hit(cache: string): void {
    if (this.enabled) this.children.get(cache).hit.inc();
  }

  miss(cache: string): void {
    if (this.enabled) this.children.get(cache).miss.inc();
  }

  error(cache: string): void {
    if (this.enabled) this.children.get(cache).error.inc();
  }
}

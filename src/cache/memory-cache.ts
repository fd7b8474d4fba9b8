/** An in-process cache-manager cache: `cache.ttl` per entry, expired entries swept every `cache.memory.eviction_interval`. */
import { createKeyv } from 'cacheable';
import { createCache, type Cache } from 'cache-manager';

/** Entries kept at most; the least recently used go first. Each entry is one namespace's state. */
const MAX_ENTRIES = 10_000;

export function memoryCache(settings: { ttlMs: number; evictionIntervalMs: number }): Cache {
  // No cloning on read: cached values are never mutated (a snapshot is compiled from them into new objects).
  const store = createKeyv({ ttl: settings.ttlMs, lruSize: MAX_ENTRIES, checkInterval: settings.evictionIntervalMs, useClone: false });
  return createCache({ stores: [store], ttl: settings.ttlMs });
}
